// The bench's workload, shared by Node (bench/node-suite.mjs) and the page (bench/page.mjs) so
// both time exactly the same commands: texts of a given size (as examples/bench_core.rs makes
// them), and the timed loop. Plain ESM: no Node or DOM APIs.

import { summarize } from "./stats.mjs";

export const KB = 1024;
/** The two strings `str_replace` swaps back and forth: same length, each in the file at most once. */
export const MARKER_A = "@@bench-marker-alpha@@";
export const MARKER_B = "@@bench-marker-omega@@";

/**
 * `size` bytes of ASCII lines (64 bytes each) with `middle` placed halfway through.
 * @param {number} size
 * @param {string} [middle]
 */
export function textOfSize(size, middle = "") {
  const half = Math.floor((size - middle.length) / 2);
  const head = filler(half, 1) + middle;
  return head + filler(size - head.length, 100_000);
}

/**
 * `bytes` bytes of numbered lines, the first numbered `first`.
 * @param {number} bytes
 * @param {number} first
 */
function filler(bytes, first) {
  const lines = [];
  let length = 0;
  for (let n = first; length < bytes; n++) {
    const line = `${String(n).padStart(6, "0")} the quick brown fox jumps over the lazy dog, then rests.\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join("").slice(0, bytes);
}

/** @param {number} bytes */
export function kb(bytes) {
  return `${bytes / KB} KB`;
}

/**
 * A case's name, the same in every suite (examples/bench_core.rs's `case_name`), so the table
 * can put the native, Chromium and floor figures of one case on one line:
 * `view file, 10 KB`, `rename dir, 1,000 files`.
 * @param {string} command
 * @param {number} fileBytes
 * @param {number} [storeFiles] for the directory cases
 */
export function caseName(command, fileBytes, storeFiles = 0) {
  return storeFiles > 0 ? `${command}, ${storeFiles.toLocaleString("en-US")} files` : `${command}, ${kb(fileBytes)}`;
}

/** `note-00042.md` @param {number} i */
export function noteName(i) {
  return `note-${String(i).padStart(5, "0")}.md`;
}

/**
 * @typedef {object} TimeOptions
 * @property {number} runs measured runs
 * @property {number} warmup runs before measuring, not counted
 * @property {() => number} [now] the clock, in ms (default `performance.now`)
 */

/**
 * Times `run(makeInput(i))` for `warmup` + `runs` runs, one after the other; only the call and
 * its await are inside the clock. Throws if a command answers with an error (a failing command
 * would time its error path), never because of a time.
 * @template T
 * @param {(i: number) => T} makeInput
 * @param {(input: T) => Promise<{ isError: boolean, content: unknown }>} run
 * @param {TimeOptions} options
 */
export async function timeRuns(makeInput, run, { runs, warmup, now = () => performance.now() }) {
  for (let i = 0; i < warmup; i++) checked(await run(makeInput(i)));
  const samples = [];
  for (let i = warmup; i < warmup + runs; i++) {
    const input = makeInput(i);
    const t0 = now();
    const result = await run(input);
    samples.push(now() - t0);
    checked(result);
  }
  return summarize(samples);
}

/**
 * @template {{ isError: boolean, content: unknown }} R
 * @param {R} result
 * @returns {R}
 */
export function checked(result) {
  if (result.isError) {
    const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
    throw new Error(`a benchmarked command failed: ${text}`);
  }
  return result;
}

/**
 * create / view / str_replace on a file of `fileBytes` through `tool.execute`: `create` writes a
 * fresh path every run; `str_replace` swaps MARKER_A and MARKER_B, so every run edits.
 * @param {import("../src/js/index.js").MemoryTool} tool an open tool over an empty store
 * @param {TimeOptions & { fileBytes?: number, dir?: string }} options
 * @returns {Promise<Array<Record<string, unknown>>>} rows without `suite`
 */
export async function commandCases(tool, { fileBytes = 10 * KB, dir = "/memories/bench", ...timing }) {
  const doc = `${dir}/doc.md`;
  const text = textOfSize(fileBytes, MARKER_A);
  await tool.writeFile(doc, text);
  const exec = (/** @type {unknown} */ input) => tool.execute(input);
  const common = { file_bytes: fileBytes };
  const rows = [];

  rows.push({
    case: caseName("create", fileBytes),
    command: "create",
    ...common,
    ...(await timeRuns(
      (i) => ({ command: "create", path: `${dir}/new/${noteName(i + 1)}`, file_text: text }),
      exec,
      timing,
    )),
  });
  rows.push({
    case: caseName("view file", fileBytes),
    command: "view",
    ...common,
    ...(await timeRuns(() => ({ command: "view", path: doc }), exec, timing)),
  });
  rows.push({
    case: caseName("str_replace", fileBytes),
    command: "str_replace",
    ...common,
    ...(await timeRuns(
      (i) =>
        i % 2 === 0
          ? { command: "str_replace", path: doc, old_str: MARKER_A, new_str: MARKER_B }
          : { command: "str_replace", path: doc, old_str: MARKER_B, new_str: MARKER_A },
      exec,
      timing,
    )),
  });
  return rows;
}
