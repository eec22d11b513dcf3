// Schema 4 in real Chromium over real IndexedDB: the requests a command issues (counted by
// wrapping IDBObjectStore and IDBIndex in the page, never timed): a create asks no count() and
// no key cursor at any store size, a directory delete drops its records in one key-range
// request; the store metadata record stays exact; MemoryTool.state persists across reloads;
// last use is recorded with no write per view, and expiry deletes what is past its limit.
// Run: node --test --test-concurrency=1 tests/e2e/store-meta.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { harnessSession } from "./browser-env.mjs";

const session = harnessSession("store-meta");
before(session.start);
after(session.stop);

/** Installs a request counter in the page: `window.requestCounts()` reads and resets it. */
function installCounter() {
  const counts = {};
  let answered = 0;
  const rounds = new Set();
  const methods = ["get", "getAll", "getAllKeys", "getKey", "count", "openCursor", "openKeyCursor", "put", "add", "delete"];
  for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) {
    for (const method of methods) {
      const original = proto[method];
      proto[method] = function (...args) {
        const store = this instanceof IDBIndex ? `${this.objectStore.name}.${this.name}` : this.name;
        const key = `${store}.${method}`;
        counts[key] = (counts[key] ?? 0) + 1;
        const request = original.apply(this, args);
        if (!/^(put|add|delete)$/.test(method)) {
          // Reads issued before any earlier one answered share a round (see
          // tests/node/fixtures/count-requests.mjs); counted before the caller's handler runs.
          rounds.add(answered);
          request.addEventListener("success", () => (answered += 1), { once: true });
        }
        return request;
      };
    }
  }
  // @ts-ignore
  window.requestCounts = () => {
    const out = { ...counts };
    if (rounds.size > 0) out.rounds = rounds.size;
    for (const key of Object.keys(counts)) delete counts[key];
    rounds.clear();
    return out;
  };
}

