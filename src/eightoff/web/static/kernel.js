/**
 * The game kernel and the solver as WebAssembly, with no server: legal moves, a move
 * played, the game's autoplay and the solver, in the web API's JSON.
 *
 * kernel.wasm is built by `make wasm` from src/eightoff/wasm/exports.c (the C kernel and
 * the solver's C core, the same code as the server's). This module imports nothing and
 * runs in a Web Worker, on a page, or in Node 18 and later:
 *
 *     import { loadKernel } from "./kernel.js";
 *     const kernel = await loadKernel("/static/kernel.wasm");
 *     kernel.legalMoves(rules, position);   // → [move, ...]
 *     kernel.play(rules, position, move);   // → {position, move} | {refused, reason}
 *     kernel.autoplayMoves(rules, position); // → [move, ...]
 *     kernel.whyNot(rules, position, move);   // → null | {reason: "does-not-build", ...}
 *     kernel.solve(rules, position, { maxNodes: 200000, seconds: 10 }); // → {verdict, moves, ...}
 *
 * A page's Content-Security-Policy must allow WebAssembly (script-src 'wasm-unsafe-eval', as
 * the server's does). Every call is synchronous (a solve runs until it ends: call it in a
 * worker). Shapes, those of POST /api/state and POST /api/solve (docs/api.md):
 *
 * - rules: Rules.to_json(), `{cells: 8 | 4 | 2, empty_column: "kings" | "any", build: "suit" |
 *   "alternate", layout: "eight-off" | "bakers", group_moves: "single" | "cells" | "freecell",
 *   take_back: boolean}`; a missing option is the standard game's. `null`: the position's own
 *   `rules`.
 * - position: `{columns: [["4S", "KD", ...], ... 8 columns, covered → exposed], cells: ["6D",
 *   null, ...], foundations: {S, H, D, C: top rank 0-13}, rules}` (foundations may be a list
 *   in S, H, D, C order); each of the 52 cards once. A position answered carries the rules.
 * - move: `{card: "7H", from: [kind, n], to: [kind, n], count, text: "3a"}`, kinds "column",
 *   "cell", "foundation", 1-based numbers (a foundation's is its suit's place in S, H, D, C);
 *   `card` is the card that moves (the deepest of a run), `text` the compact notation. A move
 *   given may be such an object (`card`, `count` and the foundation's number optional; a
 *   given `card` must be the card that moves) or its compact notation ("3a", "a5", "3^",
 *   "^H3", "35x2").
 * - whyNot's answer: null where the move may be played, else the engine's reason code
 *   (eightoff.moverules.why_not, the codes of eightoff.errors.Illegal) and the values its
 *   words name, cards as text ("9H"): no-such-place {place: "source" | "target", kind,
 *   number (1-based), cells (the rules')}; same-place {foundations: boolean};
 *   one-at-a-time {to: null | "foundation" | "cell"}; too-few-cards {held}; not-a-run
 *   {count, card, lower, upper}; not-next {card, need: the card wanted first, null: card
 *   is home}; cell-full {card, holds}; does-not-build {card, onto, need: the card of its
 *   suit one rank up (null for a King), colour: null (need itself) or "red" | "black" (a
 *   card of need's rank in that colour)}; kings-only {card}; no-room {count, most}; the
 *   others (no-card, no-take-back, empty-source, cell-to-cell, whole-column,
 *   single-moves) none.
 * - solve's answer: `{verdict: "solved" | "unsolvable" | "unknown", moves: [move, ...],
 *   length, optimal: false, nodes, seconds}`: the line of eightoff.solver.solve with the same
 *   node limit (maxNodes), move for move; "unknown" where a limit stopped it (or its tables
 *   found no room: `outOfMemory: true`).
 *
 * Input that is no position, rules or move of this shape throws a TypeError or RangeError
 * naming what is wrong.
 */

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
const KINDS = ["column", "cell", "foundation"];
const CELL_LETTERS = "abcdefgh";
const COLUMNS = 8;
const EMPTY_CELL = 255;
const GROUPS = ["single", "cells", "freecell"];
const RULES_DEFAULT = {
  cells: 8, empty_column: "kings", build: "suit", layout: "eight-off", group_moves: "cells",
  take_back: false,
};
const RULE_VALUES = {
  cells: [8, 4, 2],
  empty_column: ["kings", "any"],
  build: ["suit", "alternate"],
  layout: ["eight-off", "bakers"],
  group_moves: GROUPS,
  take_back: [false, true],
};
const VERDICTS = ["solved", "unsolvable", "unknown"];
// eo_why_not's codes (engine.h WHY_*, eightoff.errors.Illegal's order; 0: legal).
const WHY = [
  null, "no-card", "no-such-place", "same-place", "no-take-back", "empty-source", "one-at-a-time", "too-few-cards",
  "not-a-run", "not-next", "cell-to-cell", "cell-full", "does-not-build", "kings-only", "whole-column",
  "single-moves", "no-room",
];

