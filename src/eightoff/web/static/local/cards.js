/* Cards as the engine names them (eightoff.cards): a card is its text, "7H"; its number is
 * suit * 13 + rank - 1 with the suits in foundation order S, H, D, C. */

import { BadInput, excerpt, strip } from "./pytext.js";

export const SUIT_LETTERS = "SHDC";
export const SUIT_SYMBOLS = "♠♥♦♣";
const SUIT_ALIASES = ["♠♤", "♥♡", "♦♢", "♣♧"];
export const RANK_LETTERS = "A23456789TJQK";

/** Card number ``n`` (0-51) as text: "7H", "TS". */
export const cardText = (n) => RANK_LETTERS[n % 13] + SUIT_LETTERS[Math.floor(n / 13)];

/** The number of card text "7H" (as the engine writes it). */
export const cardNumber = (text) => SUIT_LETTERS.indexOf(text[text.length - 1]) * 13 + RANK_LETTERS.indexOf(text[0]);

/** "7♥", "10♠". */
export function cardSymbol(n) {
  const r = n % 13;
  return (r === 9 ? "10" : RANK_LETTERS[r]) + SUIT_SYMBOLS[Math.floor(n / 13)];
}

// Python's ``t in "SHDC"`` is a substring test: "" and "SH" are in it too.
const within = (text, letters) => (letters.includes(text) ? letters.indexOf(text) : -1);

/** ``Suit.from_text``: S/H/D/C (any case) or a suit symbol; its index. */
export function suitFromText(text) {
  const t = strip(text).toUpperCase();
  const i = within(t, SUIT_LETTERS);
  if (i >= 0) return i;
  for (const [k, symbols] of SUIT_ALIASES.entries()) if (symbols.includes(t)) return k;
  throw new BadInput(`unknown suit ${excerpt(text)}: expected one of S, H, D, C`);
}

/** ``parse_rank``: A, 2-9, T or 10, J, Q, K (any case); 1-13. */
export function parseRank(text) {
  const t = strip(text).toUpperCase();
  if (t === "10") return 10;
  if (Array.from(t).length === 1 && RANK_LETTERS.includes(t)) return RANK_LETTERS.indexOf(t) + 1;
  throw new BadInput(`unknown rank ${excerpt(text)}: expected A, 2-9, T or 10, J, Q, K`);
}

/** ``Card.from_text``: "7H", "TH", "10h", "7♥" or "♥7"; the card's number. */
export function cardFromText(text) {
  const t = Array.from(strip(text));
  if (t.length < 2) throw new BadInput(`cannot read card ${excerpt(text)}: expected rank then suit, like 7H`);
  try {
    if (SUIT_SYMBOLS.includes(t[0]) || "♤♡♢♧".includes(t[0])) {
      const rank = parseRank(t.slice(1).join(""));
      return suitFromText(t[0]) * 13 + rank - 1;
    }
    const rank = parseRank(t.slice(0, -1).join(""));
    return suitFromText(t[t.length - 1]) * 13 + rank - 1;
  } catch (err) {
    if (!(err instanceof BadInput)) throw err;
    throw new BadInput(`cannot read card ${excerpt(text)}: ${err.message}`);
  }
}
