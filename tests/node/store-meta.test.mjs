// Schema 4's store metadata over fake-indexeddb: the upgrade that builds it from a version 3
// database, its exactness after every kind of command, the requests a command issues now that
// counts come from it (counted, not timed), and MemoryTool.state on both storages.
// The same requests are counted in real Chromium by tests/e2e/store-meta.test.mjs.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange, IDBDatabase } from "fake-indexeddb";
import { countRequests } from "./fixtures/count-requests.mjs";
import { MemoryTool, IndexedDbStorage, InMemoryStorage } from "memory-tool-wasm";

/** Opens database `name` as it is (no upgrade) and reads every record of `stores`. */
async function raw(factory, name) {
  const db = await new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const names = [...db.objectStoreNames];
    const tx = db.transaction(names, "readonly");
    const read = (store, call) =>
      new Promise((resolve, reject) => {
        const request = call(tx.objectStore(store));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    return {
      version: db.version,
      files: await read("files", (s) => s.getAll()),
      versionIds: names.includes("versions") ? await read("versions", (s) => s.getAllKeys()) : [],
      meta: names.includes("meta") ? await read("meta", (s) => s.get("store")) : undefined,
    };
  } finally {
    db.close();
  }
}

/** What the metadata must say of a raw dump. */
function expectedMeta(dump) {
  return {
    files: dump.files.length,
    bytes: dump.files.reduce((sum, f) => sum + f.size, 0),
  };
}

/** Builds a version 3 database (files, contents, versions, listing) holding `files`. */
function buildV3(factory, name, files, versions) {
  return buildOld(factory, name, 3, { files, versions, contents: files.map((f) => [f.content, new Uint8Array(f.size)]) });
}

test("a version 3 database upgrades to 5: the metadata counts its files, bytes and newest version", async () => {
  const factory = new IDBFactory();
  const files = Array.from({ length: 40 }, (_, i) => ({
    path: `/d${i % 3}/f${i}.md`,
    id: `mem_${String(i).padStart(4, "0")}`,
    size: i * 7,
    sha256: "",
    createdAt: 0,
    updatedAt: 0,
    version: `memver_0000000000${String(i).padStart(2, "0")}`,
    content: `memver_0000000000${String(i).padStart(2, "0")}`,
  }));
  const versions = files.map((f) => ({ id: f.version, memoryId: f.id, operation: "created", path: f.path, size: f.size, sha256: "", content: f.content, createdAt: 0, createdBy: { type: "api" } }));
  await buildV3(factory, "memory-tool-wasm:v3", files, versions);
  const tool = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }), store: "v3" });
  const upgraded = await raw(factory, "memory-tool-wasm:v3");
  assert.equal(upgraded.version, 5);
  assert.deepEqual(
    { files: upgraded.meta.files, bytes: upgraded.meta.bytes, newestVersion: upgraded.meta.newestVersion },
    { files: 40, bytes: files.reduce((s, f) => s + f.size, 0), newestVersion: "memver_000000000039" },
  );
  // A create after the upgrade: counted from the metadata, its id above the newest.
  const created = await tool.memories.create({ path: "/new.md", content: "hello" });
  assert.ok(created.memory_version_id > "memver_000000000039");
  const after = await raw(factory, "memory-tool-wasm:v3");
  assert.deepEqual({ files: after.meta.files, bytes: after.meta.bytes }, { files: 41, bytes: upgraded.meta.bytes + 5 });
  assert.equal(after.meta.newestVersion, created.memory_version_id);
  assert.equal(after.meta.createdAt, upgraded.meta.createdAt);
  tool.close();
});

/**
 * Builds a version 4 database as the previous release wrote it: file records that may hold a
 * copy of their head's bytes under `bytes`, contents keyed by version id, the metadata record.
 */
function buildV4(factory, name, stored) {
  return buildOld(factory, name, 4, stored);
}

/**
 * Builds a database of schema `version` (3 or 4) as that release wrote it: files, contents,
 * versions and listing, and from version 4 the metadata record.
 */
