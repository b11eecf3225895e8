// The WebAssembly side of benchmarks/wasm_vs_native.py: kernel.js in Node's V8 solves
// each job and times it.
//
//     node benchmarks/wasm_solve.mjs KERNEL_JS KERNEL_WASM JOBS_JSON
//
// JOBS_JSON: {"warmup": n, "repeat": r, "jobs": [{"position", "maxNodes", "maxBytes"},
// ...]}. The first n jobs are solved once untimed (V8 compiles the module's hot code by
// then), then every job r times: the least of performance.now() around kernel.solve,
// the JSON in and out included. Prints one JSON list: {ms, verdict, line (the moves'
// texts)} a job.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [kernelJs, wasmPath, jobsPath] = process.argv.slice(2);
const { loadKernel } = await import(pathToFileURL(kernelJs).href);
const kernel = await loadKernel(readFileSync(wasmPath));
const { warmup, repeat, jobs } = JSON.parse(readFileSync(jobsPath, "utf8"));
const solve = ({ position, maxNodes, maxBytes }) => kernel.solve(null, position, { maxNodes, seconds: null, maxBytes });
for (const job of jobs.slice(0, warmup)) solve(job);
const out = jobs.map((job) => {
  let ms = Infinity;
  let found;
  for (let k = 0; k < repeat; k++) {
    const start = performance.now();
    found = solve(job);
    ms = Math.min(ms, performance.now() - start);
  }
  return { ms, verdict: found.verdict, line: found.moves.map((m) => m.text) };
});
process.stdout.write(JSON.stringify(out));
