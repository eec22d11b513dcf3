// IndexedDbStorage's own duties over fake-indexeddb: schema (version 2, and the upgrade of a
// real version 1 database in place), versionchange, lost connections, blocked upgrades, newer
// databases.

import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange, IDBObjectStore, forceCloseDatabase } from "fake-indexeddb";
import { IndexedDbStorage } from "../../src/js/storage-indexeddb.js";
import { MemoryToolError } from "../../src/js/errors.js";
import { buildV1Database } from "./fixtures/v1-database.mjs";

const isCode = (code) => (error) => error instanceof MemoryToolError && error.code === code;

/** A fake factory that also remembers every connection it opened. */
function recordingFactory() {
  const factory = new IDBFactory();
  const connections = [];
  return {
    connections,
    factory: {
      open(name, version) {
        const request = factory.open(name, version);
        request.addEventListener("success", () => connections.push(request.result));
        return request;
      },
      deleteDatabase: (name) => factory.deleteDatabase(name),
      databases: () => factory.databases(),
      cmp: (a, b) => factory.cmp(a, b),
    },
    raw: factory,
  };
}

/** @param {IDBFactory} factory @param {string} name @param {number} [version] */
function openRaw(factory, name, version) {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onupgradeneeded = (event) => {
      if (event.oldVersion === 0 && version > 1) request.result.createObjectStore("files", { keyPath: "path" });
    };
  });
}

const put = (h, path) =>
  h.transaction("readwrite", (tx) =>
    tx.putFile({ path, id: `mem_${path}`, size: 0, sha256: "", createdAt: 0, updatedAt: 0 }),
  );
const count = async (h) => {
  let n;
  await h.transaction("readonly", (tx) => tx.countFiles((c) => (n = c)));
  return n;
};

/** The schema of a database: stores with their key paths and indexes. */
function schemaOf(db) {
  const names = [...db.objectStoreNames].sort();
  const tx = db.transaction(names);
  const out = {};
  for (const name of names) {
    const store = tx.objectStore(name);
    const indexes = {};
    for (const index of [...store.indexNames].sort()) {
      const i = store.index(index);
      indexes[index] = { keyPath: i.keyPath, unique: i.unique, multiEntry: i.multiEntry };
    }
    out[name] = { keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes };
  }
  return out;
}

const SCHEMA = {
  contents: { keyPath: null, autoIncrement: false, indexes: {} },
  files: {
    keyPath: "path",
    autoIncrement: false,
    indexes: { id: { keyPath: "id", unique: true, multiEntry: false } },
  },
  listing: { keyPath: null, autoIncrement: false, indexes: {} },
  meta: { keyPath: null, autoIncrement: false, indexes: {} },
  versions: {
    keyPath: "id",
    autoIncrement: false,
    indexes: {
      content: { keyPath: "content", unique: false, multiEntry: false },
      memory: { keyPath: ["memoryId", "id"], unique: false, multiEntry: false },
    },
  },
};

test("one database per store, named dbPrefix + store, schema version 5", async () => {
  const factory = new IDBFactory();
  const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange, dbPrefix: "app:" });
  const h = await storage.open("user-42");
  await put(h, "/memories/a.md");
  const dbs = await factory.databases();
  assert.deepEqual(dbs, [{ name: "app:user-42", version: 5 }]);
  h.close();
  const db = await openRaw(factory, "app:user-42");
  assert.deepEqual(schemaOf(db), SCHEMA);
  db.close();
});

test("the default prefix is memory-tool-wasm:", async () => {
  const factory = new IDBFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("memories");
  assert.deepEqual(await factory.databases(), [{ name: "memory-tool-wasm:memories", version: 5 }]);
  h.close();
});

test("the files' id index is unique: a second path for one memory id aborts the transaction", async () => {
  const h = await new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }).open("s");
  const file = (path) => ({ path, id: "mem_same", size: 0, sha256: "", createdAt: 0, updatedAt: 0 });
  await h.transaction("readwrite", (tx) => tx.putFile(file("/a.md")));
  await assert.rejects(
    h.transaction("readwrite", (tx) => tx.putFile(file("/b.md"))),
    (error) => isCode("STORAGE_FAILED")(error) && /ConstraintError/.test(error.message),
  );
  // Moving it (delete, then put at the new path, in one transaction) is fine.
  await h.transaction("readwrite", (tx) => {
    tx.deleteFile("/a.md");
    tx.putFile(file("/b.md"));
  });
  assert.equal(await count(h), 1);
  h.close();
});

