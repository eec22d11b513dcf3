// Through the package's JS API: the registry of named stores (`MemoryStores`),
// over InMemoryStorage and IndexedDbStorage (fake-indexeddb) alike: create, list (archived
// left out unless asked), get, update, archive (read-only for good), delete (the record, then
// every memory and version of the store), the reserved registry store, and the errors.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** stores.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every stores test. ***\n",
  );
}
const { MemoryTool, MemoryStores, MemoryToolError, InMemoryStorage, IndexedDbStorage } = built
  ? await import("memory-tool-wasm")
  : {};
const suite = built ? describe : describe.skip;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const STORE_ID = /^memstore_[0-9a-hjkmnp-tv-z]{21}$/;
const STORAGE_TEXT = "Error: The memory store could not be reached. Nothing was changed.";
const isCode = (code, message) => (error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, code, error.message);
  if (message !== undefined) assert.equal(error.message, message);
  return true;
};

/**
 * The two shipped storages: `storage()` is a storage over the same data each time (for
 * IndexedDB a new IndexedDbStorage over one factory, as a new page load would make).
 */
const backends = {
  InMemoryStorage() {
    const storage = new InMemoryStorage();
    return { storage: () => storage, factory: null };
  },
  IndexedDbStorage() {
    const factory = new IDBFactory();
    return { storage: () => new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }), factory };
  },
};

/** Runs one readonly transaction on store `name` of `storage`; resolves to what `body` gives `done`. */
async function rawRead(storage, name, body) {
  const handle = await storage.open(name);
  let value;
  try {
    await handle.transaction("readonly", (tx) => body(tx, (v) => (value = v)));
  } finally {
    handle.close();
  }
  return value;
}
const rawFiles = (storage, name) => rawRead(storage, name, (tx, done) => tx.getSubtree("", done));
const rawVersions = (storage, name) => rawRead(storage, name, (tx, done) => tx.getVersionsBelow("memver_~", done));
/** Every byte string a store holds, as text (the keys come from its versions and files). */
const rawContents = (storage, name) =>
  rawRead(storage, name, (tx, done) => {
    tx.getVersionsBelow("memver_~", (versions) => {
      tx.getSubtree("", (files) => {
        const keys = [...new Set([...versions.map((v) => v.content), ...files.map((f) => f.content)].filter(Boolean))];
        const texts = [];
        let pending = keys.length;
        if (pending === 0) done(texts);
        for (const key of keys) {
          tx.getContent(key, (bytes) => {
            if (bytes) texts.push(new TextDecoder().decode(bytes));
            if (--pending === 0) done(texts);
          });
        }
      });
    });
  });

