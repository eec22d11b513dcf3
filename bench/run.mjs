// `npm run bench` (after scripts/bench.sh has set up and built): runs every part of the bench
// and prints one table; with --json FILE it also writes the rows as JSON (one object per row:
// suite, case, median_ms, p95_ms, baseline_median_ms, ratio, …; the sizes' rows have raw_bytes
// and gzip_bytes).
//
//   node bench/run.mjs [--json FILE] [--only native,node,chromium,alternatives,scale,stream,cold,layout,sync,size] [--runs N] [--files N] [--warm N] [--big N]
//
// Parts:  native    examples/bench_core.rs, the Rust core alone (cargo run --release)
//         node      Node 20, in-memory storage (bench/node-suite.mjs)
//         chromium  headless Chromium, IndexedDB, each command beside its floor (a raw IndexedDB
//                   transaction doing the same requests: bench/baseline.mjs), and opening stores
//                   (bench/browser-suite.mjs + bench/page.mjs)
//         scale     the host API at scale, in Node (in-memory) and in Chromium (IndexedDB, a browser
//                   of its own): export(), import(bundle) into an empty store and memories.list()
//                   of 1,000, 8,000 and 10,000 files of 1 KB, versions.list({ operation:
//                   "deleted" }) (matching nothing) over 300 and 3,000 versions, and the time
//                   ratios 8,000 / 1,000 files and 3,000 / 300 versions (bench/workload.mjs's
//                   scaleCases; --files does not change these stores). Not in the default run
//                   (it takes ~2 minutes more): --only scale, or name every part.
//         sync      MemorySync against the hosted memory stores emulator (through the SDK client):
//                   a first download and a no-change pass over 1,000 and 10,000 memories of 1 KB in
//                   Node (in-memory storage), and over 1,000 in Chromium (IndexedDB), with the
//                   requests each sent (bench/sync-suite.mjs)
//         alternatives  headless Chromium, IndexedDB: the package beside hand-written idb 8 and
//                   Dexie 4 versions of the same commands (bench/alternatives/), interleaved run
//                   by run in one page: view / create / str_replace / insert of 1, 10, 100 KB,
//                   view /memories of 100 / 1,000 / 10,000 files, rename and delete of a
//                   1,000-file directory, create / view / open at 100 to 50,000 files; the
//                   ratios package ÷ idb and ÷ Dexie beside the targets (docs/BENCHMARKS.md).
//                   --runs sets its per-file runs too (default 50 here).
//         stream    headless Chromium, IndexedDB: exportBlob() of 10,000 files of 1 KB (--runs runs,
//                   default 5 here) beside export(), with the longest main-thread stall (a 4 ms
//                   setInterval probe and the long-task observer) and the wasm memory after it;
//                   --big N adds one exportBlob() of N files of 100 KB (10,000 is 1 GB of
//                   IndexedDB: minutes). Not in the default run: --only stream.
//         cold      headless Chromium, IndexedDB: import → first view /memories of a 10-file store,
//                   each run a new tab, the package's one-file build (dist/), its source modules
//                   and the Dexie version, rotating (--runs runs, default 20 here); the first load
//                   of each apart, the module and .wasm requests and bytes counted; --throttle 4g
//                   or slow-4g throttles each tab's network (CDP). Not in the default run: --only cold.
//         layout    headless Chromium, IndexedDB, no package: 10,000 memories of 1 KB put by hand
//                   in one transaction in each of a few record layouts (today's schema, a listing
//                   index, the bytes in the version or the file record, the least a memory with a
//                   version takes, idb's one record), --runs runs interleaved (default 3), and the
//                   reads the commands make of each (bench/layouts.mjs). Not in the default run:
//                   --only layout.
//         size      .wasm and JS sizes, raw and gzip -9 (bench/sizes.mjs)
// --runs N: measured runs of each per-file command in Chromium (default 100; the directory
// commands on big stores run fewer, see dirRuns in bench/browser-suite.mjs) and in Node.
// --files N: the biggest store (default 10,000).
// A number to read, not a test: nothing here judges a time. The exit status is 1 only when a
// part could not run.

