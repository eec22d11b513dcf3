// The history budget (docs/TOOL.md#history-budget) and the delete at full quota
// (docs/TOOL.md#delete-at-full-quota) over the built package: the options, the versions kept,
// the IndexedDB requests a write costs (counted, never timed), the typed error, and a delete
// that succeeds when every put is refused for quota.
// Run: node --test tests/node/budget.test.mjs (needs `npm run build`).

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { countRequests } from "./fixtures/count-requests.mjs";
import { MemoryTool, MemoryToolError, MemoryStores, InMemoryStorage, IndexedDbStorage } from "memory-tool-wasm";

const isCode = (/** @type {string} */ code) => (/** @type {unknown} */ error) => {
  assert.ok(error instanceof MemoryToolError, String(error));
  assert.equal(error.code, code, error.message);
  return true;
};
const QUOTA = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");

for (const [name, makeStorage] of /** @type {const} */ ([
  ["IndexedDbStorage", () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })],
  ["InMemoryStorage", () => new InMemoryStorage()],
])) {
  describe(`the history budget over ${name}`, () => {
    test("limits.maxVersionsPerMemory: a memory keeps its newest versions, the head always", async () => {
      const tool = await MemoryTool.open({ storage: makeStorage(), createOverwrites: true, limits: { maxVersionsPerMemory: 3 } });
      await tool.execute({ command: "create", path: "/memories/other.md", file_text: "other" });
      for (let i = 0; i < 10; i++) {
        const result = await tool.execute({ command: "create", path: "/memories/a.md", file_text: `take ${i}` });
        assert.equal(result.isError, false, result.content);
      }
      const a = await tool.memories.getByPath("/a.md");
      const versions = (await tool.versions.list({ memory_id: a.id })).data;
      assert.equal(versions.length, 3);
      assert.equal(versions[0].id, a.memory_version_id, "the newest is the head");
      const texts = await Promise.all(versions.map(async (v) => (await tool.versions.get(v.id)).content));
      assert.deepEqual(texts, ["take 9", "take 8", "take 7"]);
      assert.equal((await tool.versions.list()).data.length, 4, "the other memory keeps its own");
      // The bundle of the whole history is still one an import takes.
      const bundle = await tool.export({ include_versions: true });
      const copy = await MemoryTool.open({ storage: makeStorage() });
      await copy.import(bundle);
      assert.equal((await copy.versions.list()).data.length, 4);
      tool.close();
      copy.close();
    });

    test("limits.maxHistoryBytesPerMemory: a write that cannot fit is HISTORY_LIMIT_EXCEEDED and changes nothing", async () => {
      const tool = await MemoryTool.open({ storage: makeStorage(), limits: { maxHistoryBytesPerMemory: 10 } });
      assert.equal((await tool.execute({ command: "create", path: "/memories/a.md", file_text: "0123456789" })).isError, false);
      const before = await tool.export({ include_versions: true });
      assert.deepEqual(await tool.execute({ command: "str_replace", path: "/memories/a.md", old_str: "9", new_str: "9A" }), {
        content:
          "Error: Cannot write /memories/a.md: its history would hold 11 bytes even with every older version pruned, " +
          "over the limit of 10 bytes of history per memory. Nothing was changed",
        isError: true,
        code: "HISTORY_LIMIT_EXCEEDED",
      });
      await assert.rejects(tool.memories.create({ path: "/b.md", content: "01234567890" }), isCode("HISTORY_LIMIT_EXCEEDED"));
      assert.deepEqual(await tool.export({ include_versions: true }), before);
      tool.close();
    });
  });
}

describe("options", () => {
  test("bad budget values are INVALID_OPTIONS naming the option", async () => {
    await assert.rejects(MemoryTool.open({ storage: "memory", limits: { maxVersionsPerMemory: 0 } }), (error) => {
      isCode("INVALID_OPTIONS")(error);
      assert.match(/** @type {Error} */ (error).message, /`limits\.maxVersionsPerMemory` must be a whole number, 1 or more\./);
      return true;
    });
    await assert.rejects(MemoryTool.open({ storage: "memory", limits: { maxHistoryBytesPerMemory: -1 } }), isCode("INVALID_OPTIONS"));
  });
});