function buildOld(factory, name, version, { files, contents, versions }) {
  const stores = ["files", "contents", "versions", "listing", ...(version >= 4 ? ["meta"] : [])];
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore("files", { keyPath: "path" }).createIndex("id", "id", { unique: true });
      db.createObjectStore("contents");
      const v = db.createObjectStore("versions", { keyPath: "id" });
      v.createIndex("memory", ["memoryId", "id"]);
      v.createIndex("content", "content");
      db.createObjectStore("listing");
      if (version >= 4) db.createObjectStore("meta");
    };
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction(stores, "readwrite");
      for (const f of files) {
        tx.objectStore("files").put(f);
        tx.objectStore("listing").put(null, `${f.path}\u0000${f.size}`);
      }
      for (const [key, bytes] of contents) tx.objectStore("contents").put(bytes, key);
      for (const v of versions) tx.objectStore("versions").put(v);
      if (version >= 4) {
        const newest = versions.map((v) => v.id).sort().at(-1) ?? null;
        tx.objectStore("meta").put({ files: files.length, bytes: files.reduce((s, f) => s + f.size, 0), newestVersion: newest, createdAt: 0, changedAt: 0, archivedAt: null }, "store");
      }
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onabort = () => reject(tx.error);
    };
  });
}

/** Every content key of database `name`, as it is (no upgrade). */
async function contentKeys(factory, name) {
  const db = await new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    return await new Promise((resolve, reject) => {
      const request = db.transaction(["contents"]).objectStore("contents").getAllKeys();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

test("a version 4 database upgrades to 5: each text stored once, under its file's key; nothing lost", async () => {
  const factory = new IDBFactory();
  const enc = (text) => new TextEncoder().encode(text);
  const sha = async (text) => Buffer.from(await crypto.subtle.digest("SHA-256", enc(text))).toString("hex");
  const file = async (path, n, text, extra = {}) => ({
    path, id: `mem_${n}`, size: enc(text).length, sha256: await sha(text), createdAt: 0, updatedAt: 0,
    version: `memver_00000000000${n}`, content: `memver_00000000000${n}`, ...extra,
  });
  const version = (f, content = f.content) => ({ id: f.version, memoryId: f.id, operation: "created", path: f.path, size: f.size, sha256: f.sha256, content, createdAt: 0, createdBy: { type: "api" } });
  // a: a copy of its bytes in the record and in the content store; b: only the copy (its
  // content lost); c: no copy; d: an old version of c's memory shares c's content key (a
  // restore), so it moves with c; e and f: two records naming one key (stays where it is).
  const a = await file("/a.md", 1, "alpha", { bytes: enc("alpha") });
  const b = await file("/b.md", 2, "beta", { bytes: enc("beta") });
  const c = await file("/dir/c.md", 3, "gamma");
  const e = await file("/e.md", 5, "shared");
  const f = { ...(await file("/f.md", 6, "shared")), content: e.content };
  const older = { ...version(c), id: "memver_000000000004", operation: "modified" };
  await buildV4(factory, "memory-tool-wasm:v4", {
    files: [a, b, c, e, f],
    contents: [[a.content, enc("alpha")], [c.content, enc("gamma")], [e.content, enc("shared")]],
    versions: [version(a), version(b), version(c), older, version(e), { ...version(f), content: e.content }],
  });
  const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
  const tool = await MemoryTool.open({ storage, store: "v4" });
  const dump = await raw(factory, "memory-tool-wasm:v4");
  assert.equal(dump.version, 5);
  // No record keeps a copy; each names `{path}\0{version}`, but the two that share a key.
  assert.deepEqual(dump.files.map((r) => [r.path, "bytes" in r, r.content]), [
    ["/a.md", false, "/a.md\u0000memver_000000000001"],
    ["/b.md", false, "/b.md\u0000memver_000000000002"],
    ["/dir/c.md", false, "/dir/c.md\u0000memver_000000000003"],
    ["/e.md", false, "memver_000000000005"],
    ["/f.md", false, "memver_000000000005"],
  ]);
  assert.deepEqual((await contentKeys(factory, "memory-tool-wasm:v4")).sort(), [
    "/a.md\u0000memver_000000000001",
    "/b.md\u0000memver_000000000002",
    "/dir/c.md\u0000memver_000000000003",
    "memver_000000000005",
  ]);
  // The versions name the keys their bytes moved to.
  const versions = await tool.versions.list({ limit: 100 });
  for (const v of versions.data) {
    const got = await tool.versions.get(v.id);
    assert.ok(typeof got.content === "string" && got.content.length > 0, JSON.stringify(got));
  }
  // Every text is there, as the model sees it; a view of a moved head is one round.
  for (const [path, text] of [["/a.md", "alpha"], ["/b.md", "beta"], ["/dir/c.md", "gamma"], ["/e.md", "shared"], ["/f.md", "shared"]]) {
    const counts = await countRequests(async () => {
      const result = await tool.execute({ command: "view", path: `/memories${path}` });
      assert.equal(result.content, `Here's the content of /memories${path} with line numbers:\n     1\t${text}`);
    }, { rounds: true });
    assert.equal(counts.rounds, path === "/e.md" || path === "/f.md" ? 2 : 1, `${path}: ${JSON.stringify(counts)}`);
  }
  const report = await tool.check();
  assert.deepEqual([report.files, report.damaged], [5, []], JSON.stringify(report));
  tool.close();
});

test("the metadata stays exact through every kind of write", async () => {
  const factory = new IDBFactory();
  const tool = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }), store: "exact" });
  const check = async (what) => {
    const dump = await raw(factory, "memory-tool-wasm:exact");
    assert.deepEqual({ files: dump.meta.files, bytes: dump.meta.bytes }, expectedMeta(dump), `after ${what}`);
    const last = dump.versionIds.at(-1) ?? null;
    if (last !== null) assert.ok(dump.meta.newestVersion >= last, `newest after ${what}`);
  };
  const run = async (input) => {
    const result = await tool.execute(input);
    assert.equal(result.isError, false, `${JSON.stringify(input)}: ${result.content}`);
    await check(input.command + " " + (input.path ?? input.old_path));
  };
  await check("open");
  for (let i = 0; i < 6; i++) await run({ command: "create", path: `/memories/dir/f${i}.md`, file_text: "x".repeat(i * 10) });
  await run({ command: "create", path: "/memories/top.md", file_text: "top\n" });
  await run({ command: "str_replace", path: "/memories/top.md", old_str: "top", new_str: "the top line" });
  await run({ command: "insert", path: "/memories/top.md", insert_line: 0, insert_text: "first\n" });
  await run({ command: "rename", old_path: "/memories/dir", new_path: "/memories/moved" });
  await run({ command: "rename", old_path: "/memories/top.md", new_path: "/memories/moved/top.md" });
  await run({ command: "delete", path: "/memories/moved/f2.md" });
  const top = await tool.memories.getByPath("/moved/top.md");
  await tool.memories.update(top.id, { content: "replaced" });
  await check("memories.update");
  const history = await tool.versions.list({ memory_id: top.id });
  await tool.versions.restore(history.data.at(-1).id);
  await check("versions.restore");
  const bundle = await tool.export();
  await run({ command: "delete", path: "/memories/moved" });
  const imported = await tool.import(bundle, { onConflict: "overwrite" });
  assert.ok(imported.imported + imported.overwritten > 0, JSON.stringify(imported));
  await check("import");
  await tool.versions.prune();
  await check("prune");
  tool.close();
});


