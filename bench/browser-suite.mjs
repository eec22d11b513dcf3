// Headless Chromium with IndexedDB: loads bench/page.html from the repository (served by
// scripts/serve.mjs) in Debian's Chromium through playwright-core, with a fresh persistent
// profile in a temp dir, and has the page time the commands itself (bench/page.mjs), each beside
// its floor (bench/baseline.mjs). Then, for the memory figures, opens stores of 1,000 and 10,000
// files of 1 KB and 10,000 files of 10 KB, each in a fresh tab, and reads the JS heap (CDP
// Runtime.getHeapUsage after HeapProfiler.collectGarbage) and the wasm memory
// (memory.buffer.byteLength) after the open and after a first `view /memories`.
//
// `runBrowserScale` runs the scaling rows (export, import, memories.list, versions.list at
// several sizes: bench/page.mjs's `scaleCases`) in a browser of their own.
//
// `runAlternatives` runs the package beside hand-written idb and Dexie versions of the same
// commands (bench/alternatives/), in a browser of its own.
//
//   node bench/browser-suite.mjs [--runs N] [--warmup N] [--files N] [--scale | --alternatives]   prints the rows as JSON
//
// The page is served cross-origin isolated (COOP/COEP added by request interception), so
// performance.now() ticks in 5 µs steps rather than 100 µs.

import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../scripts/chromium.mjs";
import { summarize } from "./stats.mjs";
export { CHROMIUM };

const KB = 1024;

/**
 * @typedef {object} BrowserOptions
 * @property {number} [runs] measured runs of each per-file command (default 100); the
 *   directory commands on big stores run fewer (see `dirRuns`)
 * @property {number} [warmup] runs before measuring (default 10)
 * @property {number} [files] the biggest store (default 10,000); stores of 100 and 1,000 files
 *   come too when smaller
 * @property {boolean} [memory] measure open time, JS heap and wasm memory (default true)
 * @property {number} [warm] commands run through the package (in-memory storage) before any
 *   timing (default 0)
 * @property {(line: string) => void} [log] progress lines
 */

/**
 * Runs of the directory commands over a store of `files` files, from the per-file `runs`:
 * enough for a stable median at 100 files, a few at 10,000 (where one rename is a transaction
 * of 30,000 requests).
 * @param {number} runs
 * @param {number} files
 */
export function dirRuns(runs, files) {
  const scale = (/** @type {number} */ share, /** @type {number} */ least) => Math.max(least, Math.round(runs * share));
  if (files <= 100) return { viewRuns: runs, renameRuns: scale(0.5, 5), deleteRuns: scale(0.5, 5), dirWarmup: 2 };
  if (files <= 1_000) return { viewRuns: scale(0.3, 10), renameRuns: scale(0.06, 3), deleteRuns: scale(0.06, 3), dirWarmup: 1 };
  return { viewRuns: scale(0.2, 10), renameRuns: scale(0.02, 2), deleteRuns: scale(0.02, 2), dirWarmup: 0 };
}

/**
 * @param {BrowserOptions} [options]
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, info: Record<string, unknown> }>}
 */
