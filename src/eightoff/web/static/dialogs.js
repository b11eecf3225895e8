/* Dialogs: New game, Options, Statistics, Game code (the confirm and the win: modal.js). */

import { applySettings, notice, render, say } from "./board.js";
import { dailyShare, dailyStreak, localDate } from "./daily.js";
import { currentLanguage, t, tOr } from "./i18n.js";
import { useLanguage } from "./lang.js";
import { api } from "./api.js";
import { ask } from "./engine.js";
import { openArchive } from "./archive.js";
import { keepRules, keptRules } from "./offline.js";
import { enqueue } from "./busy.js";
import { autoplayNow, newGame, startGame } from "./play.js";
import { confirmDialog, endCelebration } from "./modal.js";
import { presetMatching, rulesOf, rulesTitle } from "./rulesets.js";
import { $, DEFAULT_SETTINGS, formatTime, setRulesInfo, setSetting, state } from "./state.js";
import { shareLink } from "./share.js";
import { resetStats, saveSettings, statsRules } from "./storage.js";

export function anyDialogOpen() {
  return [...document.querySelectorAll("dialog")].some((d) => d.open) || !$("celebrate").hidden;
}

// -- New game ------------------------------------------------------------------------------

let rulesInfo = null;

/** The server's rule declaration (/api/rules: ``table`` of options, ``presets``), asked once
 * (offline, the one kept from an earlier visit). */
export function loadRules() {
  if (!rulesInfo) {
    rulesInfo = api("/api/rules").then((info) => {
      keepRules(info);
      return info;
    }, (err) => {
      const kept = err.status === 0 ? keptRules() : null;
      if (!kept) throw err;
      return kept;
    }).then((info) => {
      setRulesInfo(info);
      return info;
    });
    rulesInfo.catch(() => {
      rulesInfo = null; // asked again next time
    });
  }
  return rulesInfo;
}

/** An on/off option: a checkbox rather than a choice. */
const isSwitch = (option) => option.values.length === 2 && option.values.every((v) => typeof v.value === "boolean");
const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The New game form's rule fields, one per option of the server's table, in the page's
 * language (the table's own English words for an option the message table lacks). */
function buildRuleFields(form) {
  const box = $("new-rules");
  box.replaceChildren();
  for (const option of state.ruleTable) {
    const name = `rule.${option.name}`;
    if (isSwitch(option)) {
      const label = document.createElement("label");
      label.className = "row";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.name = option.name;
      const text = document.createElement("span");
      text.textContent = tOr(name, capitalised(option.help));
      label.append(input, " ", text);
      box.appendChild(label);
      continue;
    }
    const fieldset = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = tOr(name, capitalised(option.help));
    fieldset.appendChild(legend);
    for (const v of option.values) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = option.name;
      input.value = String(v.value);
      const text = document.createElement("span");
      text.textContent = tOr(`${name}.${v.value}`, v.text);
      label.append(input, " ", text);
      fieldset.appendChild(label);
    }
    box.appendChild(fieldset);
  }
  const preset = form.elements.preset;
  preset.replaceChildren();
  for (const key of Object.keys(state.presets).concat("custom")) {
    const item = document.createElement("option");
    item.value = key;
    item.textContent = tOr(`ui.preset.${key}`, key === "custom" ? key : state.presets[key].description);
    preset.appendChild(item);
  }
  form.elements.difficulty.replaceChildren(...state.difficulties.map((level) => {
    const item = document.createElement("option");
    item.value = level;
    item.textContent = tOr(`ui.difficulty.${level}`, capitalised(level));
    return item;
  }));
}

function fillRuleForm(form, rules) {
  for (const option of state.ruleTable) {
    const value = rules[option.name] ?? option.default;
    if (isSwitch(option)) form.elements[option.name].checked = Boolean(value);
    else {
      const input = form.querySelector(`input[name="${option.name}"][value="${CSS.escape(String(value))}"]`);
      if (input) input.checked = true;
    }
  }
}

