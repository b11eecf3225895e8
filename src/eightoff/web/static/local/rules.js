/* The rule options as the engine declares them (eightoff.rules): values, words and game-code
 * letters, in the order codes and descriptions list them (ruletable.js, written from the
 * engine's declaration). A rule set is its JSON form,
 * ``Rules.to_json()``: {cells, empty_column, build, layout, group_moves, take_back}. */

import { TABLE } from "./ruletable.js";

/** Each option: its name, values, words and game-code letters (the engine's table). */
export const OPTIONS = TABLE.map((o) => ({
  name: o.name,
  values: o.values.map((v) => v.value),
  words: o.values.map((v) => v.text),
  letters: o.values.map((v) => v.letter),
}));

/** The standard game's options: each option's default. */
export const STANDARD = Object.freeze(Object.fromEntries(TABLE.map((o) => [o.name, o.default])));

/** ``rules`` as the engine holds them: where any card fills an empty column, runs of
 * "free cells + 1" count the empty columns anyway, so they read as "freecell". */
export function settled(rules) {
  const out = {};
  for (const { name } of OPTIONS) out[name] = rules[name];
  if (out.empty_column === "any" && out.group_moves === "cells") out.group_moves = "freecell";
  return out;
}

const optionOf = (name) => OPTIONS.find((o) => o.name === name);

/** One line a person can read (``Rules.describe``). */
export const describe = (rules) => OPTIONS.map((o) => o.words[o.values.indexOf(rules[o.name])]).join(", ");

/** The game-code letter of ``rules``' option ``name``, unless the other options imply its
 * value (with any card to empty columns, runs count them anyway: no F). */
export function letter(rules, name) {
  const option = optionOf(name);
  const value = rules[name];
  const implied = settled({ ...rules, [name]: STANDARD[name] })[name];
  return value === implied ? "" : option.letters[option.values.indexOf(value)];
}
