// The bench's workload, shared by Node (bench/node-suite.mjs) and the page (bench/page.mjs) so
// both time exactly the same commands: texts of a given size (as examples/bench_core.rs makes
// them), and the timed loop. Plain ESM: no Node or DOM APIs.

import { group, summarize } from "./stats.mjs";

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

/**
 * Times `call(input)` once per run, `warmup` runs first: `before` makes each run's input off
 * the clock (an empty store for an import), `check` looks at the answer and `after` cleans up,
 * both off the clock too. Stops early, after at least `minRuns`, once the measured runs took
 * `budgetMs` in all (so a slow build still finishes in reasonable time; the row says its runs).
 * @template I, R
 * @param {{ before?: () => Promise<I> | I, call: (input: I) => Promise<R>, check?: (result: R) => void,
 *   after?: (input: I) => Promise<unknown> | unknown, runs: number, warmup: number, minRuns?: number,
 *   budgetMs?: number, now?: () => number }} options
 */
export async function timeCalls({ before, call, check, after, runs, warmup, minRuns = 3, budgetMs = Infinity, now = () => performance.now() }) {
  const samples = [];
  let spent = 0;
  for (let i = 0; i < warmup + runs; i++) {
    const input = /** @type {I} */ (before ? await before() : undefined);
    const t0 = now();
    const result = await call(input);
    const took = now() - t0;
    if (check) check(result);
    if (after) await after(input);
    if (i < warmup) continue;
    samples.push(took);
    spent += took;
    if (samples.length >= minRuns && spent >= budgetMs) break;
  }
  return summarize(samples);
}

/** The stores of the scaling rows: files of 1 KB (8,000 beside 1,000 for the ratio). */
export const SCALE_FILES = [1_000, 8_000, 10_000];
/** The histories of the scaling rows: versions of one file, created once and then edited. */
export const SCALE_VERSIONS = [300, 3_000];
/** The filter of the `versions.list` rows: no version of those histories is a deletion. */
export const NO_MATCH = { operation: /** @type {const} */ ("deleted") };

/**
 * Measured runs of a scaling row over `n` files (or versions), from the per-file `runs`:
 * 15 at 1,000 files, 5 at 8,000 and 10,000; 30 and 15 version scans (fewer when a row's
 * runs exceed `scaleCases`' time budget).
 * @param {number} runs
 * @param {{ files?: number, versions?: number }} size
 */
export function scaleRuns(runs, { files, versions }) {
  const scale = (/** @type {number} */ share, /** @type {number} */ least) => Math.max(least, Math.round(runs * share));
  if (versions !== undefined) return versions <= 300 ? scale(0.3, 10) : scale(0.15, 5);
  return /** @type {number} */ (files) <= 1_000 ? scale(0.15, 5) : scale(0.05, 3);
}

/**
 * The host API at scale, on whatever storage `stores` gives: `export()` and `memories.list()`
 * of a store of `n` files of 1 KB, `import(bundle)` of that export into an empty store, and
 * `versions.list(NO_MATCH)` over a history of `v` versions (a scan of every version). Every
 * answer is checked (the count of memories, an empty page with no next page).
 * @param {{
 *   filled: (files: number) => Promise<{ tool: import("../src/js/index.js").MemoryTool, release: () => Promise<void> }>,
 *   empty: () => Promise<{ tool: import("../src/js/index.js").MemoryTool, release: () => Promise<void> }>,
 *   history: (versions: number) => Promise<{ tool: import("../src/js/index.js").MemoryTool, release: () => Promise<void> }>,
 *   runs: number, files?: number[], versions?: number[], budgetMs?: number, log?: (line: string) => void,
 * }} options
 * @returns {Promise<Array<Record<string, unknown>>>} rows without `suite`
 */
