// The streamed export (docs/TOOL.md#bundles) against `export`: the same bundle, whichever
// storage, with history or without; a damaged store's export says what it skipped; progress
// runs from 0 to the end; bad options are refused. Its memory bound is measured in Chromium
// (tests/e2e/store-meta.test.mjs).

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
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
        tx.getFile("/b.md", (record) => tx.deleteContent(record.content));
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
  });
}