// The buffer's layout and the calls' errors (exports.c).
const IN_POSITION = 5;
const IN_MOVE = 80;
const OUT_HEAD = 128;
const OUT_POSITION = 128;
const OUT_MOVES = 256;
const P_CELLS = 4;
const P_LENS = 12;
const P_CARDS = 20;
const ERRORS = {
  [-1]: "rules: an option out of range",
  [-2]: "position: each of the 52 cards must be on the table, in a cell or home once",
  [-3]: "move: no such place or count",
  [-4]: "out of memory",
  [-5]: "the found line does not replay (a bug in the C core)",
  [-6]: "the line is longer than the buffer holds",
  [-7]: "limits: a time that is a number, and tables of 4096 bytes or more",
};
const EO_BAD_MOVE = -3;
const EO_NOMEM = -4;

/** The card numbered 0..51 (suit * 13 + rank - 1, suits S, H, D, C) as text: "TH". */
const cardText = (c) => RANKS[c % 13] + SUITS[Math.floor(c / 13)];

/** A card's number from its text ("7H", "10h", "th"); a TypeError for anything else. */
function cardNumber(text, where) {
  if (typeof text !== "string") throw new TypeError(`${where}: a card is text like "7H", not ${JSON.stringify(text)}`);
  const t = text.trim().toUpperCase();
  const suit = SUITS.indexOf(t.slice(-1));
  const rankText = t.slice(0, -1) === "10" ? "T" : t.slice(0, -1);
  const rank = rankText.length === 1 ? RANKS.indexOf(rankText) : -1;
  if (suit < 0 || rank < 0) throw new TypeError(`${where}: ${JSON.stringify(text)} is no card (like "7H", "TS", "10D")`);
  return suit * 13 + rank;
}

/** Rules JSON with every option (the standard game's where missing), as Rules reads it:
 * where any card fills an empty column, runs of "cells" read as "freecell". */
export function rulesJson(rules) {
  if (rules === null || typeof rules !== "object" || Array.isArray(rules)) {
    throw new TypeError("rules: an object of options (Rules.to_json()) is needed");
  }
  const out = { ...RULES_DEFAULT };
  for (const [name, value] of Object.entries(rules)) {
    if (!(name in RULE_VALUES)) throw new TypeError(`rules: unknown option ${JSON.stringify(name)}`);
    if (!RULE_VALUES[name].includes(value)) {
      throw new RangeError(`rules: ${name} must be one of ${RULE_VALUES[name].join(", ")}, not ${JSON.stringify(value)}`);
    }
    out[name] = value;
  }
  if (out.empty_column === "any" && out.group_moves === "cells") out.group_moves = "freecell";
  return out;
}

/** The rules as the kernel reads them: cells, in suit, Kings only, group, take-back. */
const rulesBytes = (r) => [
  r.cells, r.build === "suit" ? 1 : 0, r.empty_column === "kings" ? 1 : 0, GROUPS.indexOf(r.group_moves),
  r.take_back ? 1 : 0,
];

