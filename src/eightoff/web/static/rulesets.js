/* Rule sets as the server declares them (GET /api/rules): a preset's rules, the preset
 * a rule set matches, and its title in the page's language. */

import { t } from "./i18n.js";
import { isObject, state } from "./state.js";

/** The rules of ``value``: a rule object as it is, a preset's name, else the defaults. */
export function rulesOf(value) {
  if (isObject(value)) return value;
  if (state.presets[value]) return state.presets[value].rules;
  return Object.fromEntries(state.ruleTable.map((option) => [option.name, option.default]));
}

export const sameRules = (a, b) => state.ruleTable.every((o) => String(a[o.name] ?? o.default) === String(b[o.name] ?? o.default));

export function presetMatching(rules) {
  if (!state.presets) return "custom";
  for (const [name, p] of Object.entries(state.presets)) if (sameRules(p.rules, rules)) return name;
  return "custom";
}

/** A rule set as players name it, in the page's language: "Standard, 8 cells" (the cells
 * alone until the presets have come from the server). */
export function rulesTitle(rules) {
  const cells = t("stats.cells", { n: rules.cells });
  return state.presets ? `${t(`preset.${presetMatching(rules)}`)}, ${cells}` : cells;
}