for (const [backendName, makeBackend] of Object.entries(backends)) {
  suite(`MemoryStores over ${backendName}`, () => {
    test("create gives a memstore_ id and the record; limits as given", async () => {
      const backend = makeBackend();
      const stores = await MemoryStores.open({ storage: backend.storage() });
      const before = Date.now();
      const demo = await stores.create({ name: "Demo Memory", description: "What the demo keeps." });
      assert.match(demo.id, STORE_ID);
      assert.deepEqual(Object.keys(demo), [
        "type", "id", "name", "description", "slug", "created_at", "updated_at", "archived_at", "limits",
      ]);
      assert.deepEqual(
        { ...demo, id: "", created_at: "", updated_at: "" },
        {
          type: "memory_store",
          id: "",
          name: "Demo Memory",
          description: "What the demo keeps.",
          slug: "demo-memory",
          created_at: "",
          updated_at: "",
          archived_at: null,
          limits: { max_file_bytes: null, max_files: null },
        },
      );
      assert.match(demo.created_at, RFC3339);
      assert.ok(Date.parse(demo.created_at) >= before - 1 && Date.parse(demo.created_at) <= Date.now());
      assert.equal(demo.updated_at, demo.created_at);

      const limited = await stores.create({ name: "Small", limits: { max_files: 50, max_file_bytes: 1000 } });
      assert.deepEqual(limited.limits, { max_file_bytes: 1000, max_files: 50 });
      assert.equal(limited.description, "");
      // One spelling: the record's. MemoryTool.open's camelCase names are refused, naming the
      // right one, and nothing is created.
      for (const [camel, snake] of [["maxFiles", "max_files"], ["maxFileBytes", "max_file_bytes"], ["maxVersionsPerMemory", "max_versions_per_memory"], ["maxHistoryBytesPerMemory", "max_history_bytes_per_memory"]]) {
        await assert.rejects(
          stores.create({ name: "Camel", limits: { [camel]: 7 } }),
          isCode(
            "INVALID_INPUT",
            `unknown limit \`${camel}\`; the limits are max_file_bytes, max_files, max_versions_per_memory, max_history_bytes_per_memory. A store's limits are spelled as its record spells them: \`${snake}\`, not \`${camel}\` (MemoryTool.open's spelling).`,
          ),
        );
        await assert.rejects(stores.update(limited.id, { limits: { [camel]: 7 } }), isCode("INVALID_INPUT"));
      }
      assert.deepEqual((await stores.list()).map((s) => s.name), ["Demo Memory", "Small"]);
      // What a store's record gives goes back as it is.
      assert.deepEqual((await stores.update(limited.id, { limits: limited.limits })).limits, limited.limits);
      assert.notEqual(limited.id, demo.id);
      stores.close();
    });

    test("list: oldest first, archived left out unless includeArchived; get; records persist", async () => {
      const backend = makeBackend();
      const stores = await MemoryStores.open({ storage: backend.storage() });
      // A millisecond apart: the core orders stores by creation time (ties by id).
      const a = await stores.create({ name: "Alpha" });
      await sleep(2);
      const b = await stores.create({ name: "Beta" });
      await sleep(2);
      const c = await stores.create({ name: "Gamma" });
      assert.deepEqual((await stores.list()).map((s) => s.name), ["Alpha", "Beta", "Gamma"]);
      await stores.archive(b.id);
      assert.deepEqual((await stores.list()).map((s) => s.name), ["Alpha", "Gamma"]);
      assert.deepEqual((await stores.list({ includeArchived: false })).map((s) => s.name), ["Alpha", "Gamma"]);
      assert.deepEqual((await stores.list({ includeArchived: true })).map((s) => s.name), ["Alpha", "Beta", "Gamma"]);
      assert.deepEqual(await stores.get(a.id), a);
      stores.close();

      // Another MemoryStores over the same data (a page load later) sees the same registry.
      const again = await MemoryStores.open({ storage: backend.storage() });
      assert.deepEqual(await again.get(c.id), c);
      assert.deepEqual((await again.list({ includeArchived: true })).map((s) => s.id), [a.id, b.id, c.id]);
      again.close();
    });

    test("update changes name (and slug), description and limits; null limits go back to the default", async () => {
      const backend = makeBackend();
      const stores = await MemoryStores.open({ storage: backend.storage() });
      const s = await stores.create({ name: "Demo Memory", description: "old", limits: { max_files: 3 } });
      const renamed = await stores.update(s.id, { name: "Demo Notes" });
      assert.equal(renamed.name, "Demo Notes");
      assert.equal(renamed.slug, "demo-notes");
      assert.equal(renamed.description, "old");
      assert.equal(renamed.created_at, s.created_at);
      assert.ok(renamed.updated_at >= s.updated_at);
      const described = await stores.update(s.id, { description: "new", limits: { max_files: null, max_file_bytes: 10 } });
      assert.equal(described.description, "new");
      assert.deepEqual(described.limits, { max_file_bytes: 10, max_files: null });
      assert.deepEqual(await stores.get(s.id), described);
      stores.close();
    });

    test("archive: archived_at set, read-only for good (update ARCHIVED), archiving again changes nothing", async () => {
      const backend = makeBackend();
      const stores = await MemoryStores.open({ storage: backend.storage() });
      const s = await stores.create({ name: "Old Notes" });
      const archived = await stores.archive(s.id);
      assert.match(archived.archived_at, RFC3339);
      assert.equal(archived.updated_at, archived.archived_at);
      await assert.rejects(
        stores.update(s.id, { name: "x" }),
        isCode("ARCHIVED", `Memory store ${s.id} is archived and cannot change`),
      );
      assert.deepEqual(await stores.archive(s.id), archived);
      assert.deepEqual(await stores.get(s.id), archived);
      stores.close();
    });

    test("delete removes the record and drops every memory and version of the store", async () => {
      const backend = makeBackend();
      const storage = backend.storage();
      const stores = await MemoryStores.open({ storage });
      const doomed = await stores.create({ name: "Doomed", description: "private notes" });
      await sleep(2);
      const kept = await stores.create({ name: "Kept" });
      const memory = await MemoryTool.open({ storage, mounts: [{ store: doomed.id }] });
      await memory.execute({ command: "create", path: "/memories/a.md", file_text: "secret" });
      await memory.writeFile("/memories/b.md", "more");
      const other = await MemoryTool.open({ storage, mounts: [{ store: kept.id }] });
      await other.execute({ command: "create", path: "/memories/k.md", file_text: "kept" });
      assert.equal((await rawFiles(storage, doomed.id)).length, 2);
      assert.equal((await rawVersions(storage, doomed.id)).length, 2);
      const recordKey = `/${doomed.id}`;
      const recordId = (await rawRead(storage, "__stores__", (tx, done) => tx.getFile(recordKey, done))).id;

      assert.deepEqual(await stores.delete(doomed.id), { type: "memory_store_deleted", id: doomed.id });
      await assert.rejects(stores.get(doomed.id), isCode("NOT_FOUND", `No memory store has the id ${doomed.id}`));
      assert.deepEqual((await stores.list({ includeArchived: true })).map((s) => s.id), [kept.id]);
      await assert.rejects(stores.delete(doomed.id), isCode("NOT_FOUND"));

      // The tool that had it open fails from then on, and does not bring the store back.
      assert.deepEqual(await memory.execute({ command: "view", path: "/memories" }), {
        content: STORAGE_TEXT,
        isError: true,
        code: "STORAGE_FAILED",
      });
      memory.close();
      assert.deepEqual(await rawFiles(storage, doomed.id), []);
      assert.deepEqual(await rawVersions(storage, doomed.id), []);
      if (backend.factory) {
        const names = (await backend.factory.databases()).map((d) => d.name);
        assert.ok(names.includes(`memory-tool-wasm:${kept.id}`));
      }
      // The other store is untouched.
      assert.equal((await other.execute({ command: "view", path: "/memories/k.md" })).isError, false);
      other.close();
      // The record's history in the registry keeps neither its name nor its description.
      const history = (await rawVersions(storage, "__stores__")).filter((v) => v.memoryId === recordId);
      assert.ok(history.length >= 2, "created and deleted");
      for (const version of history) {
        // Every version that held the record is redacted; the deletion itself holds no
        // content (only the id as its path).
        if (version.operation === "deleted") {
          assert.equal(version.content, undefined);
          assert.equal(version.path, `/${doomed.id}`);
        } else {
          assert.notEqual(version.redactedAt, null, JSON.stringify(version));
          assert.equal(version.path, null);
          assert.equal(version.content, undefined);
        }
      }
      const leftovers = (await rawContents(storage, "__stores__")).filter((text) => text.includes(doomed.name));
      assert.deepEqual(leftovers, [], "no bytes of the record remain");
      stores.close();
    });

    test("errors: bad fields are INVALID_INPUT, unknown ids NOT_FOUND", async () => {
      const backend = makeBackend();
      const stores = await MemoryStores.open({ storage: backend.storage() });
      for (const bad of [
        undefined,
        null,
        "name",
        {},
        { name: "***" },
        { name: "" },
        { name: 42 },
        { name: "x".repeat(256) },
        { name: "ok", description: "d".repeat(4097) },
        { name: "ok", limits: { max_files: -1 } },
        { name: "ok", limits: { max_files: 1.5 } },
        { name: "ok", limits: { maxFileSize: 1 } },
        { name: "ok", limits: { max_files: 1, maxFiles: 2 } },
        { name: "ok", limits: 5 },
        { name: "ok", color: "red" },
      ]) {
        await assert.rejects(stores.create(bad), isCode("INVALID_INPUT"), JSON.stringify(bad));
      }
      assert.deepEqual(await stores.list(), [], "nothing was created");
      const s = await stores.create({ name: "x".repeat(255), description: "d".repeat(4096) });
      for (const call of ["get", "archive", "delete"]) {
        await assert.rejects(stores[call](42), isCode("INVALID_INPUT"), call);
        await assert.rejects(stores[call]("memstore_nope"), isCode("NOT_FOUND", "No memory store has the id memstore_nope"), call);
      }
      await assert.rejects(stores.update("memstore_nope", { name: "y" }), isCode("NOT_FOUND"));
      await assert.rejects(stores.update(s.id, { name: "***" }), isCode("INVALID_INPUT"));
      await assert.rejects(stores.update(s.id, "y"), isCode("INVALID_INPUT"));
      await assert.rejects(stores.list({ includeArchived: "yes" }), isCode("INVALID_INPUT"));
      await assert.rejects(stores.list({ include_archived: true }), isCode("INVALID_INPUT"));
      await assert.rejects(stores.list(5), isCode("INVALID_INPUT"));
      stores.close();
      await assert.rejects(stores.list(), isCode("STORAGE_FAILED"));
    });
  });
}