describe("schema 5 in Chromium", { timeout: 120_000 }, () => {
  it("create costs the same requests at 10 and 2,000 files, with no count() and no key cursor", async () => {
    const page = await session.openHarness();
    await page.evaluate(installCounter);
    const seen = await page.evaluate(async () => {
      const { MemoryTool, InMemoryStorage } = harness.pkg;
      const out = [];
      for (const n of [10, 2000]) {
        const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source" });
        for (let i = 0; i < n; i++) await source.memories.create({ path: `/bulk/f${i}.md`, content: `file ${i}\n` });
        const bundle = await source.export();
        source.close();
        const tool = await MemoryTool.open({ store: `counted-${n}` });
        await tool.import(bundle);
        // @ts-ignore
        window.requestCounts();
        const result = await tool.execute({ command: "create", path: "/memories/notes/new.md", file_text: "new\n" });
        // @ts-ignore
        out.push({ n, result, counts: window.requestCounts() });
        tool.close();
      }
      return out;
    });
    for (const { n, result, counts } of seen) {
      assert.equal(result.isError, false, result.content);
      assert.equal(counts["files.count"], undefined, `${n}: ${JSON.stringify(counts)}`);
      assert.equal(counts["versions.openKeyCursor"], undefined, `${n}: ${JSON.stringify(counts)}`);
      assert.equal(counts["meta.get"], 1, `${n}: ${JSON.stringify(counts)}`);
      assert.equal(counts["meta.put"], 1, `${n}: ${JSON.stringify(counts)}`);
    }
    assert.deepEqual(seen[0].counts, seen[1].counts);
    console.log(`# create: ${Object.values(seen[1].counts).reduce((a, b) => a + b, 0)} requests at 10 and at 2,000 files: ${JSON.stringify(seen[1].counts)}`);
    assert.deepEqual(session.pageProblems, []);
    await page.close();
  });

  it("a directory delete of 1,000 files: one key-range delete of its records; the metadata stays exact", async () => {
    const page = await session.openHarness();
    await page.evaluate(installCounter);
    const { result, counts, listed } = await page.evaluate(async () => {
      const { MemoryTool, InMemoryStorage } = harness.pkg;
      const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source" });
      for (let i = 0; i < 1000; i++) await source.memories.create({ path: `/dir/f${i}.md`, content: `file ${i}\n` });
      await source.memories.create({ path: "/kept.md", content: "kept" });
      const tool = await MemoryTool.open({ store: "dir-delete" });
      await tool.import(await source.export());
      source.close();
      // @ts-ignore
      window.requestCounts();
      const result = await tool.execute({ command: "delete", path: "/memories/dir" });
      // @ts-ignore
      const counts = window.requestCounts();
      const listed = (await tool.memories.list()).map((m) => m.path);
      tool.close();
      return { result, counts, listed };
    });
    assert.equal(result.isError, false, result.content);
    assert.equal(counts["files.delete"], 1, JSON.stringify(counts));
    assert.equal(counts["listing.delete"], 1, JSON.stringify(counts));
    assert.deepEqual(listed, ["/kept.md"]);
    const raw = JSON.parse(await page.evaluate(() => harness.dump("dir-delete")));
    assert.equal(raw.version, 5);
    assert.deepEqual({ files: raw.meta.files, bytes: raw.meta.bytes }, { files: 1, bytes: 4 });
    console.log(`# directory delete of 1,000 files: ${JSON.stringify(counts)}`);
    assert.deepEqual(session.pageProblems, []);
    await page.close();
  });

  it("MemoryTool.state survives a reload and is kept per store", async () => {
    const page = await session.openHarness();
    await page.evaluate(async () => {
      const tool = await harness.pkg.MemoryTool.open({ store: "stateful" });
      await tool.state.set("sync:memstore_x", { baselines: { "/a.md": ["sha", "memver_1"] } });
      tool.close();
    });
    await page.reload();
    await session.waitHarness(page);
    const seen = await page.evaluate(async () => {
      const tool = await harness.pkg.MemoryTool.open({ store: "stateful" });
      const other = await harness.pkg.MemoryTool.open({ store: "stateless" });
      const out = { mine: await tool.state.get("sync:memstore_x"), other: await other.state.get("sync:memstore_x") };
      tool.close();
      other.close();
      return out;
    });
    assert.deepEqual(seen, { mine: { baselines: { "/a.md": ["sha", "memver_1"] } }, other: undefined });
    assert.deepEqual(session.pageProblems, []);
    await page.close();
  });

  it("a file view is one round of two requests and an edit one round, in Chromium's IndexedDB; a text is stored once", async () => {
    const page = await session.openHarness();
    await page.evaluate(installCounter);
    const seen = await page.evaluate(async () => {
      const tool = await harness.pkg.MemoryTool.open({ store: "one-request" });
      await tool.execute({ command: "create", path: "/memories/a.md", file_text: "alpha\nbeta\n" });
      const counted = async (/** @type {any} */ input) => {
        // @ts-ignore
        window.requestCounts();
        const result = await tool.execute(input);
        // @ts-ignore
        const counts = window.requestCounts();
        return { result, counts };
      };
      const reads = (/** @type {Record<string, number>} */ counts) =>
        Object.fromEntries(Object.entries(counts).filter(([k]) => !/\.(put|delete)$/.test(k)));
      const out = [];
      for (const input of [
        { command: "view", path: "/memories/a.md" },
        { command: "str_replace", path: "/memories/a.md", old_str: "beta", new_str: "gamma" },
        { command: "view", path: "/memories/a.md" },
        { command: "insert", path: "/memories/a.md", insert_line: 0, insert_text: "zero" },
        { command: "view", path: "/memories/a.md" },
      ]) {
        const { result, counts } = await counted(input);
        out.push({ command: input.command, isError: result.isError, content: result.content, reads: reads(counts) });
      }
      // Straight from the database: the record holds no bytes, the content store holds them.
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open("memory-tool-wasm:one-request");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const stored = await new Promise((resolve) => {
        const tx = /** @type {IDBDatabase} */ (db).transaction(["files", "contents"]);
        const file = tx.objectStore("files").get("/a.md");
        file.onsuccess = () => {
          const content = tx.objectStore("contents").get(file.result.content);
          content.onsuccess = () =>
            resolve({
              copy: "bytes" in file.result ? file.result.bytes : null,
              content: new TextDecoder().decode(content.result),
              history: [file.result.historyVersions, file.result.historyBytes],
            });
        };
      });
      /** @type {IDBDatabase} */ (db).close();
      tool.close();
      return { out, stored };
    });
    const [view1, edit, view2, insert, view3] = seen.out;
    for (const view of [view1, view2, view3]) assert.deepEqual(view.reads, { "files.get": 1, "contents.openCursor": 1, rounds: 1 }, JSON.stringify(view));
    for (const write of [edit, insert]) assert.deepEqual(write.reads, { "files.get": 1, "contents.openCursor": 1, "meta.get": 1, rounds: 1 }, JSON.stringify(write));
    assert.equal(view3.content, "Here's the content of /memories/a.md with line numbers:\n     1\tzero\n     2\talpha\n     3\tgamma\n     4\t");
    assert.deepEqual(seen.stored, { copy: null, content: "zero\nalpha\ngamma\n", history: [3, 40] });
    assert.deepEqual(session.pageProblems, []);
    await page.close();
  });

  it("last use and expiry: a view issues no write, its use is recorded later; expireAfterDays deletes what is past the limit", async () => {
    const page = await session.openHarness();
    await page.evaluate(installCounter);
    const seen = await page.evaluate(async () => {
      const DAY = 86_400_000;
      const realNow = Date.now;
      let offset = 0;
      Date.now = () => realNow() + offset;
      const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      const { MemoryTool } = harness.pkg;
      const tool = await MemoryTool.open({ store: "lifecycle" });
      for (const name of ["old", "used"]) await tool.memories.create({ path: `/${name}.md`, content: `${name}\n` });
      offset = 20 * DAY;
      // @ts-ignore
      window.requestCounts();
      await tool.execute({ command: "view", path: "/memories/used.md" });
      // @ts-ignore
      const view = window.requestCounts();
      await settle(1500);
      // @ts-ignore
      const recorded = window.requestCounts();
      tool.close();
      offset = 35 * DAY;
      // An open on day 35 witnesses the date; the next, a quarter of an hour later, acts on it
      // (docs/TOOL.md#a-clock-that-can-be-trusted).
      (await MemoryTool.open({ store: "lifecycle" })).close();
      offset += 15 * 60_000;
      const later = await MemoryTool.open({ store: "lifecycle", expireAfterDays: 30 });
      const dry = await later.memories.expire({ dryRun: true });
      await settle(2800);
      const left = (await later.memories.list()).map((m) => m.path);
      const versions = (await later.versions.list()).data.map((v) => [v.operation, v.path, v.created_by?.type ?? null]);
      later.close();
      Date.now = realNow;
      return { view, recorded, dry: dry.data.map((m) => m.path), left, versions };
    });
    // In Chromium's IndexedDB too: the record and its head's bytes, in one round.
    assert.deepEqual(seen.view, { "files.get": 1, "contents.openCursor": 1, rounds: 1 });
    assert.equal(seen.recorded["files.put"], 1, JSON.stringify(seen.recorded));
    assert.equal(seen.recorded["versions.put"], undefined, JSON.stringify(seen.recorded));
    assert.deepEqual(seen.dry, ["/old.md"]);
    assert.deepEqual(seen.left, ["/used.md"]);
    assert.deepEqual(seen.versions[0], ["deleted", "/old.md", "expiry"]);
    console.log(`# view: ${JSON.stringify(seen.view)}; its use recorded later: ${JSON.stringify(seen.recorded)}`);
    assert.deepEqual(session.pageProblems, []);
    await page.close();
  });

  it("usage() and persist() in Chromium: the store's figures and the origin's", async () => {
    const page = await session.openHarness();
    const seen = await page.evaluate(async () => {
      const tool = await harness.pkg.MemoryTool.open({ store: "usage" });
      await tool.memories.create({ path: "/a.md", content: "x".repeat(1000) });
      const usage = await tool.usage();
      const persisted = await tool.persist();
      tool.close();
      return { usage, persisted };
    });
    assert.equal(seen.usage.files, 1);
    assert.equal(seen.usage.bytes, 1000);
    assert.ok(seen.usage.origin && seen.usage.origin.quota > 0 && seen.usage.origin.usage > 0, JSON.stringify(seen.usage));
    assert.equal(typeof seen.usage.persisted, "boolean");
    assert.equal(typeof seen.persisted, "boolean");
    console.log(`# usage in Chromium: ${JSON.stringify(seen)}`);
    await page.close();
  });

  it("exportBlob: wasm memory bounded by two pages, not the store; the same bundle as export", { timeout: 120_000 }, async () => {
    const page = await session.openHarness();
    const seen = await page.evaluate(async () => {
      const { MemoryTool, InMemoryStorage } = harness.pkg;
      // @ts-ignore
      const { default: init } = await import("/pkg/memory_tool_wasm.js");
      const wasmBytes = async () => (await init()).memory.buffer.byteLength;
      const N = 300;
      const SIZE = 100_000;
      const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source", limits: { maxFileBytes: SIZE } });
      for (let i = 0; i < N; i++) await source.writeFile(`/memories/big/f${i}.md`, String(i % 10).repeat(SIZE));
      const bundle = await source.export();
      source.close();
      const tool = await MemoryTool.open({ store: "big-export", limits: { maxFileBytes: SIZE } });
      await tool.import(bundle);
      const before = await wasmBytes();
      const long = [];
      const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
      try {
        observer.observe({ type: "longtask", buffered: false });
      } catch {
        // No long-task timing here.
      }
      const t0 = performance.now();
      const blob = await tool.exportBlob();
      const ms = performance.now() - t0;
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      const afterStream = await wasmBytes();
      const text = await blob.text();
      const streamedPaths = JSON.parse(text).memories.length;
      // The whole-object export, for comparison: its memory grows with the store.
      const whole = await tool.export();
      const afterWhole = await wasmBytes();
      tool.close();
      return { before, afterStream, afterWhole, ms, streamedPaths, wholePaths: whole.memories.length, bytes: blob.size, longest: long.length ? Math.max(...long) : 0 };
    });
    assert.equal(seen.streamedPaths, 300);
    assert.equal(seen.wholePaths, 300);
    const grew = seen.afterStream - seen.before;
    // Two pages' contents at most (the one formatted, the one read: ~600 KB here) and a
    // constant, not 30 MB.
    assert.ok(grew <= 4 * 1024 * 1024, `the streamed export grew the wasm memory by ${grew} bytes`);
    console.log(
      `# exportBlob of 300 × 100 KB (${(seen.bytes / 1e6).toFixed(1)} MB): ${seen.ms.toFixed(0)} ms, wasm memory +${(grew / 1e6).toFixed(2)} MB ` +
        `(export() after it: +${((seen.afterWhole - seen.afterStream) / 1e6).toFixed(1)} MB); longest main-thread task ${seen.longest.toFixed(0)} ms`,
    );
    assert.deepEqual(session.pageProblems, []);
    await page.close();
  });

  it("exportBlob of 10,000 memories of 1 KB: the same bundle as export (its time printed, not judged)", { timeout: 120_000 }, async () => {
    const page = await session.openHarness();
    const seen = await page.evaluate(async () => {
      const { MemoryTool, InMemoryStorage } = harness.pkg;
      const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source" });
      const memories = [];
      for (let i = 0; i < 10_000; i++) memories.push({ path: `/d${i % 50}/n${i}.md`, content: "x".repeat(1000) });
      for (const m of memories) await source.memories.create(m);
      const bundle = await source.export();
      source.close();
      const tool = await MemoryTool.open({ store: "export-10k" });
      await tool.import(bundle);
      const t0 = performance.now();
      const blob = await tool.exportBlob();
      const streamMs = performance.now() - t0;
      const t1 = performance.now();
      const whole = await tool.export();
      const wholeMs = performance.now() - t1;
      const same = JSON.stringify(JSON.parse(await blob.text())) === JSON.stringify(whole);
      tool.close();
      return { streamMs, wholeMs, same };
    });
    assert.equal(seen.same, true);
    console.log(`# 10,000 × 1 KB: exportBlob ${seen.streamMs.toFixed(0)} ms, export() ${seen.wholeMs.toFixed(0)} ms`);
    await page.close();
  });
});