function readRuleForm(form) {
  const rules = {};
  for (const option of state.ruleTable) {
    if (isSwitch(option)) {
      rules[option.name] = form.elements[option.name].checked;
      continue;
    }
    const input = form.querySelector(`input[name="${option.name}"]:checked`);
    const chosen = input && option.values.find((v) => String(v.value) === input.value);
    rules[option.name] = chosen ? chosen.value : option.default;
  }
  return rules;
}

let oddsAsked = 0; // the latest question: an answer to an older one is dropped

/** Say how often the rules the form shows can be won (the server's survey figures). */
async function showOdds(form) {
  const line = $("new-odds");
  const asked = ++oddsAsked;
  let odds;
  try {
    odds = await api("/api/winnability", { rules: readRuleForm(form) });
  } catch (err) {
    odds = null;
  }
  if (asked !== oddsAsked) return;
  line.hidden = odds === null;
  if (odds === null) return;
  line.dataset.kind = odds.kind || "unsurveyed";
  if (!odds.kind) {
    line.textContent = t("odds.unsurveyed");
    return;
  }
  const number = new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 2 });
  const surveyed = odds.surveyed[1] - odds.surveyed[0] + 1;
  const counted = t(odds.unknown ? "odds.undecided" : "odds.surveyed", {
    n: number.format(surveyed), unknown: number.format(odds.unknown),
  });
  line.textContent = t(`odds.${odds.kind}`, {
    percent: number.format(odds.percent), n: number.format(odds.one_in), counted,
  });
}

export async function openNewDialog() {
  if (anyDialogOpen()) return;
  try {
    await loadRules();
  } catch (err) {
    notice(t("notice.cannotStart", { error: err.message }));
    return;
  }
  if (anyDialogOpen()) return;
  const { game, settings } = state;
  const form = $("form-new");
  buildRuleFields(form);
  const rules = rulesOf(game ? game.rules : settings.rules);
  fillRuleForm(form, rules);
  form.elements.preset.value = presetMatching(rules);
  form.elements.autoplay.checked = settings.autoplay;
  form.elements.winnable.checked = settings.winnable;
  form.elements.difficulty.value = settings.difficulty;
  $("new-code").value = "";
  $("new-code").removeAttribute("aria-invalid");
  $("new-code-error").hidden = true;
  showOdds(form);
  $("dlg-new").showModal();
}

function onNewClose() {
  const dlg = $("dlg-new");
  const form = $("form-new");
  if (dlg.returnValue === "deal") {
    setSetting("rules", readRuleForm(form));
    setSetting("autoplay", form.elements.autoplay.checked);
    setSetting("winnable", form.elements.winnable.checked);
    setSetting("difficulty", form.elements.difficulty.value);
    saveSettings();
    newGame();
  } else if (dlg.returnValue === "daily") {
    newGame({ daily: localDate() });
  } else if (dlg.returnValue === "archive") {
    openArchive();
  }
}

/** "Play code": the dialog closes on a code the server takes; else the error shows beside
 * the field and the game in progress stays. */
async function onPlayCode(e) {
  e.preventDefault();
  const field = $("new-code");
  const error = $("new-code-error");
  const code = field.value.trim();
  if (!code) return;
  try {
    const answer = await enqueue(() => ask("/api/new", { code }));
    error.hidden = true;
    $("dlg-new").close("code");
    startGame(answer, { code });
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    field.setAttribute("aria-invalid", "true");
    field.focus();
  }
}

// -- Options, Statistics, Game code ------------------------------------------------------------

function openOptions() {
  const form = $("form-options");
  for (const k of ["fourColour", "largePrint", "autoplay", "showMoves", "showScore", "showTimer", "leftHanded", "sound"]) {
    form.elements[k].checked = state.settings[k];
  }
  form.elements.theme.value = state.settings.theme;
  form.elements.language.value = currentLanguage();
  $("dlg-options").showModal();
}

function onOptionChange(e) {
  const input = e.target;
  if (!(input.name in DEFAULT_SETTINGS)) return;
  setSetting(input.name, input.type === "checkbox" ? input.checked : input.value);
  saveSettings();
  if (input.name === "language") useLanguage(input.value);
  applySettings();
  if (state.view) render();
  if (input.name === "autoplay" && input.checked && state.view) autoplayNow();
}

