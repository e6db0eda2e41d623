import { makeCard } from '../cards/card';
import { rankAtOrder } from '../rules/order';
import { FILL_RESERVE, FILL_TABLEAU, FILL_WASTE } from './board';
import { DEAD, DEAD_BY_COUNT, type DeadVerdicts, LIVE, NO_VERDICT } from './dead-verdicts';
import type { Engine } from './engine';
import { MT_R2T, MT_T2T, TYPE_MASK } from './move-code';

/**
 * The move types after which a new state is checked: a tableau move or a reserve card onto the
 * tableau. Measured (docs/algorithms.md, "Dead states"), they lead to most of the dead states (in
 * Hoyle Canfield two thirds of the states a whole-pile move enters are dead, 3-7% after other
 * moves), so checking only there halves the cost per node and keeps most of the pruning.
 */
const CHECKED_AFTER = (1 << MT_T2T) | (1 << MT_R2T);

/** Per-card flags of the relaxation (rebuilt for every state checked). */
const F_HOME_NOW = 1; // on its foundation now (so never a tableau card again)
const F_HOME = 2; // fact: can reach its foundation
const F_FREE = 4; // fact: can be available (tableau top, reserve top, a waste card)
const F_LEFT = 8; // fact: can leave its fixed stack
const F_BOTTOM = 16; // at the bottom of a tableau pile now
const F_RESERVE = 32; // in the reserve now
const F_WASTE = 64; // in the waste now, with no redeal left (a fixed stack)
const F_UNDER = 128; // on top of another tableau card now (`under` names it)
const F_TABLEAU = 256; // in a tableau pile now
const F_TALON = 512; // in the stock or waste now
const F_TAB = 1024; // fact: can be a tableau top (a card that may be built on)

/**
 * Early proof that a state can never be won: a "delete relaxation" of the game, computed as a
 * fixpoint over a few monotone facts per card, which over-approximates everything that can ever
 * happen from the state. When the relaxation cannot bring every card home, no real line of play
 * can either, and the state is dead. The argument, fact by fact, is in docs/algorithms.md
 * ("Dead states").
 *
 * Facts (each only ever switches from false to true during the fixpoint):
 * - home[c]: c can reach its foundation.
 * - free[c]: c can be available at some time (a tableau top, the reserve top, a waste card).
 * - tab[c]: c can be a tableau top (something to build on).
 * - left[c]: c, in a fixed stack, can leave it (to a foundation, a tableau build or a space).
 * - space: some tableau pile can become empty.
 *
 * Before it, a counting argument the relaxation cannot make (`crowded`, "the pile count"): cards
 * that must each wait alone at the bottom of a pile at the same moment, more than there are piles.
 *
 * Only for games where foundation cards never come back (`foundationToTableau` off): both rely on
 * a card home now never being a tableau top again.
 *
 * The quick form (`quick`), the search's default in Hoyle Canfield (rule 10's games), asks less: it
 * leaves out the pile count and answers "not dead" as soon as a space can be made. Answering "not
 * dead" is always sound, and what it calls dead the full check does too. Measured there, it gives
 * up none of the full check's dead states, and the rest of the fixpoint was most of the check's cost
 * (docs/algorithms.md, "Dead states", "The quick form").
 */
export class DeadCheck {
  readonly enabled: boolean;
  private readonly e: Engine;
  /** The cards of the deck, suit by suit in foundation order, so one sweep runs a suit's chain up. */
  private readonly cards: Uint8Array;
  /** Each card's neighbours in its suit's foundation order (255: none): the engine's tables. */
  private readonly pred: Uint8Array;
  private readonly succ: Uint8Array;
  /** Tableau cards each card may be built on: targets[c*4 .. c*4 + nTargets[c]]. */
  private readonly targets = new Uint8Array(64 * 4);
  private readonly nTargets = new Uint8Array(64);
  private readonly runs: boolean;
  private readonly reserveFills: boolean;
  private readonly wasteFills: boolean;
  private readonly tableauFills: boolean;

