// MemorySync's one syncer per origin (docs/SYNC.md#tabs) in Chromium, Firefox and WebKit: two
// tabs sync one store with the hosted memory stores emulator (tests/hosted/emulator.mjs, in
// this process, through the official SDK's browser build); one syncs, the other stands by, a
// write in the standby tab goes out through the syncing one, and when that tab closes the role
// moves (Web Locks). Without Web Locks each tab syncs by itself, and nothing is lost.
//
// The sync is being rewritten: these tests drive only MemorySync.start, status, now() and the
// tool, so they can be pointed at the new code as they are.
//
// Run: node --test --test-concurrency=1 tests/engines/sync.test.mjs

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startEmulator } from "../hosted/emulator.mjs";
import { hostedStore, sdkClient } from "../hosted/devices.mjs";
import { eachEngine, problemsOf } from "./lib.mjs";

/** @type {import("../hosted/emulator.mjs").Emulator} */
let emu;
/** @type {import("@anthropic-ai/sdk").default} */
let client;
before(async () => {
  emu = await startEmulator();
  client = sdkClient(emu);
});
after(async () => {
  await emu?.close();
});

/** In a tab: opens `store` and starts its sync with the emulator; resolves with its status. */
const startSync = async ({ store, baseURL, memoryStoreId }) => {
  const w = /** @type {any} */ (window);
  const memory = await w.pkg.MemoryTool.open({ store });
  const client = new w.sync.Anthropic({ apiKey: "test", baseURL, dangerouslyAllowBrowser: true });
  const sync = await w.sync.MemorySync.start(memory, {
    client,
    memoryStoreId,
    intervalMs: 200,
    deleteCorroborationMs: 0,
    retry: { baseMs: 5, maxMs: 100 },
  });
  w.device = { memory, sync };
  await sync.now();
  return { leader: sync.status.leader, state: sync.status.state };
};

/** In a tab: writes `text` at store path `path` with the tool. */
const write = async ({ path, text }) => {
  const r = await /** @type {any} */ (window).device.memory.execute({ command: "create", path: `/memories${path}`, file_text: text });
  if (r.isError) throw new Error(r.content);
  return true;
};

/** Waits (in Node) until the hosted store holds `text` at `path`. */
async function hostedHas(/** @type {string} */ id, /** @type {string} */ path, /** @type {string} */ text) {
  const deadline = Date.now() + 20_000;
  while (emu.files(id)[path] !== text) {
    if (Date.now() > deadline) assert.fail(`the hosted store never got ${path}: ${JSON.stringify(emu.files(id))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

eachEngine("MemorySync across tabs", (env) => {
  test("two tabs, one syncer; a standby tab's write goes out; the role moves when that tab closes", async () => {
    const id = await hostedStore(client, { "/t.md": "t0" });
    const first = await env.open("?sync=1");
    const second = await env.open("?sync=1");
    const store = `sync-tabs-${env.engine}`;
    const s1 = await first.run(startSync, { store, baseURL: emu.url, memoryStoreId: id });
    const s2 = await second.run(startSync, { store, baseURL: emu.url, memoryStoreId: id });
    assert.deepEqual([s1.leader, s2.leader, s2.state], [true, false, "standby"]);
    await second.run(write, { path: "/from-second.md", text: "written in tab 2" });
    await hostedHas(id, "/from-second.md", "written in tab 2");
    assert.deepEqual(await problemsOf(first), []);
    await first.close();
    const leader = await second.run(async () => {
      const deadline = Date.now() + 20_000;
      const sync = /** @type {any} */ (window).device.sync;
      while (!sync.status.leader && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return sync.status.leader;
    });
    assert.equal(leader, true, "the standby tab took the role");
    await second.run(write, { path: "/after.md", text: "after the first tab closed" });
    await hostedHas(id, "/after.md", "after the first tab closed");
    assert.deepEqual(await problemsOf(second), []);
    await second.run(async () => /** @type {any} */ (window).device.sync.stop?.() ?? true);
    await second.close();
  });

  test("without Web Locks each tab syncs by itself; writes from both reach the hosted store, nothing lost", async () => {
    const id = await hostedStore(client, {});
    const first = await env.open("?sync=1&without=locks");
    const second = await env.open("?sync=1&without=locks");
    const store = `sync-nolocks-${env.engine}`;
    const s1 = await first.run(startSync, { store, baseURL: emu.url, memoryStoreId: id });
    const s2 = await second.run(startSync, { store, baseURL: emu.url, memoryStoreId: id });
    assert.deepEqual([s1.leader, s2.leader], [true, true]);
    await first.run(write, { path: "/one.md", text: "from tab 1" });
    await second.run(write, { path: "/two.md", text: "from tab 2" });
    await hostedHas(id, "/one.md", "from tab 1");
    await hostedHas(id, "/two.md", "from tab 2");
    for (const tab of [first, second]) {
      assert.deepEqual(await problemsOf(tab), []);
      await tab.run(async () => /** @type {any} */ (window).device.sync.stop?.() ?? true);
      await tab.close();
    }
    assert.deepEqual(Object.keys(emu.files(id)).sort(), ["/one.md", "/two.md"]);
  });
});