/** A position read from its JSON: columns and cells as card numbers (null: empty). */
function readPosition(position, rules) {
  if (position === null || typeof position !== "object") throw new TypeError("position: an object is needed");
  const { columns, cells = [], foundations = [0, 0, 0, 0] } = position;
  if (!Array.isArray(columns) || columns.length !== COLUMNS) throw new TypeError("position: columns: a list of 8 columns is needed");
  const cols = columns.map((col, i) => {
    if (!Array.isArray(col)) throw new TypeError(`position: columns[${i}]: a list of cards is needed`);
    return col.map((c) => cardNumber(c, `position: columns[${i}]`));
  });
  if (!Array.isArray(cells)) throw new TypeError("position: cells: a list of cards or null is needed");
  if (cells.length > rules.cells) throw new RangeError(`position: cells: ${cells.length} given, the rules have ${rules.cells}`);
  const held = Array.from({ length: rules.cells }, (_, k) => (cells[k] == null ? null : cardNumber(cells[k], "position: cells")));
  const founds = Array.isArray(foundations) ? foundations : [...SUITS].map((s) => foundations?.[s] ?? 0);
  if (!Array.isArray(foundations) && (foundations === null || typeof foundations !== "object"
    || Object.keys(foundations).some((s) => !SUITS.includes(s)))) {
    throw new TypeError("position: foundations: {S, H, D, C: top rank} or 4 ranks is needed");
  }
  if (founds.length !== 4 || !founds.every((f) => Number.isInteger(f) && f >= 0 && f <= 13)) {
    throw new RangeError("position: foundations: each top rank is a number 0-13");
  }
  return { cols, held, founds };
}

/** A move's JSON (move_to_json with its text) from the kernel's 6 bytes at ``at``. */
function moveJson(bytes, at) {
  const view = new Int8Array(bytes.buffer, bytes.byteOffset + at, 6);
  const [sk, si, dk, di, count] = view;
  const card = bytes[at + 5];
  const suit = Math.floor(card / 13);
  const from = [KINDS[sk], (sk === 2 ? suit : si) + 1];
  const to = [KINDS[dk], (dk === 2 ? suit : di) + 1];
  const place = (kind, i, source) => (kind === 0 ? String(i + 1) : kind === 1 ? CELL_LETTERS[i] : source ? `^${SUITS[suit]}` : "^");
  const text = place(sk, si, true) + place(dk, di, false) + (count > 1 ? `x${count}` : "");
  return { card: cardText(card), from, to, count, text };
}

/** A place of a move given as JSON: [kind, index 0-based] (-1: a foundation target). */
function readPlace(value, key, card, source) {
  const shape = `move: "${key}" must be like ["column", 3], ["cell", 2] or ["foundation", 1]`;
  const v = typeof value === "string" ? [value] : value;
  if (!Array.isArray(v) || v.length < 1 || v.length > 2) throw new TypeError(shape);
  const kind = typeof v[0] === "string" ? KINDS.indexOf(v[0].toLowerCase()) : -1;
  if (kind < 0) throw new TypeError(`move: "${key}": unknown kind ${JSON.stringify(v[0])}: expected column, cell or foundation`);
  const index = v[1];
  if (kind === 2) {
    let suit;
    if (typeof index === "string" && SUITS.includes(index.toUpperCase())) suit = SUITS.indexOf(index.toUpperCase());
    else if (Number.isInteger(index) && index >= 1 && index <= 4) suit = index - 1;
    else if (index === undefined && card !== null) suit = Math.floor(card / 13);
    else if (index === undefined && !source) return [2, -1];
    else throw new RangeError(`move: "${key}": a foundation is numbered 1-4 (S, H, D, C)${source ? ", or named by the card" : ""}`);
    if (card !== null && Math.floor(card / 13) !== suit) throw new RangeError(`move: "${key}": ${cardText(card)} does not belong on the ${SUITS[suit]} foundation`);
    return source ? [2, suit] : [2, -1];
  }
  const most = kind === 0 ? COLUMNS : 8;
  if (!Number.isInteger(index) || index < 1 || index > most) throw new RangeError(`move: "${key}": there is no ${KINDS[kind]} ${JSON.stringify(index)} (1-${most})`);
  return [kind, index - 1];
}

/** A move in the compact notation ("3a", "a5", "3^", "^H3", "35x2") as [kinds, indexes, count]. */
function readText(text) {
  const t = text.trim().replace(/ /g, "").toLowerCase();
  const bad = () => new TypeError(`move: ${JSON.stringify(text)} is not a move like 3a, a5, 3^, ^H3 or 35x2`);
  const m = /^(?:([1-8])|([a-h])|\^([shdc]))(?:([1-8])|([a-h])|\^[shdc]?)(?:x(\d+))?$/.exec(t);
  if (m === null) throw bad();
  const count = m[6] === undefined ? 1 : Number(m[6]);
  if (count < 1) throw bad();
  const src = m[1] ? [0, Number(m[1]) - 1] : m[2] ? [1, CELL_LETTERS.indexOf(m[2])] : [2, SUITS.indexOf(m[3].toUpperCase())];
  const dst = m[4] ? [0, Number(m[4]) - 1] : m[5] ? [1, CELL_LETTERS.indexOf(m[5])] : [2, -1];
  return [...src, ...dst, count];
}