  // Per-state scratch: the F_* flags of each card, and the links below.
  private readonly flags = new Uint16Array(64);
  /** The tableau card directly under c (valid when F_UNDER is set). */
  private readonly under = new Uint8Array(64);
  /** The card directly under c in its fixed stack, or 255 (valid when c is in a stack). */
  private readonly stackUnder = new Uint8Array(64);
  /** Cards in fixed stacks, and tableau cards with a card under them: what a new space may wake. */
  private readonly waiting = new Uint8Array(64);
  private nWaiting = 0;
  /** Events: a card, plus 64 when it went home, plus 128 when it can be a tableau top. */
  private readonly queue = new Uint8Array(256);
  private qTail = 0;
  private homeCount = 0;
  /** Cards with `free`: once all are, every card can go home (rule 3, suit by suit from the base). */
  private freeCount = 0;
  private space = false;

  // Scratch of the pile count (`crowded`).
  private readonly stackIdx = new Uint8Array(64);
  private readonly lowIdx = new Uint8Array(64);
  private readonly stackCards = new Uint8Array(64);
  private readonly diff = new Int32Array(65);

  /** States checked and states found dead, for measurement. */
  checked = 0;
  dead = 0;
  /** Of the dead states, those the pile count found (the rest: the relaxation). */
  deadByCount = 0;

  /** Of the states checked, those whose verdict was kept already (`DeadVerdicts`). */
  fromKept = 0;

  /** The quick form: no pile count, and "not dead" as soon as `space` holds. */
  private readonly quick: boolean;
  /** Verdicts kept by the key without its split, for the search of this deal, where they are kept. */
  private readonly verdicts: DeadVerdicts | undefined;

  constructor(engine: Engine, enabled = true, quick = false, verdicts?: DeadVerdicts) {
    this.e = engine;
    this.quick = quick;
    this.verdicts = verdicts?.on ? verdicts : undefined;
    const rules = engine.rules;
    this.enabled = enabled && !engine.foundationToTableau;
    const R = engine.ranks;
    this.cards = new Uint8Array(4 * R);
    this.pred = engine.predOf;
    this.succ = engine.succOf;
    let n = 0;
    for (let s = 0; s < 4; s++) {
      for (let o = 0; o < R; o++) {
        const c = makeCard(s, rankAtOrder(rules, engine.baseRank, o));
        this.cards[n++] = c;
      }
    }
    for (let i = 0; i < n; i++) {
      const c = this.cards[i]!;
      for (let j = 0; j < n; j++) {
        const t = this.cards[j]!;
        if (engine.fits[c * 64 + t] !== 1) continue;
        if (this.nTargets[c]! < 4) this.targets[c * 4 + this.nTargets[c]!++] = t;
      }
    }
    this.runs = rules.move !== 'whole-pile';
    const fill = engine.fillFlags;
    this.reserveFills = engine.autoReserve || (fill & FILL_RESERVE) !== 0;
    this.wasteFills = (fill & FILL_WASTE) !== 0;
    this.tableauFills = (fill & FILL_TABLEAU) !== 0;
  }

  /**
   * Whether the state a move `m` entered is worth the check. Skipping a check only leaves a dead
   * state to be searched, so any choice here is sound; this one is measured (see CHECKED_AFTER).
   */
  worthChecking(m: number): boolean {
    return ((CHECKED_AFTER >>> (m & TYPE_MASK)) & 1) !== 0;
  }

  /** Whether some tableau top that card c may be built on can ever be there. */
  private canBuild(c: number): boolean {
    const base = c * 4;
    const flags = this.flags;
    for (let i = 0, n = this.nTargets[c]!; i < n; i++) {
      if ((flags[this.targets[base + i]!]! & F_TAB) !== 0) return true;
    }
    return false;
  }

  private setFree(c: number): void {
    const f = this.flags[c]!;
    if ((f & F_FREE) !== 0) return;
    this.flags[c] = f | F_FREE;
    this.freeCount++;
    this.queue[this.qTail++] = c;
  }

  /** c is free: may it go home? */
  private tryHome(c: number): void {
    const f = this.flags[c]!;
    if ((f & (F_HOME | F_FREE)) !== F_FREE) return;
    const p = this.pred[c]!;
    if (p !== 255 && (this.flags[p]! & F_HOME) === 0) return;
    this.flags[c] = f | F_HOME;
    this.homeCount++;
    this.queue[this.qTail++] = c | 64;
  }

