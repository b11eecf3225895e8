/* Text as the engine writes it in its messages: Python's repr of a value, its excerpts
 * (eightoff.numbers), whitespace and string length counted in code points, so that the
 * local game service words every refusal exactly as the server does. */

/** Python's whitespace (str.isspace, and \s in its regular expressions). */
const SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
  + "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
export const SPACES = new RegExp(`[${SPACE}]+`, "g");
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");

/** ``text.strip()``. */
export const strip = (text) => text.replace(EDGES, "");

/** The code points of ``text`` (Python's characters). */
export const chars = (text) => Array.from(text);

/** ``len(text)`` in Python: code points. */
export const length = (text) => chars(text).length;

/** Whether every character of ``text`` is ASCII (``str.isascii``). */
export const isAscii = (text) => /^[\x00-\x7f]*$/.test(text);

/** ``n`` with thousands separated by commas (Python's ``f"{n:,}"``). */
export const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const hex = (n, width) => n.toString(16).padStart(width, "0");

/** Python's ``repr`` of a string. */
export function reprString(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += `\\x${hex(c, 2)}`;
    else if (c < 0x7f) out += ch;
    else if (ch !== " " && UNPRINTABLE.test(ch)) {
      out += c < 0x100 ? `\\x${hex(c, 2)}` : c < 0x10000 ? `\\u${hex(c, 4)}` : `\\U${hex(c, 8)}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's ``repr`` of a float (a JSON number that is not a whole number). */
function reprFloat(x) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const [mantissa, exp] = x.toExponential().split("e");
  const e = Number(exp);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (e >= -4 && e < 16) {
    if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
    const whole = digits.slice(0, e + 1).padEnd(e + 1, "0");
    const frac = digits.slice(e + 1);
    return `${sign}${whole}.${frac || "0"}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** Python's ``repr`` of a JSON value (a whole number reads as an int: JSON in the page
 * keeps no difference between 1 and 1.0). */
export function repr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return reprString(value);
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : reprFloat(value);
  if (typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  return `{${Object.entries(value).map(([k, v]) => `${reprString(k)}: ${repr(v)}`).join(", ")}}`;
}

/** Characters of echoed input a message shows at most (eightoff.numbers.EXCERPT). */
export const EXCERPT = 40;

/** ``repr(value)``, cut to about ``limit`` characters saying how long it was. */
export function excerpt(value, limit = EXCERPT) {
  const shown = repr(value);
  const cps = chars(shown);
  if (cps.length <= limit + 2) return shown;
  const size = typeof value === "string" ? length(value) : cps.length;
  return `${cps.slice(0, limit).join("")}… (${thousands(size)} characters)`;
}

/** ``text`` as is, cut to ``limit`` characters saying how long it was. */
export function clipped(text, limit = EXCERPT) {
  const cps = chars(text);
  return cps.length <= limit ? text : `${cps.slice(0, limit).join("")}… (${thousands(cps.length)} characters)`;
}

/** Python's ``sorted`` order of strings: by code point. */
export function byCodePoint(a, b) {
  const x = chars(a);
  const y = chars(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

/** Raised for bad input: the engine's message and, apart, the reason alone. */
export class BadInput extends Error {
  constructor(message, reason = message) {
    super(message);
    this.reason = reason;
  }
}
