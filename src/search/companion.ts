import type { Move } from '../rules/move';
import type { Position } from '../rules/position';
import { Engine } from './engine';
import type { ResolvedSolveOptions } from './options';
import { keepsProofs } from './runs';

// The searches of the same deal under other rules that go beside the real search: dealing one card
// at a time with no redeal limit proves losses (rule 13), a stricter game finds wins (rule 14);
// docs/algorithms.md, rules 13 and 14. `Solver.solve` schedules them, each in a table and stack of
// its own.

/**
 * The search of the deal dealt one card at a time (rule 13) gets at most this many of its nodes for
 * each node of the real search: it runs after each real run (or slice, in Storehouse) stopped by its
 * budget, until it has caught up. Measured on canfield-sequences deals 1-2,000 at 10 s
 * (docs/algorithms.md, rule 13: 1 until rule 15 made its proofs cheap); in Storehouse 1 to 8 differ
 * by a few tenths of a millisecond a deal, and 2 is kept.
 */
const DRAW_ONE_SHARE = 2;

/**
 * The same position dealt one card at a time with no limit on redeals, when rule 13 applies and
 * `setting` asks for it; otherwise undefined. Never where the real game already deals one card at a
 * time with unlimited redeals, has no talon left, or restarts with no proofs kept (the tableau-only
 * games, and those where foundation cards come back). In the games whose runs keep their proofs
 * (alternating colours), 'auto' asks for it with a draw of more than one and unlimited redeals where
 * runs or whole piles move (canfield-sequences, Hoyle Canfield: measured in docs/algorithms.md,
 * rule 13; not where single cards move, never measured); in the games searched in one run, where a
 * redeal limit is what the relaxation lifts, 'auto' asks for it in rule 9's (Storehouse), where
 * rule 16 makes its proofs cheap. `true` asks for it wherever it applies.
 */
function drawOnePosition(position: Position, engine: Engine, setting: boolean | 'auto'): Position | undefined {
  const rules = position.rules;
  if (setting === false || engine.ordered || engine.talon.length === 0) return undefined;
  if (rules.draw === 1 && rules.redeals === 'unlimited') return undefined;
  if (setting === 'auto') {
    const asked = keepsProofs(engine) ? rules.draw > 1 && rules.redeals === 'unlimited' && rules.move !== 'single' : engine.chainBuilds;
    if (!asked) return undefined;
  }
  return { ...position, rules: { ...rules, draw: 1, redeals: 'unlimited' } };
}

/**
 * Rule 14: the same position under stricter rules, every line of which is a line of the real game,
 * when `setting` asks for it: where the real game fills a space with any card at any time, the game
 * where no card comes back from a foundation and the reserve's top fills a space at once while the
 * reserve lasts (a player of the real game may make that fill as the next move). Only where the
 * stricter game's runs keep their proofs, so that its series goes on where it stopped; 'auto' only
 * where the real runs keep none (canfield-relaxed). Otherwise undefined.
 */
function stricterPosition(position: Position, engine: Engine, setting: boolean | 'auto'): Position | undefined {
  const rules = position.rules;
  if (setting === false || rules.spaces !== 'any' || engine.tableauOnly || engine.talon.length === 0) return undefined;
  if (setting === 'auto' && keepsProofs(engine)) return undefined;
  const stricter: Position = { ...position, rules: { ...rules, spaces: 'auto-reserve-then-any', foundationToTableau: false } };
  return keepsProofs(new Engine(stricter)) ? stricter : undefined;
}

/**
 * Rule 14's search gets as many nodes as the real search, up to STRICTER_NODES in all: the stricter
 * game's wins that pay come early (its space is small), and past that it only slows the real
 * search's own wins. Measured on canfield-relaxed deals 1-1,000 (docs/algorithms.md, rule 14).
 */
const STRICTER_SHARE = 1;
const STRICTER_NODES = 1 << 18;

/**
 * A search of the same deal under other rules beside the real one: a relaxation whose loss proves
 * the deal lost (rule 13) or a stricter game whose win is a win of the deal (rule 14). It runs after
 * each real run stopped by its budget until it has had its share of the nodes, in a table of its
 * own that keeps its proofs across its runs (Luby budgets, as the real series).
 */
export interface Companion {
  position: Position;
  proves: 'unwinnable' | 'winnable';
  share: number;
  /** Its nodes in all, at most: past them it is dropped. */
  maxNodes: number;
  /** Where the result reports it. */
  field: 'drawOne' | 'stricterGame';
  runs: number;
}

/**
 * The search to run beside the real one, if any: at most one of the two applies, rule 13 where the
 * real runs keep their proofs or the real search is one run, rule 14 where the real runs keep none
 * (or, when asked, where spaces take any card).
 */
export function companionOf(position: Position, first: Engine, o: ResolvedSolveOptions): Companion | undefined {
  const relaxed = drawOnePosition(position, first, o.drawOneProof);
  if (relaxed) return { position: relaxed, proves: 'unwinnable', share: DRAW_ONE_SHARE, maxNodes: Infinity, field: 'drawOne', runs: 0 };
  const stricter = stricterPosition(position, first, o.stricterGame);
  if (stricter) return { position: stricter, proves: 'winnable', share: STRICTER_SHARE, maxNodes: STRICTER_NODES, field: 'stricterGame', runs: 0 };
  return undefined;
}

/**
 * A win of the stricter game (rule 14) as moves of the real one: a reserve card that filled a space
 * at once there is a move of its own here, made next.
 */
export function ownMoves(moves: readonly Move[]): Move[] {
  const out: Move[] = [];
  for (const m of moves) {
    if (m.kind !== 'move' || m.autoFill === undefined) {
      out.push(m);
      continue;
    }
    const { autoFill, ...move } = m;
    out.push(move, { kind: 'move', card: autoFill.card, count: 1, from: { area: 'reserve' }, to: { area: 'tableau', index: autoFill.pile } });
  }
  return out;
}