  /** c, free in a fixed stack: may it leave (home, onto a build, into a space)? Then the card under it is free. */
  private tryLeave(c: number): void {
    const f = this.flags[c]!;
    if ((f & (F_RESERVE | F_WASTE)) === 0 || (f & (F_LEFT | F_FREE)) !== F_FREE) return;
    if ((f & F_HOME) !== 0 || this.canBuild(c) || (this.space && ((f & F_RESERVE) !== 0 ? this.reserveFills : this.wasteFills))) {
      this.flags[c] = f | F_LEFT;
      const u = this.stackUnder[c]!;
      if (u !== 255) this.setFree(u);
    }
  }

  /** The card under a in a pile is uncovered once a leaves it: home, or (runs) moved off. */
  private tryUncover(a: number): void {
    const f = this.flags[a]!;
    if ((f & F_UNDER) === 0) return;
    if ((f & F_HOME) !== 0 || (this.runs && ((this.space && this.tableauFills) || this.canBuild(a)))) this.setFree(this.under[a]!);
  }

  private setSpace(): void {
    if (this.space) return;
    this.space = true;
    // The quick form stops here (`isDead`): what a space would wake is never asked for.
    if (this.quick) return;
    for (let i = 0; i < this.nWaiting; i++) {
      const c = this.waiting[i]!;
      this.tryLeave(c);
      this.tryUncover(c);
    }
    for (let i = 0; i < this.cards.length; i++) this.tryTab(this.cards[i]!);
  }

  /**
   * c is free: can it be a tableau top? A tableau card is one as soon as it is free; any other card
   * only by being built on a tableau top or filled into a space (where its place may fill one).
   */
  private tryTab(c: number): void {
    const f = this.flags[c]!;
    if ((f & (F_TAB | F_FREE | F_HOME_NOW)) !== F_FREE) return;
    if (
      (f & F_TABLEAU) !== 0 ||
      this.canBuild(c) ||
      (this.space && ((f & F_RESERVE) !== 0 ? this.reserveFills : (f & (F_TALON | F_WASTE)) !== 0 && this.wasteFills))
    ) {
      this.flags[c] = f | F_TAB;
      this.queue[this.qTail++] = c | 128;
    }
  }

  /** Card c can now be a tableau top: the cards that may be built on it may leave their stack or pile, or come to the tableau. */
  private onTab(c: number): void {
    // The engine's table of builders: at most 4 a card, 255 past the last.
    const builders = this.e.builders;
    for (let i = c * 4, end = i + 4; i < end && builders[i] !== 255; i++) {
      const x = builders[i]!;
      const fx = this.flags[x]!;
      if ((fx & (F_RESERVE | F_WASTE | F_UNDER)) !== 0) {
        this.tryLeave(x);
        this.tryUncover(x);
      }
      this.tryTab(x);
      if ((fx & F_BOTTOM) !== 0) this.setSpace();
    }
  }

  /** Card c just became home: its successor may follow, what it covered is uncovered. */
  private onHome(c: number): void {
    const n = this.succ[c]!;
    if (n !== 255) this.tryHome(n);
    const f = this.flags[c]!;
    if ((f & F_BOTTOM) !== 0) this.setSpace();
    if ((f & (F_RESERVE | F_WASTE | F_UNDER)) !== 0) {
      this.tryLeave(c);
      this.tryUncover(c);
    }
  }

  /** Card c just became free: it may go home, leave its stack, come to the tableau. */
  private onFree(c: number): void {
    this.tryHome(c);
    const f = this.flags[c]!;
    if ((f & (F_RESERVE | F_WASTE | F_UNDER)) !== 0) {
      this.tryLeave(c);
      this.tryUncover(c);
    }
    this.tryTab(c);
  }