export async function runBrowserSuite({ runs = 100, warmup = 10, files = 10_000, warm = 0, memory = true, log = () => {} } = {}) {
  return withBenchPage({ warm, log }, async ({ context, origin, page, call, info }) => {
    /** @type {Array<Record<string, unknown>>} */
    const rows = [];
    const sizes = [KB, 10 * KB, 100 * KB];
    log(`chromium: view file / create / str_replace / insert on 1, 10, 100 KB, ${runs} runs each, beside the floor`);
    await call("prepare", { name: "files", files: 100, fileBytes: KB, docs: sizes });
    rows.push(...(await call("fileCases", { name: "files", sizes, runs, warmup })));
    await call("drop", { name: "files" });

    const stores = [100, 1_000, 10_000].filter((n) => n < files).concat([files]);
    // The package's databases of these stores are kept for the memory figures below.
    const keep = memory ? [Math.min(1_000, files), files] : [];
    for (const n of stores) {
      const counts = dirRuns(runs, n);
      const t0 = Date.now();
      const built = await call("prepare", { name: `dir-${n}`, files: n, fileBytes: KB });
      log(
        `chromium: ${n} files: built in ${Math.round(built.buildMs)} ms, written twice in ${Math.round(built.writeMs)} ms; ` +
          `view ×${counts.viewRuns}, rename ×${counts.renameRuns}, delete ×${counts.deleteRuns}`,
      );
      rows.push(...(await call("dirCases", { name: `dir-${n}`, files: n, ...counts })));
      await call("drop", { name: `dir-${n}`, floorOnly: keep.includes(n) });
      log(`chromium: ${n} files done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }

    if (memory) {
      // Stores of 1,000 and 10,000 files of 1 KB (those of the directory cases, whose
      // deleted files were put back), and one of 10,000 files of 10 KB: the figures must grow
      // with the number of files, not with their bytes.
      const cases = [
        { name: `dir-${keep[0]}`, files: keep[0], fileBytes: KB },
        { name: `dir-${files}`, files, fileBytes: KB },
        { name: `open-${files}-10KB`, files, fileBytes: 10 * KB },
      ].filter((c, i, all) => all.findIndex((d) => d.name === c.name) === i);
      const t0 = Date.now();
      await call("prepare", { name: `open-${files}-10KB`, files, fileBytes: 10 * KB, withFloor: false });
      log(`chromium: memory: ${files} files of 10 KB written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      // Each store in a fresh tab (the main one closed first), so the heap and the wasm memory
      // are that store's alone.
      await page.close();
      for (const c of cases) {
        rows.push(await measureOpen(context, origin, c));
        log(`chromium: memory: ${c.files} files of ${c.fileBytes / KB} KB measured`);
      }
      const cleanup = await benchPage(context, origin);
      for (const c of cases) {
        await cleanup.evaluate((name) => /** @type {any} */ (globalThis).bench.drop({ name }), c.name);
      }
    }
    return { rows: rows.map((row) => ({ suite: row.suite ?? "chromium-indexeddb", ...row })), info };
  });
}

/**
 * The scaling rows in headless Chromium over IndexedDB (bench/page.mjs's `scaleCases`): export,
 * import and memories.list of 1,000 and 8,000 files of 1 KB (alternately) and of 10,000, and
 * versions.list with a filter matching nothing over 300 and 3,000 versions (alternately). In a
 * browser of their own, after `warm` warm-up commands (as `runBrowserSuite`).
 * @param {{ runs?: number, warm?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, info: Record<string, unknown> }>}
 */
export async function runBrowserScale({ runs = 100, warm = 0, log = () => {} } = {}) {
  return withBenchPage({ warm, log }, async ({ page, call, info }) => {
    const progress = (/** @type {import("playwright-core").ConsoleMessage} */ message) => {
      const text = message.text();
      if (text.startsWith("bench-scale: ")) log(`chromium: ${text.slice("bench-scale: ".length)}`);
    };
    page.on("console", progress);
    try {
      /** @type {Array<Record<string, unknown>>} */
      const rows = await call("scaleCases", { runs });
      return { rows, info };
    } finally {
      page.off("console", progress);
    }
  });
}

/**
 * The streaming rows in headless Chromium over IndexedDB (bench/page.mjs's `streamCases`):
 * `exportBlob()` of 10,000 files of 1 KB, with its longest main-thread stall and the wasm
 * memory after it, beside `export()`; with `big`, also of `big` files of 100 KB (one run, not
 * compared with `export()`, which would hold the whole store). Each store is built in the
 * main tab and exported in a fresh one. In a browser of its own.
 * @param {{ runs?: number, warm?: number, big?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, info: Record<string, unknown> }>}
 */
export async function runStream({ runs = 5, warm = 0, big = 0, log = () => {} } = {}) {
  return withBenchPage({ warm, log }, async ({ context, origin, page, call, info }) => {
    const progress = (/** @type {import("playwright-core").ConsoleMessage} */ message) => {
      const text = message.text();
      if (text.startsWith("bench-stream: ")) log(`stream: ${text.slice("bench-stream: ".length)}`);
    };
    page.on("console", progress);
    /** @type {Array<Record<string, unknown>>} */
    const rows = [];
    try {
      const cases = [{ files: 10_000, fileBytes: KB, runs, compare: true }];
      if (big > 0) cases.push({ files: big, fileBytes: 100 * KB, runs: 1, compare: false });
      for (const c of cases) {
        const name = await call("streamPrepare", { files: c.files, fileBytes: c.fileBytes });
        const label = `${c.files.toLocaleString("en-US")} × ${c.fileBytes / KB} KB`;
        // In a tab of its own: the wasm memory is then exportBlob's alone, not the high-water
        // mark of building the store.
        const tab = await benchPage(context, origin);
        tab.on("console", progress);
        try {
          rows.push(
            ...(await tab.evaluate(
              (arg) => /** @type {any} */ (globalThis).bench.streamCases(arg),
              { name, label, runs: c.runs, compare: c.compare },
            )),
          );
        } finally {
          await tab.close();
        }
        await call("drop", { name });
      }
    } finally {
      page.off("console", progress);
    }
    return { rows, info };
  });
}

/**
 * The record layouts' rows (bench/layouts.mjs): `count` memories of `bytes` bytes put by hand
 * in each layout, `runs` times interleaved, and the reads the commands make of them.
 * @param {{ runs?: number, count?: number, bytes?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, info: Record<string, unknown> }>}
 */
export async function runLayouts({ runs = 3, count = 10_000, bytes = KB, log = () => {} } = {}) {
  return withBenchPage({ warm: 0, log }, async ({ page, call, info }) => {
    const progress = (/** @type {import("playwright-core").ConsoleMessage} */ message) => {
      const text = message.text();
      if (text.startsWith("bench-layout: ")) log(`layout: ${text.slice("bench-layout: ".length)}`);
    };
    page.on("console", progress);
    try {
      /** @type {Array<Record<string, unknown>>} */
      const rows = await call("layoutCases", { count, bytes, runs });
      return { rows, info };
    } finally {
      page.off("console", progress);
    }
  });
}

/**
 * The cold-start rows' implementations (bench/cold.mjs): the main entry's browser file (the
 * one-file build), the same with a `<link rel="preload">` of the .wasm, the source modules,
 * and the Dexie version.
 */
export const COLD_IMPLS = /** @type {const} */ (["dist", "preload", "src", "dexie"]);

/**
 * Network profiles for `runCold`'s `throttle` (CDP `Network.emulateNetworkConditions`: a delay
 * per request, not per packet). `4g`: 9 Mbit/s down, 1.5 up, 60 ms; `slow-4g`: Lighthouse's
 * mobile profile, 1.6 Mbit/s down, 750 kbit/s up, 150 ms.
 */
export const THROTTLES = Object.freeze({
  "4g": { latency: 60, downloadThroughput: (9_000_000 / 8), uploadThroughput: 1_500_000 / 8 },
  "slow-4g": { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
});

/**
 * Cold starts in headless Chromium over IndexedDB (bench/cold.html): each run a new tab that
 * imports the implementation, opens a store of 10 files of 1 KB and views /memories, timed
 * in the page from the import to the view's text; the implementations of COLD_IMPLS, rotating
 * run by run. The first load of each (an empty store) is reported apart. Served gzipped (as a
 * production server would; every load downloads again: the server says no-cache and gives no
 * validator). Counted per load from the DevTools protocol's network events: the module
 * requests and .wasm requests after the harness's own, the bytes they moved, and whether the
 * .wasm was asked for before the last module arrived. With `throttle` (a name of THROTTLES),
 * each tab's network is throttled. No request interception here (it would slow every module
 * request), so no cross-origin isolation.
 * @param {{ runs?: number, throttle?: string, log?: (line: string) => void }} [options]
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, info: Record<string, unknown> }>}
 */
export async function runCold({ runs = 20, throttle, log = () => {} } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const network = throttle === undefined ? undefined : THROTTLES[/** @type {keyof typeof THROTTLES} */ (throttle)];
  if (throttle !== undefined && !network) throw new Error(`--throttle: unknown profile ${throttle} (profiles: ${Object.keys(THROTTLES).join(", ")})`);
  const server = await startServer({ port: 0, gzip: true });
  const origin = `http://127.0.0.1:${server.port}`;
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-cold-"));
  /** @type {import("playwright-core").BrowserContext | undefined} */
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const load = async (/** @type {string} */ query) => {
      const ctx = /** @type {import("playwright-core").BrowserContext} */ (context);
      const tab = await ctx.newPage();
      const cdp = await ctx.newCDPSession(tab);
      /** @type {Map<string, { url: string, type: string, sent: number, done?: number, bytes?: number }>} */
      const seen = new Map();
      cdp.on("Network.requestWillBeSent", (e) => seen.set(e.requestId, { url: e.request.url, type: String(e.type), sent: e.timestamp }));
      cdp.on("Network.loadingFinished", (e) => {
        const r = seen.get(e.requestId);
        if (r) Object.assign(r, { done: e.timestamp, bytes: e.encodedDataLength });
      });
      try {
        await cdp.send("Network.enable");
        if (network) await cdp.send("Network.emulateNetworkConditions", { offline: false, ...network });
        await tab.goto(`${origin}/bench/cold.html?${query}`);
        await tab.waitForFunction(() => document.documentElement.dataset.state === "done", undefined, { timeout: 120_000 });
        const result = await tab.evaluate(() => /** @type {any} */ (window).result);
        if (result.error) throw new Error(`cold start ${query}: ${result.error}`);
        // What the implementation asked for: not the page, nor the harness (cold.mjs).
        const own = [...seen.values()].filter((r) => !/\/bench\/cold\.(html|mjs)(\?|$)/.test(r.url) && !r.url.endsWith("/favicon.ico"));
        const modules = own.filter((r) => r.type === "Script");
        const wasm = own.filter((r) => r.url.endsWith(".wasm"));
        const lastModule = Math.max(...modules.map((r) => r.done ?? Infinity));
        return {
          .../** @type {{ ms: number, lines: number }} */ (result),
          modules: modules.length,
          wasmRequests: wasm.length,
          bytes: own.reduce((sum, r) => sum + (r.bytes ?? 0), 0),
          wasmBeforeLastModule: wasm.length > 0 && wasm[0].sent < lastModule,
        };
      } finally {
        await cdp.detach().catch(() => {});
        await tab.close();
      }
    };
    /** @type {Record<string, Awaited<ReturnType<typeof load>>>} */
    const first = {};
    for (const impl of COLD_IMPLS) {
      first[impl] = await load(`impl=${impl}&store=first`);
      await load(`impl=${impl}&store=ten&fill=10`);
    }
    log(`cold: first loads ${COLD_IMPLS.map((impl) => `${impl} ${Math.round(first[impl].ms)} ms`).join(", ")}; ${runs} runs each${throttle ? `, throttled (${throttle})` : ""}`);
    /** @type {Record<string, number[]>} */
    const samples = Object.fromEntries(COLD_IMPLS.map((impl) => [impl, []]));
    /** @type {Record<string, Awaited<ReturnType<typeof load>>>} */
    const counted = {};
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < COLD_IMPLS.length; k++) {
        const impl = COLD_IMPLS[(i + k) % COLD_IMPLS.length];
        const seen = await load(`impl=${impl}&store=ten`);
        // The store's 10 files, under the listing's first line.
        if (seen.lines < 11) throw new Error(`cold start ${impl}: the view listed ${seen.lines} lines`);
        samples[impl].push(seen.ms);
        counted[impl] ??= seen;
      }
    }
    const dexie = summarize(samples.dexie);
    const rows = COLD_IMPLS.map((impl) => {
      const summary = summarize(samples[impl]);
      return {
        suite: "chromium-cold",
        case: `import → first view, ${impl}`,
        ...summary,
        first_load_ms: Math.round(first[impl].ms * 10) / 10,
        ratio_dexie: Math.round((summary.median_ms / dexie.median_ms) * 100) / 100,
        throttle: throttle ?? null,
        module_requests: counted[impl]?.modules,
        wasm_requests: counted[impl]?.wasmRequests,
        transferred_bytes: counted[impl]?.bytes,
        wasm_before_last_module: counted[impl]?.wasmBeforeLastModule,
      };
    });
    return { rows, info: {} };
  } finally {
    await context?.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/** The store sizes of the alternatives' scaling rows (create, view, open). */
export const ALT_SCALE_SIZES = [100, 1_000, 10_000, 50_000];

/**
 * The side-by-side rows: the package, the idb version and the Dexie version of the commands
 * (bench/alternatives/), interleaved run by run in one page over IndexedDB: view / create /
 * str_replace / insert of 1, 10, 100 KB files; view /memories of 100, 1,000, 10,000 files;
 * rename and delete of a 1,000-file directory; create, view and open at ALT_SCALE_SIZES files.
 * In a browser of its own.
 * @param {{ runs?: number, warm?: number, sizes?: number[], log?: (line: string) => void }} [options]
 *   `runs`: measured runs of each per-file command (default 50); the others run fewer
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, info: Record<string, unknown> }>}
 */
export async function runAlternatives({ runs = 50, warm = 0, sizes = ALT_SCALE_SIZES, log = () => {} } = {}) {
  return withBenchPage({ warm, log }, async ({ page, call, info }) => {
    const progress = (/** @type {import("playwright-core").ConsoleMessage} */ message) => {
      const text = message.text();
      if (text.startsWith("bench-alt: ")) log(`alternatives: ${text.slice("bench-alt: ".length)}`);
    };
    page.on("console", progress);
    /** @type {Array<Record<string, unknown>>} */
    const rows = [];
    try {
      const docs = [KB, 10 * KB, 100 * KB];
      log(`alternatives: view file / create / str_replace / insert on 1, 10, 100 KB, ${runs} runs each of package, idb, Dexie`);
      await call("prepare", { name: "alt-files", files: 100, fileBytes: KB, docs, withFloor: false });
      rows.push(...(await call("altFileCases", { name: "alt-files", sizes: docs, runs, warmup: 5 })));
      await call("drop", { name: "alt-files" });
      for (const files of [100, 1_000, 10_000]) {
        const viewRuns = files <= 100 ? runs : files <= 1_000 ? Math.max(10, Math.round(runs * 0.4)) : Math.max(5, Math.round(runs * 0.16));
        const dirRuns = files === 1_000 ? Math.max(4, Math.round(runs * 0.16)) : 0;
        log(`alternatives: ${files} files: view /memories ×${viewRuns}${dirRuns ? `, rename and delete dir ×${dirRuns}` : ""}`);
        await call("prepare", { name: `alt-dir-${files}`, files, fileBytes: KB, withFloor: false });
        rows.push(...(await call("altDirCases", { name: `alt-dir-${files}`, files, viewRuns, dirRuns, warmup: 2 })));
        await call("drop", { name: `alt-dir-${files}` });
      }
      const scaleRuns = Math.max(10, Math.round(runs * 0.6));
      log(`alternatives: create / view / open at ${sizes.map((n) => n.toLocaleString("en-US")).join(", ")} files, ${scaleRuns} runs`);
      rows.push(...(await call("altScale", { sizes, runs: scaleRuns, warmup: 3 })));
    } finally {
      page.off("console", progress);
    }
    return { rows: rows.map((row) => ({ suite: "chromium-alternatives", ...row })), info };
  });
}

/**
 * Launches Chromium (a fresh persistent profile in a temp dir) on the bench page, served
 * cross-origin isolated, runs `body` and closes everything.
 * @template T
 * @param {{ warm: number, log: (line: string) => void }} options
 * @param {(env: { context: import("playwright-core").BrowserContext, origin: string, page: import("playwright-core").Page,
 *   call: (name: string, arg?: unknown) => Promise<any>, info: Record<string, any> }) => Promise<T>} body
 * @returns {Promise<T>}
 */
async function withBenchPage({ warm, log }, body) {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const server = await startServer({ port: 0 });
  const origin = `http://127.0.0.1:${server.port}`;
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-bench-"));
  /** @type {import("playwright-core").BrowserContext | undefined} */
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    // Cross-origin isolation: a finer performance.now() (the server itself sets no such headers).
    await context.route(`${origin}/**`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: {
          ...response.headers(),
          "cross-origin-opener-policy": "same-origin",
          "cross-origin-embedder-policy": "require-corp",
        },
      });
    });
    const page = await benchPage(context, origin, context.pages()[0]);

    const info = await page.evaluate(() => /** @type {any} */ (globalThis).bench.info());
    // The user agent's version is reduced (156.0.0.0); the browser itself says the full one.
    const cdp = await context.newCDPSession(page);
    const { product } = await cdp.send("Browser.getVersion");
    await cdp.detach();
    info.chromiumVersion = product.replace(/^[A-Za-z]+\//, "");

    const call = (/** @type {string} */ name, /** @type {unknown} */ arg) =>
      page.evaluate(([n, a]) => /** @type {any} */ (globalThis).bench[/** @type {string} */ (n)](a), [name, arg]);

    if (warm > 0) {
      log(`chromium: ${warm} warm-up commands through the package (in-memory storage) first`);
      await call("warmUp", { commands: warm });
    }
    return await body({ context, origin, page, call, info });
  } finally {
    await context?.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * A tab on the bench page, ready.
 * @param {import("playwright-core").BrowserContext} context
 * @param {string} origin
 * @param {import("playwright-core").Page} [existing]
 */
async function benchPage(context, origin, existing) {
  const page = existing ?? (await context.newPage());
  /** @type {string[]} */
  const problems = [];
  page.on("pageerror", (error) => problems.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.goto(`${origin}/bench/page.html`);
  await page.waitForFunction(() => "bench" in globalThis, null, { timeout: 30_000 }).catch(() => {
    throw new Error(`the bench page did not load: ${problems.join("; ") || "no error reported"}`);
  });
  return page;
}

/**
 * Opening a store in a fresh tab: the wasm loaded first, then the JS heap (after a full GC) and
 * the wasm memory before the open, after it, and after a first `view /memories`; then the time
 * of further opens.
 * @param {import("playwright-core").BrowserContext} context
 * @param {string} origin
 * @param {{ name: string, files: number, fileBytes: number }} store
 */
async function measureOpen(context, origin, { name, files, fileBytes }) {
  const page = await benchPage(context, origin);
  const call = (/** @type {string} */ fn, /** @type {unknown} */ arg) =>
    page.evaluate(([n, a]) => /** @type {any} */ (globalThis).bench[/** @type {string} */ (n)](a), [fn, arg]);
  try {
    // The memory figures, with a CDP session attached for the heap.
    const cdp = await context.newCDPSession(page);
    /** @type {Record<string, number>} */
    const memory = {};
    let view;
    try {
      await cdp.send("HeapProfiler.enable");
      const heap = async () => {
        await cdp.send("HeapProfiler.collectGarbage");
        const { usedSize } = await cdp.send("Runtime.getHeapUsage");
        return usedSize;
      };
      memory.wasm_memory_bytes_loaded = await call("loadWasm");
      memory.js_heap_bytes_loaded = await heap();
      await call("keepOpen", { name });
      memory.js_heap_bytes_after_open = await heap();
      memory.wasm_memory_bytes_after_open = await call("wasmMemory");
      view = await call("viewKept");
      memory.js_heap_bytes_after_view = await heap();
      memory.wasm_memory_bytes_after_view = await call("wasmMemory");
      await call("closeKept");
      await cdp.send("HeapProfiler.disable");
    } finally {
      await cdp.detach().catch(() => {});
    }
    // The times, with no CDP session attached (one slows the page down).
    const timing = await call("openStore", { name, runs: 5 });
    const floorTiming = await call("openFloor", { name, runs: 5 });
    await call("keepOpen", { name });
    const views = await call("viewKept", { runs: 6 });
    await call("closeKept");
    return {
      suite: "chromium-open",
      case: `open, ${files.toLocaleString("en-US")} files of ${fileBytes / KB} KB`,
      command: "open",
      store_files: files,
      file_bytes: fileBytes,
      ...timing,
      baseline_median_ms: floorTiming.median_ms,
      baseline_p95_ms: floorTiming.p95_ms,
      ratio: Math.round((timing.median_ms / floorTiming.median_ms) * 1000) / 1000,
      first_view_ms: view.first_ms,
      view_median_ms: views.median_ms,
      ...memory,
    };
  } finally {
    await page.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({
    options: {
      runs: { type: "string" },
      warmup: { type: "string" },
      files: { type: "string" },
      scale: { type: "boolean" },
      alternatives: { type: "boolean" },
    },
  });
  const number = (/** @type {string | undefined} */ v) => (v === undefined ? undefined : Number(v));
  const log = (/** @type {string} */ line) => console.error(line);
  const { rows, info } = values.alternatives
    ? await runAlternatives({ runs: number(values.runs), log })
    : values.scale
    ? await runBrowserScale({ runs: number(values.runs), log })
    : await runBrowserSuite({
        runs: number(values.runs),
        warmup: number(values.warmup),
        files: number(values.files),
        log,
      });
  console.error(JSON.stringify(info));
  for (const row of rows) console.log(JSON.stringify(row));
}
