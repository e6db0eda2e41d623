import { describe, expect, it } from 'vitest';
import { formatCard, formatRank, orderedDeck, parseCard, parseDeck, parseRank } from '../src/cards/card';
import { parseShard, shardFromEnv } from '../src/analyze/shards';
import { memoryWarning } from '../src/pool/memory';
import { SplitMix64 } from '../src/cards/shuffle';
import { readResults, mergeResults } from '../src/analyze/results';
import { rangeSource, solveDeals } from '../src/pool/pool';
import { winRate } from '../src/pool/winrate';
import { bruteForce } from '../src/referee/brute-force';
import { replay } from '../src/referee/referee';
import { shortenSolution } from '../src/referee/shorten';
import { dealFromSeed } from '../src/rules/deal';
import type { Move } from '../src/rules/move';
import { formatMove, parseMove } from '../src/rules/notation';
import { dealFromDeck, parsePosition, type Position, validatePosition } from '../src/rules/position';
import { PRESET_NAMES, presetRules, resolveRules, type Rules, validateRules } from '../src/rules/rules';
import { solve } from '../src/search/solver';
import { expectError } from './helpers';

// Found by an adversarial sweep of the public API (session 26): each of these once gave a verdict for
// a position no rules can play, looped forever, or threw a TypeError from inside.
const R = resolveRules('canfield');
const deal = dealFromSeed(R, 1); // winnable
const hand = (change: Partial<Rules> | Record<string, unknown>): Rules => ({ ...R, ...change }) as Rules;

describe('a hand-built position or rules the rules cannot play is refused, never searched', () => {
  it('rules that resolveRules would not have made', () => {
    expectError(() => validateRules(hand({ draw: 0 })), 'bad rules option draw: 0 (expected a whole number from 1 to 52)');
    expectError(() => validateRules(hand({ ranks: '13' })), 'bad rules: ranks "13" is not a setting (resolveRules reads it as 13)');
    expectError(() => validateRules(hand({ build: 'bogus' })), /^bad rules option build: "bogus"/);
    expectError(() => validateRules(hand({ game: 'nope' })), /^unknown game "nope"/);
    expectError(() => validateRules(hand({ extra: 1 })), /^unknown rules option "extra"/);
    const { spaces: _, ...noSpaces } = R;
    expectError(() => validateRules(noSpaces as Rules), 'bad rules: spaces is missing');
    for (const game of PRESET_NAMES) expect(() => validateRules(resolveRules(game))).not.toThrow();
    expect(() => validateRules(resolveRules('canister', { ranks: 5, piles: 3 }))).not.toThrow();
    expect(() => validateRules(resolveRules('canfield', { draw: 1, redeals: 2, base: 'A' }))).not.toThrow();
  });

  it('positions with such rules, stray or fractional cards, or a bad redeal count', () => {
    const bad: [Position, string | RegExp][] = [
      [{ ...deal, rules: hand({ draw: 0 }) }, /^bad rules option draw: 0/],
      [{ ...deal, redealsUsed: Number.NaN }, 'position: redealsUsed NaN is not a count (a whole number from 0)'],
      [{ ...deal, redealsUsed: -5 }, 'position: redealsUsed -5 is not a count (a whole number from 0)'],
      [{ ...deal, waste: [1.5] }, 'position: waste holds 1.5, which is not a card code (suit * 13 + rank)'],
      [{ ...deal, reserve: [...deal.reserve, Number.NaN] }, 'position: reserve holds NaN, which is not a card code (suit * 13 + rank)'],
      [{ ...deal, tableau: [deal.tableau[0]!, null as unknown as number[], deal.tableau[2]!, deal.tableau[3]!] }, 'position: tableau must be a list of piles, each a list of cards'],
      [null as unknown as Position, 'position: expected a position object, not null'],
    ];
    for (const [p, message] of bad) {
      expectError(() => validatePosition(p), message);
      expectError(() => solve(p), message);
      expectError(() => replay(p, []), message);
      expectError(() => bruteForce(p, { maxStates: 10 }), message);
    }
    expectError(() => dealFromSeed(hand({ reserve: 60 }), 1), 'bad rules option reserve: 60 (expected a whole number from 0 to 52)');
    expectError(() => dealFromDeck(R, [...orderedDeck().slice(1), Number.NaN]), 'bad deck: NaN is not a card code (suit * 13 + rank)');
  });

  it('a key "__proto__" or "constructor" is no option and no game', () => {
    expectError(() => parsePosition('{"game":"canfield","rules":{"__proto__":{"draw":1}}}'), /^position: unknown rules option "__proto__"|^unknown rules option "__proto__"/);
    expectError(() => presetRules('constructor'), /^unknown game "constructor"/);
    expectError(() => resolveRules('__proto__'), /^unknown game "__proto__"/);
  });
});