/** A move as the kernel's five numbers, and the card it names (null: none). */
function readMove(move) {
  if (typeof move === "string") return { fields: readText(move), card: null };
  if (move === null || typeof move !== "object") throw new TypeError('move: an object like {"from": ["column", 3], "to": ["cell", 2]} or "3a" is needed');
  const unknown = Object.keys(move).filter((k) => !["card", "from", "to", "count", "text"].includes(k));
  if (unknown.length) throw new TypeError(`move: unknown key ${JSON.stringify(unknown[0])}`);
  const card = move.card == null ? null : cardNumber(move.card, "move: card");
  const count = move.count ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`move: "count" must be a whole number ≥ 1, not ${JSON.stringify(count)}`);
  const fields = [...readPlace(move.from, "from", card, true), ...readPlace(move.to, "to", card, false), count];
  if (typeof move.text === "string" && readText(move.text).join() !== fields.join()) {
    throw new TypeError(`move: "text" ${JSON.stringify(move.text)} is not this move`);
  }
  return { fields, card };
}

/** eo_why_not's answer (its code and the nine int32 at OUT_HEAD) as whyNot's. */
function whyJson([code, variant, place, card, other, lower, need, number, most]) {
  const reason = WHY[code];
  const text = (c) => (c < 0 ? null : cardText(c));
  switch (reason) {
    case "no-such-place":
      return { reason, place: place ? "target" : "source", kind: ["foundation", "foundation", "column", "cell"][variant], number: number + 1, cells: most };
    case "same-place":
      return { reason, foundations: variant === 1 };
    case "one-at-a-time":
      return { reason, to: [null, "foundation", "cell"][variant] };
    case "too-few-cards":
      return { reason, held: number };
    case "not-a-run":
      return { reason, count: number, card: text(card), lower: text(lower), upper: text(other) };
    case "not-next":
      return { reason, card: text(card), need: text(need) };
    case "cell-full":
      return { reason, card: text(card), holds: text(other) };
    case "does-not-build":
      return { reason, card: text(card), onto: text(other), need: text(need), colour: [null, "red", "black"][variant] };
    case "kings-only":
      return { reason, card: text(card) };
    case "no-room":
      return { reason, count: number, most };
    default:
      return { reason };
  }
}

/** WASI's imports, the few a kernel needs: output to the console, the clocks, random
 * bytes, an exit that throws; every other call answers ENOSYS. */
function wasiImports(module, memory) {
  const ENOSYS = 52;
  const lines = { 1: "", 2: "" };
  const view = () => new DataView(memory().buffer);
  const known = {
    fd_write(fd, iovs, count, written) {
      const dv = view();
      let total = 0;
      for (let k = 0; k < count; k++) {
        const ptr = dv.getUint32(iovs + 8 * k, true);
        const len = dv.getUint32(iovs + 8 * k + 4, true);
        lines[fd] = (lines[fd] ?? "") + new TextDecoder().decode(new Uint8Array(memory().buffer, ptr, len));
        total += len;
      }
      const parts = lines[fd].split("\n");
      lines[fd] = parts.pop();
      for (const line of parts) (fd === 2 ? console.error : console.log)(line);
      dv.setUint32(written, total, true);
      return 0;
    },
    proc_exit(code) {
      throw new Error(`kernel.wasm exited (${code})`);
    },
    clock_time_get(id, precision, out) {
      const ms = id === 0 ? Date.now() : performance.now();
      view().setBigUint64(out, BigInt(Math.round(ms * 1e6)), true);
      return 0;
    },
    clock_res_get(id, out) {
      view().setBigUint64(out, 1000n, true);
      return 0;
    },
    random_get(buf, len) {
      const bytes = new Uint8Array(memory().buffer, buf, len);
      for (let at = 0; at < len; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(len, at + 65536)));
      return 0;
    },
    environ_sizes_get(count, size) {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return 0;
    },
    args_sizes_get(count, size) {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return 0;
    },
    environ_get: () => 0,
    args_get: () => 0,
  };
  const imports = {};
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    imports[from] ??= {};
    imports[from][name] = known[name] ?? (() => ENOSYS);
  }
  return imports;
}

/** The module's bytes or compiled module from ``source``: a URL (string or URL), a
 * Response, an ArrayBuffer or typed array, or a WebAssembly.Module. */