test("data survives closing and reopening the store", async () => {
  const factory = new IDBFactory();
  const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
  const one = await storage.open("s");
  await put(one, "/memories/a.md");
  one.close();
  const two = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("s");
  assert.equal(await count(two), 1);
  two.close();
});

test("versionchange: the connection steps aside so another tab can upgrade", async () => {
  const factory = new IDBFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("s");
  await put(h, "/memories/a.md");
  // A newer version elsewhere upgrades to 5: it is not blocked by us.
  const newer = await openRaw(factory, "memory-tool-wasm:s", 6);
  assert.equal(newer.version, 6);
  newer.close();
  // Our next transaction reopens at version 5, which is now too old.
  await assert.rejects(put(h, "/memories/b.md"), (error) => {
    assert.ok(isCode("STORAGE_FAILED")(error));
    assert.match(error.message, /newer version of memory-tool-wasm/);
    return true;
  });
  h.close();
});

test("a database deleted behind our back, with memories in it, is not silently replaced: STORE_VANISHED until startOver", async () => {
  const factory = new IDBFactory();
  const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
  const h = await storage.open("s");
  await h.transaction("readwrite", (tx) => {
    tx.putFile({ path: "/memories/a.md", id: "mem_a", size: 3, sha256: "", createdAt: 0, updatedAt: 0 }, null);
    tx.finish();
  });
  const deleteBehindOurBack = () =>
    new Promise((resolve, reject) => {
      const request = factory.deleteDatabase("memory-tool-wasm:s");
      request.onsuccess = resolve;
      request.onerror = reject;
      request.onblocked = () => reject(new Error("blocked by our own connection"));
    });
  await deleteBehindOurBack();
  await assert.rejects(count(h), (error) => {
    assert.ok(isCode("STORE_VANISHED")(error), String(error));
    assert.match(error.message, /held 1 memory and is gone/);
    assert.equal(error.files, 1);
    return true;
  });
  // Nothing was created in its place, and it stays refused.
  assert.deepEqual(await factory.databases(), []);
  await assert.rejects(put(h, "/memories/b.md"), isCode("STORE_VANISHED"));
  // The host chooses to begin again: a fresh, empty store.
  await storage.startOver("s");
  assert.equal(await count(h), 0);
  await put(h, "/memories/b.md");
  assert.equal(await count(h), 1);
  h.close();
});

test("a store deleted behind our back while empty simply starts again", async () => {
  const factory = new IDBFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("empty");
  assert.equal(await count(h), 0);
  await new Promise((resolve, reject) => {
    const request = factory.deleteDatabase("memory-tool-wasm:empty");
    request.onsuccess = resolve;
    request.onerror = reject;
  });
  assert.equal(await count(h), 0);
  h.close();
});

test("a connection the browser closed (close event) is reopened on the next transaction", async () => {
  const { factory, connections } = recordingFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("s");
  await put(h, "/memories/a.md");
  forceCloseDatabase(connections[0]);
  assert.equal(await count(h), 1);
  assert.equal(connections.length, 2);
  h.close();
});

test("a connection closed silently (Safari) is reopened once when transaction() throws", async () => {
  const { factory, connections } = recordingFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("s");
  await put(h, "/memories/a.md");
  connections[0].close(); // no close event: db.transaction() will throw InvalidStateError
  assert.throws(() => connections[0].transaction(["files"]), { name: "InvalidStateError" });
  await put(h, "/memories/b.md");
  assert.equal(await count(h), 2);
  assert.equal(connections.length, 2);
  h.close();
});