describe("requests per command (counted)", () => {
  /** A tool over a fresh fake IndexedDB store holding `n` files under /memories/bulk/. */
  async function toolWith(n) {
    const tool = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), store: "counted" });
    // Written in memory, exported, imported: one transaction.
    const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source" });
    for (let i = 0; i < n; i++) await source.memories.create({ path: `/bulk/f${i}.md`, content: `file ${i}\n` });
    await tool.import(await source.export());
    source.close();
    return tool;
  }

  test("create: no count() and no key cursor; the same requests at 10 and 400 files", async () => {
    const counts = [];
    for (const n of [10, 400]) {
      const tool = await toolWith(n);
      counts.push(await countRequests(() => tool.execute({ command: "create", path: "/memories/notes/new.md", file_text: "new\n" })));
      tool.close();
    }
    for (const c of counts) {
      assert.equal(c["files.count"], undefined, JSON.stringify(c));
      assert.equal(c["versions.openKeyCursor"], undefined, JSON.stringify(c));
      assert.equal(c["meta.get"], 1, JSON.stringify(c));
      assert.equal(c["meta.put"], 1, JSON.stringify(c));
    }
    assert.deepEqual(counts[0], counts[1]);
  });

  test("delete of a directory of 300 files: one key-range delete of its records", async () => {
    const tool = await toolWith(300);
    const counts = await countRequests(async () => {
      const result = await tool.execute({ command: "delete", path: "/memories/bulk" });
      assert.equal(result.isError, false, result.content);
    });
    assert.equal(counts["files.delete"], 1, JSON.stringify(counts));
    assert.equal(counts["listing.delete"], 1, JSON.stringify(counts));
    assert.equal(counts["meta.put"], 1, JSON.stringify(counts));
    assert.equal((await tool.memories.list()).length, 0);
    tool.close();
  });

  test("str_replace and view: the metadata is read only by writes; each one round", async () => {
    const tool = await toolWith(20);
    const edit = await countRequests(
      () => tool.execute({ command: "str_replace", path: "/memories/bulk/f3.md", old_str: "file 3", new_str: "file three" }),
      { rounds: true },
    );
    assert.equal(edit["meta.get"], 1, JSON.stringify(edit));
    assert.equal(edit["files.count"], undefined);
    // Imported, its versions not yet counted: the history budget reads them, a second round.
    assert.equal(edit["versions.memory.getAll"], 1, JSON.stringify(edit));
    assert.equal(edit.rounds, 2, JSON.stringify(edit));
    // Counted now: the record, its head's bytes by the file key, and what every write asks
    // first, in one round.
    const again = await countRequests(
      () => tool.execute({ command: "str_replace", path: "/memories/bulk/f3.md", old_str: "three", new_str: "3" }),
      { rounds: true },
    );
    assert.equal(again["versions.memory.getAll"], undefined, JSON.stringify(again));
    assert.equal(again.rounds, 1, JSON.stringify(again));
    const view = await countRequests(() => tool.execute({ command: "view", path: "/memories/bulk/f3.md" }), { rounds: true });
    // The record and its head's bytes, together: the metadata is not read.
    assert.deepEqual(view, { "files.get": 1, "contents.openCursor": 1, rounds: 1 });
    tool.close();
  });

  test("a view's transaction spans only the object stores its reads use; a write's spans all", async () => {
    const tool = await toolWith(3);
    const scopes = [];
    const original = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (names, mode, ...rest) {
      scopes.push([mode ?? "readonly", [...(typeof names === "string" ? [names] : names)].sort()]);
      return original.call(this, names, mode, ...rest);
    };
    try {
      for (const input of [
        { command: "view", path: "/memories/bulk/f1.md" },
        { command: "view", path: "/memories/bulk" },
        { command: "view", path: "/memories" },
        { command: "str_replace", path: "/memories/bulk/f1.md", old_str: "file", new_str: "note" },
      ]) {
        const result = await tool.execute(input);
        assert.equal(result.isError, false, result.content);
      }
      assert.deepEqual((await tool.execute({ command: "view", path: "/memories/bulk/f1.md" })).content, "Here's the content of /memories/bulk/f1.md with line numbers:\n     1\tnote 1\n     2\t");
    } finally {
      IDBDatabase.prototype.transaction = original;
    }
    const view = ["readonly", ["contents", "files", "listing"]];
    assert.deepEqual(scopes, [view, view, view, ["readwrite", ["contents", "files", "listing", "meta", "versions"]], view]);
    tool.close();
  });

  test("a file view is one round after any write of its text; a moved or restored head two; a directory view two", async () => {
    const tool = await toolWith(5);
    const view = (path) => countRequests(async () => {
      const result = await tool.execute({ command: "view", path });
      assert.equal(result.isError, false, result.content);
    }, { rounds: true });
    const one = { "files.get": 1, "contents.openCursor": 1, rounds: 1 };
    // The key the head's bytes were found under is not the one the record names: its content.
    const two = { "files.get": 1, "contents.openCursor": 1, "contents.get": 1, rounds: 2 };
    // Imported, created, inserted into, written by the host: the record and its bytes, found
    // by the file key, in one round.
    assert.deepEqual(await view("/memories/bulk/f1.md"), one);
    await tool.execute({ command: "create", path: "/memories/new.md", file_text: "one\ntwo\n" });
    assert.deepEqual(await view("/memories/new.md"), one);
    await tool.execute({ command: "insert", path: "/memories/new.md", insert_line: 1, insert_text: "1.5" });
    assert.deepEqual(await view("/memories/new.md"), one);
    await tool.writeFile("/memories/host.md", "from the host");
    assert.deepEqual(await view("/memories/host.md"), one);
    // Renamed, its directory renamed, restored: the head keeps the key it had, a second round
    // until its next edit.
    await tool.execute({ command: "rename", old_path: "/memories/new.md", new_path: "/memories/moved.md" });
    assert.deepEqual(await view("/memories/moved.md"), two);
    await tool.execute({ command: "rename", old_path: "/memories/bulk", new_path: "/memories/heap" });
    assert.deepEqual(await view("/memories/heap/f2.md"), two);
    const moved = await tool.memories.getByPath("/moved.md");
    const { data } = await tool.versions.list({ memory_id: moved.id });
    await tool.versions.restore(data.at(-1).id);
    assert.deepEqual(await view("/memories/moved.md"), two);
    assert.equal((await tool.execute({ command: "view", path: "/memories/moved.md" })).content, "Here's the content of /memories/moved.md with line numbers:\n     1\tone\n     2\ttwo\n     3\t");
    await tool.execute({ command: "str_replace", path: "/memories/moved.md", old_str: "one", new_str: "uno" });
    assert.deepEqual(await view("/memories/moved.md"), one);
    // A directory: no record and no bytes, then its listing.
    assert.deepEqual(await view("/memories/heap"), { "files.get": 1, "contents.openCursor": 1, "listing.getAllKeys": 1, rounds: 2 });
    tool.close();
  });
});