function openStats() {
  const body = $("stats-body");
  body.replaceChildren();
  const rows = Object.entries(state.stats).filter(([, s]) => s.played > 0);
  if (!rows.length) {
    const p = document.createElement("p");
    p.textContent = t("stats.none");
    body.appendChild(p);
  } else {
    for (const [key, s] of rows) {
      const heading = document.createElement("h3");
      heading.className = "stats-rules";
      heading.textContent = s.daily ? t("stats.daily") : rulesTitle(statsRules(key));
      const table = document.createElement("table");
      table.className = "stats-table";
      const lines = [
        [t("stats.played"), s.played],
        [t("stats.won"), s.won],
        [t("stats.helped"), s.helped || 0],
        [t("stats.winRate"), `${Math.round((100 * s.won) / Math.max(1, s.played))}%`],
        [t(s.daily ? "stats.dailyStreak" : "stats.streak"), s.daily ? dailyStreak(s) : s.streak],
        [t("stats.bestStreak"), s.bestStreak],
        [t("stats.bestTime"), s.bestTime === null ? "–" : formatTime(s.bestTime)],
        [t("stats.fewestMoves"), s.fewestMoves === null ? "–" : s.fewestMoves],
      ];
      for (const [name, value] of lines) {
        const row = document.createElement("tr");
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = name;
        const td = document.createElement("td");
        td.textContent = String(value);
        row.append(th, td);
        table.appendChild(row);
      }
      body.append(heading, table);
    }
    const note = document.createElement("p");
    note.className = "stats-note";
    note.textContent = t("stats.helpNote");
    body.appendChild(note);
  }
  $("dlg-stats").showModal();
}

function openCode() {
  const { code } = state.game;
  $("code-text").value = code;
  $("share-text").value = shareLink();
  const result = dailyShare(state.game);
  $("daily-share-row").hidden = result === null;
  $("daily-share").value = result || "";
  $("dlg-code").showModal();
}

async function copy(inputId) {
  const input = $(inputId);
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    say(t("announce.copied"));
  } catch (err) {
    say(t("announce.copyByHand"));
  }
}

/** Listen to the dialogs' controls. */
export function bindDialogs() {
  $("dlg-new").addEventListener("close", onNewClose);
  $("new-play-code").addEventListener("click", onPlayCode);
  $("new-code").addEventListener("keydown", (e) => {
    if (e.key === "Enter") onPlayCode(e); // not the form's first button, "Deal"
  });
  $("form-options").addEventListener("change", onOptionChange);
  $("new-preset").addEventListener("change", (e) => {
    if (e.target.value !== "custom") fillRuleForm($("form-new"), rulesOf(e.target.value));
    showOdds($("form-new"));
  });
  $("form-new").addEventListener("change", (e) => {
    if (state.ruleTable && state.ruleTable.some((option) => option.name === e.target.name)) {
      $("new-preset").value = presetMatching(readRuleForm($("form-new")));
      showOdds($("form-new"));
    }
  });
  $("btn-options").addEventListener("click", openOptions);
  $("btn-stats").addEventListener("click", openStats);
  $("btn-code").addEventListener("click", openCode);
  $("stats-reset").addEventListener("click", async () => {
    if (!(await confirmDialog(t("confirm.resetStats")))) return;
    resetStats();
    $("dlg-stats").close();
    say(t("announce.statsReset"));
  });
  $("code-copy").addEventListener("click", () => copy("code-text"));
  $("share-copy").addEventListener("click", () => copy("share-text"));
  $("daily-copy").addEventListener("click", () => copy("daily-share"));
  $("celebrate").addEventListener("click", (e) => {
    if (e.target.id !== "celebrate-new" && e.target.id !== "celebrate-share-btn") endCelebration();
  });
  $("celebrate").addEventListener("keydown", (e) => {
    if (e.key === "Escape") endCelebration();
    if (e.key !== "Tab") return;
    // The win dialog keeps the focus: Tab goes round its buttons.
    const buttons = [...$("celebrate").querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement);
    const next = (at + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length;
    buttons[next].focus();
    e.preventDefault();
  });
  $("celebrate-new").addEventListener("click", () => {
    endCelebration();
    openNewDialog();
  });
}
