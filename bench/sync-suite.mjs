// The sync rows of `npm run bench`: MemorySync (memory-tool-wasm/sync) against the hosted memory
// stores emulator (tests/hosted/emulator.mjs) on 127.0.0.1, through the official SDK client, in
// Node over in-memory storage: a first download into an empty local store and a pass that finds
// nothing changed, over 1,000 and 10,000 memories of 1 KB. Each row gives the requests the pass
// sent (the number to compare: it is what a hosted store bills and rate-limits) and its time.

import { startEmulator } from "../tests/hosted/emulator.mjs";
import { device, sdkClient } from "../tests/hosted/devices.mjs";

/** @param {{ log: (line: string) => void, sizes?: number[] }} options */
export async function runSyncSuite({ log, sizes = [1_000, 10_000] }) {
  const emu = await startEmulator();
  const client = sdkClient(emu);
  /** @type {Array<Record<string, any>>} */
  const rows = [];
  try {
    for (const n of sizes) {
      const store = await client.beta.memoryStores.create({ name: `bench ${n}` });
      const body = "x".repeat(1000);
      emu.seed(store.id, Object.fromEntries(Array.from({ length: n }, (_, i) => [`/notes/${String(i).padStart(5, "0")}.md`, `${i} ${body}`])));
      const d = await device(emu, store.id, { firstPass: false });
      emu.clearLog();
      let t0 = performance.now();
      const first = await d.sync.now();
      const firstMs = performance.now() - t0;
      if (!first.ok || first.pulled.length !== n) throw new Error(`first download of ${n}: ${first.error ?? first.pulled.length}`);
      const firstRequests = emu.log.length;
      emu.clearLog();
      t0 = performance.now();
      const quiet = await d.sync.now();
      const quietMs = performance.now() - t0;
      if (!quiet.ok || quiet.pulled.length + quiet.pushed.length > 0) throw new Error(`no-change pass of ${n} moved something`);
      rows.push(
        { suite: "sync-node", case: `first download, ${n.toLocaleString("en")} memories`, median_ms: firstMs, runs: 1, requests: firstRequests, mutating_requests: 0 },
        { suite: "sync-node", case: `no-change pass, ${n.toLocaleString("en")} memories`, median_ms: quietMs, runs: 1, requests: emu.log.length, mutating_requests: emu.mutations().length },
      );
      log(`sync: ${n}: first download ${Math.round(firstMs)} ms in ${firstRequests} requests; no-change pass ${Math.round(quietMs)} ms in ${emu.log.length}`);
      await d.sync.stop();
      d.memory.close();
    }
  } finally {
    await emu.close();
  }
  return rows;
}

/**
 * The same in headless Chromium over IndexedDB (the page tests/hosted/sync-page.html, the SDK's
 * browser build calling the emulator across origins): a first download and a no-change pass over
 * 1,000 memories (10,000 in the page take minutes of IndexedDB writes on 2 shared cores).
 * @param {{ log: (line: string) => void, sizes?: number[] }} options
 */
