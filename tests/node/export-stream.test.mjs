// The streamed export (docs/TOOL.md#bundles) against `export`: the same bundle, whichever
// storage, with history or without; a damaged store's export says what it skipped; progress
// runs from 0 to the end; bad options are refused. Its memory bound is measured in Chromium
// (tests/e2e/store-meta.test.mjs).

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";
import { MemoryTool, IndexedDbStorage, InMemoryStorage } from "memory-tool-wasm";

for (const [name, makeStorage] of [
  ["IndexedDbStorage", () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })],
  ["InMemoryStorage", () => new InMemoryStorage()],
]) {
  describe(`exportBlob over ${name}`, () => {
    test("the same bundle as export, with history or without", async () => {
      const tool = await MemoryTool.open({ storage: makeStorage(), store: "streamed" });
      for (let i = 0; i < 120; i++) await tool.memories.create({ path: `/d${i % 7}/n${i}.md`, content: `note ${i} ${"é".repeat(i)}\n` });
      await tool.writeFile("/memories/bin.dat", new Uint8Array([0, 255, 1, 254]));
      const some = await tool.memories.getByPath("/d3/n3.md");
      await tool.memories.update(some.id, { content: "changed" });
      await tool.execute({ command: "delete", path: "/memories/d5" });
      for (const include_versions of [false, true]) {
        const seen = [];
        const blob = await tool.exportBlob({ include_versions, onProgress: (p) => seen.push(p) });
        assert.equal(blob.type, "application/json");
        assert.deepEqual(JSON.parse(await blob.text()), await tool.export({ include_versions }));
        // Every memory, and with the history every version too.
        const versions = include_versions ? (await tool.export({ include_versions })).versions.length : 0;
        assert.deepEqual(seen[0], { done: 0, total: 104 + versions });
        assert.equal(seen.at(-1).done, seen.at(-1).total);
      }
      // What it gives imports.
      const copy = await MemoryTool.open({ storage: new InMemoryStorage(), store: "copy" });
      const result = await copy.import(await (await tool.exportBlob({ include_versions: true })).text());
      assert.equal(result.imported, 104);
      copy.close();
      await assert.rejects(tool.exportBlob({ includeVersions: true }), (error) => error.code === "INVALID_INPUT");
      await assert.rejects(tool.exportBlob({ include_versions: "yes" }), (error) => error.code === "INVALID_INPUT");
      tool.close();
      await assert.rejects(tool.exportBlob(), (error) => error.code === "STORAGE_FAILED");
    });

    test("a damaged store: what cannot be read is skipped and said", async () => {
      const storage = makeStorage();
      const tool = await MemoryTool.open({ storage, store: "hurt" });
      for (const n of ["a", "b", "c"]) await tool.memories.create({ path: `/${n}.md`, content: n });
      const handle = await storage.open("hurt");
      await handle.transaction("readwrite", (tx) => {
        tx.getFile("/b.md", (record) => {
          // Its bytes, and the copy kept in the record (put back without it).
          tx.deleteContent(record.content);
          tx.putFile(record, record.size);
        });
        tx.getFile("/c.md", (record) => tx.putFile({ ...record, sha256: 7 }, record.size));
      });
      handle.close();
      const bundle = JSON.parse(await (await tool.exportBlob()).text());
      assert.deepEqual(bundle.memories.map((m) => m.path), ["/a.md"]);
      assert.deepEqual(bundle.skipped, [
        { path: "/b.md", reason: "its content is missing" },
        { path: "/c.md", reason: "its record cannot be read" },
      ]);
      tool.close();
    });

    test("a damaged store with history: the blob with its versions is export's, and it imports", async () => {
      const storage = makeStorage();
      const tool = await MemoryTool.open({ storage, store: "hurt-history" });
      for (const n of ["a", "b", "c", "d", "e"]) await tool.memories.create({ path: `/${n}.md`, content: `${n} one` });
      for (const n of ["a", "b", "c"]) {
        const memory = await tool.memories.getByPath(`/${n}.md`);
        await tool.memories.update(memory.id, { content: `${n} two` });
      }
      await tool.execute({ command: "rename", old_path: "/memories/d.md", new_path: "/memories/moved/d.md" });
      await tool.execute({ command: "delete", path: "/memories/e.md" });
      const handle = await storage.open("hurt-history");
      await handle.transaction("readwrite", (tx) => {
        // b's content gone; c's changed behind the package's back.
        tx.getFile("/b.md", (record) => tx.deleteContent(record.content));
        tx.getFile("/c.md", (record) => tx.putContent(record.content, new TextEncoder().encode("edited by hand")));
      });
      handle.close();
      const seen = [];
      const blob = await tool.exportBlob({ include_versions: true, onProgress: (p) => seen.push(p) });
      const bundle = JSON.parse(await blob.text());
      assert.deepEqual(bundle, await tool.export({ include_versions: true }));
      assert.deepEqual(bundle.memories.map((m) => m.path), ["/a.md", "/moved/d.md"]);
      assert.deepEqual(
        bundle.skipped.filter((s) => s.path),
        [
          { path: "/b.md", reason: "its content is missing" },
          { path: "/c.md", reason: "its content does not match its content_sha256" },
        ],
      );
      // b's and c's histories are left out with them; the deleted e's comes along.
      assert.ok(bundle.skipped.some((s) => s.version_id && s.reason === "its memory was left out"));
      assert.ok(bundle.versions.some((v) => v.operation === "deleted"));
      assert.equal(seen.at(-1).done, seen.at(-1).total);
      const copy = await MemoryTool.open({ storage: new InMemoryStorage(), store: "copy" });
      const result = await copy.import(await blob.text());
      assert.equal(result.imported, 2);
      assert.equal(result.versions, bundle.versions.length);
      assert.deepEqual((await copy.memories.list()).map((m) => m.path), ["/a.md", "/moved/d.md"]);
      copy.close();
      tool.close();
    });
  });
}

