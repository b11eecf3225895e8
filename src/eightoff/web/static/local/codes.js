/* Game codes (eightoff.codes): one short text that recreates a deal and its rules, read
 * forgivingly and written canonically, every mistake told in the engine's words with its
 * fault and values (for the page to say in its own language):
 *
 *   EO1-C8-AAAAAFA        the standard game, eightoff deal 130
 *   EO1-C4-AAAAAFA-EB     Baker's Game options; -P: the deal number is PySolFC's
 *
 * A code is {rules, deal, source}: rules as JSON, the deal number, "eightoff" or "pysol". */

import { OPTIONS, letter, settled, STANDARD } from "./rules.js";
import { SPACES, chars, clipped, excerpt, isAscii, reprString, strip } from "./pytext.js";

export const VERSION = 1;
export const DEAL_LETTERS = 7;
export const DEALS = 26 ** 7;
export const PYSOL_MAX = DEALS;
const CELL_COUNTS = ["8", "4", "2"];
const PYSOL_LETTER = "P";

/** Each option letter: [option name, value], in canonical order (E A B S F T). */
const BY_LETTER = new Map();
for (const option of OPTIONS) {
  option.letters.forEach((l, i) => {
    if (l) BY_LETTER.set(l, [option.name, option.values[i]]);
  });
}
export const OPTION_LETTERS = [...BY_LETTER.keys()].join("") + PYSOL_LETTER;
const OPTION_NAMES = new Map([...BY_LETTER].map(([l, [name, value]]) => {
  const option = OPTIONS.find((o) => o.name === name);
  return [l, option.words[option.values.indexOf(value)]];
}));
OPTION_NAMES.set(PYSOL_LETTER, "PySolFC deal");
const LOOKALIKES = { 0: "O", 1: "I", 5: "S", 8: "B", 2: "Z", 6: "G" };

/** A game code that cannot be read: the engine's message, its ``fault`` and ``values``. */
export class InvalidGameCode extends Error {
  constructor(message, fault = "bad", values = {}) {
    super(message);
    this.fault = fault;
    this.values = values;
  }

  /** The fault and its values: {code: "cells", got: "9"}. */
  json() {
    return { code: this.fault, ...this.values };
  }
}

/** A code's checks (GameCode.__post_init__): the deal number in its source's range. */
export function makeCode(rules, deal, source = "eightoff") {
  const low = source === "pysol" ? 1 : 0;
  const high = source === "pysol" ? PYSOL_MAX : DEALS;
  if (!(low <= deal && deal < high)) {
    throw new InvalidGameCode(
      `deal number ${deal} is out of range ${low}-${high - 1}${source === "pysol" ? " for PySolFC deals" : ""}`,
      "deal-range", { low: String(low), high: String(high - 1) },
    );
  }
  return { rules: settled(rules), deal, source };
}

/** The option letters of the last segment ("" for the standard options). */
export function optionLetters(code) {
  const letters = OPTIONS.map((o) => letter(code.rules, o.name)).join("");
  return letters + (code.source === "pysol" ? PYSOL_LETTER : "");
}

/** The canonical text of ``code``: EO1-C8-AAAAAFA[-options]. */
export function formatCode(code) {
  let n = code.deal;
  const letters = [];
  for (let i = 0; i < DEAL_LETTERS; i++) {
    letters.push(String.fromCharCode(65 + (n % 26)));
    n = Math.floor(n / 26);
  }
  const text = `EO${VERSION}-C${code.rules.cells}-${letters.reverse().join("")}`;
  const options = optionLetters(code);
  return options ? `${text}-${options}` : text;
}

