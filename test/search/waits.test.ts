import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCard, parseCard } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { Board } from '../../src/search/board';
import { Engine } from '../../src/search/engine';
import { moveDst, moveSrc, moveType, MT_R2T, MT_T2T } from '../../src/search/move-code';
import { WaitsFor } from '../../src/search/waits';
import { make } from '../helpers';
import { homeAfter, mulberry, playout } from './support';

/**
 * Rule 10 of docs/algorithms.md on hand-made Hoyle Canfield positions (base 5, whole piles): a move
 * that would make a card wait for itself through another pile is not generated, while the same card
 * onto the other black 5, or its twin onto the same 5, is. With base 5, a 5 is the lowest card of its
 * suit and a 4 the highest, so 4S goes home after 5S and 4H after 5H.
 */
describe('rule 10 through other piles (Hoyle Canfield, base 5)', () => {
  const moves = (engine: Engine): number[] => {
    const buffer = new Int32Array(1024);
    return Array.from(buffer.subarray(0, engine.generate(buffer, 0)));
  };
  const card = (text: string) => parseCard(text);

  it('a whole pile is not put where its card would wait for itself', () => {
    // Piles: 5H 4S | 5S | 4H | 5C. 4H onto 5S: 5S waits for 4H above it, 4S for 5S below it in
    // spades, 5H for 4S above it, 4H for 5H below it in hearts. 4H onto 5C closes no such circle.
    const p = make('canfield', { base: '5', tableau: ['5H 4S', '5S', '4H', '5C'], reserve: '2D', stock: 'rest' });
    const after = homeAfter(p);
    expect(after(card('5S')).has(card('4H'))).toBe(true); // the pile top 5S already goes home before 4H
    expect(after(card('5C')).has(card('4H'))).toBe(false);
    const t2t = moves(new Engine(p)).filter((m) => moveType(m) === MT_T2T && moveSrc(m) === 2);
    expect(t2t.map(moveDst).sort()).toEqual([3]);
  });

  it('nor a reserve card, while its twin may go there', () => {
    for (const [top, allowed] of [
      ['4H', [3]],
      ['4D', [1, 3]],
    ] as const) {
      const p = make('canfield', { base: '5', tableau: ['5H 4S', '5S', 'KD', '5C'], reserve: top, stock: 'rest' });
      const r2t = moves(new Engine(p)).filter((m) => moveType(m) === MT_R2T);
      expect(r2t.map(moveDst).sort(), top).toEqual([...allowed]);
    }
  });
});

/**
 * The waits-for graph itself (`WaitsFor`, waits.ts) against the slow reference of the tests
 * (`homeAfter`: every card below in a pile, every higher card of the suit, followed to the end):
 * for every pair of cards in play, on positions of random Hoyle playouts, x waits for y exactly
 * when x is y or y must go home after x.
 */
describe.each([{}, { wrap: false }])('WaitsFor agrees with the reference on every pair of cards in play: canfield %j', (options) => {
  it('on positions of random playouts', () => {
    const rules = resolveRules('canfield', options);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer(), (seed, choices) => {
        const positions = playout(dealFromSeed(rules, seed), 60, mulberry(choices));
        positions.forEach((p, step) => {
          if (step % 4 !== 0) return;
          const waits = new WaitsFor(new Board(p));
          const after = homeAfter(p);
          const inPlay = [...p.reserve, ...p.tableau.flat(), ...p.stock, ...p.waste];
          for (const x of inPlay) {
            const later = after(x);
            for (const y of inPlay) {
              const want = x === y || later.has(y);
              if (waits.waitsFor(x, y) !== want) {
                expect.fail(`deal ${seed}, playout step ${step}: waitsFor(${formatCard(x)}, ${formatCard(y)}) should be ${want}`);
              }
            }
          }
        });
      }),
      { seed: 46, numRuns: 12 },
    );
  });
});

/**
 * The card under each tableau card (`Board.underOf`, `Board.covered`), which every change to the
 * piles keeps instead of `WaitsFor` reading the whole tableau for each state: along random walks of
 * the engine's own moves, made and undone (through automatic reserve fills and whole piles moved
 * onto others), it must always be what a board built afresh from the same position says, and so
 * must every answer of `waitsFor`.
 */
describe.each([{}, { wrap: false }, { draw: 1 }])('the cards under tableau cards, kept by make and undo: canfield %j', (options) => {
  it('equal those of a board built afresh, along random walks', () => {
    const rules = resolveRules('canfield', options);
    const moves = new Int32Array(4096);
    let checked = 0;
    let tableauMoves = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const engine = new Engine(dealFromSeed(rules, seed));
      const kept = new WaitsFor(engine);
      const rng = mulberry(seed);
      const history: { m: number; info: number }[] = [];
      for (let step = 0; step < 300; step++) {
        const position = engine.toPosition();
        const fresh = new Board(position);
        if (engine.underOf.join() !== fresh.underOf.join() || engine.covered.join() !== fresh.covered.join()) {
          expect.fail(`deal ${seed}, step ${step}: the cards under tableau cards differ from a fresh board's`);
        }
        if (step % 10 === 0) {
          const again = new WaitsFor(fresh);
          const inPlay = [...position.reserve, ...position.tableau.flat()];
          for (const x of inPlay) {
            for (const y of inPlay) {
              if (kept.waitsFor(x, y) !== again.waitsFor(x, y)) expect.fail(`deal ${seed}, step ${step}: waitsFor(${formatCard(x)}, ${formatCard(y)})`);
            }
          }
        }
        checked++;
        const n = engine.generate(moves, 0);
        if (n === 0 || (history.length > 0 && rng() < 0.3)) {
          const last = history.pop();
          if (last === undefined) break;
          engine.undo(last.m, last.info);
          continue;
        }
        const m = moves[Math.floor(rng() * n)]!;
        if (moveType(m) === MT_T2T) tableauMoves++;
        history.push({ m, info: engine.make(m) });
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(tableauMoves).toBeGreaterThan(20);
  });
});
