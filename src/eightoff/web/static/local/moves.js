/* Moves (eightoff.moves, and their JSON in eightoff.formats): {source, target, count}, each
 * place {kind: "column" | "cell" | "foundation", index (0-based; a foundation's is its
 * suit, a foundation target's ANY_SUIT)}; the compact notation ("3a", "a5", "3^", "^H3",
 * "35x2") and the JSON form ({card, from: [kind, n], to: [kind, n], count}, 1-based) read
 * and written with the engine's words for every mistake. */

import { RANK_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS, cardFromText, cardText, suitFromText } from "./cards.js";
import {
  BadInput, byCodePoint, chars, excerpt, isAscii, length, reprString, strip, thousands,
} from "./pytext.js";

export const CELL_LETTERS = "abcdefgh";
export const ANY_SUIT = 4;
const KINDS = ["column", "cell", "foundation"];

export const column = (index) => ({ kind: "column", index });
export const cell = (index) => ({ kind: "cell", index });
export const foundation = (suit = ANY_SUIT) => ({ kind: "foundation", index: suit });
export const FOUNDATION = foundation();
export const move = (source, target, count = 1) => ({ source, target, count });

export const samePlace = (a, b) => a.kind === b.kind && a.index === b.index;
export const sameMove = (a, b) => samePlace(a.source, b.source) && samePlace(a.target, b.target) && a.count === b.count;

/** "3", "a", "^" or "^H". */
export function placeText(place) {
  const i = place.index;
  if (place.kind === "column") return i >= 0 && i < 8 ? String(i + 1) : "?";
  if (place.kind === "cell") return i >= 0 && i < 8 ? CELL_LETTERS[i] : "?";
  if (i === ANY_SUIT) return "^";
  return i >= 0 && i < 4 ? `^${SUIT_LETTERS[i]}` : "^?";
}

/** "column 3", "cell a", "the foundation", "the ♥ foundation": for messages. */
export function placeName(place) {
  const i = place.index;
  if (place.kind === "column") return `column ${i + 1}`;
  if (place.kind === "cell") return i >= 0 && i < 8 ? `cell ${CELL_LETTERS[i]}` : `cell ${i + 1}`;
  if (i >= 0 && i < 4) return `the ${SUIT_SYMBOLS[i]} foundation`;
  return "the foundation";
}

/** "column-3", "cell-2", "foundation-H": the page's pile names. */
export function placeLabel(place) {
  if (place.kind === "foundation") return place.index === ANY_SUIT ? "foundation" : `foundation-${SUIT_LETTERS[place.index]}`;
  return `${place.kind}-${place.index + 1}`;
}

/** The compact notation of ``m``. */
export function moveText(m) {
  const s = placeText(m.source) + placeText(m.target);
  return m.count === 1 ? s : `${s}x${m.written ?? m.count}`;
}

// -- the compact notation ----------------------------------------------------------------------

const MAX_DIGITS = 30;

/** ``whole_number``: ASCII digits, no sign, spaces or leading zero (its digits). */
function wholeNumber(text) {
  if (isAscii(text) && /^[0-9]+$/.test(text)) {
    if (text.length > MAX_DIGITS) throw new BadInput(`number too large (${thousands(text.length)} digits; at most ${MAX_DIGITS})`);
    if (text[0] === "0" && text.length > 1) throw new BadInput(`${excerpt(text)} has a leading zero: write numbers without one`);
    return text;
  }
  throw new BadInput(`expected a whole number, not ${excerpt(text)}: ASCII digits 0-9 only, no sign or spaces`);
}

const badMove = (shown, why) => new BadInput(`bad move ${shown}: ${why}`, why);