export async function runSyncBrowser({ log, sizes = [1_000] }) {
  const { chromium } = await import("playwright-core");
  const { CHROMIUM, CHROMIUM_ARGS } = await import("../scripts/chromium.mjs");
  const { startServer } = await import("../scripts/serve.mjs");
  const { mkdtemp, readFile, realpath, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const repo = fileURLToPath(new URL("..", import.meta.url));
  const emu = await startEmulator();
  const client = sdkClient(emu);
  const server = await startServer({ port: 0 });
  const origin = `http://127.0.0.1:${server.port}`;
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-sync-bench-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  /** @type {Array<Record<string, any>>} */
  const rows = [];
  try {
    // The SDK's files from wherever node_modules really is (a worktree may link it).
    const modules = await realpath(path.join(repo, "node_modules"));
    await context.route(`${origin}/node_modules/**`, async (route) => {
      const rel = decodeURIComponent(new URL(route.request().url()).pathname.slice("/node_modules/".length));
      try {
        await route.fulfill({ status: 200, contentType: "text/javascript", body: await readFile(path.join(modules, rel), "utf8") });
      } catch {
        await route.fulfill({ status: 404 });
      }
    });
    const page = await context.newPage();
    await page.goto(`${origin}/tests/hosted/sync-page.html`);
    await page.waitForFunction(() => document.documentElement.dataset.state !== "loading");
    for (const n of sizes) {
      const store = await client.beta.memoryStores.create({ name: `bench ${n}` });
      const body = "x".repeat(1000);
      emu.seed(store.id, Object.fromEntries(Array.from({ length: n }, (_, i) => [`/notes/${String(i).padStart(5, "0")}.md`, `${i} ${body}`])));
      // The first download against a hand-written page-batched writer (one IndexedDB
      // transaction per page of 20, the next page fetched meanwhile), interleaved, three runs
      // each; each run into a store of its own. The package's time is the pass alone (the
      // tool and the sync opened before), the writer's the download alone (its database
      // opened in it).
      /** @type {number[]} */
      const ours = [];
      /** @type {number[]} */
      const theirs = [];
      let firstRequests = 0;
      let theirRequests = 0;
      for (let run = 0; run < 3; run++) {
        emu.clearLog();
        ours.push(
          await page.evaluate(async ([name, url, id]) => {
            // now() at once, before the sync's own timer starts the first pass.
            await window.lib.open(name, url, id, { firstPass: false });
            const t0 = performance.now();
            const r = await window.lib.devices.get(name).sync.now();
            if (!r.ok || r.pulled.length === 0) throw new Error(`the first download failed: ${r.error}`);
            return performance.now() - t0;
          }, [`bench-${n}-${run}`, emu.url, store.id]),
        );
        firstRequests = emu.log.length;
        emu.clearLog();
        theirs.push(
          await page.evaluate(async ([name, url, id]) => {
            const t0 = performance.now();
            const r = await window.lib.batchedDownload(name, url, id);
            if (r.written === 0) throw new Error("the writer wrote nothing");
            return performance.now() - t0;
          }, [`writer-${n}-${run}`, emu.url, store.id]),
        );
        theirRequests = emu.log.length;
      }
      const med = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[1];
      const firstMs = med(ours);
      rows.push({ suite: "sync-chromium", case: `first download, ${n.toLocaleString("en")} memories, page-batched idb writer`, median_ms: med(theirs), runs: 3, requests: theirRequests, mutating_requests: 0 });
      log(`sync: Chromium ${n}: first download ${ours.map(Math.round).join(" / ")} ms (package) against ${theirs.map(Math.round).join(" / ")} ms (page-batched idb writer); ratio of medians ${(firstMs / med(theirs)).toFixed(2)}; requests ${firstRequests} and ${theirRequests}`);
      emu.clearLog();
      const quietMs = await page.evaluate(async (name) => {
        const t0 = performance.now();
        const r = await window.lib.devices.get(name).sync.now();
        if (!r.ok || r.pulled.length + r.pushed.length > 0) throw new Error("the no-change pass moved something");
        return performance.now() - t0;
      }, `bench-${n}-2`);
      rows.push(
        { suite: "sync-chromium", case: `first download, ${n.toLocaleString("en")} memories`, median_ms: firstMs, runs: 3, requests: firstRequests, mutating_requests: 0 },
        { suite: "sync-chromium", case: `no-change pass, ${n.toLocaleString("en")} memories`, median_ms: quietMs, runs: 1, requests: emu.log.length, mutating_requests: emu.mutations().length },
      );
      log(`sync: Chromium ${n}: no-change pass ${Math.round(quietMs)} ms in ${emu.log.length}`);
    }
  } finally {
    await context.close();
    await server.close();
    await emu.close();
    await rm(profile, { recursive: true, force: true });
  }
  return rows;
}
