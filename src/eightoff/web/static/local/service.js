/* The game service in the page: what the server's routes /api/new (with a code),
 * /api/state, /api/hint and /api/solve answer (eightoff.web.service), answered here from
 * the kernel with the same JSON, refusals included. An answer is {status, body}: 200 and
 * the route's JSON, or a 4xx and its error object {error, ...}. */

import { cardFromText, cardText } from "./cards.js";
import { InvalidGameCode, formatCode, parseCode } from "./codes.js";
import { dealOf } from "./deal.js";
import { Engine, Line, POINTS_PER_CARD, isWon, movesToJson, viewJson } from "./game.js";
import {
  fromJson, moveFromJson, moveFromText, moveText, moveToJson, movingCards, placeName,
} from "./moves.js";
import { BadInput, length } from "./pytext.js";
import { whyNot } from "./reasons.js";
import { describe } from "./rules.js";

/** What one request may ask (eightoff.web.limits.Limits): moves, solver seconds. */
export const LIMITS = Object.freeze({ maxMoves: 10_000, hintSeconds: 2, solveSeconds: 5, maxCode: 100, schemaMoves: 20_000 });
const BAD_GAME_CODE = "bad-game-code";
const LINES = 4; // games whose lines are kept, the latest asked for

/** A refused request: its status and the error object's fields. */
class Refusal extends Error {
  constructor(status, message, extra = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

const ok = (body) => ({ status: 200, body });

export class LocalService {
  /** ``kernel``: the object ``loadKernel`` resolves to (kernel.js); ``clock``: seconds now. */
  constructor(kernel, clock = () => performance.now() / 1000) {
    this.engine = new Engine(kernel);
    this.clock = clock;
    this.lines = new Map(); // code text -> its Line, the latest last
    this.dealt = new Map(); // code text -> {code, start}
  }

  /** Answer ``path`` with ``body``: {status, body}. */
  answer(path, body) {
    try {
      if (path === "/api/new") return ok(this.newGame(body));
      if (path === "/api/state") return this.state(body);
      if (path === "/api/hint") return ok(this.hint(body));
      if (path === "/api/solve") return ok(this.solve(body));
      throw new Refusal(404, "Not Found");
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      return { status: err.status, body: { error: err.message, ...err.extra } };
    }
  }

  // Routes ---------------------------------------------------------------------------------

  /** /api/new with a code: the game of that code from its deal. */
  newGame(body) {
    checkCode(body);
    const { code, start } = this.deal(body.code);
    const out = { code: formatCode(code), winnable: null };
    Object.assign(out, viewJson(this.engine, start, 0));
    out.rules = { ...code.rules };
    out.rules_text = describe(code.rules);
    return out;
  }

  state(body) {
    let line;
    try {
      line = this.replay(body);
    } catch (err) {
      if (!(err instanceof Refusal) || !(body.refusal_ok && err.status === 422 && "index" in err.extra)) throw err;
      return ok({ refused: { error: err.message, ...err.extra } });
    }
    const before = line.position;
    const settled = body.autoplay ? line.autoplayMoves() : [];
    let pos = before;
    let { score } = line;
    const home = new Set(line.home);
    for (const m of settled) {
      const card = movingCards(pos, m)[0];
      if (!home.has(card)) {
        home.add(card);
        score += POINTS_PER_CARD;
      }
      pos = this.engine.play(pos, m);
    }
    const out = viewJson(this.engine, pos, score);
    out.moves_applied = (body.moves ?? []).length;
    out.autoplayed = movesToJson(this.engine, settled, before);
    return ok(out);
  }

  hint(body) {
    const line = this.replay(body);
    const found = hintOf(this.engine, line, LIMITS.hintSeconds, this.clock);
    let move = null;
    if (found.move !== null) {
      const at = found.undoTo === null ? line.position : line.positions[found.undoTo];
      move = moveToJson(found.move, at, true);
    }
    return { move, winnable: found.winnable, undo_to: found.undoTo, detail: found.detail };
  }

  solve(body) {
    const line = this.replay(body);
    const pos = line.position;
    const began = this.clock();
    const result = this.engine.solve(pos, { maxNodes: null, seconds: LIMITS.solveSeconds });
    return solveJson(this.engine, result, pos, this.clock() - began);
  }

  // Helpers --------------------------------------------------------------------------------

  /** The code ``text`` names and its deal, remembered (a bad code is refused: 400). */
  deal(text) {
    let found = this.dealt.get(text);
    if (!found) {
      let code;
      try {
        code = parseCode(text);
      } catch (err) {
        if (!(err instanceof InvalidGameCode)) throw err;
        throw new Refusal(400, `unknown game code: ${err.message}`, { reason_code: BAD_GAME_CODE, fault: err.json() });
      }
      found = { code, start: dealOf(code) };
      if (this.dealt.size > 64) this.dealt.clear();
      this.dealt.set(text, found);
    }
    return found;
  }

  /** The game after ``body.moves`` (GameService._replay): an unreadable or illegal move
   * is refused, 422 with its index; the first problem in list order wins. */
  replay(body) {
    checkCode(body);
    const moves = body.moves === undefined ? [] : body.moves;
    if (!Array.isArray(moves) || moves.length > LIMITS.schemaMoves) throw new Refusal(422, "moves: Input should be a valid list");
    if (moves.length > LIMITS.maxMoves) {
      throw new Refusal(422, `too many moves: ${moves.length}, at most ${LIMITS.maxMoves} per request`);
    }
    const { start } = this.deal(body.code);
    const read = [];
    const named = []; // the moves given as objects naming their card
    let unreadable = null;
    for (const obj of moves) {
      let m;
      try {
        m = typeof obj === "string" ? moveFromText(obj) : moveFromJson(obj);
      } catch (err) {
        if (!(err instanceof BadInput)) throw err;
        unreadable = err;
        break;
      }
      if (typeof obj !== "string" && obj.card !== undefined && obj.card !== null) named.push(read.length);
      read.push(m);
    }
    const line = this.lineOf(body.code, start, read);
    let illegal = null;
    if (line.length < read.length) {
      const i = line.length;
      const [code, reason] = whyNot(this.engine.kernel, line.position, read[i]) || ["no-card", "not one of the legal moves here"];
      illegal = { index: i, move: read[i], code, reason };
    }
    const played = line.length;
    for (const i of named) {
      if (i >= played) break;
      const obj = moves[i];
      if (!names(obj.card, line.cards[i])) {
        const pos = line.positions[i];
        const moving = movingCards(pos, read[i]);
        const m = read[i];
        const reason = `${moveText(m)}: the card that moves is ${moving[0]}, not ${cardText(cardFromText(obj.card))}`
          + (m.count > 1 ? ` (${moving.length} cards from ${placeName(m.source)})` : "");
        throw new Refusal(422, `move ${i} cannot be read: ${reason}`, { index: i, reason });
      }
    }
    if (illegal !== null) {
      const i = illegal.index;
      throw new Refusal(422, `move ${i} (${moveText(illegal.move)}) is illegal: ${illegal.reason}`, {
        index: i, reason: illegal.reason, reason_code: illegal.code,
      });
    }
    if (unreadable !== null) {
      const i = read.length;
      throw new Refusal(422, `move ${i} cannot be read: ${unreadable.message}`, { index: i, reason: unreadable.reason });
    }
    return line;
  }

  /** The line of game ``code`` through ``moves`` (as far as they are legal), from the one
   * kept for that code where they share their first moves. */
  lineOf(code, start, moves) {
    let line = this.lines.get(code);
    this.lines.delete(code);
    if (!line) line = new Line(this.engine, start);
    let same = 0;
    while (same < moves.length && same < line.length && moveText(moves[same]) === line.texts[same]) same += 1;
    line.cut(same);
    for (let k = same; k < moves.length; k++) if (!line.push(moves[k])) break;
    this.lines.set(code, line);
    if (this.lines.size > LINES) this.lines.delete(this.lines.keys().next().value);
    return line;
  }
}

/** The request's code, as the API's schema takes it: text of at most 100 characters. */
function checkCode(body) {
  if (body === null || typeof body !== "object" || typeof body.code !== "string") {
    throw new Refusal(422, "code: Input should be a valid string", { errors: ["code: Input should be a valid string"] });
  }
  if (length(body.code) > LIMITS.maxCode) {
    const said = `code: String should have at most ${LIMITS.maxCode} characters`;
    throw new Refusal(422, said, { errors: [said] });
  }
}

/** Whether card text ``text`` (read once already) names ``card`` ("7H"). */
function names(text, card) {
  if (text === card) return true;
  try {
    return cardText(cardFromText(text)) === card;
  } catch (err) {
    return false;
  }
}

/** The solver's answer from ``pos`` as /api/solve gives it: verdict, moves (each with its
 * notation), length in single-card moves, optimal, nodes, seconds. */
export function solveJson(engine, result, pos, seconds) {
  const moves = (result.moves || []).map(solverMove);
  return {
    verdict: result.verdict,
    moves: movesToJson(engine, moves, pos),
    length: moves.reduce((n, m) => n + 2 * m.count - 1, 0),
    optimal: Boolean(result.optimal),
    nodes: result.nodes ?? 0,
    seconds: Math.round(seconds * 1e6) / 1e6,
  };
}

/** A move of the solver's line: its notation, or its JSON. */
const solverMove = (m) => (typeof m === "string" ? moveFromText(m) : fromJson(m));

/** A hint for the game on ``line`` (eightoff.solver.hint): a move on a winning line; or,
 * when the position is lost, how far back the game was last winnable (a binary search:
 * the winnable positions are a prefix of the line), all within ``seconds``. */
export function hintOf(engine, line, seconds, clock) {
  const began = clock();
  const deadline = began + seconds;
  const budget = () => Math.max(0, deadline - clock());
  const pos = line.position;
  if (isWon(pos)) return { move: null, winnable: true, undoTo: null, detail: "the game is won" };
  const solveAt = (at, limit) => {
    const result = engine.solve(at, { maxNodes: null, seconds: limit });
    const moves = (result.moves || []).map(solverMove);
    return { verdict: result.verdict, moves, length: moves.reduce((n, m) => n + 2 * m.count - 1, 0) };
  };
  const now = solveAt(pos, seconds);
  if (now.verdict === "solved") {
    return { move: now.moves[0], winnable: true, undoTo: null, detail: `winnable: ${now.length} moves to go` };
  }
  if (now.verdict === "unknown") return { move: null, winnable: null, undoTo: null, detail: "no verdict within the time limit" };
  let lo = -1;
  let hi = line.positions.length - 1;
  let best = null;
  let complete = true;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const left = budget();
    if (left <= 0) {
      complete = false;
      break;
    }
    const result = solveAt(line.positions[mid], left);
    if (result.verdict === "unknown") {
      complete = false;
      break;
    }
    if (result.verdict === "solved") {
      lo = mid;
      best = result;
    } else hi = mid;
  }
  if (!complete) return { move: null, winnable: false, undoTo: null, detail: "lost; no time left to find the last winnable position" };
  if (lo < 0) return { move: null, winnable: false, undoTo: null, detail: "lost: this deal cannot be won from its start" };
  const undos = line.positions.length - 1 - lo;
  return {
    move: best.moves[0],
    winnable: false,
    undoTo: lo,
    detail: `lost: undo ${undos} action${undos !== 1 ? "s" : ""} to the last winnable position`,
  };
}