for (const [name, makeStorage] of [
  ["IndexedDbStorage", () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })],
  ["InMemoryStorage", () => new InMemoryStorage()],
]) {
  describe(`MemoryTool.state over ${name}`, () => {
    test("get, set and delete JSON values per store; a copy is kept", async () => {
      const storage = makeStorage();
      const tool = await MemoryTool.open({ storage, store: "with-state" });
      assert.equal(await tool.state.get("sync:memstore_1"), undefined);
      const value = { baselines: { "/a.md": { sha: "ab", version: "memver_1" } }, at: 5 };
      await tool.state.set("sync:memstore_1", value);
      value.at = 6; // the stored copy does not change
      assert.deepEqual(await tool.state.get("sync:memstore_1"), { baselines: { "/a.md": { sha: "ab", version: "memver_1" } }, at: 5 });
      // Plain data only: what JSON keeps.
      await tool.state.set("dated", { when: new Date(0), skip: undefined });
      assert.deepEqual(await tool.state.get("dated"), { when: "1970-01-01T00:00:00.000Z" });
      // Not a memory: no file, no version, no event.
      assert.equal((await tool.memories.list()).length, 0);
      assert.equal((await tool.versions.list()).data.length, 0);
      await tool.state.delete("sync:memstore_1");
      assert.equal(await tool.state.get("sync:memstore_1"), undefined);
      await tool.state.delete("never-set");
      tool.close();
      // Kept with the store: another tool over the same storage and store sees it.
      const again = await MemoryTool.open({ storage, store: "with-state" });
      assert.deepEqual(await again.state.get("dated"), { when: "1970-01-01T00:00:00.000Z" });
      const other = await MemoryTool.open({ storage, store: "another" });
      assert.equal(await other.state.get("dated"), undefined);
      again.close();
      other.close();
    });

    test("bad names, values and options are INVALID_INPUT; a closed tool refuses", async () => {
      const tool = await MemoryTool.open({ storage: makeStorage(), store: "bad-state" });
      const invalid = (error) => error.code === "INVALID_INPUT";
      await assert.rejects(tool.state.get(""), invalid);
      await assert.rejects(tool.state.get("x".repeat(257)), invalid);
      await assert.rejects(tool.state.set(42, 1), invalid);
      await assert.rejects(tool.state.set("k", undefined), invalid);
      await assert.rejects(tool.state.set("k", () => 1), invalid);
      const cycle = {};
      cycle.self = cycle;
      await assert.rejects(tool.state.set("k", cycle), invalid);
      await assert.rejects(tool.state.set("k", 1n), invalid);
      await assert.rejects(tool.state.get("k", { sotre: "x" }), invalid);
      await assert.rejects(tool.state.get("k", { store: "nope" }), invalid);
      tool.close();
      await assert.rejects(tool.state.get("k"), (error) => error.code === "STORAGE_FAILED");
    });
  });
}

