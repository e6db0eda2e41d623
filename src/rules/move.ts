import type { Card } from '../cards/card';

/** Where a card is: a tableau pile (0-based index; printed 1-based as t1, t2, ...), or a single-pile area. */
export type Place = { area: 'tableau'; index: number } | { area: 'reserve' } | { area: 'waste' } | { area: 'foundation' };

/**
 * A move as users and the referee see it. The solver works with packed numbers internally and
 * converts to this only for its answer.
 * - `deal`: up to `draw` cards from stock to waste; `redeal`: the waste turned over into the stock.
 * - `move`: `count` cards whose bottom card is `card` go from `from` to `to`. When the move empties a
 *   tableau pile and the rules fill spaces from the reserve at once, `autoFill` records the reserve
 *   card that filled pile `pile` as part of this same move.
 */
export type Move =
  | { kind: 'deal' }
  | { kind: 'redeal' }
  | { kind: 'move'; card: Card; count: number; from: Place; to: Place; autoFill?: { card: Card; pile: number } };
