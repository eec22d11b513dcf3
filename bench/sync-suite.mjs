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