/** Read a code (GameCode.parse); throws InvalidGameCode saying what is wrong. */
export function parseCode(text) {
  if (typeof text !== "string") throw new InvalidGameCode(`a game code is text, not ${typeof text}`);
  const shown = strip(text);
  const bad = (why, fault, values) => new InvalidGameCode(`bad game code ${excerpt(shown)}: ${why}`, fault, values);
  if (!isAscii(shown)) {
    const ch = chars(shown).find((c) => !isAscii(c));
    throw new InvalidGameCode(
      `bad game code ${excerpt(shown)}: ${reprString(ch)} is not an ASCII letter or digit (codes use A-Z, 0-9 and dashes)`,
      "not-ascii", { char: ch },
    );
  }
  const compact = text.replace(SPACES, "").toUpperCase();
  if (!compact) throw new InvalidGameCode("empty game code: expected one like EO1-C8-AAAAAFA", "empty");
  const breaks = new Set(); // positions in the dash-free text where the writer put a dash
  let flat = "";
  for (const part of compact.split("-")) {
    if (part) {
      breaks.add(flat.length);
      flat += part;
    }
  }
  if (!flat) throw bad("expected one like EO1-C8-AAAAAFA", "empty");
  let m = /^EO(\d*)/.exec(flat);
  if (!m) {
    const zero = flat.startsWith("E0");
    throw bad(`it must start with EO1${zero ? " (the letter O, not zero)" : ""}`, zero ? "start-zero" : "start");
  }
  const version = m[1].slice(0, 1);
  const cellsText = m[1].slice(1);
  if (version === String(VERSION) && CELL_COUNTS.includes(cellsText)) {
    throw bad(`the C is missing before the cell count (EO1-C${cellsText}-…)`, "no-c", { cells: cellsText });
  }
  if (m[1] !== String(VERSION)) {
    const got = m[1] ? clipped(m[1]) : "nothing";
    throw bad(`unknown version ${got} after EO (this program reads EO1)`, "version", { got });
  }
  let at = m[0].length;
  m = /^C(\d*)/.exec(flat.slice(at));
  if (!m) throw bad("expected the cell count C8, C4 or C2 after EO1", "cells-missing");
  if (!CELL_COUNTS.includes(m[1])) {
    const got = m[1] ? clipped(m[1]) : "nothing";
    throw bad(`the cell count after C must be 8, 4 or 2, not ${got}`, "cells", { got });
  }
  const cells = Number(m[1]);
  at += m[0].length;
  const rest = flat.slice(at);
  // The deal is 7 letters; options follow only after a dash right there.
  const later = [...breaks].filter((b) => b > at).map((b) => b - at).sort((a, b) => a - b);
  let dealText;
  let options = "";
  if (rest.length === DEAL_LETTERS || later.includes(DEAL_LETTERS)) {
    dealText = rest.slice(0, DEAL_LETTERS);
    options = rest.slice(DEAL_LETTERS);
  } else {
    dealText = later.length ? rest.slice(0, later[0]) : rest; // report the first segment as the deal
  }
  checkDealLetters(dealText, bad);
  let number = 0;
  for (const ch of dealText) number = number * 26 + ch.charCodeAt(0) - 65;
  const rules = rulesFrom(cells, options, bad);
  try {
    return makeCode(rules, number, options.includes(PYSOL_LETTER) ? "pysol" : "eightoff");
  } catch (err) {
    if (!(err instanceof InvalidGameCode)) throw err;
    throw bad(err.message, err.fault, err.values);
  }
}

function checkDealLetters(dealText, bad) {
  for (const ch of dealText) {
    if (ch >= "A" && ch <= "Z") continue;
    if (ch >= "0" && ch <= "9") {
      const like = LOOKALIKES[ch];
      throw bad(
        `a digit ${reprString(ch)} where a letter A-Z belongs in the deal number${like ? ` (did you mean ${like}?)` : ""}`,
        like ? "deal-lookalike" : "deal-digit", { char: ch, like: like || "" },
      );
    }
    throw bad(`${reprString(ch)} where a letter A-Z belongs in the deal number`, "deal-char", { char: ch });
  }
  if (!dealText) throw bad(`the deal number (${DEAL_LETTERS} letters) is missing`, "deal-missing");
  if (dealText.length !== DEAL_LETTERS) {
    const long = dealText.length > DEAL_LETTERS;
    const got = clipped(dealText);
    throw bad(
      `the deal number is ${DEAL_LETTERS} letters, got ${dealText.length} (${got})${long ? " (rule options go after a dash)" : ""}`,
      long ? "deal-long" : "deal-short", { got },
    );
  }
}

function rulesFrom(cells, options, bad) {
  const seen = new Set();
  const chosen = new Map(); // option name -> its letter
  for (const ch of options) {
    if (!OPTION_LETTERS.includes(ch)) {
      const known = [...OPTION_NAMES].map(([k, v]) => `${k} ${v}`).join(", ");
      throw bad(`unknown option letter ${reprString(ch)} (known: ${known})`, "option", { char: ch });
    }
    if (seen.has(ch)) throw bad(`option ${ch} given twice`, "option-twice", { char: ch });
    seen.add(ch);
    if (ch === PYSOL_LETTER) continue;
    const [name] = BY_LETTER.get(ch);
    if (chosen.has(name)) {
      const other = chosen.get(name);
      throw bad(
        `options ${other} (${OPTION_NAMES.get(other)}) and ${ch} (${OPTION_NAMES.get(ch)}) exclude each other`,
        "options-exclude", { first: other, second: ch },
      );
    }
    chosen.set(name, ch);
  }
  const values = { ...STANDARD, cells };
  for (const [name, ch] of chosen) values[name] = BY_LETTER.get(ch)[1];
  return settled(values);
}