  /**
   * The pile count over one fixed stack (cards `stackCards[0..n)`, bottom first): for a cut `d`,
   * every card above stack[d] must leave the stack before stack[d] does. Just before that moment a
   * card above the cut that cannot go home yet (a lower card of its suit is at or below the cut)
   * and whose tableau targets are all home now or at or below the cut lies on the tableau with
   * nothing under it: the bottom of a pile. So does a pile's bottom card now with the same two
   * properties. Those are distinct piles; more of them than piles means the state is dead.
   * Each card counts for an interval of cuts, so one pass with a difference array does every cut.
   */
  private crowded(n: number): boolean {
    if (n < 2) return false;
    const e = this.e;
    const { cards, stackIdx, lowIdx, stackCards, diff, flags } = this;
    const R = e.ranks;
    stackIdx.fill(255);
    for (let i = 0; i < n; i++) stackIdx[stackCards[i]!] = i;
    // lowIdx[c]: the lowest stack index of a card of c's suit below it in foundation order.
    for (let s = 0; s < 4; s++) {
      let m = 255;
      for (let o = 0; o < R; o++) {
        const c = cards[s * R + o]!;
        lowIdx[c] = m;
        const k = stackIdx[c]!;
        if (k < m) m = k;
      }
    }
    if (!this.runs) {
      // A buried card is uncovered only when every card above it has gone home.
      const H = e.maxHeight;
      for (let p = 0; p < e.piles; p++) {
        let m = 255;
        for (let i = e.len[p]! - 1; i >= 0; i--) {
          const c = e.pile[p * H + i]!;
          stackIdx[c] = m;
          const l = lowIdx[c]!;
          if (l < m) m = l;
        }
      }
    }
    for (let d = 0; d <= n; d++) diff[d] = 0;
    for (let i = 1; i < n; i++) {
      const lo = this.cutFrom(stackCards[i]!);
      if (lo < i) {
        diff[lo]++;
        diff[i]--;
      }
    }
    const H = e.maxHeight;
    for (let p = 0; p < e.piles; p++) {
      if (e.len[p] === 0) continue;
      const b = e.pile[p * H]!;
      if ((flags[b]! & F_HOME_NOW) !== 0) continue;
      const lo = this.cutFrom(b);
      if (lo < n) diff[lo]++;
    }
    let count = 0;
    for (let d = 0; d < n; d++) {
      count += diff[d]!;
      if (count > e.piles) return true;
    }
    return false;
  }

  /** The pile count over the reserve, then over the fixed waste. */
  private crowdedStacks(): boolean {
    const e = this.e;
    const rc = e.resCount;
    for (let i = 0; i < rc; i++) this.stackCards[i] = e.reserve[i]!;
    if (this.crowded(rc)) return true;
    if (e.talon.redealLimit >= 0 && e.talon.redealsUsed >= e.talon.redealLimit) {
      let n = 0;
      for (let i = 0; i < e.talon.split; i++) if (e.talon.removed[i] === 0) this.stackCards[n++] = e.talon.cards[i]!;
      if (this.crowded(n)) return true;
    }
    return false;
  }

  /**
   * The lowest cut at which card c can neither go home nor be built on anything (255: none). A
   * target's `stackIdx` is its place in the stack, or for a tableau card (whole piles only) the
   * lowest cut at which a card above it cannot go home, so that it stays covered.
   */
  private cutFrom(c: number): number {
    let lo = this.lowIdx[c]!;
    if (lo === 255) return 255;
    const base = c * 4;
    for (let i = 0, k = this.nTargets[c]!; i < k; i++) {
      const t = this.targets[base + i]!;
      if ((this.flags[t]! & F_HOME_NOW) !== 0) continue;
      const j = this.stackIdx[t]!;
      if (j === 255) return 255;
      if (j > lo) lo = j;
    }
    return lo;
  }

  /**
   * True when the state is proved unwinnable. Given the state's key (`key[0 .. words)`, as the
   * engine encodes it), a verdict kept for it is answered at once, and a new one is kept.
   */
  isDead(key?: Uint32Array, words = 0): boolean {
    if (!this.enabled) return false;
    const verdicts = this.verdicts;
    if (verdicts === undefined || key === undefined) return this.check() !== LIVE;
    const kept = verdicts.find(key, words);
    if (kept === NO_VERDICT) {
      const verdict = this.check();
      verdicts.keep(key, words, verdict);
      return verdict !== LIVE;
    }
    this.checked++;
    this.fromKept++;
    if (kept === LIVE) return false;
    this.dead++;
    if (kept === DEAD_BY_COUNT) this.deadByCount++;
    return true;
  }