suite("MemoryStores: options, the reserved registry store, storages without destroy", () => {
  test("MemoryStores.open: bad options are INVALID_OPTIONS", async () => {
    for (const bad of ["memory", null, [], { storage: "localStorage" }, { storage: {} }, { storage: "indexeddb" }, { store: "x" }]) {
      await assert.rejects(MemoryStores.open(bad), isCode("INVALID_OPTIONS"), JSON.stringify(bad));
    }
    // The constructor is not public.
    assert.throws(() => new MemoryStores(), TypeError);
  });

  test("the registry is the store __stores__ of the storage, and names starting with __ are reserved", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const s = await stores.create({ name: "Notes" });
    const records = await rawFiles(storage, "__stores__");
    assert.deepEqual(records.map((r) => r.path), [`/${s.id}`]);
    for (const store of ["__stores__", "__mine"]) {
      await assert.rejects(
        MemoryTool.open({ storage, store }),
        isCode(
          "INVALID_OPTIONS",
          'MemoryTool.open: `store` names starting with "__" are reserved (the store registry is "__stores__").',
        ),
      );
    }
    // A name with __ elsewhere is fine.
    (await MemoryTool.open({ storage, store: "my__store" })).close();
    stores.close();
  });

  test("delete needs a storage with destroy(store); without it nothing is deleted", async () => {
    const inner = new InMemoryStorage();
    const storage = { open: (name) => inner.open(name) };
    const stores = await MemoryStores.open({ storage });
    const s = await stores.create({ name: "Notes" });
    await assert.rejects(
      stores.delete(s.id),
      isCode("INVALID_OPTIONS", "delete: this storage cannot drop a store's data: it has no `destroy(store)` method."),
    );
    assert.deepEqual(await stores.get(s.id), s);
    stores.close();
  });

  test("InMemoryStorage.destroy drops the data; open handles refuse later transactions", async () => {
    const storage = new InMemoryStorage();
    const handle = await storage.open("s");
    await handle.transaction("readwrite", (tx) => tx.putContent("k", new Uint8Array([1])));
    await storage.destroy("s");
    await assert.rejects(handle.transaction("readonly", () => {}), isCode("STORAGE_FAILED", "This memory store has been deleted."));
    const fresh = await storage.open("s");
    let bytes = "unset";
    await fresh.transaction("readonly", (tx) => tx.getContent("k", (b) => (bytes = b)));
    assert.equal(bytes, undefined);
    await storage.destroy("never-opened");
  });

  test("IndexedDbStorage.destroy deletes the database; handles of this context are retired, from any instance", async () => {
    const factory = new IDBFactory();
    const a = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
    const b = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
    const handle = await a.open("s");
    await handle.transaction("readwrite", (tx) => tx.putContent("k", new Uint8Array([1])));
    assert.ok((await factory.databases()).some((d) => d.name === "memory-tool-wasm:s"));
    await b.destroy("s");
    assert.ok(!(await factory.databases()).some((d) => d.name === "memory-tool-wasm:s"));
    await assert.rejects(handle.transaction("readonly", () => {}), isCode("STORAGE_FAILED", "This memory store has been deleted."));
    assert.ok(!(await factory.databases()).some((d) => d.name === "memory-tool-wasm:s"), "not recreated");
    await b.destroy("never-created");
  });

  test("IndexedDbStorage.destroy blocked by a connection that will not close: a clear STORAGE_FAILED", async () => {
    const factory = new IDBFactory();
    const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
    const stores = await MemoryStores.open({ storage });
    const s = await stores.create({ name: "Held" });
    (await storage.open(s.id)).close();
    // A connection of another program (an old version in another tab) that ignores versionchange.
    const foreign = await new Promise((resolve, reject) => {
      const request = factory.open(`memory-tool-wasm:${s.id}`);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await assert.rejects(stores.delete(s.id), (error) => {
      assert.ok(error instanceof MemoryToolError);
      assert.equal(error.code, "STORAGE_FAILED");
      assert.equal(
        error.message,
        `Memory store ${s.id} is deleted from the registry, but its data could not be dropped: ` +
          "The memory store cannot be deleted yet: another tab keeps it open with an older version of " +
          "memory-tool-wasm. It will be deleted once that tab closes it; close the other tabs of this " +
          "site to finish now.",
      );
      return true;
    });
    await assert.rejects(stores.get(s.id), isCode("NOT_FOUND"));
    // Once the other connection closes, the queued deletion completes.
    foreign.close();
    for (let i = 0; i < 50 && (await factory.databases()).some((d) => d.name === `memory-tool-wasm:${s.id}`); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(!(await factory.databases()).some((d) => d.name === `memory-tool-wasm:${s.id}`));
    stores.close();
  });
});
