/* Deals from a deal number (eightoff.deal): eightoff's own shuffle (SplitMix64 and an
 * unbiased Fisher-Yates, integers only), PySolFC's deals (its Microsoft-compatible
 * generator up to deal 32000, Python's Mersenne Twister above, as the pysol_cards package
 * deals them), and the two layouts. A position is its JSON form: {columns, cells,
 * foundations, rules}. */

import { cardText } from "./cards.js";

const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;

/** Sebastiano Vigna's SplitMix64. */
class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }

  next() {
    this.state = (this.state + GOLDEN) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  /** A uniform integer in 0..n-1 (rejection sampling, no modulo bias). */
  below(n) {
    const size = BigInt(n);
    const limit = (1n << 64n) - ((1n << 64n) % size);
    for (;;) {
      const x = this.next();
      if (x < limit) return Number(x % size);
    }
  }
}

/** The 52 card numbers of eightoff deal ``number`` in dealing order. */
export function dealCards(number) {
  const rng = new SplitMix64(number);
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const j = rng.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Deal an ordered deck (card numbers, card 1 first) under ``rules``' layout and cells. */
export function layout(cards, rules) {
  const columns = Array.from({ length: 8 }, () => []);
  const text = cards.map(cardText);
  let cells;
  if (rules.layout === "bakers") {
    text.forEach((card, i) => columns[i % 8].push(card));
    cells = [];
  } else {
    text.slice(0, 48).forEach((card, i) => columns[i % 8].push(card));
    const spare = text.slice(48);
    if (rules.cells === 2) {
      columns[2].push(spare[2]);
      columns[3].push(spare[3]);
      cells = spare.slice(0, 2);
    } else cells = spare;
  }
  while (cells.length < rules.cells) cells.push(null);
  return { columns, cells, foundations: { S: 0, H: 0, D: 0, C: 0 }, rules: { ...rules } };
}

// -- PySolFC's deals -------------------------------------------------------------------------

/** The Microsoft-compatible generator PySolFC deals its games 1-32000 with. */
class MicrosoftRandom {
  constructor(seed) {
    this.seed = seed;
  }

  below(n) {
    this.seed = (this.seed * 214013 + 2531011) % 2 ** 33;
    return Math.floor(this.seed / 65536) % 32768 % n;
  }
}

/** Python's random.Random (MT19937 seeded from an integer, random() of 53 bits), as
 * PySolFC deals its games above 32000. */
class PythonRandom {
  constructor(seed) {
    const mt = new Uint32Array(624);
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) {
      mt[i] = (Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i) >>> 0;
    }
    const key = [];
    for (let s = BigInt(seed); key.length === 0 || s > 0n; s >>= 32n) key.push(Number(s & 0xffffffffn));
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j) >>> 0;
      i += 1;
      j += 1;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i) >>> 0;
      i += 1;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.mt = mt;
    this.index = 624;
  }

  int32() {
    const { mt } = this;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  below(n) {
    const a = this.int32() >>> 5;
    const b = this.int32() >>> 6;
    return Math.floor(((a * 67108864 + b) / 9007199254740992) * n);
  }
}

const PYSOL_SUITS = [3, 0, 1, 2]; // pysol's C, S, H, D as our suit index

/** PySolFC's deal ``number`` (its Eight Off, or its Baker's Game for that layout) as card
 * numbers in our dealing order: row by row, then the spare cards left to right. */
export function pysolCards(number, rules) {
  // pysol's deck: suits C S H D, ranks 1-13; its deals 1-32000 are Microsoft's order.
  let deck = [];
  for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) deck.push(PYSOL_SUITS[s] * 13 + r);
  const ms = number <= 32000;
  if (ms) {
    const ordered = [];
    for (let i = 0; i < 13; i++) for (const j of [0, 39, 26, 13]) ordered.push(deck[i + j]);
    deck = ordered;
  }
  const rng = ms ? new MicrosoftRandom(number) : new PythonRandom(number);
  for (let n = deck.length - 1; n > 0; n--) {
    const j = rng.below(n + 1);
    [deck[n], deck[j]] = [deck[j], deck[n]];
  }
  deck.reverse();
  const bakers = rules.layout === "bakers";
  const dealt = bakers ? 52 : 48;
  const cols = Array.from({ length: 8 }, () => []);
  for (let i = 0; i < dealt; i++) cols[i % 8].push(deck[i]);
  const order = [];
  for (let row = 0; row < Math.max(...cols.map((c) => c.length)); row++) {
    for (const col of cols) if (row < col.length) order.push(col[row]);
  }
  return bakers ? order : order.concat(deck.slice(48));
}

/** The initial position of ``code`` ({rules, deal, source}). */
export function dealOf(code) {
  const cards = code.source === "pysol" ? pysolCards(code.deal, code.rules) : dealCards(code.deal);
  return layout(cards, code.rules);
}
