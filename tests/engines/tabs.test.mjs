// Two tabs of one origin on one store, in Chromium, Firefox and WebKit: 25 inserts into one
// file from each tab at once lose no edit, and each tab hears all 50 changes (its own, and the
// other tab's over the BroadcastChannel); without BroadcastChannel, nothing is lost and each tab
// hears its own. A store deleted behind the package's back is reported (STORE_VANISHED), not
// made anew, and a reload still refuses it until the host starts over.
//
// Run: node --test --test-concurrency=1 tests/engines/tabs.test.mjs

import assert from "node:assert/strict";
import { test } from "node:test";
import { eachEngine, problemsOf, sameAsChromium, waitReady } from "./lib.mjs";

const LINES = 25;

/**
 * In a tab: opens `store`, subscribes, and at `startAt` (ms since the epoch) starts inserting
 * `LINES` lines named after `who`; the promise and what was heard stay on `window`.
 */
const startInserts = ({ store, who, startAt, lines }) => {
  const w = /** @type {any} */ (window);
  w.heard = [];
  w.job = (async () => {
    const memory = await w.pkg.MemoryTool.open({ store });
    memory.subscribe((/** @type {any} */ event) => w.heard.push(event));
    while (Date.now() < startAt) await new Promise((r) => setTimeout(r, 5));
    const results = [];
    for (let i = 1; i <= lines; i++) {
      const r = await memory.execute({ command: "insert", path: "/memories/log.md", insert_line: 1, insert_text: `${who}${i}` });
      results.push(r.isError ? r.content : "ok");
    }
    w.memory = memory;
    return results;
  })();
  return true;
};

/** In a tab: the job's results, the file, and the change events heard for it (within 10 s). */
const finish = async (/** @type {number} */ want) => {
  const w = /** @type {any} */ (window);
  const results = await w.job;
  const deadline = Date.now() + 10_000;
  const changes = () => w.heard.filter((/** @type {any} */ e) => e.type === "change" && e.path === "/log.md");
  while (changes().length < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200)); // and nothing more comes
  const view = await w.memory.execute({ command: "view", path: "/memories/log.md" });
  const heard = changes();
  return {
    results,
    lines: view.content.split("\n").slice(1).map((/** @type {string} */ l) => l.replace(/^\s*\d+\t/, "")),
    local: heard.filter((/** @type {any} */ e) => e.origin === "local").length,
    remote: heard.filter((/** @type {any} */ e) => e.origin === "remote").length,
  };
};

eachEngine("two tabs on one store", (env) => {
  for (const without of ["", "broadcast"]) {
    test(`25 inserts from each of two tabs at once: none lost${without ? ", BroadcastChannel taken away" : ", every change heard in both"}`, async () => {
      const query = without ? `?without=${without}` : "";
      const a = await env.open(query);
      const b = await env.open(query);
      const store = `tabs-${without || "events"}`;
      await a.run(async (store) => {
        const { MemoryTool, IndexedDbStorage } = /** @type {any} */ (window).pkg;
        await new IndexedDbStorage().destroy(store);
        const memory = await MemoryTool.open({ store });
        await memory.execute({ command: "create", path: "/memories/log.md", file_text: "start" });
        memory.close();
      }, store);
      const startAt = Date.now() + 2000;
      await a.run(startInserts, { store, who: "A", startAt, lines: LINES });
      await b.run(startInserts, { store, who: "B", startAt, lines: LINES });
      // Both done before either looks (without events, a tab cannot tell the other is done).
      await a.run(() => /** @type {any} */ (window).job.then(() => true));
      await b.run(() => /** @type {any} */ (window).job.then(() => true));
      const [fromA, fromB] = [await a.run(finish, without ? LINES : 2 * LINES), await b.run(finish, without ? LINES : 2 * LINES)];
      for (const got of [fromA, fromB]) {
        assert.deepEqual(got.results, Array(LINES).fill("ok"));
        assert.equal(got.lines.length, 2 * LINES + 1);
        const want = [..."AB"].flatMap((who) => Array.from({ length: LINES }, (_, i) => `${who}${i + 1}`)).sort();
        assert.deepEqual(got.lines.filter((l) => l !== "start").sort(), want, "every insert exactly once");
        assert.equal(got.lines[0], "start");
        assert.deepEqual([got.local, got.remote], [LINES, without ? 0 : LINES], "change events heard: local, remote");
      }
      assert.deepEqual(fromA.lines, fromB.lines);
      sameAsChromium(env.engine, `tabs ${without}`, { a: fromA.results, b: fromB.results, count: fromA.lines.length });
      assert.deepEqual([...(await problemsOf(a)), ...(await problemsOf(b))], []);
      await b.close();
      await a.close();
    });
  }

  for (const without of ["", "localstorage"]) {
    test(`a store deleted behind the package's back is reported, not made anew${without ? " (localStorage taken away: the open handle still tells)" : ", after a reload too"}`, async () => {
      const tab = await env.open(without ? `?without=${without}` : "");
      const store = `vanish-${without || "known"}`;
      const got = await tab.run(async (store) => {
        const w = /** @type {any} */ (window);
        const { MemoryTool, IndexedDbStorage } = w.pkg;
        await new IndexedDbStorage().destroy(store);
        const memory = await MemoryTool.open({ store });
        await memory.execute({ command: "create", path: "/memories/x.md", file_text: "x" });
        const heard = [];
        memory.subscribe((/** @type {any} */ e) => e.type === "vanished" && heard.push(e));
        const blocked = await new Promise((resolve, reject) => {
          let wasBlocked = false;
          const request = indexedDB.deleteDatabase(`memory-tool-wasm:${store}`);
          request.onblocked = () => (wasBlocked = true);
          request.onerror = () => reject(request.error);
          request.onsuccess = () => resolve(wasBlocked);
        });
        const next = await memory.execute({ command: "view", path: "/memories" });
        memory.close();
        return { blocked, next: { code: next.code, isError: next.isError }, heard };
      }, store);
      assert.deepEqual(got, { blocked: false, next: { code: "STORE_VANISHED", isError: true }, heard: [{ type: "vanished", store, files: 1, origin: "local" }] });
      await tab.reload();
      await waitReady(tab);
      const reopened = await tab.run(async (store) => {
        const { MemoryTool, IndexedDbStorage } = /** @type {any} */ (window).pkg;
        const opened = await MemoryTool.open({ store }).then(
          (/** @type {any} */ m) => (m.close(), "opened"),
          (/** @type {any} */ e) => e.code,
        );
        await new IndexedDbStorage().startOver(store);
        const memory = await MemoryTool.open({ store });
        const view = await memory.execute({ command: "view", path: "/memories" });
        memory.close();
        return { opened, afterStartOver: view.isError };
      }, store);
      // With localStorage, the origin remembers the store held memories; without it, a fresh
      // page cannot know (docs/ARCHITECTURE.md#a-store-that-vanished) and opens it empty.
      assert.deepEqual(reopened, { opened: without ? "opened" : "STORE_VANISHED", afterStartOver: false });
      assert.deepEqual(await problemsOf(tab), []);
      await tab.close();
    });
  }
});