test("a database of a newer schema refuses to open, with a clear message", async () => {
  const factory = new IDBFactory();
  (await openRaw(factory, "memory-tool-wasm:s", 6)).close();
  await assert.rejects(new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("s"), (error) => {
    assert.ok(isCode("STORAGE_FAILED")(error));
    assert.match(error.message, /upgraded by a newer version of memory-tool-wasm/);
    assert.equal(error.cause?.name, "VersionError");
    return true;
  });
});

test("a blocked open rejects with a clear message; a late success is closed", async () => {
  /** An open request that reports `blocked` and succeeds later. */
  let request;
  let closed = false;
  const factory = {
    open() {
      request = {};
      return request;
    },
  };
  const opening = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("s");
  request.onblocked();
  await assert.rejects(opening, (error) => {
    assert.ok(isCode("STORAGE_FAILED")(error));
    assert.match(error.message, /another tab keeps an older version/);
    return true;
  });
  request.result = { close: () => (closed = true) };
  request.onsuccess();
  assert.equal(closed, true);
});

test("a write IndexedDB refuses aborts the transaction; nothing of it is kept", async () => {
  const h = await new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }).open("s");
  await put(h, "/memories/keep.md");
  await assert.rejects(
    h.transaction("readwrite", (tx) => {
      tx.deleteFile("/memories/keep.md");
      tx.putFile({ path: () => {} }); // not a valid key: DataError
    }),
    isCode("STORAGE_FAILED"),
  );
  assert.equal(await count(h), 1);
  h.close();
});

test("constructor options are checked", () => {
  assert.throws(() => new IndexedDbStorage({ indexedDB: {}, IDBKeyRange }), isCode("INVALID_OPTIONS"));
  assert.throws(
    () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange: {} }),
    isCode("INVALID_OPTIONS"),
  );
  assert.throws(
    () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange, durability: "fast" }),
    isCode("INVALID_OPTIONS"),
  );
  assert.throws(
    () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange, dbPrefix: 3 }),
    isCode("INVALID_OPTIONS"),
  );
  // Node has no indexedDB of its own (unless fake-indexeddb/auto was imported).
  if (globalThis.indexedDB === undefined) {
    assert.throws(() => new IndexedDbStorage(), isCode("INVALID_OPTIONS"));
  }
});

test("durability options are accepted", async () => {
  for (const durability of ["default", "strict", "relaxed"]) {
    const h = await new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange, durability }).open("s");
    await put(h, "/memories/a.md");
    assert.equal(await count(h), 1);
    h.close();
  }
});


test("a version 1 database upgrades in place to version 5, keeping every record and byte, each under its file's key", async () => {
  const factory = new IDBFactory();
  const v1 = [
    { record: { path: "/notes/a.md", id: "mem_a", size: 5, sha256: "aa", createdAt: 1, updatedAt: 2 }, bytes: new Uint8Array([104, 101, 108, 108, 111]) },
    { record: { path: "/b.bin", id: "mem_b", size: 2, sha256: "bb", createdAt: 3, updatedAt: 4 }, bytes: new Uint8Array([0, 255]) },
  ];
  await buildV1Database(factory, "memory-tool-wasm:old", v1);
  assert.deepEqual(await factory.databases(), [{ name: "memory-tool-wasm:old", version: 1 }]);

  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("old");
  assert.deepEqual(await factory.databases(), [{ name: "memory-tool-wasm:old", version: 5 }]);
  const seen = {};
  await h.transaction("readonly", (tx) => {
    tx.getSubtree("", (records) => (seen.files = records));
    tx.getListing("", (entries) => (seen.listing = entries));
    tx.getFileById("mem_b", (record) => (seen.byId = record));
    tx.getContent("/notes/a.md\u0000mem_a", (bytes) => (seen.a = bytes && [...bytes]));
    tx.getContent("/b.bin\u0000mem_b", (bytes) => (seen.b = bytes && [...bytes]));
    tx.getContent("mem_a", (bytes) => (seen.oldA = bytes));
    tx.getNewestVersionId((id) => (seen.newest = id));
    tx.getVersionIds((ids) => (seen.versions = ids));
  });
  // Each record now names its bytes' key (version 5: `{path}\0{key}`); nothing else changed.
  const rekeyed = v1.map(({ record }) => ({ ...record, content: `${record.path}\u0000${record.id}` }));
  assert.deepEqual(seen, {
    files: [rekeyed[1], rekeyed[0]],
    listing: ["/b.bin\u00002", "/notes/a.md\u00005"],
    byId: rekeyed[1],
    a: [104, 101, 108, 108, 111],
    b: [0, 255],
    oldA: undefined,
    newest: null,
    versions: [],
  });
  h.close();
  const db = await openRaw(factory, "memory-tool-wasm:old");
  assert.deepEqual(schemaOf(db), SCHEMA);
  db.close();
});