/** ``Move.from_text``: the compact notation read (any case). */
export function moveFromText(text) {
  let t = strip(text).replaceAll(" ", "");
  const raw = excerpt(t);
  let count = 1;
  let written = null; // a count too large for a number, written as given
  if (t.toLowerCase().includes("x")) {
    const low = t.toLowerCase();
    const at = low.indexOf("x");
    const head = low.slice(0, at);
    const tail = low.slice(at + 1);
    try {
      written = wholeNumber(tail);
      count = Number(written);
    } catch (err) {
      if (!(err instanceof BadInput)) throw err;
      throw badMove(raw, `the count after 'x' must be a number ≥ 1: ${err.message}`);
    }
    if (count < 1) throw badMove(raw, "the count after 'x' must be a number ≥ 1");
    t = head;
  }
  const places = [];
  const low = chars(t.toLowerCase());
  const orig = chars(t);
  let i = 0;
  while (i < low.length && places.length <= 2) {
    const ch = low[i];
    if ("12345678".includes(ch)) places.push(column(Number(ch) - 1));
    else if (CELL_LETTERS.includes(ch)) places.push(cell(CELL_LETTERS.indexOf(ch)));
    else if (ch === "^") {
      if (!places.length && i + 1 < low.length) {
        let suit;
        try {
          suit = suitFromText(low[i + 1]);
        } catch (err) {
          if (!(err instanceof BadInput)) throw err;
          throw badMove(raw, "a foundation source needs its suit, like ^H3");
        }
        places.push(foundation(suit));
        i += 1;
      } else {
        places.push(FOUNDATION);
        if (places.length > 1 && i + 2 === low.length && "shdc".includes(low[i + 1])) i += 1; // "3^H"
      }
    } else throw badMove(raw, `${reprString(orig[i])} is not a column 1-8, a cell a-h or ^`);
    i += 1;
  }
  if (places.length !== 2) throw badMove(raw, "expected a source and a target, like 3a, a5, 3^ or 35x2");
  const [source, target] = places;
  if (samePlace(source, FOUNDATION)) throw badMove(raw, "a foundation source needs its suit, like ^H3");
  const m = move(source, target.kind === "foundation" ? FOUNDATION : target, count);
  if (!Number.isSafeInteger(count)) m.written = written;
  return m;
}

// -- JSON ------------------------------------------------------------------------------------

const isInt = (v) => typeof v === "number" && Number.isInteger(v);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** ``move_from_json`` without a position: the move an object names (its card, when given,
 * is checked against the foundation it names; against the position by the caller). */
export function moveFromJson(obj) {
  if (!isObject(obj)) {
    throw new BadInput('a move is a JSON object like {"card": "7H", "from": ["column", 3], "to": ["cell", 2], "count": 1}');
  }
  const unknown = Object.keys(obj).filter((k) => !["card", "from", "to", "count", "text"].includes(k));
  if (unknown.length) throw new BadInput(`unknown key ${excerpt(unknown.sort(byCodePoint)[0])} in move ${excerpt(obj)}`);
  let card = null;
  if (obj.card !== undefined && obj.card !== null) {
    if (typeof obj.card !== "string") throw new BadInput(`"card" must be text like "7H", not ${excerpt(obj.card)}`);
    try {
      card = cardFromText(obj.card);
    } catch (err) {
      if (!(err instanceof BadInput)) throw err;
      throw new BadInput(`move ${excerpt(obj)}: ${err.message}`);
    }
  }
  for (const key of ["from", "to"]) if (!(key in obj)) throw new BadInput(`move ${excerpt(obj)} lacks "${key}"`);
  const count = "count" in obj ? obj.count : 1;
  if (!isInt(count) || count < 1) throw new BadInput(`"count" must be a whole number ≥ 1, not ${excerpt(count)}`);
  const source = placeFromJson(obj.from, "from", card, true);
  const target = placeFromJson(obj.to, "to", card, false);
  const m = move(source, target, count);
  if ("text" in obj) {
    const written = obj.text;
    if (typeof written !== "string" || length(written) > 20) {
      throw new BadInput('"text" must be a move in the compact notation, like "3a"');
    }
    if (!sameMove(moveFromText(written), m)) throw new BadInput(`"text" ${excerpt(written)} is not the move ${moveText(m)}`);
  }
  return m;
}