for (const [name, makeStorage] of [
  ["IndexedDbStorage", () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })],
  ["InMemoryStorage", () => new InMemoryStorage()],
]) {
  test(`${name}: an archived store refuses every write however it was opened, and whenever`, async () => {
    const { MemoryStores } = await import("memory-tool-wasm");
    const storage = makeStorage();
    const stores = await MemoryStores.open({ storage });
    const store = await stores.create({ name: "Old project" });
    // Opened before the archive, by its id, read-write.
    const early = await MemoryTool.open({ storage, store: store.id });
    assert.equal((await early.execute({ command: "create", path: "/memories/a.md", file_text: "kept\n" })).isError, false);
    await stores.archive(store.id);
    const late = await MemoryTool.open({ storage, store: store.id });
    for (const tool of [early, late]) {
      const result = await tool.execute({ command: "create", path: "/memories/b.md", file_text: "x" });
      assert.deepEqual(result, { content: "Error: Cannot create /memories/b.md: this memory store is archived and read-only", isError: true, code: "ARCHIVED" });
      await assert.rejects(tool.writeFile("/memories/c.md", "x"), (error) => error.code === "ARCHIVED");
      const [a] = await tool.memories.list();
      await assert.rejects(tool.memories.update(a.id, { content: "changed" }), (error) => error.code === "ARCHIVED" && /archived and read-only/.test(error.message));
      await assert.rejects(tool.memories.delete(a.id), (error) => error.code === "ARCHIVED");
      // Reads go on.
      assert.equal((await tool.memories.get(a.id)).content, "kept\n");
    }
    // Archiving again changes nothing and still holds.
    await stores.archive(store.id);
    assert.equal((await late.execute({ command: "delete", path: "/memories/a.md" })).isError, true);
    early.close();
    late.close();
    stores.close();
  });
}

for (const [name, makeStorage] of [
  ["IndexedDbStorage", () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })],
  ["InMemoryStorage", () => new InMemoryStorage()],
]) {
  test(`${name}: usage() counts the store's files and bytes from its metadata; persist() says no where there is no API`, async () => {
    const tool = await MemoryTool.open({ storage: makeStorage(), store: "usage" });
    assert.deepEqual(await tool.usage(), { files: 0, bytes: 0, origin: null, persisted: null });
    await tool.memories.create({ path: "/a.md", content: "12345" });
    await tool.memories.create({ path: "/d/b.md", content: "abc" });
    await tool.execute({ command: "delete", path: "/memories/d" });
    assert.deepEqual(await tool.usage(), { files: 1, bytes: 5, origin: null, persisted: null });
    assert.equal(await tool.persist(), false);
    await assert.rejects(tool.usage({ stroe: "x" }), (error) => error.code === "INVALID_INPUT");
    tool.close();
  });
}
