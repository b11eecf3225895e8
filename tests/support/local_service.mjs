/* The page's local game service in Node, for the differential tests: one request a line on
 * standard input ({path, body}), its answer a line on standard output ({status, body}).
 * argv[2]: the kernel module (static/kernel.js); argv[3]: its kernel.wasm. */

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const here = new URL("../../src/eightoff/web/static/local/", import.meta.url);
const { LocalService } = await import(new URL("service.js", here));
const { loadKernel } = await import(pathToFileURL(process.argv[2]).href);
const kernel = await loadKernel(readFileSync(process.argv[3]));
const service = new LocalService(kernel);
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
for await (const line of lines) {
  if (!line.trim()) continue;
  const { path, body } = JSON.parse(line);
  let answer;
  try {
    answer = service.answer(path, body);
  } catch (err) {
    answer = { status: 500, body: { error: String(err && err.stack ? err.stack : err) } };
  }
  out.push(JSON.stringify(answer));
  if (out.length >= 256) {
    process.stdout.write(`${out.join("\n")}\n`);
    out.length = 0;
  }
}
if (out.length) process.stdout.write(`${out.join("\n")}\n`);