test("a version 2 database upgrades to version 5: the listing is built from its records", async () => {
  const factory = new IDBFactory();
  const records = Array.from({ length: 300 }, (_, i) => ({
    path: `/d${i % 7}/f-${i}.md`, id: `mem_${i}`, size: i * 3, sha256: "", createdAt: 0, updatedAt: 0,
  }));
  await new Promise((resolve, reject) => {
    const request = factory.open("memory-tool-wasm:v2", 2);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore("files", { keyPath: "path" }).createIndex("id", "id", { unique: true });
      db.createObjectStore("contents");
      const versions = db.createObjectStore("versions", { keyPath: "id" });
      versions.createIndex("memory", ["memoryId", "id"]);
      versions.createIndex("content", "content");
    };
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction(["files"], "readwrite");
      for (const record of records) tx.objectStore("files").put(record);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onabort = () => reject(tx.error);
    };
  });
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("v2");
  assert.deepEqual(await factory.databases(), [{ name: "memory-tool-wasm:v2", version: 5 }]);
  const seen = {};
  await h.transaction("readonly", (tx) => {
    tx.getListing("", (entries) => (seen.all = entries));
    tx.getListing("/d3", (entries) => (seen.d3 = entries));
  });
  const entry = (r) => `${r.path}\u0000${r.size}`;
  assert.deepEqual(new Set(seen.all), new Set(records.map(entry)));
  assert.equal(seen.all.length, 300);
  assert.deepEqual(new Set(seen.d3), new Set(records.filter((r) => r.path.startsWith("/d3/")).map(entry)));
  h.close();
  const db = await openRaw(factory, "memory-tool-wasm:v2");
  assert.deepEqual(schemaOf(db), SCHEMA);
  db.close();
});

test("the listing follows every put and delete of a record, read or not in the transaction", async () => {
  const factory = new IDBFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("listing");
  const rec = (path, size) => ({ path, id: `mem_${path}`, size, sha256: "", createdAt: 0, updatedAt: 0 });
  const listing = async (path = "") => {
    let out;
    await h.transaction("readonly", (tx) => tx.getListing(path, (entries) => (out = entries)));
    return out;
  };
  // Unread: a put replaces whatever key the path had; a delete removes it.
  await h.transaction("readwrite", (tx) => {
    tx.putFile(rec("/a/x.md", 1));
    tx.putFile(rec("/a/y.md", 2));
    tx.putFile(rec("/b.md", 3));
  });
  await h.transaction("readwrite", (tx) => tx.putFile(rec("/a/x.md", 10)));
  assert.deepEqual(await listing(), ["/a/x.md\u000010", "/a/y.md\u00002", "/b.md\u00003"]);
  await h.transaction("readwrite", (tx) => tx.deleteFile("/a/y.md"));
  assert.deepEqual(await listing(), ["/a/x.md\u000010", "/b.md\u00003"]);
  // Read first (file, subtree, by id, an empty directory): the known size is used.
  await h.transaction("readwrite", (tx) => {
    tx.getFile("/b.md", () => {
      tx.putFile(rec("/b.md", 4));
      tx.putFile(rec("/b.md", 4));
    });
  });
  await h.transaction("readwrite", (tx) => {
    tx.getSubtree("/a", () => {
      tx.deleteFile("/a/x.md");
      tx.putFile(rec("/a/z.md", 5));
      tx.putFile(rec("/a/z.md", 6));
    });
  });
  await h.transaction("readwrite", (tx) => {
    tx.hasChildren("/c", () => tx.putFile(rec("/c/w.md", 7)));
  });
  await h.transaction("readwrite", (tx) => {
    tx.getFileById("mem_/b.md", () => tx.deleteFile("/b.md"));
    tx.getFile("/gone.md", () => tx.deleteFile("/gone.md"));
  });
  assert.deepEqual(await listing(), ["/a/z.md\u00006", "/c/w.md\u00007"]);
  assert.deepEqual(await listing("/a"), ["/a/z.md\u00006"]);
  assert.deepEqual(await listing("/a/z.md"), []);
  // A path that starts like another's is not touched by its range delete.
  await h.transaction("readwrite", (tx) => tx.putFile(rec("/a/z.md-2", 8)));
  await h.transaction("readwrite", (tx) => tx.deleteFile("/a/z.md"));
  assert.deepEqual(await listing(), ["/a/z.md-2\u00008", "/c/w.md\u00007"]);
  h.close();
});

