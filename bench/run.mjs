// `npm run bench` (after scripts/bench.sh has set up and built): runs every part of the bench
// and prints one table; with --json FILE it also writes the rows as JSON.
//
//   node bench/run.mjs [--json FILE] [--only native,node,chromium,size] [--runs N] [--files N]
//
// Parts:  native    examples/bench_core.rs, the Rust core alone (cargo run --release)
//         node      Node 20, in-memory storage (bench/node-suite.mjs)
//         chromium  headless Chromium, IndexedDB (bench/browser-suite.mjs + bench/page.mjs)
//         size      .wasm and JS sizes, raw and gzip -9 (bench/sizes.mjs)
// A number to read, not a test: nothing here judges a time. The exit status is 1 only when a
// part could not run.

import { spawn, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatMs, group } from "./stats.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const PARTS = ["native", "node", "chromium", "size"];

/** Section titles, by row suite. */
const TITLES = {
  native: "native core (Rust MemStore, no wasm, no storage)",
  "node-memory": "Node, in-memory storage (package over wasm)",
  "chromium-indexeddb": "headless Chromium, IndexedDB (timed in the page)",
};

/**
 * Optional timing columns, shown when a row has the field.
 * @type {Array<{ key: string, title: string, format: (value: any) => string }>}
 */
const OPTIONAL_COLUMNS = [
  { key: "baseline_median_ms", title: "baseline median", format: formatMs },
  { key: "ratio", title: "ours / baseline", format: (r) => `${Number(r).toFixed(2)}×` },
];

/** @param {string} line */
const log = (line) => process.stderr.write(`bench: ${line}\n`);

async function main() {
  const { values } = parseArgs({
    options: {
      json: { type: "string" },
      only: { type: "string" },
      runs: { type: "string" },
      files: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(
      "usage: npm run bench -- [--json FILE] [--only native,node,chromium,size] [--runs N] [--files N]",
    );
    return 0;
  }
  const only = values.only ? values.only.split(",").map((s) => s.trim()) : PARTS;
  for (const part of only) {
    if (!PARTS.includes(part)) throw new Error(`--only: unknown part ${part} (parts: ${PARTS.join(", ")})`);
  }
  const runs = positive(values.runs, "--runs") ?? 200;
  const files = positive(values.files, "--files") ?? 10_000;
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
    log(`node: create / view / str_replace, ${runs} runs each`);
    const { runNodeSuite } = await import("./node-suite.mjs");
    return runNodeSuite({ runs });
  });
  await runPart("chromium", async () => {
    const { runBrowserSuite } = await import("./browser-suite.mjs");
    const { rows: browserRows, info } = await runBrowserSuite({ runs, files, log });
    machine.chromium = info.chromiumVersion;
    machine.chromium_timer_resolution_ms = info.timerResolutionMs;
    machine.chromium_cross_origin_isolated = info.crossOriginIsolated;
    return browserRows;
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
    await writeFile(jsonPath, `${JSON.stringify({ machine, rows, failures }, null, 2)}\n`);
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
  const text = command(process.env.CHROMIUM_PATH || "/usr/bin/chromium", ["--version"]);
  return /(\d+\.\d+\.\d+\.\d+)/.exec(text ?? "")?.[1];
}

/**
 * The whole report: machine, one timing table with a section per suite, then the sizes.
 * @param {Record<string, any>} machine
 * @param {Array<Record<string, any>>} rows
 */
function render(machine, rows) {
  const lines = [];
  const chromium = machine.chromium
    ? `Chromium ${machine.chromium}` +
      (machine.chromium_timer_resolution_ms !== undefined
        ? ` (headless; page clock step ${formatMs(machine.chromium_timer_resolution_ms)}` +
          `${machine.chromium_cross_origin_isolated ? ", cross-origin isolated" : ""})`
        : "")
    : "Chromium: not found";
  lines.push(
    `memory-tool-wasm bench, ${machine.date}`,
    `machine: ${machine.nproc} CPUs (nproc), ${machine.cpu}, ${machine.memory_gib} GiB RAM, ` +
      `load average ${machine.load_average_at_start.join(" / ")} at start`,
    `         ${machine.os}; Node ${machine.node}; ${machine.rustc ?? "rustc: not found"}; ${chromium}`,
  );

  const timed = rows.filter((row) => row.suite !== "size");
  if (timed.length > 0) {
    // Columns beyond median/p95/min appear only when some row has them (issue 6's baselines).
    const extra = OPTIONAL_COLUMNS.filter((column) => timed.some((row) => row[column.key] !== undefined));
    const table = [];
    let suite = "";
    for (const row of timed) {
      if (row.suite !== suite) {
        suite = row.suite;
        table.push({ title: TITLES[/** @type {keyof typeof TITLES} */ (suite)] ?? suite });
      }
      table.push({
        cells: [
          `  ${row.case}`,
          group(row.runs),
          formatMs(row.median_ms),
          formatMs(row.p95_ms),
          formatMs(row.min_ms),
          ...extra.map((column) => (row[column.key] === undefined ? "-" : column.format(row[column.key]))),
        ],
      });
    }
    const header = ["", "runs", "median", "p95", "min", ...extra.map((column) => column.title)];
    const width = header.map((h, i) =>
      Math.max(h.length, ...table.map((t) => (t.cells ? t.cells[i].length : 0))),
    );
    width[0] = Math.max(width[0], ...table.map((t) => (t.title ? t.title.length : 0)));
    const format = (/** @type {string[]} */ cells) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join("   ").trimEnd();
    lines.push("");
    let first = true;
    for (const t of table) {
      if (t.title) {
        if (!first) lines.push("");
        lines.push(format([t.title, ...(first ? header.slice(1) : header.slice(1).map(() => ""))]));
        first = false;
      } else lines.push(format(/** @type {string[]} */ (t.cells)));
    }
  }

  const sizes = rows.filter((row) => row.suite === "size");
  if (sizes.length > 0) {
    const bytes = (/** @type {number} */ n) => `${group(n)} B (${(n / 1024).toFixed(1)} KB)`;
    const cells = sizes.map((row) => [`  ${row.case}`, bytes(row.raw_bytes), bytes(row.gzip_bytes)]);
    const header = ["sizes", "raw", "gzip -9"];
    const width = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
    const format = (/** @type {string[]} */ c) =>
      c.map((x, i) => (i === 0 ? x.padEnd(width[i]) : x.padStart(width[i]))).join("   ");
    lines.push("", format(header), ...cells.map(format));
  }
  lines.push("", `bench took ${machine.total_seconds} s (after the build)`);
  return lines.join("\n");
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