  /** The check itself: LIVE, DEAD, or DEAD_BY_COUNT. */
  private check(): number {
    this.checked++;
    const e = this.e;
    const { flags, under, stackUnder, cards, waiting } = this;
    const N = cards.length;
    // Cards home now (a suit's first found[s] of `cards`, which runs suit by suit in foundation
    // order) are home and never targets again; every other card starts free (a tableau top, the
    // reserve top, a talon card) unless something below says it is covered, and is then taken off
    // `freeCount`.
    let homeCount = 0;
    let freeCount = N;
    const found = e.found;
    const R = e.ranks;
    flags.fill(F_FREE | F_TALON);
    for (let s = 0; s < 4; s++) {
      const h = found[s]!;
      homeCount += h;
      for (let o = 0, i = s * R; o < h; o++, i++) flags[cards[i]!] = F_HOME_NOW | F_HOME | F_FREE;
    }
    this.homeCount = homeCount;
    this.qTail = 0;
    let nWaiting = 0;
    let empty = false;
    const H = e.maxHeight;
    const pile = e.pile;
    for (let p = 0; p < e.piles; p++) {
      const n = e.len[p]!;
      if (n === 0) {
        empty = true;
        continue;
      }
      const b = p * H;
      for (let i = 0; i < n - 1; i++) {
        const c = pile[b + i]!;
        const a = pile[b + i + 1]!;
        flags[c] = (flags[c]! & ~(F_FREE | F_TALON)) | F_TABLEAU;
        freeCount--;
        flags[a] |= F_UNDER;
        under[a] = c;
        waiting[nWaiting++] = a;
      }
      const top = pile[b + n - 1]!;
      flags[top] = (flags[top]! & ~F_TALON) | F_TABLEAU | F_TAB;
      this.queue[this.qTail++] = top | 128;
      flags[pile[b]!] |= F_BOTTOM;
    }
    const rc = e.resCount;
    let below = 255;
    if (rc > 0) freeCount -= rc - 1;
    for (let i = 0; i < rc; i++) {
      const c = e.reserve[i]!;
      flags[c] = i + 1 < rc ? F_RESERVE : F_RESERVE | F_FREE;
      stackUnder[c] = below;
      below = c;
      waiting[nWaiting++] = c;
    }
    // The waste is a fixed stack once no redeal is left: new cards only ever go on top of it.
    if (e.talon.redealLimit >= 0 && e.talon.redealsUsed >= e.talon.redealLimit) {
      let above = 255;
      below = 255;
      for (let i = 0; i < e.talon.split; i++) {
        if (e.talon.removed[i] === 1) continue;
        const c = e.talon.cards[i]!;
        flags[c] = F_WASTE;
        freeCount--;
        stackUnder[c] = below;
        below = c;
        above = c;
        waiting[nWaiting++] = c;
      }
      if (above !== 255) {
        flags[above] |= F_FREE;
        freeCount++;
      }
    }
    this.nWaiting = nWaiting;
    if (!this.quick && this.crowdedStacks()) {
      this.dead++;
      this.deadByCount++;
      return DEAD_BY_COUNT;
    }
    if (freeCount === N) return LIVE;
    this.freeCount = freeCount;
    this.space = false;
    // What is known from the start: cards free now need no event of their own, and each suit's
    // next card may go home. After that, only new facts wake cards (the queue: a card that became
    // free, plus 64 when it went home, plus 128 when it can be a tableau top). The pile tops wait in
    // the queue already, so no card need look at the facts as they stand: the only tableau tops yet
    // are those, and each card that may be built on one (to leave its stack, be uncovered, or
    // become a top itself) is woken by its event, as is a card that goes home; what a space wakes,
    // `setSpace` wakes. The fixpoint does not depend on the order its facts are found in.
    if (empty) this.setSpace();
    else {
      for (let i = 0; i < e.piles; i++) {
        const b = pile[i * H]!;
        if ((flags[b]! & F_HOME) !== 0 || this.canBuild(b)) {
          this.setSpace();
          break;
        }
      }
    }
    // The quick form answers "not dead" once a space can be made, here or after any event below.
    if (this.quick && this.space) return LIVE;
    for (let s = 0; s < 4; s++) {
      const f = found[s]!;
      if (f < e.ranks) this.tryHome(cards[s * e.ranks + f]!);
    }
    const queue = this.queue;
    for (let head = 0; head < this.qTail; head++) {
      const q = queue[head]!;
      if (q >= 128) this.onTab(q - 128);
      else if (q >= 64) {
        this.onHome(q - 64);
        if (this.homeCount === N) return LIVE;
      } else {
        if (this.freeCount === N) return LIVE;
        this.onFree(q);
      }
      if (this.quick && this.space) return LIVE;
    }
    if (this.homeCount === N) return LIVE;
    this.dead++;
    return DEAD;
  }
}