describe("a store's own budget", () => {
  test("MemoryStores limits carry the budget to the mount, over the tool's", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const small = await stores.create({ name: "Small", limits: { max_versions_per_memory: 2, max_history_bytes_per_memory: 1000 } });
    assert.deepEqual(small.limits, { max_file_bytes: null, max_files: null, max_versions_per_memory: 2, max_history_bytes_per_memory: 1000 });
    const plain = await stores.create({ name: "Plain" });
    assert.deepEqual(plain.limits, { max_file_bytes: null, max_files: null }, "unset budget limits are not shown");
    await assert.rejects(stores.create({ name: "Bad", limits: { max_versions_per_memory: 0 } }), (error) => {
      isCode("INVALID_INPUT")(error);
      assert.match(/** @type {Error} */ (error).message, /`limits\.max_versions_per_memory` must be a whole number, 1 or more/);
      return true;
    });
    const tool = await MemoryTool.open({ storage, limits: { maxVersionsPerMemory: 5 }, mounts: [{ store: small.id }, { store: plain.id }] });
    for (const slug of ["small", "plain"]) {
      await tool.execute({ command: "create", path: `/memories/${slug}/a.md`, file_text: "0" });
      for (let i = 1; i < 8; i++) {
        const result = await tool.execute({ command: "str_replace", path: `/memories/${slug}/a.md`, old_str: `${i - 1}`, new_str: `${i}` });
        assert.equal(result.isError, false, result.content);
      }
    }
    assert.equal((await tool.versions.list({ store: small.id })).data.length, 2, "the store's own budget");
    assert.equal((await tool.versions.list({ store: plain.id })).data.length, 5, "the tool's budget");
    // Updated to null: back to the tool's.
    const back = await stores.update(small.id, { limits: { max_versions_per_memory: null } });
    assert.deepEqual(back.limits, { max_file_bytes: null, max_files: null, max_history_bytes_per_memory: 1000 });
    tool.close();
    stores.close();
  });
});

describe("requests", () => {
  test("within budget an edit reads no history (its record counts it): two reads in all; an uncounted record's history is read once", async () => {
    const tool = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), store: "count" });
    const create = await countRequests(() => tool.execute({ command: "create", path: "/memories/a.md", file_text: "a" }));
    assert.equal(create["versions.memory.getAll"], undefined, JSON.stringify(create));
    for (let i = 0; i < 5; i++) await tool.execute({ command: "str_replace", path: "/memories/a.md", old_str: i ? `${i - 1}` : "a", new_str: `${i}` });
    const edit = await countRequests(() => tool.execute({ command: "str_replace", path: "/memories/a.md", old_str: "4", new_str: "5" }));
    // The record (with its history count), the store's metadata and the head's bytes by the
    // file key: no other read.
    const reads = Object.entries(edit).filter(([k]) => /\.(get|getAll|getAllKeys|getKey|openCursor|count)$/.test(k));
    assert.deepEqual(Object.fromEntries(reads), { "files.get": 1, "meta.get": 1, "contents.openCursor": 1 });
    assert.equal(edit["versions.delete"], undefined, "below the budget nothing is pruned");
    // A record moved by a directory rename has not counted its versions: one getAll, then
    // counted again.
    await tool.execute({ command: "rename", old_path: "/memories/a.md", new_path: "/memories/d/a.md" });
    await tool.execute({ command: "rename", old_path: "/memories/d", new_path: "/memories/e" });
    const moved = await countRequests(() => tool.execute({ command: "str_replace", path: "/memories/e/a.md", old_str: "5", new_str: "6" }));
    assert.equal(moved["versions.memory.getAll"], 1, JSON.stringify(moved));
    assert.equal(moved["versions.memory.openCursor"], undefined, JSON.stringify(moved));
    const next = await countRequests(() => tool.execute({ command: "str_replace", path: "/memories/e/a.md", old_str: "6", new_str: "7" }));
    assert.equal(next["versions.memory.getAll"], undefined, JSON.stringify(next));
    const del = await countRequests(() => tool.execute({ command: "delete", path: "/memories/e/a.md" }));
    assert.equal(del["versions.memory.getAll"], undefined, JSON.stringify(del));
    tool.close();
  });

  test("at the budget, an edit prunes one version and frees its bytes: one delete of each", async () => {
    const tool = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), limits: { maxVersionsPerMemory: 3 } });
    await tool.execute({ command: "create", path: "/memories/a.md", file_text: "0" });
    for (let i = 1; i < 3; i++) await tool.execute({ command: "str_replace", path: "/memories/a.md", old_str: `${i - 1}`, new_str: `${i}` });
    const edit = await countRequests(() => tool.execute({ command: "str_replace", path: "/memories/a.md", old_str: "2", new_str: "3" }));
    assert.equal(edit["versions.memory.getAll"], 1, JSON.stringify(edit));
    assert.equal(edit["versions.content.getAllKeys"], 1, JSON.stringify(edit));
    assert.equal(edit["versions.delete"], 1, JSON.stringify(edit));
    assert.equal(edit["contents.delete"], 1, JSON.stringify(edit));
    assert.equal((await tool.versions.list()).data.length, 3);
    tool.close();
  });
});

