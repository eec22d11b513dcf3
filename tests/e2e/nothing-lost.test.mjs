// Nothing is lost when features meet (docs/TOOL.md#retention), in real Chromium over real
// IndexedDB: two tabs, one viewing a memory unused for 60 days while the other opens with expiry;
// one visit with a clock 120 days ahead; a content changed behind the package's back, found by
// check and kept by repair; a page without IndexedDB refusing to open instead of forgetting.
// (tests/node/nothing-lost.test.mjs holds the rest, with the hosted store emulator.)
// Run: node --test --test-concurrency=1 tests/e2e/nothing-lost.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { harnessSession } from "./browser-env.mjs";

const session = harnessSession("nothing-lost");
before(session.start);
after(session.stop);

const DAY = 86_400_000;

/** Moves every tab's clock by `days` (the package takes its time from Date.now). */
const CLOCK = `(() => {
  const real = Date.now.bind(Date);
  Date.now = () => real() + (Number(localStorage.getItem("e2e:offset")) || 0);
})()`;

describe("nothing lost, in Chromium", { timeout: 120_000 }, () => {
  it("tab A views a memory unused for 60 days, tab B opens with expiry: A's edit a moment later finds it", async () => {
    await session.context?.addInitScript(CLOCK);
    const a = await session.openHarness();
    await a.evaluate(async () => {
      localStorage.setItem("e2e:offset", "0");
      const tool = await harness.pkg.MemoryTool.open({ store: "tabs" });
      await tool.memories.create({ path: "/trip.md", content: "Lisbon\n" });
      await tool.memories.create({ path: "/old.md", content: "unused\n" });
      tool.close();
    });
    // 60 days on: an earlier visit that day witnesses the date, then tab A and tab B.
    await a.evaluate((offset) => localStorage.setItem("e2e:offset", String(offset)), 60 * DAY);
    await a.evaluate(async () => (await harness.pkg.MemoryTool.open({ store: "tabs" })).close());
    await a.evaluate((offset) => localStorage.setItem("e2e:offset", String(offset)), 60 * DAY + 15 * 60_000);
    await a.evaluate(async () => {
      // @ts-ignore
      window.toolA = await harness.pkg.MemoryTool.open({ store: "tabs" });
      // @ts-ignore
      const view = await window.toolA.execute({ command: "view", path: "/memories/trip.md" });
      if (view.isError) throw new Error(view.content);
    });
    const b = await session.openHarness();
    await b.evaluate(async () => {
      // @ts-ignore
      window.toolB = await harness.pkg.MemoryTool.open({ store: "tabs", expireAfterDays: 30 });
      // @ts-ignore
      await window.toolB.execute({ command: "view", path: "/memories" });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const edit = await a.evaluate(() =>
      // @ts-ignore
      window.toolA.execute({ command: "str_replace", path: "/memories/trip.md", old_str: "Lisbon", new_str: "Porto" }),
    );
    assert.equal(edit.isError, false, String(edit.content));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const left = await b.evaluate(async () =>
      // @ts-ignore
      (await window.toolB.memories.list()).map((m) => m.path),
    );
    assert.deepEqual(left, ["/trip.md"], "the unused one expired, the used one stayed");
    await a.close();
    await b.close();
    assert.deepEqual(session.pageProblems, []);
  });

  it("one visit with the clock 120 days ahead prunes and expires nothing", async () => {
    const page = await session.openHarness();
    const seen = await page.evaluate(async (day) => {
      localStorage.setItem("e2e:offset", "0");
      const { MemoryTool } = harness.pkg;
      const tool = await MemoryTool.open({ store: "ahead" });
      for (let i = 0; i < 5; i++) {
        const m = await tool.memories.create({ path: `/m${i}.md`, content: "v0\n" });
        for (let v = 1; v < 5; v++) await tool.memories.update(m.id, { content: `v${v}\n` });
      }
      tool.close();
      localStorage.setItem("e2e:offset", String(120 * day));
      const ahead = await MemoryTool.open({ store: "ahead", expireAfterDays: 30, retentionDays: 30 });
      await ahead.execute({ command: "view", path: "/memories" });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const during = (await ahead.memories.list()).length;
      ahead.close();
      localStorage.setItem("e2e:offset", "0");
      const right = await MemoryTool.open({ store: "ahead" });
      const files = (await right.memories.list()).length;
      const versions = (await right.versions.list({ limit: 100 })).data.length;
      right.close();
      return { during, files, versions };
    }, DAY);
    assert.deepEqual(seen, { during: 5, files: 5, versions: 25 });
    await page.close();
  });

  it("a content changed behind the package's back, in a store with history: check finds it, repair keeps its text, exportBlob imports", async () => {
    const page = await session.openHarness();
    const seen = await page.evaluate(async () => {
      const { MemoryTool, InMemoryStorage } = harness.pkg;
      const tool = await MemoryTool.open({ store: "tampered" });
      const a = await tool.memories.create({ path: "/a.md", content: "alpha\n" });
      // History beside it: b edited twice, c created and deleted.
      const b = await tool.memories.create({ path: "/b.md", content: "beta\n" });
      await tool.memories.update(b.id, { content: "beta two\n" });
      await tool.memories.update(b.id, { content: "beta three\n" });
      await tool.memories.create({ path: "/c.md", content: "gone\n" });
      await tool.execute({ command: "delete", path: "/memories/c.md" });
      tool.close();
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open("memory-tool-wasm:tampered");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      await new Promise((resolve) => {
        const tx = /** @type {IDBDatabase} */ (db).transaction(["files", "contents"], "readwrite");
        const get = tx.objectStore("files").get("/a.md");
        get.onsuccess = () => tx.objectStore("contents").put(new TextEncoder().encode("edited by hand\n"), get.result.content);
        tx.oncomplete = resolve;
      });
      /** @type {IDBDatabase} */ (db).close();
      const again = await MemoryTool.open({ store: "tampered" });
      const check = await again.check();
      const bundle = JSON.parse(await (await again.exportBlob({ include_versions: true })).text());
      const copy = await MemoryTool.open({ storage: new InMemoryStorage(), store: "copy" });
      const imported = await copy.import(bundle);
      const copied = (await copy.memories.list()).map((m) => m.path);
      const repair = await again.repair();
      const now = await again.memories.get(a.id);
      const clean = await again.check();
      again.close();
      copy.close();
      return {
        check: check.damaged,
        skipped: bundle.skipped,
        imported: imported.imported,
        versions: imported.versions,
        copied,
        repair: repair.damaged,
        content: now.content,
        clean: clean.damaged,
      };
    });
    assert.equal(seen.check[0].problem, "sha256");
    assert.deepEqual(seen.skipped[0], { path: "/a.md", reason: "its content does not match its content_sha256" });
    // a's history is left out with it; b's three versions and the deleted c's two come along.
    assert.deepEqual(seen.skipped.slice(1).map((s) => s.reason), ["its memory was left out"]);
    assert.equal(seen.imported, 1);
    assert.equal(seen.versions, 5);
    assert.deepEqual(seen.copied, ["/b.md"]);
    assert.equal(seen.repair[0].action, "kept");
    assert.equal(seen.content, "edited by hand\n");
    assert.deepEqual(seen.clean, []);
    await page.close();
  });

  it("a page without IndexedDB refuses to open a store, naming storage: \"memory\"", async () => {
    const page = await session.openHarness();
    const seen = await page.evaluate(async () => {
      Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true });
      try {
        await harness.pkg.MemoryTool.open({ store: "user-42" });
        return { code: "opened", message: "" };
      } catch (error) {
        return { code: /** @type {any} */ (error).code, message: String(/** @type {any} */ (error).message) };
      }
    });
    assert.equal(seen.code, "STORAGE_FAILED");
    assert.match(seen.message, /storage: "memory"/);
    await page.close();
  });

  it("a web worker without IndexedDB refuses too; asked for, memory works there", async () => {
    const page = await session.openHarness();
    const seen = await page.evaluate(
      (at) =>
        new Promise((resolve, reject) => {
          const source = `
            Object.defineProperty(self, "indexedDB", { value: undefined, configurable: true });
            const { MemoryTool } = await import(${JSON.stringify(at + "/src/js/index.js")});
            let refused = null;
            try {
              (await MemoryTool.open({ store: "user-42" })).close();
            } catch (error) {
              refused = { code: error.code, message: String(error.message) };
            }
            const tool = await MemoryTool.open({ store: "user-42", storage: "memory" });
            const made = await tool.execute({ command: "create", path: "/memories/a.md", file_text: "a" });
            tool.close();
            postMessage({ refused, made: made.isError === false });
          `;
          const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
          worker.onmessage = (event) => {
            worker.terminate();
            resolve(event.data);
          };
          worker.onerror = (event) => reject(new Error(event.message));
        }),
      session.origin,
    );
    assert.equal(/** @type {any} */ (seen).refused?.code, "STORAGE_FAILED", JSON.stringify(seen));
    assert.match(/** @type {any} */ (seen).refused.message, /storage: "memory"/);
    assert.equal(/** @type {any} */ (seen).made, true);
    await page.close();
  });
});