async function compiled(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  const response = typeof Response !== "undefined" && source instanceof Response ? source : await fetch(source);
  if (!response.ok) throw new Error(`kernel.wasm: ${response.status} ${response.statusText} from ${response.url}`);
  if (WebAssembly.compileStreaming && (response.headers.get("content-type") ?? "").startsWith("application/wasm")) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Loads kernel.wasm from ``source`` (a URL string or URL, a Response, an ArrayBuffer or
 * Uint8Array of its bytes, or a compiled WebAssembly.Module) and returns the kernel:
 * `{legalMoves, play, whyNot, autoplayMoves, solve, scheduleFields}` (see the module's comment).
 */
export async function loadKernel(source) {
  const module = await compiled(source);
  let instance = null;
  const memory = () => instance.exports.memory;
  instance = await WebAssembly.instantiate(module, wasiImports(module, memory));
  const eo = instance.exports;
  eo._initialize?.();
  eo.eo_init();
  const ioAt = eo.eo_io();
  const io = () => new Uint8Array(memory().buffer, ioAt, eo.eo_io_bytes());

  // The schedule's fields by name: [index, values, default values].
  const schedule = new Map();
  for (let k = 0; k < eo.eo_schedule_fields(); k++) {
    const at = eo.eo_schedule_name(k);
    const bytes = new Uint8Array(memory().buffer, at);
    const name = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
    const count = eo.eo_schedule_count(k);
    schedule.set(name, { k, defaults: Array.from({ length: count }, (_, i) => eo.eo_schedule_default(k, i)) });
  }

  /** Writes the rules and the position to the buffer; returns them read. */
  function write(rulesIn, position) {
    const rules = rulesJson(rulesIn ?? position?.rules ?? {});
    const { cols, held, founds } = readPosition(position, rules);
    const buf = io();
    buf.fill(0, 0, OUT_HEAD);
    buf.set(rulesBytes(rules), 0);
    buf.set(founds, IN_POSITION);
    for (let k = 0; k < 8; k++) buf[IN_POSITION + P_CELLS + k] = held[k] ?? EMPTY_CELL;
    const cards = cols.flat();
    if (cards.length > 52) throw new RangeError(ERRORS[-2]);
    buf.set(cols.map((c) => c.length), IN_POSITION + P_LENS);
    buf.set(cards, IN_POSITION + P_CARDS);
    return { rules, cols, held, founds };
  }

  /** A call's count, or its error thrown. */
  function checked(n) {
    if (n >= 0) return n;
    throw (n === -1 || n === -2 || n === -3 || n === -7 ? new RangeError(ERRORS[n]) : new Error(`kernel.wasm: ${ERRORS[n]}`));
  }

  const movesAt = (n) => {
    const buf = io();
    return Array.from({ length: n }, (_, k) => moveJson(buf, OUT_MOVES + 6 * k));
  };

  /** The position at OUT_POSITION as JSON. */
  function positionOut(rules) {
    const buf = io();
    const p = OUT_POSITION;
    let at = p + P_CARDS;
    const columns = [];
    for (let i = 0; i < COLUMNS; i++) {
      const len = buf[p + P_LENS + i];
      columns.push(Array.from(buf.subarray(at, at + len), cardText));
      at += len;
    }
    const cells = Array.from({ length: rules.cells }, (_, k) => (buf[p + P_CELLS + k] === EMPTY_CELL ? null : cardText(buf[p + P_CELLS + k])));
    const foundations = Object.fromEntries([...SUITS].map((s, i) => [s, buf[p + i]]));
    return { columns, cells, foundations, rules };
  }

  return {
    /** Position.legal_moves, in its order: /api/state's ``legal_moves``. */
    legalMoves(rules, position) {
      write(rules, position);
      return movesAt(checked(eo.eo_legal_moves()));
    },

    /** ``move`` played: `{position, move}` (the position reached, the move as answered),
     * or `{refused: "illegal" | "unreadable", reason}` when it is not one of the legal
     * moves, or names a card that does not move (or no place the rules have). */
    play(rules, position, move) {
      const { rules: r, cols, held, founds } = write(rules, position);
      let read;
      try {
        read = readMove(move);
      } catch (err) {
        return { refused: "unreadable", reason: err.message };
      }
      const [sk, si, , , count] = read.fields;
      const moving = sk === 0 ? cols[si][cols[si].length - count] : sk === 1 ? held[si] : founds[si] ? si * 13 + founds[si] - 1 : null;
      if (read.card !== null && moving !== read.card) {
        const said = moving == null ? "no card" : cardText(moving);
        return { refused: "unreadable", reason: `move: the card that moves is ${said}, not ${cardText(read.card)}` };
      }
      new Int8Array(memory().buffer, ioAt + IN_MOVE, 5).set(read.fields.map((f) => Math.min(f, 127)));
      const played = eo.eo_play();
      if (played === 0 || played === EO_BAD_MOVE) return { refused: "illegal", reason: "move: not one of the legal moves here" };
      checked(played);
      return { position: positionOut(r), move: movesAt(1)[0] };
    },

    /** Why ``move`` may not be played (eightoff.moverules.why_not): null where it may, else
     * `{reason, ...values}` (see the module's comment). Any column, cell (1-8) or count is
     * taken, places the rules lack included; a `card` the move names is not checked. */
    whyNot(rules, position, move) {
      write(rules, position);
      const { fields } = readMove(move);
      new Int8Array(memory().buffer, ioAt + IN_MOVE, 5).set(fields.map((f) => Math.min(f, 127)));
      const code = checked(eo.eo_why_not());
      if (code === 0) return null;
      const head = new DataView(memory().buffer, ioAt + OUT_HEAD, 36);
      return whyJson(Array.from({ length: 9 }, (_, k) => head.getInt32(4 * k, true)));
    },

    /** The moves the game's safe autoplay makes now, in order (eightoff.game.autoplay_moves). */
    autoplayMoves(rules, position) {
      write(rules, position);
      return movesAt(checked(eo.eo_autoplay()));
    },

    /**
     * eightoff.solver.solve: `{verdict, moves, length, optimal: false, nodes, seconds}`.
     * Options: maxNodes (positions, default 1,000,000; null: none; the same line on every
     * machine), seconds (default 60; null: none), maxBytes (the tables, default 256 MiB, as
     * the server's), schedule (`{field: value}` over eightoff.solver.Schedule's defaults).
     */
    solve(rules, position, { maxNodes = 1_000_000, seconds = 60, maxBytes = 256 * 2 ** 20, schedule: changes = {} } = {}) {
      const start = performance.now();
      const limit = (value, name, least) => {
        if (value !== null && !(typeof value === "number" && value >= least)) {
          throw new RangeError(`solve: ${name} must be a number ≥ ${least}${name === "maxBytes" ? "" : ", or null for none"}`);
        }
      };
      limit(maxNodes, "maxNodes", 1);
      limit(seconds, "seconds", 0);
      if (maxBytes === null) throw new RangeError("solve: maxBytes must be a number ≥ 4096");
      limit(maxBytes, "maxBytes", 4096);
      write(rules, position);
      eo.eo_schedule_reset();
      for (const [name, value] of Object.entries(changes)) {
        const field = schedule.get(name);
        const values = Array.isArray(value) ? value : [value];
        if (field === undefined) throw new TypeError(`schedule: unknown field ${JSON.stringify(name)}`);
        if (values.length !== field.defaults.length || !values.every((v, i) => eo.eo_schedule_set(field.k, i, Number(v)))) {
          throw new RangeError(`schedule: ${name}: ${field.defaults.length > 1 ? `${field.defaults.length} whole numbers` : "a number"} is needed`);
        }
      }
      const status = eo.eo_solve(maxNodes ?? -1, seconds ?? -1, maxBytes);
      const elapsed = (performance.now() - start) / 1000;
      if (status === EO_NOMEM) {
        return { verdict: "unknown", moves: [], length: 0, optimal: false, nodes: 0, seconds: elapsed, outOfMemory: true };
      }
      checked(status);
      const head = new DataView(memory().buffer, ioAt + OUT_HEAD, 16);
      const [n, length, nodes] = [4, 8, 12].map((at) => head.getInt32(at, true));
      return { verdict: VERDICTS[status], moves: movesAt(n), length, optimal: false, nodes, seconds: elapsed };
    },

    /** eightoff.solver.Schedule's fields and their default values (a list for resolve_home). */
    scheduleFields() {
      return Object.fromEntries([...schedule].map(([name, f]) => [name, f.defaults.length > 1 ? [...f.defaults] : f.defaults[0]]));
    },
  };
}