/**
 * InMemoryStorage whose transactions refuse every put for quota while `full.on` is set, as
 * Chromium does at a full origin (docs/RELIABILITY.md#a-full-disk).
 */
function fullStorage() {
  const inner = new InMemoryStorage();
  const full = { on: false };
  const storage = {
    full,
    /** @param {string} store */
    async open(store) {
      const handle = await inner.open(store);
      return {
        close: () => handle.close(),
        /** @param {any} mode @param {(tx: any) => void} body */
        transaction(mode, body) {
          return handle.transaction(mode, (tx) => {
            /** @type {Record<string, unknown>} */
            const wrapped = {};
            for (const method of Object.getOwnPropertyNames(Object.getPrototypeOf(tx))) {
              if (method === "constructor" || typeof tx[method] !== "function") continue;
              const put = method.startsWith("put");
              wrapped[method] = (/** @type {unknown[]} */ ...args) => {
                if (put && full.on) throw QUOTA();
                return tx[method](...args);
              };
            }
            body(wrapped);
          });
        },
      };
    },
  };
  return storage;
}

describe("a delete at full quota", () => {
  test("tool delete and memories.delete succeed in the compact form: the memory goes with its history, the rest stays", async () => {
    const storage = fullStorage();
    const tool = await MemoryTool.open({ storage: /** @type {any} */ (storage) });
    for (const [p, text] of [["/memories/a.md", "a1"], ["/memories/dir/x.md", "x"], ["/memories/dir/y.md", "y"], ["/memories/keep.md", "keep"], ["/memories/host.md", "h"]]) {
      await tool.execute({ command: "create", path: p, file_text: text });
    }
    await tool.execute({ command: "str_replace", path: "/memories/a.md", old_str: "a1", new_str: "a2" });
    const host = await tool.memories.getByPath("/host.md");
    const keep = await tool.memories.getByPath("/keep.md");
    storage.full.on = true;
    // Writes fail as before …
    assert.equal((await tool.execute({ command: "create", path: "/memories/new.md", file_text: "n" })).code, "QUOTA_EXCEEDED");
    await assert.rejects(tool.memories.update(keep.id, { content: "lost" }), isCode("QUOTA_EXCEEDED"));
    // … deletes work.
    assert.deepEqual(await tool.execute({ command: "delete", path: "/memories/a.md" }), { content: "Successfully deleted /memories/a.md", isError: false });
    assert.deepEqual(await tool.execute({ command: "delete", path: "/memories/dir" }), { content: "Successfully deleted /memories/dir", isError: false });
    assert.deepEqual(await tool.memories.delete(host.id), { type: "memory_deleted", id: host.id });
    storage.full.on = false;
    const left = await tool.memories.list();
    assert.deepEqual(left.map((m) => m.path), ["/keep.md"]);
    const versions = (await tool.versions.list()).data;
    assert.deepEqual(versions.map((v) => v.memory_id), [keep.id], "the deleted memories' histories went with them");
    const kept = await tool.execute({ command: "view", path: "/memories/keep.md" });
    assert.equal(kept.isError, false, String(kept.content));
    // With room again, everything works, and the store's bundle is whole.
    assert.equal((await tool.execute({ command: "create", path: "/memories/a.md", file_text: "again" })).isError, false);
    const copy = await MemoryTool.open({ storage: "memory" });
    await copy.import(await tool.export({ include_versions: true }));
    assert.equal((await copy.memories.list()).length, 2);
    tool.close();
    copy.close();
  });

  test("a delete that fails for another reason is not retried", async () => {
    const storage = fullStorage();
    const tool = await MemoryTool.open({ storage: /** @type {any} */ (storage) });
    storage.full.on = true;
    assert.equal((await tool.execute({ command: "delete", path: "/memories/none.md" })).code, "NOT_FOUND");
    await assert.rejects(tool.memories.delete("mem_nothing"), isCode("NOT_FOUND"));
    tool.close();
  });
});

