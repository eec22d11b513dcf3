// One malformed record, or one missing content, no longer blocks a whole store
// (docs/TOOL.md#damaged-records): over fake-indexeddb and InMemoryStorage, a record written
// malformed straight into storage and a content deleted from under its memory. Commands that
// meet them fail with DAMAGED naming the memory; listings, the host's list and export go on
// without them (export says what it left out); check() finds both, repair() takes them out.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { MemoryTool, IndexedDbStorage, InMemoryStorage } from "memory-tool-wasm";

/** Opens a store of `storage`, writes three memories, then damages two of them raw. */
async function damagedTool(storage) {
  const tool = await MemoryTool.open({ storage, store: "hurt" });
  for (const name of ["good", "broken", "empty"]) await tool.memories.create({ path: `/${name}.md`, content: `${name}\n` });
  const broken = await tool.memories.getByPath("/broken.md");
  const empty = await tool.memories.getByPath("/empty.md");
  const handle = await storage.open("hurt");
  await handle.transaction("readwrite", (tx) => {
    tx.getFile("/broken.md", (record) => {
      // A record as a bug, a devtools edit or a half-migrated schema might leave it.
      tx.putFile({ ...record, size: "eleven", sha256: 42 }, record.size);
    });
    tx.getFile("/empty.md", (record) => {
      // Its bytes, and (put back without them) the copy IndexedDbStorage keeps in the record.
      tx.deleteContent(record.content);
      tx.putFile(record, record.size);
    });
  });
  handle.close();
  return { tool, broken, empty };
}

for (const [name, makeStorage] of [
  ["IndexedDbStorage", () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })],
  ["InMemoryStorage", () => new InMemoryStorage()],
]) {
  describe(`a damaged store over ${name}`, () => {
    test("commands that meet damage fail with DAMAGED naming the memory; the rest works", async () => {
      const { tool, empty } = await damagedTool(makeStorage());
      const broken = await tool.execute({ command: "view", path: "/memories/broken.md" });
      assert.deepEqual(broken, {
        content: "Error: The memory /memories/broken.md is damaged: its stored record cannot be read. Nothing was changed; the app can check and repair the store",
        isError: true,
        code: "DAMAGED",
      });
      const missing = await tool.execute({ command: "view", path: "/memories/empty.md" });
      assert.equal(missing.code, "DAMAGED");
      assert.match(missing.content, /\/memories\/empty\.md is damaged: its content is missing/);
      // Never an empty file in its place, and no write over it.
      assert.equal((await tool.execute({ command: "create", path: "/memories/broken.md", file_text: "x" })).code, "DAMAGED");
      await assert.rejects(tool.memories.get(empty.id), (error) => error.code === "DAMAGED");
      // The rest of the store.
      assert.equal((await tool.execute({ command: "view", path: "/memories/good.md" })).isError, false);
      const listing = await tool.execute({ command: "view", path: "/memories" });
      assert.equal(listing.isError, false, listing.content);
      assert.deepEqual((await tool.memories.list()).map((m) => m.path), ["/empty.md", "/good.md"]);
      assert.equal((await tool.execute({ command: "create", path: "/memories/new.md", file_text: "new" })).isError, false);
      tool.close();
    });

    test("export leaves out what cannot be read, says so, and re-imports", async () => {
      const { tool } = await damagedTool(makeStorage());
      const bundle = await tool.export({ include_versions: true });
      assert.deepEqual(bundle.memories.map((m) => m.path), ["/good.md"]);
      assert.deepEqual(
        bundle.skipped.filter((s) => s.path).map((s) => [s.path, s.reason]),
        [
          ["/broken.md", "its record cannot be read"],
          ["/empty.md", "its content is missing"],
        ],
      );
      const copy = await MemoryTool.open({ storage: new InMemoryStorage(), store: "copy" });
      await copy.import(bundle);
      assert.deepEqual((await copy.memories.list()).map((m) => m.path), ["/good.md"]);
      copy.close();
      tool.close();
    });

    test("check finds both without changing anything; repair takes them out; the store is whole again", async () => {
      const { tool, empty } = await damagedTool(makeStorage());
      const report = await tool.check();
      assert.deepEqual(report, {
        type: "store_check",
        files: 3,
        repaired: false,
        damaged: [
          { path: "/broken.md", problem: "record", memory_id: null },
          { path: "/empty.md", problem: "content", memory_id: empty.id },
        ],
      });
      assert.deepEqual(await tool.check(), report);
      const repaired = await tool.repair();
      assert.equal(repaired.repaired, true);
      assert.deepEqual((await tool.check()).damaged, []);
      assert.deepEqual((await tool.memories.list()).map((m) => m.path), ["/good.md"]);
      // The paths are free again; the deletion of the memory without content is in its history.
      assert.equal((await tool.execute({ command: "create", path: "/memories/broken.md", file_text: "again" })).isError, false);
      const history = await tool.versions.list({ memory_id: empty.id });
      assert.equal(history.data[0].operation, "deleted");
      const listing = await tool.execute({ command: "view", path: "/memories" });
      assert.match(listing.content, /\/memories\/broken\.md/);
      assert.doesNotMatch(listing.content, /empty\.md/);
      tool.close();
    });
  });
}