function placeFromJson(given, key, card, asSource) {
  const shape = `"${key}" must be like ["column", 3], ["cell", 2] or ["foundation", 1]`;
  const value = typeof given === "string" ? [given] : given;
  if (!Array.isArray(value) || value.length < 1 || value.length > 2) throw new BadInput(`${shape}, not ${excerpt(value)}`);
  const kindText = value[0];
  if (typeof kindText !== "string" || !KINDS.includes(kindText.toLowerCase())) {
    throw new BadInput(`"${key}": unknown kind ${excerpt(kindText)}: expected column, cell or foundation`);
  }
  const kind = kindText.toLowerCase();
  const index = value.length === 2 ? value[1] : null;
  if (kind === "foundation") {
    let suit;
    if (typeof index === "string") {
      try {
        suit = suitFromText(index);
      } catch (err) {
        if (!(err instanceof BadInput)) throw err;
        throw new BadInput(`"${key}": unknown foundation ${excerpt(index)}`);
      }
    } else if (index === null) {
      if (!asSource) return FOUNDATION;
      if (card === null) throw new BadInput(`"${key}": a move from a foundation needs its index (1-4, S H D C) or a "card"`);
      suit = Math.floor(card / 13);
    } else if (isInt(index) && index >= 1 && index <= 4) suit = index - 1;
    else throw new BadInput(`"${key}": a foundation index is 1-4 (S, H, D, C), not ${excerpt(index)}`);
    if (card !== null && Math.floor(card / 13) !== suit) {
      throw new BadInput(`"${key}": ${cardText(card)} does not belong on the ${SUIT_LETTERS[suit]} foundation`);
    }
    return asSource ? foundation(suit) : FOUNDATION;
  }
  if (!isInt(index)) throw new BadInput(`"${key}": the ${kind} needs a number, not ${excerpt(index)}`);
  if (index < 1 || index > 8) throw new BadInput(`"${key}": there is no ${kind} ${index} (1-8)`);
  return kind === "column" ? column(index - 1) : cell(index - 1);
}

/** The cards ``m`` carries in ``pos`` (position JSON), deepest first; the move need not
 * be legal (``Position.moving_cards``). */
export function movingCards(pos, m) {
  const { kind, index } = m.source;
  if (kind === "column" && index >= 0 && index < 8) {
    const col = pos.columns[index];
    return m.count > 0 ? col.slice(Math.max(0, col.length - m.count)) : [];
  }
  const top = topCard(pos, m.source);
  return top === null ? [] : [top];
}

/** The card that would move from ``place``: exposed, in a cell, a foundation's top. */
export function topCard(pos, place) {
  const { kind, index } = place;
  if (kind === "column") {
    const col = index >= 0 && index < 8 ? pos.columns[index] : [];
    return col.length ? col[col.length - 1] : null;
  }
  if (kind === "cell") return index >= 0 && index < pos.cells.length ? pos.cells[index] : null;
  const suit = SUIT_LETTERS[index];
  const top = index >= 0 && index < 4 ? pos.foundations[suit] : 0;
  return top ? RANK_LETTERS[top - 1] + suit : null;
}

/** ``move_to_json``: the move as JSON, its ``card`` read in ``pos``; ``text`` adds its notation. */
export function moveToJson(m, pos, text = false) {
  const out = {};
  const cards = pos ? movingCards(pos, m) : [];
  const card = cards.length ? cards[0] : null;
  if (card !== null) out.card = card;
  const placeJson = (place) => {
    if (place.kind === "foundation" && place.index === ANY_SUIT) {
      return card === null ? ["foundation"] : ["foundation", SUIT_LETTERS.indexOf(card[1]) + 1];
    }
    return [place.kind, place.index + 1];
  };
  out.from = placeJson(m.source);
  out.to = placeJson(m.target);
  out.count = m.count;
  if (text) out.text = moveText(m);
  return out;
}

/** A move as the kernel and the API write it ({from: [kind, n], to: [kind, n], count}:
 * a foundation source names its suit, a foundation target is any suit's). */
export function fromJson(json) {
  const place = ([kind, n], asSource) => {
    if (kind === "foundation") return asSource ? foundation(n - 1) : FOUNDATION;
    return { kind, index: n - 1 };
  };
  return move(place(json.from, true), place(json.to, false), json.count ?? 1);
}
