/* Every word the page shows or says, from one message table per language: ``t(key, params)``
 * looks the key up in the current language (English when a language lacks it) and fills in
 * the ``{name}`` placeholders. The words are added with ``addMessages`` (lang.js, English
 * and French side by side). */

import { RANKS, cardSuit, isObject, parsePile, placeLabel, rankText } from "./state.js";

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The message tables by language, filled by lang.js. */
export const MESSAGES = { en: {} };

let language = "en";

/** The language messages come in ("en", or one added with ``addMessages``). */
export const currentLanguage = () => language;

export function setLanguage(code) {
  if (MESSAGES[code]) language = code;
  document.documentElement.lang = language;
}

/** Add (or extend) the table of language ``code``. */
export function addMessages(code, table) {
  MESSAGES[code] = { ...(MESSAGES[code] || {}), ...table };
}

const fill = (text, params) =>
  params ? text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all)) : text;

/** The message ``key`` in the current language, its ``{name}`` placeholders filled. */
export function t(key, params) {
  const text = (MESSAGES[language] && MESSAGES[language][key]) ?? MESSAGES.en[key];
  if (text === undefined) throw new Error(`no message ${key}`);
  return fill(text, params);
}

/** The message ``key.variant`` when the tables have it (a form some language needs, as
 * French "à la dame" for a queen), else ``key``; filled with ``params``. */
export function tForm(key, variant, params) {
  const form = `${key}.${variant}`;
  const has = (MESSAGES[language] && form in MESSAGES[language]) || form in MESSAGES.en;
  return t(has ? form : key, params);
}

/** What the server refused (an error's ``data``: its ``reason_code``) in the page's
 * language, or null to keep the server's own (English) words. ``build`` is the game's
 * build rule ("suit", "alternate"), which one reason names. */
export function serverWords(data, build) {
  const table = MESSAGES[language] || {};
  let text = data && typeof data.reason_code === "string" ? table[`reason.${data.reason_code}`] : undefined;
  if (text === undefined) return null;
  // A game code that cannot be read: what exactly is wrong with it ({code, ...its values}).
  const fault = data.fault;
  const precise = isObject(fault) ? table[`reason.code.${fault.code}`] : undefined;
  if (precise !== undefined) text = fill(table["reason.bad-game-code.fault"], { fault: fill(precise, fault) });
  return fill(text, { build: table[`reason.build.${build}`] || "" });
}

/** The message ``key``, or ``fallback`` (words the server sent) when no table has it. */
export function tOr(key, fallback) {
  const text = (MESSAGES[language] && MESSAGES[language][key]) ?? MESSAGES.en[key];
  return text === undefined ? fallback : text;
}

/** A rank (1-13) by name: "ace", "10", "king". */
export const rankName = (rank) => t(`rank.${rank}`);

/** "ace of spades". */
export const cardName = (card) =>
  t("card.name", { rank: rankName(RANKS.indexOf(card[0]) + 1), suit: t(`suit.${cardSuit(card)}`) });

/** A card's rank as its corner index shows it: "10", "J" ("V" in French). */
export const indexText = (card) => ("AJQK".includes(card[0]) ? t(`index.${card[0]}`) : rankText(card));

/** "10♥". */
export const cardShort = (card) => indexText(card) + SUIT_SYMBOLS[cardSuit(card)];

/** A pile label by name: "column 3", "cell 2", "hearts foundation". */
export function pileName(label) {
  const { kind, n, suit } = parsePile(label);
  if (kind === "foundation") return t("pile.foundation", { suit: t(`suit.${suit}`) });
  return t(`pile.${kind}`, { n });
}

/** "7♠ and 2 more from column 3 to cell 1". */
export function describeMove(m) {
  const to = placeLabel(m.to, m.card);
  const params = {
    card: cardShort(m.card),
    more: m.count - 1,
    from: pileName(placeLabel(m.from, m.card)),
    to: parsePile(to).kind === "foundation" ? t("move.toFoundation") : pileName(to),
  };
  return t(m.count > 1 ? "move.run" : "move.one", params);
}
