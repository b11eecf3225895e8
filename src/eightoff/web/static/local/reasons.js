/* Why a move is refused, in the engine's words (eightoff.moverules.why_not). The kernel
 * decides: it gives the reason code and the values the words name (kernel.js whyNot);
 * this only words them, as the server does. */

import { SUIT_LETTERS, SUIT_SYMBOLS, cardNumber, cardSymbol } from "./cards.js";
import { moveToJson, placeName } from "./moves.js";

/** "9♥" for the kernel's "9H". */
const symbol = (text) => cardSymbol(cardNumber(text));

/** The words of one refusal, ``why`` the kernel's for the move ``m``. */
function words(why, m) {
  switch (why.reason) {
    case "no-card":
      return "a move carries at least one card";
    case "no-such-place":
      if (why.kind === "foundation") {
        return why.place === "source"
          ? "a move from a foundation must name its suit"
          : "a move to a foundation names no suit: the card's suit decides";
      }
      if (why.kind === "column") return `there is no column ${why.number}: columns are 1-8`;
      return `there is no cell ${why.number}: these rules have ${why.cells} cells`;
    case "same-place":
      return why.foundations ? "a foundation card cannot move to a foundation" : "source and target are the same place";
    case "empty-source":
      return `${placeName(m.source)} is empty`;
    case "too-few-cards":
      return `${placeName(m.source)} holds only ${why.held} card${why.held !== 1 ? "s" : ""}`;
    case "not-a-run":
      return `the ${why.count} cards from ${symbol(why.card)} down are not a run: ${symbol(why.lower)} does not go on ${symbol(why.upper)}`;
    case "no-take-back":
      return "cards cannot be taken back from a foundation under these rules";
    case "one-at-a-time":
      if (why.to === "foundation") return "one card at a time goes to a foundation";
      if (why.to === "cell") return "a cell holds one card";
      return `only one card at a time moves from ${placeName(m.source)}`;
    case "not-next":
      if (why.need === null) {
        return `${symbol(why.card)} is already on the ${SUIT_SYMBOLS[SUIT_LETTERS.indexOf(why.card.slice(-1))]} foundation`;
      }
      return `${symbol(why.card)} cannot go to the foundation: needs ${symbol(why.need)} first`;
    case "cell-to-cell":
      return "a card in a cell cannot move to another cell";
    case "cell-full":
      return `${placeName(m.target)} already holds ${symbol(why.holds)}`;
    case "does-not-build":
      return `${symbol(why.card)} cannot go on ${symbol(why.onto)}: ${wanted(why)}`;
    case "kings-only":
      return `only a King can go to an empty column, not ${symbol(why.card)}`;
    case "whole-column":
      return "moving a whole column into an empty column changes nothing";
    case "single-moves":
      return "these rules move one card at a time";
    case "no-room":
      return `a run of ${why.count} cards needs more room: at most ${why.most} can move now`;
    default:
      throw new Error(`the kernel gives an unknown reason: ${why.reason}`);
  }
}

/** What a card needs to lie on: "needs 9♣", "needs a red 9", or a King's words. */
function wanted(why) {
  if (why.need === null) return "a King goes on no card, only to an empty column";
  const above = symbol(why.need);
  if (why.colour === null) return `needs ${above}`;
  return `needs a ${why.colour} ${Array.from(above).slice(0, -1).join("")}`;
}

/** Why ``m`` may not be played in ``pos`` (position JSON), as the ``kernel`` (kernel.js)
 * decides it: [reason code, words], or null. */
export function whyNot(kernel, pos, m) {
  const why = kernel.whyNot(pos.rules, pos, moveToJson(m));
  return why === null ? null : [why.reason, words(why, m)];
}
