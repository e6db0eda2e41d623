import { cardColour, cardSuit, makeCard } from '../cards/card';
import type { Move } from '../rules/move';
import type { Position } from '../rules/position';
import { rankAtOrder } from '../rules/order';
import { Board, FILL_FOUNDATION, FILL_RESERVE, FILL_TABLEAU, FILL_WASTE, SUIT_OF } from './board';
import { AtHand } from './hand';
import { KeyCodec } from './key';
import {
  COUNT_SHIFT,
  DST_SHIFT,
  FLIP_SHIFT,
  FORCED_BIT,
  moveCount,
  moveDst,
  moveSrc,
  moveType,
  MT_F2T,
  MT_R2F,
  MT_R2T,
  MT_T2F,
  MT_T2T,
  MT_W2F,
  MT_W2T,
  PILE_MASK,
  REDEAL_BIT,
  SRC_SHIFT,
  SUIT_SHIFT,
  TALON_SHIFT,
} from './move-code';
import { TwinClasses } from './twins';
import { WaitsFor } from './waits';

/** Weights of `Engine.evaluate`: cards home, breaks, cards above a card a foundation takes next, spaces. */
const W_HOME = 50;
const W_BREAK = 5;
const W_BURIED = 40;
const W_SPACE = 10;

/** A pseudo-random term in 0..JITTER-1 for move m in move order `variant` (a fixed hash). */
const JITTER = 64; // a power of two (see jitter)
function jitter(m: number, variant: number): number {
  let h = Math.imul(m ^ Math.imul(variant, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & (JITTER - 1); // JITTER is a power of two: the low bits, an integer operation
}

/** Scratch of `sortMoves`, shared: an engine is used by one search at a time, on one thread. */
const SORT_SCORES = new Int32Array(4096);

/** Room for one state's moves (a state has at most a few hundred). */
export const MOVE_HEADROOM = 4096;

/**
 * The search's view of a state: the board (`Board`) with its moves generated, most promising first,
 * into caller-owned buffers, and pruned by the rules of docs/algorithms.md; made and undone
 * through the twin classes (`TwinClasses`) in the games that have them; and packed into the key
 * the table compares (`KeyCodec`). Games where only whole piles move ask the waits-for graph
 * (`WaitsFor`) what they may not do.
 */
export class Engine extends Board {
  // onPiles[c]: bit d set when card c may be built on the top of pile d; valid while onStamp[c]
  // equals tops, which `markTops` renews once per `generate`.
  private readonly onPiles = new Int32Array(64);
  private readonly onStamp = new Int32Array(64);
  private tops = 0;
  /**
   * Rule 12 (docs/algorithms.md): a rank at which this state is known lost, or -1. `generate` then
   * leaves out the waste cards that the state at that rank reaches too. Set by the solver for the
   * state it generates; it is part of what the list depends on.
   */
  lostRank = -1;
  /**
   * Rule 12 across classes, set by the solver before `generate`: the table holds this state at
   * another split class proved lost, so the waste cards every split reaches lead to lost states.
   */
  otherClassLost = false;
  /**
   * Whether `generate` sorts its moves by `score`: the tableau-only games, games where foundation
   * cards come back (canfield-relaxed), and every later run of a restarted search (variant > 0),
   * each with its own jitter. See docs/algorithms.md, "restarts".
   */
  readonly ordered: boolean;
  /**
   * The jitter's scale, as a shift: canfield-relaxed's short runs spread it twice as wide (0-126),
   * so that some of them put a tableau move before the reserve's move into a space
   * (docs/algorithms.md, "Restarts").
   */
  private readonly jitterShift: number;

  /**
   * Same-suit builds without wrap, whole piles moving, no automatic fill and no card back from a
   * foundation (Storehouse): every card has exactly one card it may be built on, and building it
   * there at once is proved safe (docs/algorithms.md, rule 9), so such a build is forced.
   */
  readonly chainBuilds: boolean;
  /** Under `noBurial`: the waits-for graph of the state (rule 10, and rule 2's third case). */
  private readonly waits: WaitsFor;
  /**
   * Drawing more than one card, outside rule-9 games: a waste card that may go home and may also be
   * built on a pile is offered only the build; from the pile its foundation move leads to the same
   * state (docs/algorithms.md, rule 11).
   */
  readonly homeViaPile: boolean;
  /**
   * Dealing one card at a time with no limit on redeals, and no card back from a foundation: every
   * card of the talon is at hand whenever it is needed, so a talon card is played onto a pile only
   * when a card that may be built on it is at hand too, and goes home only when the next card of
   * its suit can follow it there (docs/algorithms.md, rule 15; `AtHand`, hand.ts).
   */
  readonly talonAtHand: boolean;
  /**
   * Rule 9's games dealing one card at a time with no limit on redeals (Storehouse with unlimited
   * redeals, the game rule 13 searches beside Storehouse): a talon card goes into a space only when
   * a card that may be built on it there is at hand, directly or at the end of a chain of talon
   * cards (docs/algorithms.md, rule 16; `AtHand.spaceNeeded`).
   */
  readonly parksWait: boolean;
  /** Rule 15's and rule 16's question of where each card is at hand. */
  private readonly atHand: AtHand;
  /** Builds in suit: every card next on its foundation is safe to play there (rule 2). */
  private readonly sameSuit: boolean;
  private readonly scores = SORT_SCORES;
  private readonly needDepth: Int32Array;
  /**
   * Which move order `generate` uses in the tableau-only games: 0 is the plain score, others add a
   * fixed pseudo-random term per move (restarts of the search try other orders).
   */
  readonly variant: number;
  /** The twin pairs, slot groups and crossed twins of the state, and the undo log of their swaps. */
  readonly twinClasses: TwinClasses;
  private readonly codec: KeyCodec;

  constructor(position: Position, variant = 0, useTwins = true, useCrosses = true) {
    super(position, useTwins);
    this.variant = variant;
    const rules = position.rules;
    const fill = this.fillFlags;
    this.needDepth = new Int32Array(this.piles);
    // A later run of a restarting search (variant > 0) always orders its moves, with its own jitter.
    this.ordered = this.tableauOnly || this.foundationToTableau || variant > 0;
    this.jitterShift = this.foundationToTableau ? 1 : 0;
    this.sameSuit = rules.build === 'same-suit';
    this.chainBuilds =
      rules.build === 'same-suit' && rules.move === 'whole-pile' && !rules.wrap && !this.autoReserve && !this.foundationToTableau;
    this.homeViaPile = this.talon.draw > 1 && !this.chainBuilds;
    // A single card that could go from a pile into a space could come from the talon instead. Rule 9
    // games are left out: there dealing stops at every card with a move (rules 3 and 9), which keeps
    // all its moves, so the rule would only cost its look-ups.
    // Dealing one card at a time with no redeal limit, every talon card comes round whenever it is
    // wanted: rule 15 outside rule 9's games, rule 16 in them.
    const talonFree = this.talon.length > 0 && this.talon.draw === 1 && this.talon.redealLimit < 0;
    this.talonAtHand =
      talonFree && !this.foundationToTableau && !this.chainBuilds && ((fill & FILL_TABLEAU) === 0 || (fill & FILL_WASTE) !== 0);
    this.parksWait = talonFree && this.chainBuilds;
    this.twinClasses = new TwinClasses(this, useCrosses);
    this.codec = new KeyCodec(this);
    this.waits = new WaitsFor(this);
    this.atHand = new AtHand(this, this.twinClasses);
  }

  /** Crossed twins are kept in order (`TwinClasses.crosses`). */
  get crosses(): boolean {
    return this.twinClasses.crosses;
  }

  /** The talon's dominance order among the states that share a key (`Talon.passRank`). */
  passRank(): number {
    return this.talon.passRank();
  }

  /** The table lane of a state of rank `rank` (`Talon.laneOf`). */
  laneOf(rank: number): number {
    return this.talon.laneOf(rank);
  }

  /**
   * With draw 1, whether dealing stops at talon card c (`Talon.list`): it is safe to play to its
   * foundation (rule 3), or, in rule-9 games, it fits on a pile top (`markTops` must be current).
   */
  cutsDealing(c: number): boolean {
    if (this.goesHomeSafely(c)) return true;
    return this.chainBuilds && this.pilesTaking(c) !== 0;
  }

  /**
   * Whether moving `card` (next on its foundation) home is proved safe, so forced (rule 2 of
   * docs/algorithms.md): no card that could ever be built on it is still in play.
   */
  isSafeToFoundation(card: number): boolean {
    if (this.foundationToTableau) return false;
    const o = this.order[card]!;
    // Round the corner a base card takes its suit's last cards, which are not home; without wrap
    // nothing builds on it. In suit, what builds on any other card is the one below it, already home.
    if (o === 0) return !this.rules.wrap;
    if (this.sameSuit) return true;
    const build = this.rules.build;
    const f = this.found;
    // Every card of order o-2 home: each card that could build on c is itself next on its
    // foundation and nothing can build on it (docs/algorithms.md, rule 2, second case). With wrap
    // only from order 2: the cards that build on a base card are of the last order, not home.
    if ((o >= 2 || !this.rules.wrap) && f[0]! >= o - 1 && f[1]! >= o - 1 && f[2]! >= o - 1 && f[3]! >= o - 1) return true;
    if (build === 'any-suit') return f[0]! >= o && f[1]! >= o && f[2]! >= o && f[3]! >= o;
    // Alternating colours: both suits of the other colour must already hold order o-1.
    return cardColour(card) === 0 ? f[1]! >= o && f[2]! >= o : f[0]! >= o && f[3]! >= o;
  }

  private toFoundation(card: number): boolean {
    return this.found[SUIT_OF[card]!] === this.order[card];
  }

  /** Whether `card` may go to its foundation now and doing so is proved safe (rule 2). */
  private goesHomeSafely(card: number): boolean {
    if (!this.toFoundation(card)) return false;
    if (this.isSafeToFoundation(card)) return true;
    return this.noBurial && this.waits.buildersStuck(card);
  }

  /**
   * The proved-safe move of the current state, with its FORCED_BIT, or 0 when there is none: the
   * only move `generate` gives when there is one. Foundation moves (rule 2: tableau tops, the reserve
   * top, and with draw 1 the waste top), then in rule-9 games a forced build. Of several safe tableau
   * tops, the lowest card code, so that the move does not depend on how the piles are numbered (the
   * best-first search reloads states with their piles in key order). Needs no talon list: the waste
   * top is the only talon card it looks at.
   */
  private forcedMove(): number {
    const P = this.piles;
    // Rule 9 asks where cards fit before anything else; other games only for the reserve and waste.
    if (this.chainBuilds) this.markTops();
    let forcedPile = -1;
    let forcedCard = 64;
    for (let p = 0; p < P; p++) {
      if (this.len[p] === 0) continue;
      const c = this.top(p);
      if (c < forcedCard && this.goesHomeSafely(c)) {
        forcedPile = p;
        forcedCard = c;
      }
    }
    if (forcedPile >= 0) return MT_T2F | (forcedPile << SRC_SHIFT) | FORCED_BIT;
    if (this.resCount > 0) {
      const c = this.reserve[this.resCount - 1]!;
      if (this.goesHomeSafely(c)) return MT_R2F | FORCED_BIT;
    }
    const wasteTop = this.talon.draw === 1 && this.talon.length > 0 ? this.talon.wasteTopIndex(this.talon.split) : -1;
    if (wasteTop >= 0) {
      const c = this.talon.cards[wasteTop]!;
      if (this.goesHomeSafely(c)) return MT_W2F | (wasteTop << TALON_SHIFT) | FORCED_BIT;
    }
    if (this.chainBuilds) {
      const build = this.forcedBuild(wasteTop);
      if (build !== 0) return build | FORCED_BIT;
    }
    return 0;
  }

  /**
   * Writes the moves of the current state into `out` from `at`, most promising first, and returns
   * the new end. When a proved-safe foundation move exists it is the only move written (forced).
   */
  private generateMoves(out: Int32Array, at: number): number {
    const P = this.piles;
    let n = at;
    const forced = this.forcedMove();
    if (forced !== 0) {
      out[n++] = forced;
      return n;
    }
    // Dealing never deals past a card that is safe to play to its foundation (see docs/algorithms.md,
    // "no dealing past a safe card"), nor in rule-9 games past one that fits on a pile top (its
    // target stays a pile top until it comes): with draw 1 the list ends at the first such card.
    this.talon.list(this.talon.draw === 1 ? this : null);
    // Rule 12: the waste cards that the state at a split proved lost reaches lead where it leads.
    // Across classes only the cards of a pass from the start are reached from every split.
    if (this.talon.splitDominance && this.talon.candCount > 0) {
      if (this.lostRank >= 0) this.talon.dropCandidatesOf(this.lostRank);
      else if (this.otherClassLost) this.talon.dropFirstPassCards();
    }
    if (this.talonAtHand && this.talon.candCount > 0) this.atHand.mark();
    // Rule 9 games marked the pile tops in forcedMove; the others mark them below, if needed.
    const topsMarked = this.chainBuilds;

    // Only the reserve top and the waste cards are looked up by the pile tops they fit.
    if (!topsMarked && (this.resCount > 0 || this.talon.candCount > 0)) this.markTops();

    // Foundation moves.
    for (let p = 0; p < P; p++) if (this.len[p] > 0 && this.toFoundation(this.top(p))) out[n++] = MT_T2F | (p << SRC_SHIFT);
    if (this.resCount > 0 && this.toFoundation(this.reserve[this.resCount - 1]!)) out[n++] = MT_R2F;
    // Under pass dominance the waste cards go in dealing order, foundation moves among them (below).
    const talon = this.talon;
    if (!talon.passDominance) {
      const { candIdx, candRedeal, cards } = talon;
      for (let i = 0, count = talon.candCount; i < count; i++) {
        const idx = candIdx[i]!;
        const c = cards[idx]!;
        // Rule 11: a waste card that may also be built on a pile goes home from there. (Rule 10
        // never stops that build: every lower card of the suit of a card that may go home is home.)
        if (this.toFoundation(c) && !(this.homeViaPile && this.pilesTaking(c) !== 0)) {
          // Rule 15: home from the talon only just before the next card of the suit follows.
          if (this.talonAtHand && !this.cutsDealing(c) && !this.atHand.homeNeeded(c)) continue;
          out[n++] = MT_W2F | (idx << TALON_SHIFT) | (candRedeal[i] ? REDEAL_BIT : 0);
        }
      }
    }

    let firstEmpty = -1;
    for (let p = 0; p < P; p++) {
      if (this.len[p] === 0) {
        firstEmpty = p;
        break;
      }
    }
    const fill = this.fillFlags;
    const autoBlocks = this.autoReserve && this.resCount > 0;
    const spaceOpen = firstEmpty >= 0 && !autoBlocks;

    // Reserve top to the tableau.
    if (this.resCount > 0) {
      const c = this.reserve[this.resCount - 1]!;
      for (let on = this.notBurying(c, this.pilesTaking(c)); on !== 0; on &= on - 1) out[n++] = MT_R2T | ((31 - Math.clz32(on & -on)) << DST_SHIFT);
      if (spaceOpen && (fill & FILL_RESERVE) !== 0 && this.spaceTakes(c)) out[n++] = MT_R2T | (firstEmpty << DST_SHIFT);
    }

    // Tableau to tableau. In rule-9 games every such move is a forced build (a whole pile onto the
    // one top its bottom card fits, found by forcedBuild), so a state that gets here has none.
    if (!this.chainBuilds) n = this.tableauMoves(out, n, spaceOpen ? firstEmpty : -1);

    // Waste cards (reached by dealing) to the tableau.
    n = this.wasteMoves(out, n, spaceOpen ? firstEmpty : -1);

    // Foundation tops back to the tableau.
    if (this.foundationToTableau) {
      for (let s = 0; s < 4; s++) {
        const f = this.found[s]!;
        if (f === 0) continue;
        const c = makeCard(s, rankAtOrder(this.rules, this.baseRank, f - 1));
        for (let d = 0; d < P; d++) {
          if (this.len[d] > 0 && this.fits[c * 64 + this.top(d)] === 1) out[n++] = MT_F2T | (s << SUIT_SHIFT) | (d << DST_SHIFT);
        }
        if (spaceOpen && (fill & FILL_FOUNDATION) !== 0 && this.spaceTakes(c)) {
          out[n++] = MT_F2T | (s << SUIT_SHIFT) | (firstEmpty << DST_SHIFT);
        }
      }
    }
    if (this.ordered) this.sortMoves(out, at, n);
    return n;
  }

  /**
   * Writes from `at` the tableau-to-tableau moves, and those into `space` (the first empty pile, or
   * -1), and returns the new end. A run's orders rise by one from its top card down, so the one
   * unit that can land on a given top is found by arithmetic, then checked for suit/colour in `fits`.
   */
  private tableauMoves(out: Int32Array, at: number, space: number): number {
    const tc = this.twinClasses;
    const P = this.piles;
    const H = this.maxHeight;
    let n = at;
    const intoSpace = space >= 0 && (this.fillFlags & FILL_TABLEAU) !== 0;
    const R = this.ranks;
    const wrap = this.rules.wrap;
    const ordOf = this.order;
    if (this.runKeys && this.rules.move === 'whole-pile') return this.wholePileMoves(out, at);
    for (let s = 0; s < P; s++) {
      const ls = this.len[s]!;
      if (ls === 0) continue;
      const unit = this.maxUnit(s);
      if (unit === 0) continue;
      const sb = s * H;
      const minK = this.rules.move === 'whole-pile' ? ls : 1;
      const topOrder = ordOf[this.pile[sb + ls - 1]!]!;
      for (let d = 0; d < P; d++) {
        if (d === s || this.len[d] === 0) continue;
        const t = this.pile[d * H + this.len[d]! - 1]!;
        let k = ordOf[t]! - topOrder;
        if (!wrap) {
          if (k >= minK && k <= unit && this.fits[this.pile[sb + ls - k]! * 64 + t] === 1 && !(this.noBurial && this.buries(s, d))) {
            // A run from one twin onto the other only swaps the pair: the same state (`TwinClasses`, twins.ts).
            if (this.twins && k < ls && tc.isSwap(t, this.pile[sb + ls - k - 1]!, this.pile[sb + ls - k]!)) continue;
            out[n++] = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (k << COUNT_SHIFT);
          }
          continue;
        }
        // Round the corner a run can be longer than the ranks, so every R-th card down fits too.
        for (k = ((k - 1 + R) % R) + 1; k <= unit; k += R) {
          if (k >= minK && this.fits[this.pile[sb + ls - k]! * 64 + t] === 1 && !(this.noBurial && this.buries(s, d))) {
            out[n++] = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (k << COUNT_SHIFT);
          }
        }
      }
      // Into a space: never a whole pile (that only renames the pile).
      if (intoSpace) {
        for (let k = minK; k <= unit && k < ls; k++) {
          if (this.spaceTakes(this.pile[sb + ls - k]!)) {
            out[n++] = MT_T2T | (s << SRC_SHIFT) | (space << DST_SHIFT) | (k << COUNT_SHIFT);
          }
        }
      }
    }
    return n;
  }

  /**
   * `tableauMoves` where every pile is a built run and only whole piles move: each pile whose bottom
   * card fits on another pile's top, unless that would make a card wait for itself (rule 10). (A
   * whole pile never goes into a space: that only renames the pile.)
   */
  private wholePileMoves(out: Int32Array, at: number): number {
    const P = this.piles;
    const H = this.maxHeight;
    let n = at;
    for (let s = 0; s < P; s++) {
      const ls = this.len[s]!;
      if (ls === 0) continue;
      const b = this.pile[s * H]! * 64;
      for (let d = 0; d < P; d++) {
        if (d === s || this.len[d] === 0) continue;
        if (this.fits[b + this.pile[d * H + this.len[d]! - 1]!] === 1 && !(this.noBurial && this.buries(s, d))) {
          out[n++] = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (ls << COUNT_SHIFT);
        }
      }
    }
    return n;
  }


  /**
   * In `chainBuilds` games (see there): a build that is proved safe, or 0. Of several, a whole pile
   * onto the pile its bottom card fits (the lowest such bottom card, so that the choice does not
   * depend on pile numbers), else the reserve top onto the pile it fits, else the waste top (draw 1)
   * onto the pile it fits. Rule 9 of docs/algorithms.md argues each.
   */
  private forcedBuild(wasteTop: number): number {
    const P = this.piles;
    const H = this.maxHeight;
    let best = 0;
    let bestCard = 64;
    for (let s = 0; s < P; s++) {
      const ls = this.len[s]!;
      if (ls === 0) continue;
      const bottom = this.pile[s * H]!;
      if (bottom >= bestCard) continue;
      const d = this.pileTaking(bottom, s);
      if (d >= 0 && this.maxUnit(s) === ls) {
        best = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (ls << COUNT_SHIFT);
        bestCard = bottom;
      }
    }
    if (best !== 0) return best;
    if (this.resCount > 0) {
      const d = this.pileTaking(this.reserve[this.resCount - 1]!, -1);
      if (d >= 0) return MT_R2T | (d << DST_SHIFT);
    }
    if (wasteTop >= 0) {
      const d = this.pileTaking(this.talon.cards[wasteTop]!, -1);
      if (d >= 0) return MT_W2T | (wasteTop << TALON_SHIFT) | (d << DST_SHIFT);
    }
    return 0;
  }

  /**
   * The piles of `on` (a bit per pile) minus, under `noBurial`, those whose top card must go home
   * before card c can: put there, c would wait for itself (rule 10). That is when the top must go
   * home before c's predecessor in its suit (c itself is in no pile, so nothing else leads to it).
   */
  private notBurying(c: number, on: number): number {
    if (!this.noBurial) return on;
    const o = this.order[c]!;
    // A base card, or one whose predecessor is home, waits for nothing in the tableau.
    if (o === 0 || this.found[SUIT_OF[c]!]! >= o) return on;
    const pred = this.predOf[c]!;
    for (let m = on; m !== 0; m &= m - 1) {
      const d = 31 - Math.clz32(m & -m);
      if (this.waits.waitsFor(this.top(d), pred)) on &= ~(1 << d);
    }
    return on;
  }

  /** Under `noBurial`: whether whole pile s put onto pile d would wait for itself (rule 10). */
  private buries(s: number, d: number): boolean {
    return this.waits.waitsFor(this.top(d), this.pile[s * this.maxHeight]!);
  }

  /** The lowest pile other than `except` whose top card `c` may be built on (from `markTops`), or -1. */
  private pileTaking(c: number, except: number): number {
    const on = this.pilesTaking(c) & ~(1 << except);
    return on === 0 ? -1 : 31 - Math.clz32(on & -on);
  }

  /**
   * Writes the moves of the waste cards that dealing can reach, in dealing order, to the tableau
   * (and `space`, the first empty pile, or -1), and under pass dominance to the foundations too.
   */
  private wasteMoves(out: Int32Array, at: number, space: number): number {
    let n = at;
    const intoSpace = space >= 0 && (this.fillFlags & FILL_WASTE) !== 0;
    const talon = this.talon;
    const { candIdx, candRedeal, cards } = talon;
    const passDominance = talon.passDominance;
    // Rule 16 asks where cards are at hand only when a talon card could go into a space.
    if (this.parksWait && intoSpace && talon.candCount > 0) this.atHand.mark();
    for (let i = 0, count = talon.candCount; i < count; i++) {
      const idx = candIdx[i]!;
      const c = cards[idx]!;
      const extra = (idx << TALON_SHIFT) | (candRedeal[i] ? REDEAL_BIT : 0);
      if (passDominance && this.toFoundation(c)) out[n++] = MT_W2F | extra;
      let piles = this.notBurying(c, this.pilesTaking(c));
      // Rule 15: onto a pile only where a card to build on it is at hand.
      if (this.talonAtHand && piles !== 0 && !this.cutsDealing(c)) piles = this.atHand.playNeeded(c, piles);
      for (let on = piles; on !== 0; on &= on - 1) out[n++] = MT_W2T | extra | ((31 - Math.clz32(on & -on)) << DST_SHIFT);
      // Rule 16: into a space only where a card to build on it there is at hand.
      if (intoSpace && this.spaceTakes(c) && (!this.parksWait || this.cutsDealing(c) || this.atHand.spaceNeeded(c))) {
        out[n++] = MT_W2T | extra | (space << DST_SHIFT);
      }
    }
    return n;
  }

  /** Notes, for every card, on which pile tops it may be built; `pilesTaking` reads it. */
  private markTops(): void {
    const stamp = ++this.tops;
    const H = this.maxHeight;
    for (let d = 0; d < this.piles; d++) {
      const l = this.len[d]!;
      if (l === 0) continue;
      const t = this.pile[d * H + l - 1]!;
      for (let i = t * 4; i < t * 4 + 4; i++) {
        const c = this.builders[i]!;
        if (c === 255) break;
        if (this.onStamp[c] !== stamp) {
          this.onStamp[c] = stamp;
          this.onPiles[c] = 0;
        }
        this.onPiles[c] |= 1 << d;
      }
    }
  }

  /** The piles (bit d for pile d) whose top card c may be built on, as `markTops` last saw them. */
  private pilesTaking(c: number): number {
    return this.onStamp[c] === this.tops ? this.onPiles[c]! : 0;
  }

  /**
   * Orders the moves from `at` to `n` most promising first, by a score of how much each digs out
   * the cards the foundations need next (plus, in another `variant`, a fixed pseudo-random term
   * per move). Only the order changes, never the set of moves, so this is a heuristic with no
   * bearing on soundness; it is a function of the working state alone (and the sort is stable), so
   * the solver can generate a list again after undo and find the same order.
   */
  private sortMoves(out: Int32Array, at: number, n: number): void {
    const P = this.piles;
    const H = this.maxHeight;
    const pile = this.pile;
    const need = this.needDepth;
    const ord = this.order;
    const found = this.found;
    const variant = this.variant;
    // The tableau moves' finer scores serve the games that restart afresh (the tableau-only games and
    // canfield-relaxed). Where runs keep their proofs (canfield-sequences, Hoyle Canfield, variant
    // > 0) the kind of move and the jitter order as well, for less (docs/algorithms.md, "Restarts
    // that keep their proofs").
    const fine = this.tableauOnly || this.foundationToTableau;
    // needDepth[p]: cards above the highest card in pile p that a foundation takes next.
    for (let p = 0; fine && p < P; p++) {
      const b = p * H;
      const l = this.len[p]!;
      let dpt = 1 << 20;
      for (let i = l - 1; i >= 0; i--) {
        const c = pile[b + i]!;
        if (found[cardSuit(c)] === ord[c]) {
          dpt = l - 1 - i;
          break;
        }
      }
      need[p] = dpt;
    }
    const sc = this.scores;
    for (let i = at; i < n; i++) {
      const m = out[i]!;
      let score = 0;
      const type = moveType(m);
      if (type === MT_T2F || type === MT_R2F) score = 1000;
      // canfield-relaxed: digging out the reserve first; a card back from its foundation last.
      else if (type === MT_W2F) score = 500;
      else if (type === MT_R2T) score = 300;
      else if (type === MT_W2T) score = -50;
      else if (type === MT_F2T) score = -300;
      else if (type === MT_T2T && fine) {
        const s = moveSrc(m);
        const d = moveDst(m);
        const k = moveCount(m);
        const rest = this.len[s]! - k;
        if (rest === 0) score += 60;
        else {
          const e = pile[s * H + rest - 1]!;
          if (found[cardSuit(e)] === ord[e]) score += 200;
          else if (this.fits[pile[s * H + rest]! * 64 + e] === 1) score -= 30;
        }
        const ns = need[s]!;
        if (ns < 1 << 20 && ns >= k) score += 50 - 3 * (ns - k);
        if (this.len[d] === 0) score -= 20;
        else if (need[d]! < 1 << 20) score -= 10 + Math.max(0, 10 - need[d]!);
      }
      if (variant !== 0) score += jitter(m, variant) << this.jitterShift;
      sc[i - at] = score;
    }
    // Insertion sort, stable, descending by score.
    for (let i = at + 1; i < n; i++) {
      const m = out[i]!;
      const v = sc[i - at]!;
      let j = i - 1;
      while (j >= at && sc[j - at]! < v) {
        out[j + 1] = out[j]!;
        sc[j + 1 - at] = sc[j - at]!;
        j--;
      }
      out[j + 1] = m;
      sc[j + 1 - at] = v;
    }
  }

  /** Whether card c (the bottom of what moves) may go into a space: under `kings`, only the top rank. */
  private spaceTakes(c: number): boolean {
    return !this.kingsOnly || this.order[c] === this.ranks - 1;
  }

  /**
   * Writes the moves of the current state into `out` from `at`, most promising first, and returns
   * the new end. When a proved-safe foundation move exists it is the only move written (forced).
   * In twin games, also the moves of the state with some twin pairs flipped (`TwinClasses`, twins.ts).
   */
  generate(out: Int32Array, at: number): number {
    if (!this.twins) return this.generateMoves(out, at);
    const tc = this.twinClasses;
    const pairs = tc.pairsFresh ? tc.pairCount : tc.findPairs();
    let n = this.generateMoves(out, at);
    if (pairs === 0 || (n === at + 1 && (out[at]! & FORCED_BIT) !== 0)) return n;
    // One pair flipped: its moves follow from the list just made (see `mirror`).
    const base = n;
    for (let j = 0; j < pairs; j++) {
      n = this.mirror(out, at, base, n, j);
      if (n < 0) return at + 1;
    }
    return n;
  }

  /**
   * Writes from `n` the moves that pair j, turned the other way, adds to the class; works them out
   * from the state's own moves `out[at .. base)`. Returns the new end, or -1 when the turned state
   * has a forced move (then written at `at`, the only move). With c the covered twin under its run
   * R and e the exposed one, turning the pair puts R on e and leaves c on top. Then:
   * - c may go to its foundation (forced when safe);
   * - whatever may go onto e may go onto c instead (twins take the same cards): a new class, as
   *   both twins are then covered.
   * Every other move of the turned state lands in the class of a move of the state as it is: a
   * run that holds c or e lands with the pair still split between two piles, one on top and one
   * under R, which is a swap away from the same move with R where it was; no card can be built on
   * c or e from their own piles; and the reserve, talon and other piles are as they were. Turning
   * two pairs at once adds nothing either: a move builds onto one card. (docs/algorithms.md, rule 7.)
   */
  private mirror(out: Int32Array, at: number, base: number, n: number, j: number): number {
    const tc = this.twinClasses;
    const c = tc.pairCovered[j]!;
    const pc = this.cardPile[c]!;
    const pe = this.cardPile[tc.pairExposed[j]!]!;
    const flip = (j + 1) << FLIP_SHIFT;
    if (this.toFoundation(c)) {
      const m = MT_T2F | (pc << SRC_SHIFT) | flip;
      if (this.isSafeToFoundation(c)) {
        out[at] = m | FORCED_BIT;
        return -1;
      }
      out[n++] = m;
    }
    // A slot group keeps a top after a card goes onto any of its cards, so that lands in the class
    // of the same move onto its top: nothing to add.
    if (j >= tc.realPairs) return n;
    const dst = PILE_MASK << DST_SHIFT;
    for (let i = at; i < base; i++) {
      const m = out[i]!;
      const type = moveType(m);
      if (type === MT_T2T || type === MT_R2T || type === MT_W2T || type === MT_F2T) {
        if (moveDst(m) === pe) out[n++] = (m & ~dst) | (pc << DST_SHIFT) | flip;
      }
    }
    return n;
  }

  /**
   * Makes move m; returns what `undo` needs. In twin games the move's flips come first and the
   * state is put back in its one form after (both logged for undo).
   */
  make(m: number): number {
    if (!this.twins) return this.makeMove(m);
    return this.twinClasses.make(m);
  }

  /** Undoes `make(m)`, which returned `info`. */
  undo(m: number, info: number): void {
    if (!this.twins) this.undoMove(m, info);
    else this.twinClasses.undo(m, info);
  }

  /**
   * Makes move m and appends the public moves it stands for to `out`: twin swaps before it, the
   * deals and redeals that bring a waste card up, the move itself (with the reserve card that
   * filled the pile it emptied, if any), and the twin swaps after it. Returns what `undo` needs.
   */
  makeDescribed(m: number, out: Move[]): number {
    if (this.twins) return this.twinClasses.make(m, out);
    out.push(...this.describe(m));
    const info = this.makeMove(m);
    this.noteAutoFill(out, info);
    return info;
  }

  // ---- the packed key (`KeyCodec`) ---------------------------------------------------------------

  /** Writes the packed key of the state into `key`; returns its length in words (`KeyCodec.encode`). */
  encode(key: Uint32Array, rank = -1): number {
    return this.codec.encode(key, rank);
  }

  /**
   * The key of the state with its crossed twins in order, the state left as it is
   * (`TwinClasses.encodeOrdered`).
   */
  encodeOrdered(key: Uint32Array): number {
    return this.twinClasses.encodeOrdered(key, this.codec);
  }

  /** Loads the state a key stands for into this engine (`KeyCodec.load`). */
  load(key: Uint32Array, words: number, rank = 0): void {
    this.twinClasses.pairsFresh = false;
    this.codec.load(key, words, rank);
  }

  /** The position a key stands for (`KeyCodec.decode`). */
  decode(key: Uint32Array, words: number, rank = 0): Position {
    return this.codec.decode(key, words, rank);
  }

  /**
   * A guess at how close the state is to a win, for the best-first search of the tableau-only games
   * (higher is better): cards home, less cards out of sequence ("breaks": a card that does not fit
   * on the one under it), less cards above the card each foundation takes next, more spaces.
   * It only orders the search; the verdict never depends on it.
   */
  evaluate(): number {
    const P = this.piles;
    const H = this.maxHeight;
    const pile = this.pile;
    const found = this.found;
    const ord = this.order;
    const fits = this.fits;
    let breaks = 0;
    let buried = 0;
    let spaces = 0;
    for (let p = 0; p < P; p++) {
      const l = this.len[p]!;
      if (l === 0) {
        spaces++;
        continue;
      }
      const b = p * H;
      let below = pile[b]!;
      if (found[cardSuit(below)] === ord[below]) buried += l - 1;
      for (let i = 1; i < l; i++) {
        const c = pile[b + i]!;
        if (fits[c * 64 + below] !== 1) breaks++;
        if (found[cardSuit(c)] === ord[c]) buried += l - 1 - i;
        below = c;
      }
    }
    const home = found[0]! + found[1]! + found[2]! + found[3]!;
    return home * W_HOME - breaks * W_BREAK - buried * W_BURIED + spaces * W_SPACE;
  }
}