export async function scaleCases({ filled, empty, history, runs, files = SCALE_FILES, versions = SCALE_VERSIONS, budgetMs = 10_000, log = () => {} }) {
  const rows = [];
  const count = (/** @type {number} */ n) => (/** @type {{ memories?: unknown[] } | unknown[]} */ result) => {
    const got = Array.isArray(result) ? result.length : result.memories?.length;
    if (got !== n) throw new Error(`expected ${n} memories, got ${got}`);
  };
  for (const n of files) {
    const t0 = performance.now();
    const store = await filled(n);
    const measured = scaleRuns(runs, { files: n });
    // The big stores run the code the small one has warmed (and each call loops over
    // thousands of files): no warm-up run, which at 10,000 files would cost seconds.
    const warmup = n <= 1_000 ? 2 : 0;
    const common = { file_bytes: KB, store_files: n };
    try {
      /** @type {import("../src/js/index.js").Bundle | undefined} */
      let bundle;
      rows.push({
        case: caseName("export", 0, n),
        command: "export",
        ...common,
        ...(await timeCalls({
          call: () => store.tool.export(),
          check: (b) => {
            count(n)(b);
            bundle = b;
          },
          runs: measured,
          warmup,
          budgetMs,
        })),
      });
      rows.push({
        case: caseName("memories.list", 0, n),
        command: "memories.list",
        ...common,
        ...(await timeCalls({ call: () => store.tool.memories.list(), check: count(n), runs: measured, warmup, budgetMs })),
      });
      const exported = /** @type {import("../src/js/index.js").Bundle} */ (bundle);
      rows.push({
        case: caseName("import", 0, n),
        command: "import",
        ...common,
        ...(await timeCalls({
          before: empty,
          call: (target) => target.tool.import(exported),
          check: (result) => {
            if (result.imported !== n) throw new Error(`import: expected ${n} imported, got ${JSON.stringify(result)}`);
          },
          after: (target) => target.release(),
          runs: measured,
          warmup,
          budgetMs,
        })),
      });
    } finally {
      await store.release();
    }
    log(`${n} files: export, memories.list, import in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  for (const v of versions) {
    const store = await history(v);
    try {
      rows.push({
        case: `versions.list (matching none), ${v.toLocaleString("en-US")} versions`,
        command: "versions.list",
        store_versions: v,
        ...(await timeCalls({
          call: () => store.tool.versions.list(NO_MATCH),
          check: (page) => {
            if (page.data.length !== 0 || page.next_page !== null) throw new Error(`versions.list matched: ${JSON.stringify(page).slice(0, 200)}`);
          },
          runs: scaleRuns(runs, { versions: v }),
          warmup: 2,
          budgetMs,
        })),
      });
    } finally {
      await store.release();
    }
  }
  return rows;
}

/**
 * The scaling ratios of `rows` (one suite's): for each command, the median at 8,000 files over
 * the median at 1,000 (3,000 versions over 300): 8 (10) when the time grows with the data.
 * @param {Array<Record<string, any>>} rows
 * @returns {Array<Record<string, unknown>>}
 */
export function scaleRatios(rows) {
  /** @type {Array<[string, string, number, number]>} command, size key, small, big */
  const pairs = [
    ["export", "store_files", 1_000, 8_000],
    ["memories.list", "store_files", 1_000, 8_000],
    ["import", "store_files", 1_000, 8_000],
    ["versions.list", "store_versions", 300, 3_000],
  ];
  const out = [];
  for (const [command, key, small, big] of pairs) {
    const a = rows.find((r) => r.command === command && r[key] === small);
    const b = rows.find((r) => r.command === command && r[key] === big);
    if (!a || !b) continue;
    const unit = key === "store_files" ? "files" : "versions";
    out.push({
      case: `${command}, ${group(big)} / ${group(small)} ${unit}`,
      command,
      ratio: Math.round((b.median_ms / a.median_ms) * 1000) / 1000,
      ratio_of: [b.case, a.case],
      data_ratio: big / small,
    });
  }
  return out;
}
