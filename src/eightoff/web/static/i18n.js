/* Every word the page shows or says, from one message table: ``t(key, params)`` looks the
 * key up in the current language (English when a language lacks it) and fills in the
 * ``{name}`` placeholders. Other languages are added with ``addMessages``. */

import { RANKS, cardSuit, isObject, parsePile, placeLabel, rankText } from "./state.js";

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export const MESSAGES = {
  en: {
    // cards and piles
    "rank.1": "ace", "rank.2": "2", "rank.3": "3", "rank.4": "4", "rank.5": "5", "rank.6": "6",
    "rank.7": "7", "rank.8": "8", "rank.9": "9", "rank.10": "10", "rank.11": "jack",
    "rank.12": "queen", "rank.13": "king",
    "index.A": "A", "index.J": "J", "index.Q": "Q", "index.K": "K",
    "suit.S": "spades", "suit.H": "hearts", "suit.D": "diamonds", "suit.C": "clubs",
    "card.name": "{rank} of {suit}",
    "card.exposed": "{card}, {pile}, exposed",
    "card.covered": "{card}, {pile}, covered",
    "card.onFoundation": "{card}, on the {pile}",
    "card.inCell": "{card}, {pile}",
    "pile.foundation": "{suit} foundation",
    "pile.column": "column {n}",
    "pile.cell": "cell {n}",
    "pile.empty": "{pile}, empty",
    "caption.cell": "Cell", "caption.foundations": "Foundations",
    "pile.cards": "{pile}, {n} cards",
    "pile.foundationUpTo": "{pile}, up to {rank}",
    // French says "jusqu'au roi" but "jusqu'à la dame", "jusqu'à l'as": those ranks' own forms.
    "pile.foundationUpTo.1": "{pile}, up to ace", "pile.foundationUpTo.12": "{pile}, up to queen",
    "move.one": "{card} from {from} to {to}",
    "move.run": "{card} and {more} more from {from} to {to}",
    "move.toFoundation": "the foundation",
    "move.autoplayed": "; {n} more to the foundations",
    // status and banners
    "status.won": "Won!",
    "status.stuck": "Stuck",
    "banner.lost": "The solver proved this position cannot be won.",
    "banner.undoTo": "Undo to the last winnable position",
    "banner.winnableUntil": "It was winnable up to move {n}.",
    "banner.neverWinnable": "This deal was never winnable.",
    "banner.stuck": "Stuck: no legal move is left.",
    "banner.finish": "Every remaining card can go home.",
    "button.undo": "Undo",
    "button.newGame": "New game",
    "button.finish": "Finish",
    // what the page says (screen readers)
    "announce.stuck": "Stuck: no legal move is left. Undo or start a new game.",
    "announce.undone": "Undone: {move}",
    "announce.redone": "Redone: {move}",
    "announce.backTo": "Back to move {n}.",
    "announce.finish": "Every remaining card goes home",
    "announce.newGame": "New game {code}: {rules}.",
    "announce.restarted": "Restarted.",
    "announce.resumed": "Resumed game {code}.",
    "announce.thinking": "Thinking…",
    "announce.undoToMove": "Undo to move {n} to get back to a winnable position.",
    "announce.hint": "Hint: {move}.",
    "announce.noHint": "No hint found in time.",
    "announce.solving": "Solving…",
    "announce.noSolution": "The solver found no solution in its time limit.",
    "announce.solution": "Solution found: {n} moves. Step through it or press Play.",
    "announce.step": "Step {k}: {move}",
    "announce.playingOn": "Playing on from move {n}.",
    "announce.backToGame": "Back to your game.",
    "announce.picked": "{card} picked up; choose where it goes.",
    "announce.pickedRun": "{card} and {more} more picked up; choose where it goes.",
    "announce.copied": "Copied.",
    "announce.copyByHand": "Select the text and copy it.",
    "announce.statsReset": "Statistics reset.",
    // refused moves
    "refuse.there": "{card} cannot go there.",
    "refuse.cannotMove": "{card} cannot move now.",
    "refuse.noMoveFrom": "No move from {pile}.",
    "refuse.nothingHome": "Nothing goes to the foundation from {pile}.",
    // notices and questions
    "notice.corrupted": "Some data saved in this browser could not be read and was reset: {what}.",
    "notice.cannotResume": "The saved game could not be resumed ({error}); a fresh game has started.",
    "notice.rulesRefused": "The saved rules could not be used; a standard game has started.",
    "notice.cannotStart": "Could not start that game: {error}",
    "notice.notWinnable": "The solver found no winnable deal for these rules in time; this deal may not be winnable.",
    "notice.noSolution": "The solver found no solution in its time limit; try again from a later position.",
    "confirm.restart": "Restart this deal from the beginning?",
    "confirm.openShared": "Open the shared game {code}? Your game in progress ({moves} moves) will be left.",
    "server.unreachable": "cannot reach the game server",
    "server.status": "the server answered {status}",
    // solution bar
    "solution.step": "Solution step {k} of {n}",
    "solution.stepMove": "Solution step {k} of {n}: {move}",
    "solution.play": "▶ Play",
    "solution.pause": "❚❚ Pause",
    // statistics
    "stats.none": "No games played yet.",
    "stats.helped": "Solved with help",
    "stats.helpNote": "A game won after a hint or the solver's solution was shown counts as solved with help, not as a win. Restarting the deal clears the help.",
    "stats.cells": "{n} cells",
    "confirm.resetStats": "Forget every statistic of every rule set?",
    "preset.standard": "Standard",
    "preset.easy": "Easy",
    "preset.alternate": "Alternating colours",
    "preset.bakers": "Baker's Game",
    "preset.app": "App rules",
    "preset.custom": "Custom rules",
    "stored.eightoff.game": "the game in progress (a fresh game has started)",
    "stored.eightoff.stats": "the statistics",
    "stored.eightoff.settings": "the settings",
    "announce.autoplayNow": "Autoplay: safe cards go to the foundations",
    "refuse.why": "{card} cannot go there: {reason}",
    "refuse.stuckRun": "{card} cannot move: {reason}",
    "notice.otherTab": "This game was played on in another tab; this tab now shows it.",
    "stats.played": "Played",
    "stats.won": "Won",
    "stats.winRate": "Win rate",
    "stats.streak": "Current streak",
    "stats.bestStreak": "Best streak",
    "stats.bestTime": "Best time",
    "stats.fewestMoves": "Fewest moves",
    // the win
    "win.title": "You won!",
    "win.summary": "{moves} moves, {time}, score {score}.",
    "share.code": "A game of Eight Off to play: {code}",
    "share.won": "I won this game of Eight Off in {moves} moves, {time}.",
  },
};

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
