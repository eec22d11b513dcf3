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
 * One timed call of a scaling row: `before` makes its input off the clock (an empty store for
 * an import), `check` looks at the answer and `after` cleans up, both off the clock too.
 * @template I, R
 * @typedef {{ before?: () => Promise<I> | I, call: (input: I) => Promise<R>, check?: (result: R) => void,
 *   after?: (input: I) => Promise<unknown> | unknown }} Timed
 */

/**
 * @template I, R
 * @param {Timed<I, R>} timed
 * @param {() => number} now
 * @returns {Promise<number>} ms
 */
async function once({ before, call, check, after }, now) {
  const input = /** @type {I} */ (before ? await before() : undefined);
  const t0 = now();
  const result = await call(input);
  const took = now() - t0;
  if (check) check(result);
  if (after) await after(input);
  return took;
}

/**
 * Times `timed` `runs` times after `warmup` untimed runs; stops early, after at least
 * `minRuns`, once the measured runs took `budgetMs` in all (so a slow build still finishes in
 * reasonable time; the row says its runs).
 * @param {Timed<any, any> & { runs: number, warmup: number, minRuns?: number, budgetMs?: number, now?: () => number }} options
 */
export async function timeCalls({ runs, warmup, minRuns = 3, budgetMs = Infinity, now = () => performance.now(), ...timed }) {
  for (let i = 0; i < warmup; i++) await once(timed, now);
  const samples = [];
  let spent = 0;
  while (samples.length < runs) {
    const took = await once(timed, now);
    samples.push(took);
    spent += took;
    if (samples.length >= minRuns && spent >= budgetMs) break;
  }
  return summarize(samples);
}

/**
 * Times the same call on a small and a big store alternately, so that a change in the load of
 * the machine (other jobs on the same cores) hits both and their ratio holds: `perBig` runs on
 * the small store for each run on the big one, the small first on even rounds and the big first
 * on odd ones. `warmup` untimed runs on the small store come first (the big one runs code they
 * warmed, and each of its calls loops over thousands of files). `runs` rounds at most; after
 * `minRuns` rounds, stops once the big store's runs took `budgetMs` in all.
 * @param {{ small: Timed<any, any>, big: Timed<any, any>, perBig: number, runs: number, warmup: number,
 *   minRuns?: number, budgetMs?: number, now?: () => number }} options
 * @returns {Promise<[import("./stats.mjs").Summary, import("./stats.mjs").Summary]>}
 */
export async function timePair({ small, big, perBig, runs, warmup, minRuns = 3, budgetMs = Infinity, now = () => performance.now() }) {
  for (let i = 0; i < warmup; i++) await once(small, now);
  /** @type {number[]} */
  const smallSamples = [];
  /** @type {number[]} */
  const bigSamples = [];
  let spent = 0;
  for (let round = 0; round < runs; round++) {
    const smalls = async () => {
      for (let k = 0; k < perBig; k++) smallSamples.push(await once(small, now));
    };
    const bigs = async () => {
      const took = await once(big, now);
      bigSamples.push(took);
      spent += took;
    };
    if (round % 2 === 0) {
      await smalls();
      await bigs();
    } else {
      await bigs();
      await smalls();
    }
    if (bigSamples.length >= minRuns && spent >= budgetMs) break;
  }
  return [summarize(smallSamples), summarize(bigSamples)];
}

/** The stores of the scaling rows, files of 1 KB: the pair whose time ratio is reported, and the biggest. */
export const SCALE_FILES = { small: 1_000, big: 8_000, biggest: 10_000 };
/** The histories of the scaling rows (versions of one file, created once and then edited): the pair. */
export const SCALE_VERSIONS = { small: 300, big: 3_000 };
/** The filter of the `versions.list` rows: no version of those histories is a deletion. */
export const NO_MATCH = { operation: /** @type {const} */ ("deleted") };

/**
 * Rounds of the scaling rows, from the per-file `runs` (default 100): 5 on the big stores
 * (each with 3 runs on the small store: 15) and on the biggest; 15 on 3,000 versions (each with
 * 2 runs on 300: 30). Fewer when the big store's runs pass `scaleCases`' time budget.
 * @param {number} runs
 */
export function scaleRuns(runs) {
  return {
    files: Math.max(3, Math.round(runs * 0.05)),
    filesPerBig: 3,
    versions: Math.max(5, Math.round(runs * 0.15)),
    versionsPerBig: 2,
  };
}

/**
 * @typedef {{ tool: import("../src/js/index.js").MemoryTool, release: () => Promise<void> }} ScaleStore
 */

/**
 * The host API at scale, on whatever storage `stores` gives: `export()` and `memories.list()`
 * of a store of n files of 1 KB, `import(bundle)` of that export into an empty store, for
 * 1,000 and 8,000 files alternately (`timePair`) and then for 10,000; `versions.list(NO_MATCH)`
 * (a scan of every version) over 300 and 3,000 versions, alternately. Every answer is checked
 * (the count of memories, an empty page with no next page).
 * @param {{
 *   filled: (files: number) => Promise<ScaleStore>,
 *   empty: () => Promise<ScaleStore>,
 *   history: (versions: number) => Promise<ScaleStore>,
 *   runs: number, files?: typeof SCALE_FILES, versions?: typeof SCALE_VERSIONS, budgetMs?: number,
 *   log?: (line: string) => void,
 * }} options
 * @returns {Promise<Array<Record<string, unknown>>>} rows without `suite`, by store size
 */