// What a streamed export costs the storage, counted (never timed): one read-only transaction
// per chunk of about 256 KiB or 1,000 entries, which also reads that chunk's page of records
// (so no one task takes in the whole store's), the first with the count; a chunk whose
// contents lie together in key order is two requests (its keys, then its values in one
// getAll), not one get per content; scattered contents fall back to one get each, with the
// same bundle.
describe("exportBlob's cost in transactions and requests", () => {
  test("2,500 memories of 1,000 bytes: a transaction per page of records, the contents with them", async () => {
    const requests = {};
    const originals = {};
    for (const method of ["get", "getAll", "getAllKeys"]) {
      originals[method] = IDBObjectStore.prototype[method];
      IDBObjectStore.prototype[method] = function (...args) {
        const key = `${this.name}.${method}`;
        requests[key] = (requests[key] ?? 0) + 1;
        return originals[method].apply(this, args);
      };
    }
    try {
      const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source" });
      for (let i = 0; i < 2500; i++) {
        await source.memories.create({ path: `/d/n${String(i).padStart(4, "0")}.md`, content: String(i % 10).repeat(1000) });
      }
      const bundle = await source.export();
      source.close();
      const factory = new IDBFactory();
      const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
      const open = storage.open.bind(storage);
      let transactions = 0;
      storage.open = async (name) => {
        const handle = await open(name);
        const transaction = handle.transaction.bind(handle);
        handle.transaction = (mode, body) => {
          if (mode === "readonly") transactions++;
          return transaction(mode, body);
        };
        return handle;
      };
      const tool = await MemoryTool.open({ storage, store: "counted" });
      await tool.import(bundle);
      transactions = 0;
      for (const key of Object.keys(requests)) delete requests[key];
      const blob = await tool.exportBlob();
      // The records in pages of 32, then of 262 (a chunk's worth, 256 KiB by the last page's
      // sizes): 32 + 9 × 262 + 110, each page its own transaction, never all 2,500 in one
      // read, the first with the count (so no transaction only to list); each chunk's
      // contents, which lie together in key order, in two range requests, no get.
      assert.equal(transactions, 11, JSON.stringify(requests));
      assert.deepEqual(requests, { "files.getAll": 11, "meta.get": 11, "contents.getAllKeys": 11, "contents.getAll": 11 });
      assert.deepEqual(JSON.parse(await blob.text()), await tool.export());

      // The same from a tool opened afresh.
      tool.close();
      const again = await MemoryTool.open({ storage, store: "counted" });
      await again.memories.get("mem_none").catch(() => {}); // after the open's prune
      for (const key of Object.keys(requests)) delete requests[key];
      transactions = 0;
      const uncopied = await again.exportBlob();
      assert.equal(transactions, 11);
      assert.deepEqual(requests, { "files.getAll": 11, "meta.get": 11, "contents.getAllKeys": 11, "contents.getAll": 11 });
      assert.deepEqual(JSON.parse(await uncopied.text()), await again.export());

      // Every other memory rewritten: a head's bytes are keyed by its path, so the old text
      // (kept by the history) lies next to the new one: a chunk's range holds at most twice
      // the keys asked for, still two range requests per chunk.
      const rewrite = async (/** @type {MemoryTool} */ tool, /** @type {number} */ step, /** @type {string} */ content) => {
        for (let i = 0; i < 2500; i += step) {
          const memory = await tool.memories.getByPath(`/d/n${String(i).padStart(4, "0")}.md`);
          await tool.memories.update(memory.id, { content });
        }
      };
      await rewrite(again, 2, "changed");
      again.close();
      const next = await MemoryTool.open({ storage, store: "counted" });
      for (const key of Object.keys(requests)) delete requests[key];
      const beside = await next.exportBlob();
      assert.equal(requests["contents.get"], undefined, JSON.stringify(requests));
      assert.equal(requests["contents.getAll"], requests["contents.getAllKeys"], JSON.stringify(requests));
      assert.deepEqual(JSON.parse(await beside.text()), await next.export());
      // Each memory rewritten twice more: three old texts beside each head, more than twice
      // the keys asked for, so each content is read by itself, with the same bundle.
      await rewrite(next, 1, "again");
      await rewrite(next, 1, "and again");
      next.close();
      const last = await MemoryTool.open({ storage, store: "counted" });
      for (const key of Object.keys(requests)) delete requests[key];
      const scattered = await last.exportBlob();
      assert.equal(requests["contents.get"], 2500, JSON.stringify(requests));
      assert.deepEqual(JSON.parse(await scattered.text()), await last.export());
      last.close();
    } finally {
      for (const [method, original] of Object.entries(originals)) IDBObjectStore.prototype[method] = original;
    }
  });

  test("30 memories of 100,000 bytes: chunks of about 256 KiB, the first with the page of records", async () => {
    const SIZE = 100_000;
    const storage = new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange });
    const open = storage.open.bind(storage);
    let transactions = 0;
    storage.open = async (name) => {
      const handle = await open(name);
      const transaction = handle.transaction.bind(handle);
      handle.transaction = (mode, body) => {
        if (mode === "readonly") transactions++;
        return transaction(mode, body);
      };
      return handle;
    };
    const tool = await MemoryTool.open({ storage, store: "big", limits: { maxFileBytes: SIZE } });
    for (let i = 0; i < 30; i++) await tool.writeFile(`/memories/f${String(i).padStart(2, "0")}.md`, String(i % 10).repeat(SIZE));
    const requests = {};
    const original = IDBObjectStore.prototype.getAll;
    IDBObjectStore.prototype.getAll = function (...args) {
      requests[this.name] = (requests[this.name] ?? 0) + 1;
      return original.apply(this, args);
    };
    try {
      transactions = 0;
      const seen = [];
      const blob = await tool.exportBlob({ onProgress: (p) => seen.push(p) });
      // 3 memories make 300 KB, the first past 256 KiB: ten chunks of 3 from the one page of
      // 30 records (a first page is 32 at most, read with the count), each chunk's contents in
      // one range request: ten transactions.
      assert.equal(transactions, 10);
      assert.deepEqual(requests, { files: 1, contents: 10 });
      assert.deepEqual(seen[0], { done: 0, total: 30 });
      assert.deepEqual(seen.at(-1), { done: 30, total: 30 });
      assert.deepEqual(JSON.parse(await blob.text()), await tool.export());
    } finally {
      IDBObjectStore.prototype.getAll = original;
      tool.close();
    }
  });

  // The main thread's share, counted: the page gets a turn (a message to itself, never a
  // clamped setTimeout) before each call of the core, and a call formats about 96 KiB at most,
  // so no one task formats a whole chunk, and no call runs in the storage's callback that just
  // took a page of records in.
  test("2,500 memories of 1,000 bytes: a yield before each call of the core, a call ~96 KiB", async () => {
    const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source" });
    for (let i = 0; i < 2500; i++) {
      await source.memories.create({ path: `/d/n${String(i).padStart(4, "0")}.md`, content: String(i % 10).repeat(1000) });
    }
    const bundle = await source.export();
    source.close();
    const tool = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), store: "yields" });
    await tool.import(bundle);
    const Original = globalThis.MessageChannel;
    let yields = 0;
    let timeouts = 0;
    const originalTimeout = globalThis.setTimeout;
    globalThis.MessageChannel = class extends Original {
      constructor() {
        super();
        yields++;
      }
    };
    globalThis.setTimeout = /** @type {any} */ (
      (/** @type {any[]} */ ...args) => {
        timeouts++;
        return originalTimeout(...args);
      }
    );
    let blob;
    try {
      blob = await tool.exportBlob();
    } finally {
      globalThis.MessageChannel = Original;
      globalThis.setTimeout = originalTimeout;
    }
    // Pages of 32, 9 × 262 and 110 records (see the test above); 99 memories make the first
    // batch past 96 KiB, so a page of 262 is three calls (99 + 99 + 64), the first page one
    // and the last two: 1 + 27 + 2 yields, one before each call.
    assert.equal(yields, 30);
    assert.equal(timeouts, 0);
    assert.deepEqual(JSON.parse(await blob.text()), await tool.export());
    tool.close();
  });
});
