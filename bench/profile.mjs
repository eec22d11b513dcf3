// The probes and CPU profiles behind docs/BENCHMARKS.md's findings. Loads the
// bench page in headless Chromium (as bench/browser-suite.mjs does), adds bench/probe.mjs to it,
// and runs the probes asked for, printing JSON. Not part of `npm run bench`.
//
//   node bench/profile.mjs [view] [newest] [index] [events] [scale] [cpu] [--files N] [--runs N]
//
//   view    lead (a): view /memories over N files (default 10,000), part by part
//   split   a small view: the package, its IndexedDB layer alone, and the floor
//   prepare creates of 10 and 100 KB with Task.prepare on and off, alternately
//   newest  lead (b): the newest-version read of every write, with and without it (floor)
//   index   lead (c): the versions `content` index, with and without it (floor)
//   events  the change events' BroadcastChannel post after a rename of 1,000 / 10,000 files
//   scale   export() and import(bundle) of N files of 1 KB (default 10,000) beside their floors
//           (bench/baseline.mjs exportAll / importAll), the same over in-memory storage, the
//           import floor's puts kind by kind, and a CPU profile of each call (as `cpu` does)
//   stream  exportBlob() of N files of 1 KB (default 10,000) under the CPU profiler (as `cpu`)
//   cpu     CDP Profiler (50 µs sampling) over the package's str_replace 1 KB, create 100 KB and
//           view /memories (N files): self time by category (wasm, adapter JS, builtins, GC,
//           idle = waiting on IndexedDB) and the top functions. Function names of the wasm
//           show only in a build that keeps them (wasm-pack build --profiling, or --keep-debug).

import { chromium } from "playwright-core";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startServer } from "../scripts/serve.mjs";
import { CHROMIUM } from "./browser-suite.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { files: { type: "string" }, runs: { type: "string" } },
});
const files = Number(values.files ?? 10_000);
const runs = Number(values.runs ?? 30);
const want = new Set(positionals.length > 0 ? positionals : ["view", "newest", "index", "events", "cpu"]);

