/* The rule options as the engine declares them (eightoff.rules): values, words and game-code
 * letters, in the order codes and descriptions list them. A rule set is its JSON form,
 * ``Rules.to_json()``: {cells, empty_column, build, layout, group_moves, take_back}. */

export const OPTIONS = [
  { name: "cells", values: [8, 4, 2], words: ["8 cells", "4 cells", "2 cells"], letters: ["", "", ""] },
  {
    name: "empty_column", values: ["kings", "any"],
    words: ["Kings only to empty columns", "any card to empty columns"], letters: ["", "E"],
  },
  { name: "build", values: ["suit", "alternate"], words: ["build in suit", "build in alternating colours"], letters: ["", "A"] },
  { name: "layout", values: ["eight-off", "bakers"], words: ["Eight Off deal", "Baker's Game deal"], letters: ["", "B"] },
  {
    name: "group_moves", values: ["single", "cells", "freecell"],
    words: ["one card per move", "runs of free cells + 1", "runs by the FreeCell formula"], letters: ["S", "", "F"],
  },
  { name: "take_back", values: [false, true], words: ["no take-back", "take-back allowed"], letters: ["", "T"] },
];

/** The standard game's options. */
export const STANDARD = Object.freeze({
  cells: 8, empty_column: "kings", build: "suit", layout: "eight-off", group_moves: "cells", take_back: false,
});

/** ``rules`` as the engine holds them: where any card fills an empty column, runs of
 * "free cells + 1" count the empty columns anyway, so they read as "freecell". */
export function settled(rules) {
  const out = {};
  for (const { name } of OPTIONS) out[name] = rules[name];
  if (out.empty_column === "any" && out.group_moves === "cells") out.group_moves = "freecell";
  return out;
}

/** The standard game with ``options`` changed. */
export const withOptions = (options) => settled({ ...STANDARD, ...options });

export const PRESETS = {
  standard: STANDARD,
  easy: withOptions({ empty_column: "any" }),
  alternate: withOptions({ build: "alternate" }),
  bakers: withOptions({ cells: 4, layout: "bakers", empty_column: "any" }),
  app: withOptions({ group_moves: "freecell", take_back: true }),
};

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

/** The most cards one move may carry with this room (``Rules.max_run``). */
export function maxRun(rules, freeCells, emptyColumns) {
  if (rules.group_moves === "single") return 1;
  if (rules.group_moves === "cells") return freeCells + 1;
  return (freeCells + 1) * 2 ** emptyColumns;
}
