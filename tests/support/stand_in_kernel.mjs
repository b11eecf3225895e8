/* A stand-in for the WebAssembly kernel (static/kernel.js) in the tests of the local game
 * service, written from eightoff.position's legal moves: the same interface, so that the
 * service's tests run where the kernel is not built. Position and moves as the API's JSON. */

const SUITS = "SHDC";
const RANKS = "A23456789TJQK";
const num = (c) => SUITS.indexOf(c[1]) * 13 + RANKS.indexOf(c[0]);
const text = (n) => RANKS[n % 13] + SUITS[Math.floor(n / 13)];

function buildsOn(card, onto, build) {
  if (onto % 13 !== (card % 13) + 1) return false;
  if (build === "suit") return Math.floor(onto / 13) === Math.floor(card / 13);
  return (card >= 13 && card < 39) !== (onto >= 13 && onto < 39);
}

function maxRun(rules, free, empty) {
  if (rules.group_moves === "single") return 1;
  if (rules.group_moves === "cells") return free + 1;
  return (free + 1) * 2 ** empty;
}

function legalMoves(rules, pos) {
  const cols = pos.columns.map((c) => c.map(num));
  const founds = [...SUITS].map((s) => pos.foundations[s]);
  const cells = pos.cells.map((c) => (c === null ? null : num(c)));
  const emptyCells = cells.flatMap((c, k) => (c === null ? [k] : []));
  const emptyCols = cols.flatMap((c, j) => (c.length ? [] : [j]));
  const fills = (card) => rules.empty_column === "any" || card % 13 === 12;
  const goesHome = (card) => founds[Math.floor(card / 13)] === card % 13;
  const out = [];
  const add = (card, from, to, count = 1) => out.push({ card: text(card), from, to, count });
  const single = (src, card, wholeColumn, toFound) => {
    if (toFound && goesHome(card)) add(card, src, ["foundation", Math.floor(card / 13) + 1]);
    for (let j = 0; j < 8; j++) {
      if (cols[j].length) {
        if (!(src[0] === "column" && src[1] === j + 1) && buildsOn(card, cols[j][cols[j].length - 1], rules.build)) add(card, src, ["column", j + 1]);
      } else if (!wholeColumn && fills(card)) add(card, src, ["column", j + 1]);
    }
    if (src[0] !== "cell") for (const k of emptyCells) add(card, src, ["cell", k + 1]);
  };
  const free = emptyCells.length;
  const cap = maxRun(rules, free, emptyCols.length);
  const capEmpty = maxRun(rules, free, Math.max(0, emptyCols.length - 1));
  for (let i = 0; i < 8; i++) {
    const col = cols[i];
    if (!col.length) continue;
    single(["column", i + 1], col[col.length - 1], col.length === 1, true);
    if (cap < 2) continue;
    let run = 1;
    while (run < col.length && buildsOn(col[col.length - run], col[col.length - run - 1], rules.build)) run += 1;
    for (let n = 2; n <= run; n++) {
      const head = col[col.length - n];
      if (n <= cap) {
        for (let j = 0; j < 8; j++) {
          if (j !== i && cols[j].length && buildsOn(head, cols[j][cols[j].length - 1], rules.build)) add(head, ["column", i + 1], ["column", j + 1], n);
        }
      }
      if (n <= capEmpty && n < col.length && fills(head)) for (const j of emptyCols) add(head, ["column", i + 1], ["column", j + 1], n);
    }
  }
  cells.forEach((c, k) => {
    if (c !== null) single(["cell", k + 1], c, false, true);
  });
  if (rules.take_back) {
    for (let s = 0; s < 4; s++) if (founds[s]) single(["foundation", s + 1], s * 13 + founds[s] - 1, false, false);
  }
  return out;
}

function play(rules, pos, move) {
  const columns = pos.columns.map((c) => c.slice());
  const cells = pos.cells.slice();
  const foundations = { ...pos.foundations };
  const [fk, fi] = move.from;
  let moving;
  if (fk === "column") moving = columns[fi - 1].splice(-move.count);
  else if (fk === "cell") {
    moving = [cells[fi - 1]];
    cells[fi - 1] = null;
  } else {
    const s = SUITS[fi - 1];
    moving = [RANKS[foundations[s] - 1] + s];
    foundations[s] -= 1;
  }
  const [tk, ti] = move.to;
  if (tk === "column") columns[ti - 1].push(...moving);
  else if (tk === "cell") cells[ti - 1] = moving[0];
  else foundations[moving[0][1]] += 1;
  return { columns, cells, foundations, rules: pos.rules };
}

function safe(rules, pos, card) {
  if (rules.build === "suit") return true;
  const rank = (card % 13) + 1;
  if (rank <= 2) return true;
  const f = [...SUITS].map((s) => pos.foundations[s]);
  const black = [0, 3].includes(Math.floor(card / 13));
  return Math.min(...(black ? [f[1], f[2]] : [f[0], f[3]])) >= rank - 1;
}

function autoplayMoves(rules, start) {
  const out = [];
  let pos = start;
  for (;;) {
    const home = legalMoves(rules, pos).find((m) => m.to[0] === "foundation" && m.from[0] !== "foundation" && safe(rules, pos, num(m.card)));
    if (!home) return out;
    out.push(home);
    pos = play(rules, pos, home);
  }
}

/** The stand-in's solver: a plain depth-first search, enough for the tests' endgames. */
function solve(rules, pos, limit) {
  const deadline = Date.now() + 1000 * (limit.seconds ?? 5);
  const seen = new Set();
  const line = [];
  let nodes = 0;
  const key = (p) => JSON.stringify([p.columns, p.cells.slice().sort(), p.foundations]);
  const won = (p) => [...SUITS].every((s) => p.foundations[s] === 13);
  let outOfTime = false;
  const search = (p) => {
    if (won(p)) return true;
    if (Date.now() > deadline || nodes > (limit.maxNodes ?? 200_000)) {
      outOfTime = true;
      return false;
    }
    const k = key(p);
    if (seen.has(k)) return false;
    seen.add(k);
    nodes += 1;
    for (const m of legalMoves(rules, p)) {
      line.push(m);
      if (search(play(rules, p, m))) return true;
      line.pop();
      if (outOfTime) return false;
    }
    return false;
  };
  const found = search(pos);
  return { verdict: found ? "solved" : outOfTime ? "unknown" : "unsolvable", moves: found ? line : [], nodes };
}

export async function loadKernel() {
  return { legalMoves, play, autoplayMoves, solve };
}
