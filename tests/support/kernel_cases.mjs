// kernel.js under Node, for tests/test_wasm_node.py: loads kernel.wasm and answers a
// list of calls, each with the kernel's method.
//
//     node tests/support/kernel_cases.mjs KERNEL_JS KERNEL_WASM CASES_JSON
//
// CASES_JSON holds a list of calls `{op, rules, position, move, options}`, op one of
// legalMoves, play, whyNot, autoplayMoves, solve. Prints one JSON list: each call's answer
// `{ok: answer}` or `{error: name, message}`. The module is loaded from its bytes,
// then again from a Response with the application/wasm type (as a page fetches it).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [kernelJs, wasmPath, casesPath] = process.argv.slice(2);
const { loadKernel } = await import(pathToFileURL(kernelJs).href);
const bytes = readFileSync(wasmPath);
const fromBytes = await loadKernel(new Uint8Array(bytes));
const fromResponse = await loadKernel(new Response(bytes, { headers: { "content-type": "application/wasm" } }));
const cases = JSON.parse(readFileSync(casesPath, "utf8"));

const answers = cases.map(({ op, rules = null, position, move, options }, n) => {
  const kernel = n % 2 ? fromResponse : fromBytes;
  try {
    if (op === "play" || op === "whyNot") return { ok: kernel[op](rules, position, move) };
    if (op === "solve") return { ok: kernel.solve(rules, position, options) };
    return { ok: kernel[op](rules, position) };
  } catch (err) {
    return { error: err.name, message: err.message };
  }
});
process.stdout.write(JSON.stringify(answers));