describe("a delete at full quota over IndexedDB", () => {
  test("the compact retry issues no put at all; the metadata is counted again by the next write", async () => {
    const { IDBObjectStore } = await import("fake-indexeddb");
    const factory = new IDBFactory();
    const tool = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }), store: "full" });
    for (const p of ["/memories/a.md", "/memories/b.md", "/memories/dir/x.md"]) await tool.execute({ command: "create", path: p, file_text: p });
    await tool.execute({ command: "str_replace", path: "/memories/a.md", old_str: "a.md", new_str: "a2" });
    // Every put refused for quota, as Chromium does at a full origin.
    const put = IDBObjectStore.prototype.put;
    let refused = 0;
    const counts = await (async () => {
      IDBObjectStore.prototype.put = function () {
        refused++;
        throw QUOTA();
      };
      try {
        return await countRequests(async () => {
          assert.deepEqual(await tool.execute({ command: "delete", path: "/memories/a.md" }), { content: "Successfully deleted /memories/a.md", isError: false });
        });
      } finally {
        IDBObjectStore.prototype.put = put;
      }
    })();
    // The normal delete's first put was refused (its transaction aborted, nothing changed);
    // the compact retry issued none.
    assert.equal(refused, 1, JSON.stringify(counts));
    assert.equal(counts["versions.put"], 1, JSON.stringify(counts));
    assert.equal(Object.keys(counts).filter((k) => k.endsWith(".put")).length, 1, JSON.stringify(counts));
    assert.equal(counts["files.delete"], 2, "one per attempt");
    assert.equal(counts["meta.delete"], 1, JSON.stringify(counts));
    assert.equal(counts["versions.delete"], 2, "a.md's two versions");
    assert.equal(counts["contents.delete"], 2, JSON.stringify(counts));
    // The next write counts the store again (from the listing keys: no file record, which
    // holds its bytes, is read) and stores the record.
    const next = await countRequests(() => tool.execute({ command: "create", path: "/memories/c.md", file_text: "c" }));
    assert.equal(next["listing.getAllKeys"], 1, JSON.stringify(next));
    assert.equal(next["files.openCursor"], undefined, JSON.stringify(next));
    assert.equal(next["meta.put"], 1, JSON.stringify(next));
    assert.deepEqual(await tool.usage().then((u) => u.files), 3);
    tool.close();
  });
});
