/* Why a move is refused, in the engine's words and reason codes (eightoff.moverules.why_not).
 * The kernel alone says whether a move is legal (it is one of its legal moves); this only
 * words a refusal the kernel made, as the server words it. */

import { RANK_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS, cardNumber, cardSymbol } from "./cards.js";
import { ANY_SUIT, placeName, samePlace } from "./moves.js";
import { maxRun } from "./rules.js";

const KING = 12; // a card's rank index (0-based)

const buildsOn = (card, onto, build) => {
  if (onto % 13 !== (card % 13) + 1) return false;
  if (build === "suit") return Math.floor(onto / 13) === Math.floor(card / 13);
  return (card >= 13 && card < 39) !== (onto >= 13 && onto < 39);
};

function placeError(place, rules, asSource) {
  const { kind, index: i } = place;
  if (kind === "foundation") {
    if (asSource && !(i >= 0 && i < 4)) return "a move from a foundation must name its suit";
    if (!asSource && i !== ANY_SUIT) return "a move to a foundation names no suit: the card's suit decides";
    return null;
  }
  if (kind === "column" && !(i >= 0 && i < 8)) return `there is no column ${i + 1}: columns are 1-8`;
  if (kind === "cell" && !(i >= 0 && i < rules.cells)) return `there is no cell ${i + 1}: these rules have ${rules.cells} cells`;
  return null;
}

function wanted(card, rules) {
  if (card % 13 === KING) return "a King goes on no card, only to an empty column";
  const above = cardSymbol(card + 1);
  if (rules.build === "suit") return `needs ${above}`;
  const red = card >= 13 && card < 39;
  return `needs a ${red ? "black" : "red"} ${Array.from(above).slice(0, -1).join("")}`;
}

/** Why ``m`` may not be played in ``pos`` (position JSON): [reason code, words], or null. */
export function whyNot(pos, m) {
  const { rules } = pos;
  const columns = pos.columns.map((col) => col.map(cardNumber));
  const cells = pos.cells.map((c) => (c === null ? null : cardNumber(c)));
  const founds = [...SUIT_LETTERS].map((s) => pos.foundations[s]);
  const src = m.source;
  const dst = m.target;
  const { count } = m;
  if (count < 1) return ["no-card", "a move carries at least one card"];
  const size = src.kind === "column" ? 8 : src.kind === "cell" ? cells.length : 4;
  const known = dst.kind === "foundation"
    ? dst.index === ANY_SUIT
    : dst.index >= 0 && dst.index < (dst.kind === "column" ? 8 : cells.length);
  if (!(known && src.index >= 0 && src.index < size)) {
    const where = placeError(src, rules, true) || placeError(dst, rules, false);
    if (where) return ["no-such-place", where];
  }
  if (samePlace(src, dst)) return ["same-place", "source and target are the same place"];
  let head;
  if (src.kind === "column") {
    const col = columns[src.index];
    if (!col.length) return ["empty-source", `${placeName(src)} is empty`];
    if (count > col.length) return ["too-few-cards", `${placeName(src)} holds only ${col.length} card${col.length !== 1 ? "s" : ""}`];
    head = col[col.length - count];
    let run = 1;
    while (run < count && buildsOn(col[col.length - run], col[col.length - run - 1], rules.build)) run += 1;
    if (run < count) {
      const lower = col[col.length - run];
      const upper = col[col.length - run - 1];
      return ["not-a-run", `the ${count} cards from ${cardSymbol(head)} down are not a run: ${cardSymbol(lower)} does not go on ${cardSymbol(upper)}`];
    }
  } else {
    if (src.kind === "foundation" && !rules.take_back) {
      return ["no-take-back", "cards cannot be taken back from a foundation under these rules"];
    }
    const held = src.kind === "cell" ? cells[src.index] : founds[src.index] ? src.index * 13 + founds[src.index] - 1 : null;
    if (held === null) return ["empty-source", `${placeName(src)} is empty`];
    if (count > 1) return ["one-at-a-time", `only one card at a time moves from ${placeName(src)}`];
    head = held;
  }
  if (dst.kind === "foundation") {
    if (count > 1) return ["one-at-a-time", "one card at a time goes to a foundation"];
    if (src.kind === "foundation") return ["same-place", "a foundation card cannot move to a foundation"];
    const suit = Math.floor(head / 13);
    const have = founds[suit];
    if (have !== head % 13) {
      if (have > head % 13) return ["not-next", `${cardSymbol(head)} is already on the ${SUIT_SYMBOLS[suit]} foundation`];
      const need = RANK_LETTERS[have] + SUIT_LETTERS[suit];
      return ["not-next", `${cardSymbol(head)} cannot go to the foundation: needs ${cardSymbol(cardNumber(need))} first`];
    }
    return null;
  }
  if (dst.kind === "cell") {
    if (count > 1) return ["one-at-a-time", "a cell holds one card"];
    if (src.kind === "cell") return ["cell-to-cell", "a card in a cell cannot move to another cell"];
    const taken = cells[dst.index];
    if (taken !== null) return ["cell-full", `${placeName(dst)} already holds ${cardSymbol(taken)}`];
    return null;
  }
  const target = columns[dst.index];
  if (target.length) {
    const onto = target[target.length - 1];
    if (!buildsOn(head, onto, rules.build)) {
      return ["does-not-build", `${cardSymbol(head)} cannot go on ${cardSymbol(onto)}: ${wanted(head, rules)}`];
    }
  } else {
    if (!(rules.empty_column === "any" || head % 13 === KING)) {
      return ["kings-only", `only a King can go to an empty column, not ${cardSymbol(head)}`];
    }
    if (src.kind === "column" && count === columns[src.index].length) {
      return ["whole-column", "moving a whole column into an empty column changes nothing"];
    }
  }
  if (count > 1) {
    if (rules.group_moves === "single") return ["single-moves", "these rules move one card at a time"];
    const empty = columns.filter((c) => !c.length).length - (target.length ? 0 : 1);
    const cap = maxRun(rules, cells.filter((c) => c === null).length, empty);
    if (count > cap) return ["no-room", `a run of ${count} cards needs more room: at most ${cap} can move now`];
  }
  return null;
}