test("a directory deleted or moved whole drops its listing in one range, nothing beside it", async () => {
  const factory = new IDBFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("batch");
  const rec = (path, size) => ({ path, id: `mem_${path}`, size, sha256: "", createdAt: 0, updatedAt: 0 });
  const listing = async (path = "") => {
    let out;
    await h.transaction("readonly", (tx) => tx.getListing(path, (entries) => (out = entries)));
    return out;
  };
  const paths = ["/d/a", "/d/b/c", "/d-other", "/d.x", "/d0x", "/e/keep", "/f/1", "/f/2"];
  await h.transaction("readwrite", (tx) => paths.forEach((p, i) => tx.putFile(rec(p, i), null)));
  // A directory delete: every file below /d, each saying so: one delete request on the listing.
  const listingDeletes = countListingDeletes();
  await h.transaction("readwrite", (tx) => {
    tx.deleteFile("/d/a", 0, "/d");
    tx.deleteFile("/d/b/c", 1, "/d");
  });
  assert.equal(listingDeletes.stop(), 1);
  assert.deepEqual(await listing(), ["/d-other\u00002", "/d.x\u00003", "/d0x\u00004", "/e/keep\u00005", "/f/1\u00006", "/f/2\u00007"]);
  // A file deleted alone: its exact key only.
  await h.transaction("readwrite", (tx) => tx.deleteFile("/f/1", 6));
  assert.deepEqual(await listing("/f"), ["/f/2\u00007"]);
  // A rename: /e/* to /g/*; and a file put back over itself with the same size (no request).
  await h.transaction("readwrite", (tx) => {
    tx.deleteFile("/e/keep", 5, "/e");
    tx.putFile(rec("/g/keep", 5), null);
    tx.putFile(rec("/d.x", 3), 3);
  });
  assert.deepEqual(await listing(), ["/d-other\u00002", "/d.x\u00003", "/d0x\u00004", "/f/2\u00007", "/g/keep\u00005"]);
  // A directory emptied, then a file put in it again in the same transaction: the range goes
  // first, so the new key stays.
  await h.transaction("readwrite", (tx) => {
    tx.deleteFile("/g/keep", 5, "/g");
    tx.putFile(rec("/g/new", 9), null);
  });
  assert.deepEqual(await listing("/g"), ["/g/new\u00009"]);
  // A size changed in place; and a caller that cannot say the old size (any key of the path goes).
  await h.transaction("readwrite", (tx) => {
    tx.putFile(rec("/d0x", 40), 4);
    tx.putFile(rec("/d-other", 20));
  });
  assert.deepEqual(await listing(), ["/d-other\u000020", "/d.x\u00003", "/d0x\u000040", "/f/2\u00007", "/g/new\u00009"]);
  // The root emptied: one range.
  await h.transaction("readwrite", (tx) => {
    for (const [path, size] of [["/d-other", 20], ["/d.x", 3], ["/d0x", 40], ["/f/2", 7], ["/g/new", 9]]) {
      tx.deleteFile(path, size, "");
    }
  });
  assert.deepEqual(await listing(), []);
  h.close();
});