const server = await startServer({ port: 0 });
const origin = `http://127.0.0.1:${server.port}`;
const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-profile-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic"],
});
try {
  await context.route(`${origin}/**`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      headers: { ...response.headers(), "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" },
    });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => console.error(`page error: ${e}`));
  await page.goto(`${origin}/bench/page.html`);
  await page.waitForFunction(() => "bench" in globalThis);
  await page.addScriptTag({ type: "module", url: `${origin}/bench/probe.mjs` });
  await page.waitForFunction(() => "probe" in globalThis);
  const call = (/** @type {string} */ fn, /** @type {unknown} */ arg) =>
    page.evaluate(([n, a]) => /** @type {any} */ (globalThis).probe[/** @type {string} */ (n)](a), [fn, arg]);
  const out = (/** @type {string} */ label, /** @type {unknown} */ value) => console.log(JSON.stringify({ probe: label, ...(/** @type {object} */ (value)) }, null, 1));

  if (want.has("view") || want.has("newest") || want.has("cpu") || want.has("split") || want.has("prepare")) {
    await call("prepare", { name: "probe-store", files });
    await page.evaluate(() => /** @type {any} */ (globalThis).bench.prepare({ name: "probe-docs", files: 100, fileBytes: 1024, docs: [1024, 102400], withFloor: false }));
  }
  if (want.has("view")) out("view", await call("viewBreakdown", { name: "probe-store", runs }));
  if (want.has("prepare")) {
    for (const bytes of [10 * 1024, 100 * 1024]) out("prepare", await call("prepareAB", { name: "probe-docs", runs: runs * 5, bytes }));
  }
  if (want.has("split")) out("split", await call("viewSplit", { name: "probe-docs", path: "/doc-1KB.md", runs: runs * 10 }));
  if (want.has("newest")) out("newest", await call("newestCost", { name: "probe-docs", runs: runs * 4 }));
  if (want.has("index")) out("index", await call("contentIndexCost", { files: 1_000, dirFiles: 100, runs: runs * 2 }));
  if (want.has("events")) {
    out("events", await call("eventsCost", { count: 1_000, runs }));
    out("events", await call("eventsCost", { count: 10_000, runs: 10 }));
  }
  if (want.has("scale")) {
    out("scale", await call("scaleParts", { files, runs: Math.min(runs, 5) }));
    out("puts", await call("putCost", { files, runs: 3 }));
    await call("prepare", { name: "probe-scale-cpu", files });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    for (const what of ["export", "import"]) {
      await cdp.send("Profiler.start");
      const timing = await call("scaleRepeat", { name: "probe-scale-cpu", what, runs: 2 });
      const { profile: cpu } = await cdp.send("Profiler.stop");
      out("scale-cpu", { workload: `${what}, ${files} files`, timing, ...summarizeProfile(cpu) });
    }
    await cdp.detach();
  }
  if (want.has("stream")) {
    const bench = (/** @type {string} */ fn, /** @type {unknown} */ arg) =>
      page.evaluate(([n, a]) => /** @type {any} */ (globalThis).bench[/** @type {string} */ (n)](a), [fn, arg]);
    const name = await bench("streamPrepare", { files, fileBytes: 1024 });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    const timing = await bench("streamCases", { name, label: `${files} × 1 KB`, runs: Math.min(runs, 3), compare: false });
    const { profile: cpu } = await cdp.send("Profiler.stop");
    out("stream-cpu", { workload: `exportBlob, ${files} files`, timing, ...summarizeProfile(cpu) });
    await cdp.detach();
    await bench("drop", { name });
  }
  if (want.has("cpu")) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
    const workloads = [
      { label: "view file 1 KB", name: "probe-docs", runs: 1000, inputs: [{ command: "view", path: "/memories/doc-1KB.md" }] },
      { label: "str_replace 1 KB", name: "probe-docs", runs: 300, inputs: [
        { command: "str_replace", path: "/memories/doc-1KB.md", old_str: "@@bench-marker-alpha@@", new_str: "@@bench-marker-omega@@" },
        { command: "str_replace", path: "/memories/doc-1KB.md", old_str: "@@bench-marker-omega@@", new_str: "@@bench-marker-alpha@@" }] },
      { label: "create 100 KB", name: "probe-docs", runs: 100, inputs: Array.from({ length: 100 }, (_, i) => (
        { command: "create", path: `/memories/new/p-${i}.md`, file_text: "x".repeat(100 * 1024 - 1) + "\n" })) },
      { label: `view /memories, ${files} files`, name: "probe-store", runs: 10, inputs: [{ command: "view", path: "/memories" }] },
    ];
    for (const w of workloads) {
      await cdp.send("Profiler.start");
      const timing = await call("repeat", { name: w.name, inputs: w.inputs, runs: w.runs });
      const { profile: cpu } = await cdp.send("Profiler.stop");
      out("cpu", { workload: w.label, timing, ...summarizeProfile(cpu) });
    }
  }
} finally {
  await context.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
}

/**
 * Self time by category and the top functions of a CDP CPU profile.
 * @param {{ nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }>, samples: number[], timeDeltas: number[] }} cpu
 */
function summarizeProfile(cpu) {
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const categories = new Map();
  let total = 0;
  cpu.samples.forEach((id, i) => {
    const dt = (cpu.timeDeltas[i + 1] ?? 0) / 1000;
    total += dt;
    const { functionName, url, lineNumber } = /** @type {any} */ (byId.get(id)).callFrame;
    const key = `${functionName || "(anonymous)"} ${url ? `${url.replace(/^https?:\/\/[^/]+/, "")}:${lineNumber + 1}` : ""}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt);
    let category;
    if (url.startsWith("wasm://") || /^\$|wasm-function/.test(functionName)) category = "wasm";
    else if (url.includes("/src/js/")) category = "adapter JS (src/js)";
    else if (url.includes("/pkg/")) category = "wasm-bindgen glue (pkg/*.js)";
    else if (url.includes("/bench/")) category = "bench harness";
    else if (functionName === "(idle)") category = "idle (waiting: IndexedDB, IPC)";
    else if (functionName === "(garbage collector)") category = "GC";
    else if (functionName === "(program)") category = "(program): native, not JS";
    else category = "builtins / other";
    categories.set(category, (categories.get(category) ?? 0) + dt);
  });
  const round = (/** @type {number} */ x) => Math.round(x * 10) / 10;
  return {
    sampled_ms: round(total),
    by_category_ms: Object.fromEntries([...categories].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round(v)])),
    top_self_ms: Object.fromEntries([...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25)).map(([k, v]) => [k, round(v)])),
  };
}