export async function scaleCases({ filled, empty, history, runs, files = SCALE_FILES, versions = SCALE_VERSIONS, budgetMs = 10_000, log = () => {} }) {
  const counts = scaleRuns(runs);
  /** @type {Array<Record<string, unknown>>} */
  const rows = [];
  const count = (/** @type {number} */ n) => (/** @type {{ memories?: unknown[] } | unknown[]} */ result) => {
    const got = Array.isArray(result) ? result.length : result.memories?.length;
    if (got !== n) throw new Error(`expected ${n} memories, got ${got}`);
  };
  /** @param {number} n @param {string} command @param {import("./stats.mjs").Summary} summary */
  const row = (n, command, summary) =>
    rows.push({ case: caseName(command, 0, n), command, file_bytes: KB, store_files: n, ...summary });
  /**
   * The three calls on each store of `stores`: alternately for a pair, alone for one.
   * @param {number[]} sizes
   */
  const measure = async (sizes) => {
    const t0 = performance.now();
    /** @type {ScaleStore[]} */
    const stores = [];
    try {
      for (const n of sizes) stores.push(await filled(n));
      /** @type {Map<number, import("../src/js/index.js").Bundle>} */
      const bundles = new Map();
      /** @type {Record<string, (n: number, store: ScaleStore) => Timed<any, any>>} */
      const calls = {
        export: (n, store) => ({
          call: () => store.tool.export(),
          check: (/** @type {import("../src/js/index.js").Bundle} */ b) => {
            count(n)(b);
            bundles.set(n, b);
          },
        }),
        "memories.list": (n, store) => ({ call: () => store.tool.memories.list(), check: count(n) }),
        import: (n) => ({
          before: empty,
          call: (/** @type {ScaleStore} */ target) => target.tool.import(/** @type {any} */ (bundles.get(n))),
          check: (/** @type {import("../src/js/index.js").ImportResult} */ result) => {
            if (result.imported !== n) throw new Error(`import: expected ${n} imported, got ${JSON.stringify(result)}`);
          },
          after: (/** @type {ScaleStore} */ target) => target.release(),
        }),
      };
      for (const [command, make] of Object.entries(calls)) {
        if (sizes.length === 2) {
          const [a, b] = await timePair({
            small: make(sizes[0], stores[0]),
            big: make(sizes[1], stores[1]),
            perBig: counts.filesPerBig,
            runs: counts.files,
            warmup: 2,
            budgetMs,
          });
          row(sizes[0], command, a);
          row(sizes[1], command, b);
        } else {
          row(sizes[0], command, await timeCalls({ ...make(sizes[0], stores[0]), runs: counts.files, warmup: 0, budgetMs }));
        }
      }
    } finally {
      for (const store of stores) await store.release();
    }
    log(`${sizes.map((n) => group(n)).join(" and ")} files: export, memories.list, import in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await measure([files.small, files.big]);
  await measure([files.biggest]);

  const t0 = performance.now();
  const small = await history(versions.small);
  const big = await history(versions.big);
  try {
    const scan = (/** @type {ScaleStore} */ store) => ({
      call: () => store.tool.versions.list(NO_MATCH),
      check: (/** @type {import("../src/js/index.js").VersionPage} */ page) => {
        if (page.data.length !== 0 || page.next_page !== null) throw new Error(`versions.list matched: ${JSON.stringify(page).slice(0, 200)}`);
      },
    });
    const pair = await timePair({
      small: scan(small),
      big: scan(big),
      perBig: counts.versionsPerBig,
      runs: counts.versions,
      warmup: 2,
      budgetMs,
    });
    for (const [i, v] of [versions.small, versions.big].entries()) {
      rows.push({
        case: `versions.list (matching none), ${group(v)} versions`,
        command: "versions.list",
        store_versions: v,
        ...pair[i],
      });
    }
  } finally {
    await small.release();
    await big.release();
  }
  log(`versions.list over ${group(versions.small)} and ${group(versions.big)} versions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const order = ["export", "memories.list", "import", "versions.list"];
  return rows.sort(
    (x, y) =>
      Number(x.store_files ?? 1e9) - Number(y.store_files ?? 1e9) ||
      Number(x.store_versions ?? 0) - Number(y.store_versions ?? 0) ||
      order.indexOf(String(x.command)) - order.indexOf(String(y.command)),
  );
}

/**
 * The scaling ratios of `rows` (one suite's): for each command, the median at 8,000 files over
 * the median at 1,000 (3,000 versions over 300), measured alternately: 8 (10) when the time
 * grows with the data.
 * @param {Array<Record<string, any>>} rows
 * @returns {Array<Record<string, unknown>>}
 */
export function scaleRatios(rows) {
  const { small: f1, big: f8 } = SCALE_FILES;
  const { small: v1, big: v8 } = SCALE_VERSIONS;
  /** @type {Array<[string, string, number, number]>} command, size key, small, big */
  const pairs = [
    ["export", "store_files", f1, f8],
    ["memories.list", "store_files", f1, f8],
    ["import", "store_files", f1, f8],
    ["versions.list", "store_versions", v1, v8],
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