/** Counts `delete` calls on object stores named "listing" until `stop()`. */
function countListingDeletes() {
  const proto = IDBObjectStore.prototype;
  const original = proto.delete;
  let n = 0;
  proto.delete = function (...args) {
    if (this.name === "listing") n += 1;
    return original.apply(this, args);
  };
  return {
    stop() {
      proto.delete = original;
      return n;
    },
  };
}

test("the listing matches the files after random transactions of reads, puts, deletes and directory deletes", async () => {
  const factory = new IDBFactory();
  const h = await new IndexedDbStorage({ indexedDB: factory, IDBKeyRange }).open("listing-random");
  // A small world of paths, files and directories mixed (the storage does not forbid both).
  const paths = ["/a", "/a/b", "/a/c", "/a/b/d", "/a-b", "/a0", "/e/f", "/e/g/h", "/e", "/x"];
  const dirs = ["", "/a", "/a/b", "/e", "/e/g", "/a-b", "/zz"];
  // mulberry32: small, and exact in 32-bit integer arithmetic.
  let seed = 12345;
  const rand = (n) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  /** @type {Map<string, number>} the model: path -> size */
  const model = new Map();
  for (let round = 0; round < 300; round++) {
    // Each transaction: some reads first (maybe), then a mix of writes, batched or not.
    /** @type {string[]} */
    const ops = [];
    await h.transaction("readwrite", (tx) => {
      const reads = rand(3);
      let pending = reads;
      const write = () => {
        // As the core does, writes say the sizes they replace; now and then a caller that
        // cannot (undefined) exercises the fallback.
        const known = (path) => (rand(5) === 0 ? undefined : model.get(path) ?? null);
        const n = 1 + rand(6);
        for (let i = 0; i < n; i++) {
          const path = paths[rand(paths.length)];
          if (rand(3) === 0) {
            tx.deleteFile(path, known(path) ?? undefined);
            model.delete(path);
            ops.push(`delete ${path}`);
          } else {
            const size = rand(4);
            tx.putFile({ path, id: `mem_${path}`, size, sha256: "", createdAt: 0, updatedAt: 0 }, known(path));
            model.set(path, size);
            ops.push(`put ${path} ${size}`);
          }
        }
        // A whole directory emptied now and then, as a directory delete does.
        if (rand(4) === 0) {
          const dir = dirs[rand(dirs.length)];
          for (const path of [...model.keys()]) {
            if (path.startsWith(`${dir}/`)) {
              tx.deleteFile(path, model.get(path), dir);
              model.delete(path);
            }
          }
          ops.push(`emptied ${dir}`);
        }
      };
      if (reads === 0) {
        write();
        return;
      }
      for (let i = 0; i < reads; i++) {
        const kind = rand(4);
        const done = () => {
          if (--pending === 0) write();
        };
        const path = paths[rand(paths.length)];
        const dir = dirs[rand(dirs.length)];
        if (kind === 0) tx.getFile(path, done);
        else if (kind === 1) tx.getSubtree(dir, done);
        else if (kind === 2) tx.hasChildren(dir, done);
        else tx.getFileById(`mem_${path}`, done);
        ops.push(["getFile " + path, "getSubtree " + dir, "hasChildren " + dir, "getFileById " + path][kind]);
      }
    });
    let listing;
    await h.transaction("readonly", (tx) => tx.getListing("", (entries) => (listing = entries)));
    const expected = [...model].map(([p, size]) => `${p}\u0000${size}`).sort();
    assert.deepEqual([...listing].sort(), expected, `after round ${round}: ${ops.join(", ")}`);
    // The store metadata (schema 4) counts the same files and bytes, with no finish() called.
    const meta = await rawMeta(factory, "memory-tool-wasm:listing-random");
    const bytes = [...model.values()].reduce((a, b) => a + b, 0);
    assert.deepEqual([meta.files, meta.bytes], [model.size, bytes], `meta after round ${round}: ${ops.join(", ")}`);
    assert.equal(await count(h), model.size);
  }
  h.close();
});

/** The StoreMeta record of database `name`, read with a connection of its own. */
async function rawMeta(factory, name) {
  const db = await openRaw(factory, name);
  try {
    return await new Promise((resolve, reject) => {
      const request = db.transaction("meta").objectStore("meta").get("store");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}