import { spawn, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CHROMIUM } from "../scripts/chromium.mjs";
import { formatMs, group } from "./stats.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const PARTS = ["native", "node", "chromium", "alternatives", "scale", "stream", "cold", "layout", "sync", "size"];
/**
 * What runs without --only: `scale` takes as long again (~2 min on 2 cores) and `alternatives`
 * 3.5–5.5 min, so they run when asked for.
 */
const DEFAULT_PARTS = PARTS.filter((part) => part !== "scale" && part !== "alternatives" && part !== "stream" && part !== "cold" && part !== "layout");

/** @param {string} line */
const log = (line) => process.stderr.write(`bench: ${line}\n`);

async function main() {
  const { values } = parseArgs({
    options: {
      json: { type: "string" },
      only: { type: "string" },
      runs: { type: "string" },
      files: { type: "string" },
      warm: { type: "string" },
      big: { type: "string" },
      throttle: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(
      "usage: npm run bench -- [--json FILE] [--only native,node,chromium,alternatives,scale,stream,cold,layout,sync,size] [--runs N] [--files N] [--warm N]\n" +
        "  (without --only: native, node, chromium, sync, size; scale and alternatives run only when named)",
    );
    return 0;
  }
  const only = values.only ? values.only.split(",").map((s) => s.trim()) : DEFAULT_PARTS;
  for (const part of only) {
    if (!PARTS.includes(part)) throw new Error(`--only: unknown part ${part} (parts: ${PARTS.join(", ")})`);
  }
  const runs = positive(values.runs, "--runs") ?? 100;
  const files = positive(values.files, "--files") ?? 10_000;
  // Commands run through the package in the page (in-memory storage) before any timing, so V8
  // has optimized the adapter and the wasm: 0 measures code as a page's first commands meet it.
  const warm = values.warm === "0" ? 0 : positive(values.warm, "--warm") ?? 0;
  // Relative to where the user ran `npm run bench` (npm sets INIT_CWD; bench.sh sets BENCH_CWD).
  const cwd = process.env.BENCH_CWD || process.env.INIT_CWD || process.cwd();
  const jsonPath = values.json ? path.resolve(cwd, values.json) : undefined;

  const started = Date.now();
  const machine = machineInfo();
  /** @type {Array<Record<string, any>>} */
  const rows = [];
  /** @type {string[]} */
  const failures = [];
  /**
   * @param {string} part
   * @param {() => Promise<Array<Record<string, any>>>} body
   */
  const runPart = async (part, body) => {
    if (!only.includes(part)) return;
    const t0 = Date.now();
    try {
      rows.push(...(await body()));
      log(`${part} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (error) {
      failures.push(`${part}: ${error instanceof Error ? error.message : String(error)}`);
      log(`${part} FAILED: ${error instanceof Error ? error.stack : String(error)}`);
    }
  };

  await runPart("native", runNative);
  await runPart("node", async () => {
    log(`node: create / view / str_replace on 10 KB, ${runs} runs each`);
    const { runNodeSuite } = await import("./node-suite.mjs");
    return runNodeSuite({ runs });
  });
  await runPart("chromium", async () => {
    const { runBrowserSuite } = await import("./browser-suite.mjs");
    const { rows: browserRows, info } = await runBrowserSuite({ runs, files, warm, log });
    machine.chromium_warm_commands = warm;
    machine.chromium = info.chromiumVersion;
    machine.chromium_timer_resolution_ms = info.timerResolutionMs;
    machine.chromium_cross_origin_isolated = info.crossOriginIsolated;
    return browserRows;
  });
  await runPart("alternatives", async () => {
    const { runAlternatives } = await import("./browser-suite.mjs");
    const { rows: altRows, info } = await runAlternatives({ runs: positive(values.runs, "--runs") ?? 50, warm, log });
    machine.chromium ??= info.chromiumVersion;
    machine.chromium_timer_resolution_ms ??= info.timerResolutionMs;
    machine.chromium_cross_origin_isolated ??= info.crossOriginIsolated;
    return [...altRows, ...alternativeRatios(altRows)];
  });
  await runPart("scale", async () => {
    const { runNodeScale } = await import("./node-suite.mjs");
    const { runBrowserScale } = await import("./browser-suite.mjs");
    const { scaleRatios } = await import("./workload.mjs");
    log("scale: Node, in-memory: export / memories.list / import of 1,000, 8,000, 10,000 files; versions.list over 300, 3,000 versions");
    const nodeRows = await runNodeScale({ runs, log: (line) => log(`scale: node: ${line}`) });
    log("scale: Chromium, IndexedDB: the same");
    const { rows: browserRows, info } = await runBrowserScale({ runs, warm, log: (line) => log(`scale: ${line}`) });
    machine.chromium_warm_commands = warm;
    machine.chromium ??= info.chromiumVersion;
    machine.chromium_timer_resolution_ms ??= info.timerResolutionMs;
    machine.chromium_cross_origin_isolated ??= info.crossOriginIsolated;
    const ratios = (/** @type {Array<Record<string, any>>} */ part, /** @type {string} */ suite) =>
      scaleRatios(part).map((row) => ({ suite, ...row }));
    return [
      ...nodeRows,
      ...browserRows,
      ...ratios(nodeRows, "node-scale-ratio"),
      ...ratios(browserRows, "chromium-scale-ratio"),
    ];
  });
  await runPart("stream", async () => {
    const { runStream } = await import("./browser-suite.mjs");
    const big = positive(values.big, "--big") ?? 0;
    log(`stream: Chromium, IndexedDB: exportBlob of 10,000 files of 1 KB${big ? ` and of ${group(big)} files of 100 KB` : ""}`);
    const { rows: streamRows, info } = await runStream({ runs: positive(values.runs, "--runs") ?? 5, warm, big, log });
    machine.chromium ??= info.chromiumVersion;
    machine.chromium_timer_resolution_ms ??= info.timerResolutionMs;
    machine.chromium_cross_origin_isolated ??= info.crossOriginIsolated;
    return streamRows;
  });
  await runPart("cold", async () => {
    const { runCold } = await import("./browser-suite.mjs");
    const coldRuns = positive(values.runs, "--runs") ?? 20;
    log(`cold: Chromium, IndexedDB: import → first view /memories (10 files), dist / preload / src / Dexie, ${coldRuns} runs each`);
    const { rows: coldRows } = await runCold({ runs: coldRuns, throttle: values.throttle, log });
    return coldRows;
  });
  await runPart("layout", async () => {
    const { runLayouts } = await import("./browser-suite.mjs");
    const layoutRuns = positive(values.runs, "--runs") ?? 3;
    log(`layout: Chromium, IndexedDB: 10,000 memories of 1 KB put by hand in each record layout, ${layoutRuns} runs interleaved`);
    const { rows: layoutRows } = await runLayouts({ runs: layoutRuns, log });
    return layoutRows;
  });
  await runPart("sync", async () => {
    const { runSyncSuite, runSyncBrowser } = await import("./sync-suite.mjs");
    return [...(await runSyncSuite({ log })), ...(await runSyncBrowser({ log }))];
  });
  await runPart("size", async () => {
    const { measureSizes } = await import("./sizes.mjs");
    return measureSizes();
  });
  machine.chromium ??= chromiumVersion();
  machine.total_seconds = Math.round((Date.now() - started) / 100) / 10;

  console.log(render(machine, rows));
  if (failures.length > 0) {
    console.log(`\nparts that could not run:\n${failures.map((f) => `  ${f}`).join("\n")}`);
  }
  if (jsonPath) {
    await mkdir(path.dirname(jsonPath), { recursive: true });
    // Every row has the same leading keys (null where they do not apply: a native row has no
    // floor, a size row no time), so other tools can read the rows without knowing the suites.
    const uniform = rows.map(({ suite, case: name, median_ms = null, p95_ms = null, baseline_median_ms = null, ratio = null, ...rest }) => ({
      suite,
      case: name,
      median_ms,
      p95_ms,
      baseline_median_ms,
      ratio,
      ...rest,
    }));
    await writeFile(jsonPath, `${JSON.stringify({ machine, rows: uniform, failures }, null, 2)}\n`);
    log(`wrote ${rows.length} rows to ${jsonPath}`);
  }
  return failures.length > 0 ? 1 : 0;
}

/** The native core's rows: examples/bench_core.rs prints one JSON object per line with --json. */
function runNative() {
  log("native: cargo run --release --example bench_core -- --json");
  return new Promise((resolve, reject) => {
    const child = spawn("cargo", ["run", "--release", "--quiet", "--example", "bench_core", "--", "--json"], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => process.stderr.write(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`bench_core exited with status ${code}`));
      try {
        resolve(out.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** nproc, CPU model, memory, load, versions. */
function machineInfo() {
  const cpuinfo = readText("/proc/cpuinfo");
  return {
    date: new Date().toISOString(),
    nproc: Number(command("nproc")) || os.availableParallelism(),
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? "unknown",
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    load_average_at_start: os.loadavg().map((n) => Math.round(n * 100) / 100),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    rustc: command("rustc", ["--version"]),
    /** @type {string | undefined} */ chromium: undefined,
  };
}

/** Chromium's version from the binary (when the browser part did not run). */
function chromiumVersion() {
  const text = command(CHROMIUM, ["--version"]);
  return /(\d+\.\d+\.\d+\.\d+)/.exec(text ?? "")?.[1];
}

/** The commands in the issue's order: the main table's rows come in this order. */
const COMMAND_ORDER = ["view file", "view /memories", "create", "str_replace", "insert", "rename dir", "delete dir"];

/**
 * The whole report: the machine; the main table (one line per case: native core, Chromium with
 * IndexedDB, its floor and the ratio); opening stores (time, JS heap, wasm memory); Node; sizes.
 * @param {Record<string, any>} machine
 * @param {Array<Record<string, any>>} rows
 */
function render(machine, rows) {
  const lines = [];
  const chromium = machine.chromium
    ? `Chromium ${machine.chromium}` +
      (machine.chromium_timer_resolution_ms !== undefined
        ? ` (headless; page clock step ${formatMs(machine.chromium_timer_resolution_ms)}` +
          `${machine.chromium_cross_origin_isolated ? ", cross-origin isolated" : ""}` +
          `${machine.chromium_warm_commands ? `; ${group(machine.chromium_warm_commands)} warm-up commands first` : ""})`
        : "")
    : "Chromium: not found";
  lines.push(
    `memory-tool-wasm bench, ${machine.date}`,
    `machine: ${machine.nproc} CPUs (nproc), ${machine.cpu}, ${machine.memory_gib} GiB RAM, ` +
      `load average ${machine.load_average_at_start.join(" / ")} at start`,
    `         ${machine.os}; Node ${machine.node}; ${machine.rustc ?? "rustc: not found"}; ${chromium}`,
  );

  // The main table: one line per case, whichever suites measured it.
  const native = new Map(rows.filter((r) => r.suite === "native").map((r) => [r.case, r]));
  const browser = new Map(rows.filter((r) => r.suite === "chromium-indexeddb").map((r) => [r.case, r]));
  const cases = [...new Set([...native.keys(), ...browser.keys()])].sort((a, b) => order(a) - order(b));
  if (cases.length > 0) {
    const runs = (/** @type {any} */ r) => (r ? group(r.runs) : "-");
    const body = cases.map((name) => {
      const n = native.get(name);
      const c = browser.get(name);
      return [
        name,
        formatMs(n?.median_ms),
        formatMs(n?.p95_ms),
        formatMs(c?.median_ms),
        formatMs(c?.p95_ms),
        formatMs(c?.baseline_median_ms),
        formatMs(c?.baseline_p95_ms),
        c?.ratio === undefined ? "-" : `${c.ratio.toFixed(2)}×`,
        `${runs(n)} / ${runs(c)}`,
      ];
    });
    lines.push(
      "",
      ...table(
        [["case", "native median", "p95", "Chromium median", "p95", "floor median", "p95", "ours/floor", "runs (native/Chromium)"]],
        body,
      ),
      "  native: the Rust core over MemStore (no wasm, no storage). Chromium: the package (wasm + adapter)",
      "  over IndexedDB, timed in the page. floor: the same IndexedDB requests in one hand-written transaction,",
      "  no wasm (bench/baseline.mjs), run alternately with ours in the same page: compare ours/floor, which",
      "  holds when the machine is busy, rather than times across runs.",
    );
  }

  const alternatives = rows.filter((r) => r.suite === "chromium-alternatives");
  if (alternatives.length > 0) {
    const times = (/** @type {number | undefined} */ r) => (r === undefined ? "-" : `${r.toFixed(2)}×`);
    const sorted = [...alternatives].sort((a, b) => altOrder(a.case) - altOrder(b.case));
    lines.push(
      "",
      ...table(
        [["package beside hand-written idb / Dexie", "package", "idb", "Dexie", "pkg÷idb", "pkg÷Dexie", "target (÷idb)", "holds", "runs"]],
        sorted.map((r) => {
          const target = altTarget(r.case);
          if (r.skipped) return [r.case, "skipped", "", "", "", "", "", "", ""];
          return [
            r.case,
            formatMs(r.median_ms),
            formatMs(r.idb_median_ms),
            formatMs(r.dexie_median_ms),
            times(r.ratio_idb),
            times(r.ratio_dexie),
            target ? `≤ ${target.toFixed(1)}×` : "-",
            target ? (r.ratio_idb <= target ? "yes" : "NO") : "",
            group(r.runs),
          ];
        }),
      ),
    );
    for (const r of sorted.filter((row) => row.skipped)) lines.push(`  skipped: ${r.case}: ${r.skipped.replace(/^\w+: /, "")}`);
    const growth = rows.filter((r) => r.suite === "chromium-alternatives-ratio");
    if (growth.length > 0) {
      lines.push(
        "",
        ...table(
          [["time ratio, biggest store / 100 files (medians)", "package", "idb", "Dexie", "data ratio", "target (package)", "holds"]],
          growth.map((r) => [
            r.case,
            times(r.ratio),
            times(r.idb_ratio),
            times(r.dexie_ratio),
            `${group(r.data_ratio)}×`,
            r.target ? `≤ ${r.target.toFixed(1)}×` : "-",
            r.target ? (r.ratio <= r.target ? "yes" : "NO") : "",
          ]),
        ),
      );
    }
    lines.push(
      "  Medians in one Chromium page over IndexedDB, the three interleaved run by run (order rotating).",
      "  idb / Dexie: the six commands written by hand, one record per file, same texts, no versions,",
      "  hashes, limits, policy or events (bench/alternatives/, docs/BENCHMARKS.md#the-two-yardsticks).",
    );
  }

  const opens = rows.filter((r) => r.suite === "chromium-open");
  if (opens.length > 0) {
    const mb = (/** @type {number | undefined} */ n) => (n === undefined ? "-" : `${(n / 2 ** 20).toFixed(2)} MB`);
    const body = opens.map((r) => [
      r.case,
      formatMs(r.median_ms),
      formatMs(r.baseline_median_ms),
      r.ratio === undefined ? "-" : `${r.ratio.toFixed(2)}×`,
      formatMs(r.first_view_ms),
      formatMs(r.view_median_ms),
      mb(r.js_heap_bytes_after_open),
      mb(r.js_heap_bytes_after_view),
      mb(r.wasm_memory_bytes_after_open),
      mb(r.wasm_memory_bytes_after_view),
    ]);
    lines.push(
      "",
      ...table(
        [
          ["opening a store (fresh tab,", "open", "floor", "ours/", "view /memories", "", "JS heap", "", "wasm memory", ""],
          [" wasm already loaded)", "median", "idb.open", "floor", "first", "median", "after open", "after view", "after open", "after view"],
        ],
        body,
      ),
      "  JS heap: CDP Runtime.getHeapUsage after a full GC (HeapProfiler.collectGarbage); wasm memory: the",
      "  module's memory.buffer.byteLength (it never shrinks: after the view it is the high-water mark).",
    );
  }

  const node = rows.filter((r) => r.suite === "node-memory");
  if (node.length > 0) {
    lines.push(
      "",
      ...table(
        [["Node, in-memory storage (package over wasm)", "median", "p95", "runs"]],
        node.map((r) => [r.case, formatMs(r.median_ms), formatMs(r.p95_ms), group(r.runs)]),
      ),
    );
  }

  const stream = rows.filter((r) => r.suite === "chromium-stream");
  if (stream.length > 0) {
    const mb = (/** @type {number | undefined} */ n) => (n === undefined ? "-" : `${(n / 2 ** 20).toFixed(2)} MB`);
    lines.push(
      "",
      ...table(
        [["streamed (Chromium, IndexedDB)", "median", "p95", "longest stall", "long task", "first run: ms / stall / long task", "wasm before", "wasm after", "bundle", "export()", "runs"]],
        stream.map((r) => [
          r.case,
          formatMs(r.median_ms),
          formatMs(r.p95_ms),
          formatMs(r.max_stall_ms),
          formatMs(r.longest_long_task_ms),
          `${formatMs(r.first_run_ms)} / ${formatMs(r.first_run_stall_ms)} / ${formatMs(r.first_run_long_task_ms)}`,
          mb(r.wasm_memory_before),
          mb(r.wasm_memory_after),
          mb(r.bundle_bytes),
          formatMs(r.export_median_ms),
          group(r.runs),
        ]),
      ),
      "  longest stall: the biggest gap between ticks of a 4 ms setInterval while it ran (what input or an",
      "  animation would have waited); wasm: memory.buffer.byteLength before the first run and after the last;",
      "  first run: the page's first exportBlob (untimed in the median: V8 has not optimized the code yet).",
      ...stream
        .filter((r) => typeof r.ratio_bulk_put === "number")
        .map(
          (r) =>
            `  ${r.case}: ${formatMs(r.median_ms)} against ${formatMs(r.bulk_put_median_ms)} for a bulk put of one record per memory ` +
            `into one object store (${r.ratio_bulk_put}×; its longest stall ${formatMs(r.bulk_put_max_stall_ms)})`,
        ),
    );
  }

  const layouts = rows.filter((r) => r.suite === "chromium-layout");
  if (layouts.length > 0) {
    lines.push(
      "",
      ...table(
        [["record layout (Chromium, IndexedDB, by hand)", "put, each run", "÷ one record", "listing", "listing by getAllRecords", "records", "view file"]],
        layouts.map((r) => [
          r.case,
          /** @type {number[]} */ (r.put_ms).map((ms) => `${group(ms)} ms`).join(" / "),
          `${r.put_ratio}×`,
          formatMs(r.listing_median_ms),
          r.listing_records_median_ms === null ? "-" : formatMs(r.listing_records_median_ms),
          formatMs(r.records_median_ms),
          formatMs(r.view_median_ms),
        ]),
      ),
      ...layouts.map((r) => `  ${r.case}: ${r.what}`),
      `  put: ${group(Number(layouts[0].count))} memories of ${group(Number(layouts[0].bytes))} bytes in one transaction into a fresh database; listing: every`,
      "  path with its size (a key request, or a key cursor over an index); records: every file record; view: one",
      "  file's record and text (median of 50). Medians of the runs.",
    );
  }

  const cold = rows.filter((r) => r.suite === "chromium-cold");
  if (cold.length > 0) {
    lines.push(
      "",
      ...table(
        [[`cold start (Chromium, IndexedDB${cold[0].throttle ? `, throttled: ${cold[0].throttle}` : ", localhost"})`, "median", "p95", "first load", "÷ Dexie", "target", "modules", ".wasm", "bytes", ".wasm early", "runs"]],
        cold.map((r) => [
          r.case,
          formatMs(r.median_ms),
          formatMs(r.p95_ms),
          formatMs(r.first_load_ms),
          `${r.ratio_dexie.toFixed(2)}×`,
          r.case.endsWith("dist") || r.case.endsWith("preload") ? "≤ 1.30×" : "",
          group(r.module_requests),
          group(r.wasm_requests),
          group(r.transferred_bytes),
          r.wasm_before_last_module ? "yes" : "no",
          group(r.runs),
        ]),
      ),
      "  Each run a new tab: from import() of the implementation to the text of view /memories (10 files of",
      "  1 KB) over IndexedDB, timed in the page; first load: the first tab of each (an empty store). Served",
      "  gzipped; modules, .wasm: the requests after the harness's own; bytes: what they moved (gzipped);",
      "  .wasm early: the .wasm asked for before the last module arrived. dist is the main entry's browser file.",
    );
  }

  const scaleNode = new Map(rows.filter((r) => r.suite === "node-scale").map((r) => [r.case, r]));
  const scaleBrowser = new Map(rows.filter((r) => r.suite === "chromium-scale").map((r) => [r.case, r]));
  const scaleCases = [...new Set([...scaleBrowser.keys(), ...scaleNode.keys()])];
  if (scaleCases.length > 0) {
    const runs = (/** @type {any} */ r) => (r ? group(r.runs) : "-");
    lines.push(
      "",
      ...table(
        [["host API at scale (files of 1 KB)", "Chromium median", "p95", "Node median", "p95", "runs (Chromium/Node)"]],
        scaleCases.map((name) => {
          const c = scaleBrowser.get(name);
          const n = scaleNode.get(name);
          return [name, formatMs(c?.median_ms), formatMs(c?.p95_ms), formatMs(n?.median_ms), formatMs(n?.p95_ms), `${runs(c)} / ${runs(n)}`];
        }),
      ),
    );
    const ratioNode = new Map(rows.filter((r) => r.suite === "node-scale-ratio").map((r) => [r.case, r]));
    const ratioBrowser = new Map(rows.filter((r) => r.suite === "chromium-scale-ratio").map((r) => [r.case, r]));
    const ratioCases = [...new Set([...ratioBrowser.keys(), ...ratioNode.keys()])];
    const times = (/** @type {any} */ r) => (r ? `${r.ratio.toFixed(2)}×` : "-");
    lines.push(
      "",
      ...table(
        [["time ratio, big store / small (medians)", "Chromium", "Node", "data ratio"]],
        ratioCases.map((name) => {
          const c = ratioBrowser.get(name);
          const n = ratioNode.get(name);
          return [name, times(c), times(n), `${(c ?? n).data_ratio}×`];
        }),
      ),
      "  Chromium: the package over IndexedDB, timed in the page; each import into a fresh empty database.",
      "  Node: the package over in-memory storage. A ratio near the data ratio is time linear in the data.",
    );
  }

  const sync = rows.filter((r) => r.suite === "sync-node" || r.suite === "sync-chromium");
  if (sync.length > 0) {
    const where = (/** @type {any} */ r) => (r.suite === "sync-node" ? "Node, in-memory" : "Chromium, IndexedDB");
    lines.push(
      "",
      ...table(
        [["sync with a hosted store (emulator, memories of 1 KB)", "where", "time", "requests", "mutating"]],
        sync.map((r) => [r.case, where(r), formatMs(r.median_ms), group(r.requests), group(r.mutating_requests)]),
      ),
      "  One run each, the emulator on 127.0.0.1 in the same process: the requests are the number to compare.",
    );
  }

  const sizes = rows.filter((row) => row.suite === "size");
  if (sizes.length > 0) {
    const bytes = (/** @type {number} */ n) => `${group(n)} B (${(n / 1024).toFixed(1)} KB)`;
    lines.push(
      "",
      ...table(
        [["sizes", "raw", "gzip -9"]],
        sizes.map((row) => [row.case, bytes(row.raw_bytes), bytes(row.gzip_bytes)]),
      ),
    );
  }
  lines.push("", `bench took ${machine.total_seconds} s (after the build)`);
  return lines.join("\n");
}

/** The alternatives' table order: the issue's commands, then the store-size rows by size. */
const ALT_ORDER = ["view file", "create", "str_replace", "insert", "view /memories", "rename dir", "delete dir"];

/** @param {string} name */
function altOrder(name) {
  const scaled = /store of ([\d,]+) files/.exec(name);
  if (scaled) {
    const kind = ["create", "view file", "open", "export", "import"].findIndex((c) => name.startsWith(c));
    return 1e12 + kind * 1e9 + Number(scaled[1].replace(/,/g, ""));
  }
  const command = ALT_ORDER.findIndex((c) => name.startsWith(`${c},`));
  const size = Number(/, ([\d,]+)/.exec(name)?.[1].replace(/,/g, "") ?? 0);
  return command * 1e9 + size;
}

/**
 * The target of a side-by-side case, as a ceiling on package ÷ idb (docs/BENCHMARKS.md), or
 * undefined for a case without one.
 * @param {string} name
 */
export function altTarget(name) {
  if (/store of/.test(name)) return undefined;
  if (/^(view file|str_replace|insert), /.test(name)) return 1.3;
  if (name.startsWith("create, ")) return 1.5;
  if (name.startsWith("view /memories, ")) return 0.5;
  if (name.startsWith("delete dir, ")) return 3;
  return undefined;
}

/**
 * Growth with the store: the medians at the biggest store over those at the smallest, for
 * create, view and open, for each of the three (the create target: ≤ 1.3×).
 * @param {Array<Record<string, any>>} rows the alternatives' rows
 */
function alternativeRatios(rows) {
  const out = [];
  for (const command of ["create, 1 KB", "view file, 1 KB", "open", "export", "import"]) {
    const scaled = rows
      .filter((r) => r.case.startsWith(`${command}, store of`) && r.median_ms !== undefined)
      .sort((a, b) => a.store_files - b.store_files);
    if (scaled.length < 2) continue;
    const small = scaled[0];
    const big = scaled[scaled.length - 1];
    const ratio = (/** @type {string} */ key) => Math.round((big[key] / small[key]) * 1000) / 1000;
    out.push({
      suite: "chromium-alternatives-ratio",
      case: `${command}, ${group(big.store_files)} / ${group(small.store_files)} files`,
      ratio: ratio("median_ms"),
      idb_ratio: ratio("idb_median_ms"),
      dexie_ratio: ratio("dexie_median_ms"),
      target: command.startsWith("create") ? 1.3 : undefined,
      data_ratio: big.store_files / small.store_files,
    });
  }
  return out;
}

/**
 * Where a case goes in the main table: by command, then by its size.
 * @param {string} name
 */
function order(name) {
  const command = COMMAND_ORDER.findIndex((c) => name.startsWith(`${c},`));
  const size = Number(/, ([\d,]+)/.exec(name)?.[1].replace(/,/g, "") ?? 0);
  return (command < 0 ? COMMAND_ORDER.length : command) * 1e9 + size;
}

/**
 * Lines of a table: the first column left-aligned, the others right-aligned.
 * @param {string[][]} header
 * @param {string[][]} body
 */
function table(header, body) {
  const all = [...header, ...body];
  const width = all[0].map((_, i) => Math.max(...all.map((row) => (row[i] ?? "").length)));
  const format = (/** @type {string[]} */ row) =>
    row
      .map((cell, i) => (i === 0 ? (i === 0 && body.includes(row) ? `  ${cell}` : cell).padEnd(width[0] + 2) : cell.padStart(width[i])))
      .join("  ")
      .trimEnd();
  return all.map(format);
}

/**
 * @param {string | undefined} value
 * @param {string} name
 */
function positive(value, name) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a whole number, 1 or more`);
  return n;
}

/** @param {string} file */
function readText(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * A command's trimmed stdout, or undefined if it cannot run.
 * @param {string} file
 * @param {string[]} [args]
 */
function command(file, args = []) {
  try {
    return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
