/* A game replayed on the kernel, and what a face shows of it (eightoff.game and
 * eightoff.view): score, status, taps, smart moves, targets, the finishing line and
 * autoplay. Every rule is the kernel's: its legal moves (Position.legal_moves order), its
 * positions after a move and its safe autoplay. What is chosen here is chosen among them:
 * a tap's move home, a double tap's smart move, Finish as repeated moves home. */

import { SUIT_LETTERS } from "./cards.js";
import {
  column, fromJson, moveText, moveToJson, movingCards, placeLabel, sameMove, samePlace,
} from "./moves.js";

export const POINTS_PER_CARD = 10;

/** The kernel, asked through its JSON: legal moves and positions remembered per position. */
export class Engine {
  constructor(kernel) {
    this.kernel = kernel;
    this.legalOf = new WeakMap();
  }

  /** The legal moves in ``pos`` (position JSON), in the engine's order. */
  legal(pos) {
    let found = this.legalOf.get(pos);
    if (!found) {
      found = this.kernel.legalMoves(pos.rules, pos).map(fromJson);
      this.legalOf.set(pos, found);
    }
    return found;
  }

  /** ``m`` as the legal move of ``pos`` it names, or null when it is none. */
  legalMove(pos, m) {
    return this.legal(pos).find((l) => sameMove(l, m)) || null;
  }

  /** The position after the legal move ``m``. */
  play(pos, m) {
    const played = this.kernel.play(pos.rules, pos, moveToJson(m, pos));
    if (!played.position) throw new Error(`the kernel refuses its own legal move ${moveText(m)}: ${played.reason}`);
    const after = played.position;
    return { columns: after.columns, cells: after.cells, foundations: after.foundations, rules: pos.rules };
  }

  /** The safe foundation moves autoplay plays from ``pos``, in turn. */
  autoplay(pos) {
    return this.kernel.autoplayMoves(pos.rules, pos).map(fromJson);
  }

  /** The kernel's solver from ``pos`` within ``limit`` ({maxNodes, seconds}). */
  solve(pos, limit) {
    return this.kernel.solve(pos.rules, pos, limit);
  }
}

export const isWon = (pos) => [...SUIT_LETTERS].every((s) => pos.foundations[s] === 13);

/** A game's line of moves from its deal, each checked by the kernel: the positions after
 * each, the card each carried and whether it brought that card home for the first time
 * (the score). A longer line from the same moves reuses what it shares. */
export class Line {
  constructor(engine, start) {
    this.engine = engine;
    this.positions = [start];
    this.texts = [];
    this.moves = [];
    this.cards = [];
    this.firstHome = [];
    this.home = new Set(); // the cards home ever along the line, kept for its last position
  }

  get length() {
    return this.moves.length;
  }

  /** The line cut back to its first ``n`` moves. */
  cut(n) {
    if (n >= this.moves.length) return;
    for (let k = n; k < this.moves.length; k++) if (this.firstHome[k]) this.home.delete(this.cards[k]);
    this.positions.length = n + 1;
    for (const list of [this.texts, this.moves, this.cards, this.firstHome]) list.length = n;
  }

  /** Play ``m`` after the line: true, or false when the kernel does not list it. */
  push(m) {
    const pos = this.positions[this.positions.length - 1];
    const legal = this.engine.legalMove(pos, m);
    if (!legal) return false;
    const card = movingCards(pos, legal)[0];
    const first = legal.target.kind === "foundation" && !this.home.has(card);
    if (first) this.home.add(card);
    this.positions.push(this.engine.play(pos, legal));
    this.texts.push(moveText(legal));
    this.moves.push(legal);
    this.cards.push(card);
    this.firstHome.push(first);
    return true;
  }

  get position() {
    return this.positions[this.positions.length - 1];
  }

  get score() {
    return POINTS_PER_CARD * this.home.size;
  }

  /** The safe foundation moves autoplay would play now: none right after a take-back. */
  autoplayMoves() {
    const last = this.moves[this.moves.length - 1];
    if (last && last.source.kind === "foundation") return [];
    return this.engine.autoplay(this.position);
  }
}

/** The double-tap move from ``place`` among its legal ``moves`` (eightoff.game.smart_move):
 * the foundation; the longest non-empty column that takes it (leftmost of equals, the
 * longest run); the leftmost empty column (the longest run); the leftmost empty cell. */
export function smartMove(pos, moves) {
  if (!moves.length) return null;
  const home = moves.find((m) => m.target.kind === "foundation");
  if (home) return home;
  const longest = (list, key) => list.reduce((best, m) => (compare(key(m), key(best)) > 0 ? m : best));
  const cols = pos.columns;
  const onto = moves.filter((m) => m.target.kind === "column" && cols[m.target.index].length);
  if (onto.length) return longest(onto, (m) => [cols[m.target.index].length, -m.target.index, m.count]);
  for (let j = 0; j < 8; j++) {
    const into = moves.filter((m) => samePlace(m.target, column(j)));
    if (into.length) return longest(into, (m) => [m.count]);
  }
  return moves.find((m) => m.target.kind === "cell") || null;
}

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Where ``m`` lands in ``pos``: a move home as its suit's foundation ("foundation-H"). */
function targetLabel(pos, m) {
  if (m.target.kind === "foundation") {
    const cards = movingCards(pos, m);
    if (cards.length) return `foundation-${cards[0][1]}`;
  }
  return placeLabel(m.target);
}

/** Moves home that take every remaining card there from ``pos``, if there are: each time
 * the first of the kernel's legal moves home (columns, then cells). */
export function finishMoves(engine, pos) {
  const moves = [];
  let at = pos;
  while (!isWon(at)) {
    const home = engine.legal(at).find((m) => m.target.kind === "foundation");
    if (!home) return null;
    moves.push(home);
    at = engine.play(at, home);
  }
  return moves.length ? moves : null;
}

/** ``moves`` played in turn from ``pos``, each as JSON with its notation. */
export function movesToJson(engine, moves, pos) {
  const out = [];
  let at = pos;
  for (const m of moves) {
    out.push(moveToJson(m, at, true));
    at = engine.play(at, m);
  }
  return out;
}

/** The view of ``pos`` as the API answers it (eightoff.formats.view_to_json): position,
 * legal moves, status, score, taps, targets and the finishing line. */
export function viewJson(engine, pos, score) {
  const legal = engine.legal(pos);
  const status = isWon(pos) ? "won" : legal.length ? "playing" : "stuck";
  const piles = [];
  pos.columns.forEach((col, i) => {
    if (col.length) piles.push({ kind: "column", index: i });
  });
  pos.cells.forEach((card, k) => {
    if (card !== null) piles.push({ kind: "cell", index: k });
  });
  const taps = {};
  const targets = {};
  for (const place of piles) {
    const moves = legal.filter((m) => samePlace(m.source, place));
    const home = moves.find((m) => m.target.kind === "foundation") || null;
    const smart = smartMove(pos, moves);
    const label = placeLabel(place);
    taps[label] = {
      tap: home === null ? null : moveToJson(home, pos, true),
      smart: smart === null ? null : moveToJson(smart, pos, true),
    };
    targets[label] = [...new Set(moves.map((m) => targetLabel(pos, m)))];
  }
  const finish = finishMoves(engine, pos);
  return {
    position: { columns: pos.columns, cells: pos.cells, foundations: pos.foundations, rules: pos.rules },
    legal_moves: legal.map((m) => moveToJson(m, pos, true)),
    status,
    score,
    taps,
    targets,
    finish: finish === null ? null : movesToJson(engine, finish, pos),
  };
}