describe('misused calls throw one line naming the mistake', () => {
  it('solve options that are not an object, or a misspelt one', () => {
    expectError(() => solve(deal, { nodeLimt: 10 } as never), /^unknown solve option "nodeLimt": expected one of nodeLimit, /);
    expectError(() => solve(deal, 'fast' as never), 'bad solve options "fast": expected an object such as { timeLimitMs: 10000 }');
  });

  it('moves: a list that is not one, a malformed fill, an illegal line to shorten, a card code off the deck', () => {
    expectError(() => replay(deal, null as never), 'replay needs a list of moves, not null');
    const m: Move = { kind: 'move', card: deal.tableau[0]![0]!, count: 1, from: { area: 'tableau', index: 0 }, to: { area: 'foundation' } };
    const r = replay(deal, [{ ...m, autoFill: null } as never]);
    expect(r.legal).toBe(false);
    expectError(() => shortenSolution(deal, [{ kind: 'redeal' }]), /^shortenSolution: move 1 of the line is illegal: the stock still has 34 card\(s\)/);
    expectError(() => formatCard(52), 'bad card code 52: expected suit * 13 + rank, 0 to 51');
    expectError(() => formatMove({ ...m, card: 99 }), 'bad card code 99: expected suit * 13 + rank, 0 to 51');
    expectError(() => formatMove(null as never), 'bad move null: expected a Move object');
    expectError(() => parseDeck(5 as never), /^bad deck 5: expected card codes as text/);
  });

  it('the shuffle refuses a bound no draw can meet, instead of looping forever', () => {
    for (const n of [0, Number.NaN, 2 ** 40]) expectError(() => new SplitMix64(1).below(n), /^bad bound .*: expected a whole number from 1 to 2\^32$/);
    expect(new SplitMix64(1).below(2 ** 32)).toBeGreaterThanOrEqual(0);
  });

  it('win-rate and pool options checked once, before any deal', async () => {
    await expect(winRate({ game: 'canfield', from: 2 ** 53 - 1, deals: 2, nodeLimit: 10, workers: 0 })).rejects.toThrow(/^deals 9007199254740991 \.\. 9007199254740992 go past the last deal number 2\^53-1$/);
    await expect(winRate(null as never)).rejects.toThrow('winRate needs its options, e.g. { game: "canfield", deals: 1000 }');
    const base = { rules: R, limits: { nodeLimit: 100 }, source: rangeSource(1, 3), onResults: () => undefined, workers: 0 };
    await expect(solveDeals({ ...base, limits: { nodeLimit: -1 } })).rejects.toThrow('bad nodeLimit -1: expected a whole number from 1 to 2^53-1, or Infinity for none');
    await expect(solveDeals({ ...base, rules: hand({ draw: 0 }) })).rejects.toThrow(/^bad rules option draw: 0/);
    await expect(solveDeals({ ...base, maxBatch: Number.NaN })).rejects.toThrow('bad maxBatch NaN: expected a whole number from 1');
    expectError(() => rangeSource(1.5, 4), 'bad deal range 1.5 .. 4: expected whole deal numbers, start <= end');
    expectError(() => readResults(null as never), 'readResults needs result file names, not null');
    expectError(() => mergeResults(['a.msgpack'], {} as never), 'mergeResults needs { out: FILE }, the merged file to write');
  });

  // Found by a QA pass of the packed library (session 33).
  it('win-rate and pool options: a misspelt key, no limits, a signal that is not one', async () => {
    // A typo once ran with the 10 s default; no limits once failed every deal with a TypeError.
    await expect(winRate({ game: 'canfield', deals: 2, workers: 0, nodeLimt: 10 } as never)).rejects.toThrow(/^unknown winRate option "nodeLimt": expected one of game, rules, /);
    await expect(winRate({ game: 'canfield', deals: 2, workers: 0, nodeLimit: 10 }, { signal: {} as never })).rejects.toThrow('winRate: signal must be an AbortSignal');
    await expect(winRate({ game: 'canfield', deals: 2, workers: 0, nodeLimit: 10 }, { onDone: () => 1 } as never)).rejects.toThrow(/^unknown winRate callback "onDone"/);
    await expect(winRate({ game: 'canfield', deals: 2, workers: 0, nodeLimit: 10, saveSolutions: 'yes' as never })).rejects.toThrow('bad saveSolutions "yes": expected true or false');
    const base = { rules: R, limits: { nodeLimit: 100 }, source: rangeSource(1, 3), onResults: () => undefined, workers: 0 };
    await expect(solveDeals({ ...base, limits: undefined as never })).rejects.toThrow('solveDeals needs its limits: solve options such as { timeLimitMs: 10000 } ({} for none)');
    await expect(solveDeals({ ...base, foo: 1 } as never)).rejects.toThrow(/^unknown solveDeals option "foo"/);
    await expect(solveDeals({ ...base, signal: {} as never })).rejects.toThrow('solveDeals: signal must be an AbortSignal');
    // The same call with good options runs: deals 1 and 2 (a range source's end is left out).
    const rows: number[] = [];
    await solveDeals({ ...base, onResults: (_r, n) => void rows.push(n) });
    expect(rows.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('the public card helpers and move parser refuse what is not a card, a suit, a rank or a position', async () => {
    const api = await import('../src/index');
    expect(api.makeCard(1, 0)).toBe(13);
    expect(api.cardSuit(51)).toBe(3);
    expect(api.cardRank(51)).toBe(12);
    expectError(() => api.makeCard(0, 13), 'makeCard: bad rank 13: expected 0 (ace) to 12 (king)');
    expectError(() => api.makeCard(4, 0), 'makeCard: bad suit 4: expected 0 to 3 (C D H S)');
    expectError(() => api.makeCard('1' as never, 2), 'makeCard: bad suit "1"');
    expectError(() => api.makeCard(Number.NaN, 0), 'makeCard: bad suit NaN');
    expectError(() => api.cardSuit(60), 'cardSuit: bad card code 60: expected suit * 13 + rank, 0 to 51');
    expectError(() => api.cardRank(-1), 'cardRank: bad card code -1');
    const deal = dealFromSeed(R, 1);
    const json = api.formatPosition(deal) as never;
    const hint = 'position: its cards are text, as in position JSON (formatPosition): read it with parsePosition first';
    expectError(() => api.parseMove('t1 -> f', json), hint);
    expectError(() => api.parseMoves('t1 -> f', json), hint);
    expectError(() => api.parseMoves('deal', json), hint);
    expectError(() => api.parseMove('t1 -> f', 'canfield' as never), 'position: expected a position object, not "canfield"');
    expectError(() => solve(json), hint);
    expectError(() => api.describePosition(json), hint);
    expectError(() => api.formatPosition(json), hint);
    expectError(() => api.formatCards(null as never), 'formatCards: bad cards null: expected a list of card codes');
    expectError(() => api.formatMoves(null as never), 'formatMoves: bad moves null: expected a list of moves');
    expectError(() => api.clonePosition(json), hint);
    expectError(() => api.foundationCards(json, 0), hint);
    expectError(() => api.clonePosition(undefined as never), 'position: expected a position object, not undefined');
    expectError(() => api.foundationCards({} as never, 0), 'position: foundations must be a list');
    expectError(() => api.clonePosition({ ...deal, foundations: [13, 13, 13] }), 'position: there must be 4 foundations');
    // With the position it stands for, the same line reads.
    expect(api.parseMoves('deal', deal)).toEqual([{ kind: 'deal' }]);
    expect(api.describePosition(deal)).toContain('canfield');
    expect(api.clonePosition(deal)).toEqual(deal);
    expect(api.clonePosition(deal).tableau[0]).not.toBe(deal.tableau[0]);
    expect([0, 1, 2, 3].flatMap((suit) => api.foundationCards(deal, suit))).toHaveLength(1); // the dealt base card
  });

  it('messages show NaN, Infinity and text as they are, not as JSON null or a bare number', () => {
    expectError(() => resolveRules('canfield', { draw: Number.NaN }), 'bad rules option draw: NaN (expected a whole number from 1 to 52)');
    expectError(() => resolveRules('canfield', { draw: Infinity }), 'bad rules option draw: Infinity');
    expectError(() => dealFromSeed(R, '7' as never), 'bad deal number "7": expected a whole number');
    expectError(() => solve(dealFromSeed(R, 1), { nodeLimit: 1e300 }), 'bad nodeLimit 1e+300: expected a whole number from 1 to 2^53-1, or Infinity for none');
    expectError(() => solve(dealFromSeed(R, 1), { memoryMiB: Infinity }), 'bad memoryMiB Infinity: expected a finite number of MiB above 0');
  });

  // String() of an object without a prototype throws a TypeError, which once escaped these checks
  // (session 35); each is now named by kind.
  it('a value that cannot be turned into text is named by its kind, in one line', async () => {
    const bare = Object.create(null) as never;
    await expect(winRate({ game: 'canfield', deals: 2, workers: bare })).rejects.toThrow('bad worker count an object: expected a whole number from 0 to ');
    await expect(winRate({ game: 'canfield', deals: bare })).rejects.toThrow('bad number of deals an object: expected a whole number from 1 to ');
    await expect(winRate({ game: bare, deals: 2 })).rejects.toThrow('bad game an object: expected text');
    const base = { rules: R, limits: { nodeLimit: 100 }, source: rangeSource(1, 3), onResults: () => undefined, workers: 0 };
    await expect(solveDeals({ ...base, maxBatch: bare })).rejects.toThrow('bad maxBatch an object: expected a whole number from 1');
    expectError(() => resolveRules(bare), /^bad game an object: expected a game's name, one of /);
    expectError(() => dealFromSeed(R, bare), 'bad deal number an object: expected a whole number');
    expectError(() => solve(dealFromSeed(R, 1), { timeLimitMs: bare }), 'bad timeLimitMs an object: expected a number above 0');
    expectError(() => parseMove(bare, dealFromSeed(R, 1)), 'bad move an object: expected text such as "7H waste -> t2"');
    expectError(() => formatMove({ kind: 'move', card: 0, count: 1, from: bare, to: bare } as never), /^bad place {}: expected tableau/);
    expectError(() => parseCard(bare), 'bad card an object: expected rank then suit');
    expectError(() => parseRank(bare), 'bad rank an object: expected one of');
    expectError(() => orderedDeck(bare), 'bad ranks an object: expected a whole number from 1 to 13');
    expect(formatRank(bare)).toBe('?');
    expectError(() => parseShard(bare), 'bad --shard an object: expected K/N');
    expectError(() => shardFromEnv(bare), 'bad --shard-count an object: expected a whole number from 1 up');
    expectError(() => shardFromEnv(2, { PATIENCE_SHARD_INDEX: bare }), 'bad PATIENCE_SHARD_INDEX an object in the environment');
    expectError(() => memoryWarning(bare, 1), 'memoryWarning: bad memoryMiB an object');
  });

  it('a move with a BigInt in it is refused as illegal, naming what it holds, not thrown from JSON', () => {
    const r = replay(deal, [{ kind: 'move', card: 1n, count: 1, from: { area: 'waste' }, to: { area: 'foundation' } } as never]);
    expect(r.legal).toBe(false);
    expect(r.reason).toMatch(/^1 is not a card of this 52-card deck/);
    expect(replay(deal, [{ kind: 'move', card: 0, count: Number.NaN, from: { area: 'waste' }, to: { area: 'foundation' } } as never]).reason).toMatch(/bad card count NaN/);
    expect(replay(deal, [{ kind: 'move', card: 0, count: 1, from: { area: 'tableau', index: Object.create(null) }, to: { area: 'foundation' } } as never]).reason).toBe('there is no tableau pile an object (canfield has 4)');
    expectError(() => formatMove({ kind: 'move', card: 0, count: 1, from: { area: 'waste', n: 1n }, to: { area: 'nowhere' } } as never), /^bad place \{"area":"nowhere"\}: expected/);
  });
});
