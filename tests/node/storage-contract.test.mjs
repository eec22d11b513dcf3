// The storage interface of docs/ARCHITECTURE.md, checked the same way against both shipped
// storages: InMemoryStorage, and IndexedDbStorage over fake-indexeddb.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { InMemoryStorage } from "../../src/js/storage-memory.js";
import { IndexedDbStorage } from "../../src/js/storage-indexeddb.js";
import { MemoryToolError } from "../../src/js/errors.js";

const storages = {
  InMemoryStorage: () => new InMemoryStorage(),
  IndexedDbStorage: () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }),
};

/** @param {string} path @param {Partial<import("../../src/js/index.js").FileRecord>} [extra] */
function record(path, extra = {}) {
  return { path, id: `mem_${path}`, size: 1, sha256: "00", createdAt: 1, updatedAt: 2, ...extra };
}

/** Runs one transaction; resolves to the value `body` hands to `done` (reads may be async). */
function run(handle, mode, body) {
  let value;
  return handle.transaction(mode, (tx) => body(tx, (v) => (value = v))).then(() => value);
}

const getFile = (h, path) => run(h, "readonly", (tx, done) => tx.getFile(path, done));
const subtree = (h, path) =>
  run(h, "readonly", (tx, done) => tx.getSubtree(path, (records) => done(records.map((r) => r.path))));
const hasChildren = (h, path) => run(h, "readonly", (tx, done) => tx.hasChildren(path, done));
const count = (h) => run(h, "readonly", (tx, done) => tx.countFiles(done));
const getContent = (h, id) => run(h, "readonly", (tx, done) => tx.getContent(id, done));
const putFiles = (h, paths) =>
  run(h, "readwrite", (tx) => paths.forEach((p) => tx.putFile(record(p))));

/** A version record; `content` is left out unless given (as the core writes them). */
function version(id, memoryId, extra = {}) {
  return {
    id,
    memoryId,
    operation: "modified",
    path: "/p",
    size: 1,
    sha256: "00",
    createdAt: 5,
    createdBy: { type: "tool", tool_use_id: "toolu_1" },
    redactedAt: null,
    ...extra,
  };
}
const ids = (records) => records.map((r) => r.id);
const versionsDesc = (h, memoryId, below, limit) =>
  run(h, "readonly", (tx, done) => tx.getVersionsDesc(memoryId, below, limit, (records) => done(ids(records))));
const versionsBelow = (h, id) => run(h, "readonly", (tx, done) => tx.getVersionsBelow(id, (records) => done(ids(records))));
const withContent = (h, key) => run(h, "readonly", (tx, done) => tx.getVersionIdsWithContent(key, done));
const newest = (h) => run(h, "readonly", (tx, done) => tx.getNewestVersionId(done));
const versionIds = (h) => run(h, "readonly", (tx, done) => tx.getVersionIds(done));

/** Versions of two memories, interleaved; ids sort in write order. */
const HISTORY = [
  version("memver_01", "mem_a", { operation: "created", content: "memver_01" }),
  version("memver_02", "mem_b", { operation: "created", content: "memver_02" }),
  version("memver_03", "mem_a", { content: "memver_01" }), // a rename shares the bytes
  version("memver_04", "mem_b", { operation: "deleted", path: "/q", size: null, sha256: null }),
  version("memver_05", "mem_a", { content: "memver_05" }),
  version("memver_06", "mem_ab", { operation: "created", content: "memver_06" }), // "mem_a" is a prefix of it
];

// Keys around "/memories/a": in JS (and IndexedDB) order by UTF-16 code units.
const AROUND_A = [
  "/memories/a",
  "/memories/a-b", // '-' (0x2D) sorts before '/' (0x2F): a sibling, not below a
  "/memories/a.b", // '.' (0x2E) likewise
  "/memories/a/x.md",
  "/memories/a/y/z.md",
  "/memories/a/\uffff.md",
  "/memories/a/\u{1F600}.md", // surrogates (0xD83D) sort before U+FFFF
  "/memories/a/B.md",
  "/memories/a0", // '0' (0x30) is the range's open end
  "/memories/a0/q.md",
  "/memories/ab/c.md",
  "/memories/b.md",
];

for (const [name, makeStorage] of Object.entries(storages)) {
  describe(`${name} (StorageTx contract)`, () => {
    test("a missing file reads null; a stored record reads back equal", async () => {
      const h = await makeStorage().open("s");
      assert.equal(await getFile(h, "/memories/x.md"), null);
      const r = record("/memories/x.md", { size: 12, sha256: "ab".repeat(32) });
      await run(h, "readwrite", (tx) => tx.putFile(r));
      assert.deepEqual(await getFile(h, "/memories/x.md"), r);
      h.close();
    });

    test("subtree is [P + '/', P + '0') in UTF-16 key order, siblings excluded", async () => {
      const h = await makeStorage().open("s");
      await putFiles(h, [...AROUND_A].reverse());
      assert.deepEqual(await subtree(h, "/memories/a"), [
        "/memories/a/B.md",
        "/memories/a/x.md",
        "/memories/a/y/z.md",
        "/memories/a/\u{1F600}.md",
        "/memories/a/\uffff.md",
      ]);
      assert.deepEqual(await subtree(h, "/memories/a-b"), []);
      assert.deepEqual(await subtree(h, "/memories/a0"), ["/memories/a0/q.md"]);
      assert.deepEqual(await subtree(h, "/memories"), [...AROUND_A].sort());
      assert.deepEqual(await subtree(h, "/nothing"), []);
      h.close();
    });

    test("getListing gives `${path}\\0${size}` of the same range, and follows puts and deletes", async () => {
      const h = await makeStorage().open("s");
      const sized = (/** @type {string} */ p, /** @type {number} */ i) => record(p, { id: `mem_${i}`, size: i * 7 });
      await run(h, "readwrite", (tx) => AROUND_A.forEach((p, i) => tx.putFile(sized(p, i))));
      const listing = (/** @type {string} */ path) =>
        run(h, "readonly", (tx, done) => tx.getListing(path, (/** @type {string[]} */ e) => done([...e].sort())));
      const expected = (/** @type {string} */ path) =>
        AROUND_A.map((p, i) => [p, i * 7])
          .filter(([p]) => String(p).startsWith(`${path}/`))
          .map(([p, size]) => `${p}\u0000${size}`)
          .sort();
      for (const path of ["/memories/a", "/memories/a-b", "/memories/a0", "/memories", "/nothing", ""]) {
        assert.deepEqual(await listing(path), expected(path), path);
      }
      // A size change, a delete, a move: the listing keys follow, read or not.
      await run(h, "readwrite", (tx) => {
        tx.putFile(record("/memories/a/x.md", { id: `mem_${AROUND_A.indexOf("/memories/a/x.md")}`, size: 1000 }));
        tx.deleteFile("/memories/a/B.md");
      });
      await run(h, "readwrite", (tx) =>
        tx.getFile("/memories/a0/q.md", (r) => {
          tx.deleteFile("/memories/a0/q.md");
          tx.putFile({ ...r, path: "/memories/a0/moved.md" });
        }),
      );
      const after = await listing("/memories");
      assert.ok(after.includes("/memories/a/x.md\u00001000"));
      assert.ok(!after.some((e) => e.startsWith("/memories/a/B.md\u0000") || e.startsWith("/memories/a/x.md\u0000") && !e.endsWith("\u00001000")));
      assert.ok(after.some((e) => e.startsWith("/memories/a0/moved.md\u0000")));
      assert.ok(!after.some((e) => e.startsWith("/memories/a0/q.md\u0000")));
      assert.equal(after.length, AROUND_A.length - 1);
      h.close();
    });

    test("hasChildren answers for the same range", async () => {
      const h = await makeStorage().open("s");
      await putFiles(h, AROUND_A);
      assert.equal(await hasChildren(h, "/memories/a"), true);
      assert.equal(await hasChildren(h, "/memories/a/y"), true);
      assert.equal(await hasChildren(h, "/memories/a-b"), false);
      assert.equal(await hasChildren(h, "/memories/a/x.md"), false);
      assert.equal(await hasChildren(h, "/memories/b"), false);
      assert.equal(await hasChildren(h, "/memories"), true);
      h.close();
    });

    test("countFiles counts file records", async () => {
      const h = await makeStorage().open("s");
      assert.equal(await count(h), 0);
      await putFiles(h, AROUND_A);
      assert.equal(await count(h), AROUND_A.length);
      await run(h, "readwrite", (tx) => tx.deleteFile("/memories/b.md"));
      assert.equal(await count(h), AROUND_A.length - 1);
      h.close();
    });

    test("contents: put, get, missing is undefined, delete", async () => {
      const h = await makeStorage().open("s");
      assert.equal(await getContent(h, "mem_1"), undefined);
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
      await run(h, "readwrite", (tx) => tx.putContent("mem_1", bytes));
      bytes[0] = 0; // the stored copy does not change with the caller's array
      const back = await getContent(h, "mem_1");
      assert.ok(back instanceof Uint8Array);
      assert.deepEqual([...back], [0x89, 0x50, 0x4e, 0x47, 0, 255]);
      await run(h, "readwrite", (tx) => tx.deleteContent("mem_1"));
      assert.equal(await getContent(h, "mem_1"), undefined);
      h.close();
    });

    test("getHeadContent: the highest key in [path\\0, path\\x01) with its bytes; follows puts and deletes", async () => {
      const h = await makeStorage().open("s");
      const head = (path) =>
        run(h, "readonly", (tx, done) => tx.getHeadContent(path, (key, bytes) => done(key === undefined ? null : [key, [...bytes]])));
      assert.equal(await head("/a.md"), null);
      await run(h, "readwrite", (tx) => {
        tx.putContent("/a.md\u0000memver_01", new Uint8Array([1]));
        tx.putContent("/a.md\u0000memver_03", new Uint8Array([3]));
        tx.putContent("/a.md\u0000memver_02", new Uint8Array([2]));
        // Other files' keys, and keys that are not a head's, are never found for /a.md.
        tx.putContent("/a.md/b.md\u0000memver_09", new Uint8Array([9]));
        tx.putContent("/a.mdx\u0000memver_09", new Uint8Array([9]));
        tx.putContent("/a.m\u0000memver_09", new Uint8Array([9]));
        tx.putContent("memver_09", new Uint8Array([9]));
      });
      assert.deepEqual(await head("/a.md"), ["/a.md\u0000memver_03", [3]]);
      await run(h, "readwrite", (tx) => tx.deleteContent("/a.md\u0000memver_03"));
      assert.deepEqual(await head("/a.md"), ["/a.md\u0000memver_02", [2]]);
      // Inside one transaction, its own writes count.
      const seen = await run(h, "readwrite", (tx, done) => {
        tx.putContent("/a.md\u0000memver_05", new Uint8Array([5]));
        tx.getHeadContent("/a.md", (key) => done(key));
      });
      assert.equal(seen, "/a.md\u0000memver_05");
      await run(h, "readwrite", (tx) => ["01", "02", "05"].forEach((n) => tx.deleteContent(`/a.md\u0000memver_${n}`)));
      assert.equal(await head("/a.md"), null);
      h.close();
    });

    test("writes of a committed transaction are all visible afterwards", async () => {
      const h = await makeStorage().open("s");
      await run(h, "readwrite", (tx) => {
        tx.putFile(record("/memories/a.md"));
        tx.putContent("mem_a", new Uint8Array([1]));
        tx.putFile(record("/memories/b.md"));
        tx.deleteFile("/memories/b.md");
      });
      assert.deepEqual(await subtree(h, "/memories"), ["/memories/a.md"]);
      assert.deepEqual([...(await getContent(h, "mem_a"))], [1]);
      h.close();
    });

    test("reads inside a transaction see its own earlier writes", async () => {
      const h = await makeStorage().open("s");
      const seen = await run(h, "readwrite", (tx, done) => {
        tx.putFile(record("/memories/a/1.md"));
        tx.getSubtree("/memories/a", (records) => done(records.map((r) => r.path)));
      });
      assert.deepEqual(seen, ["/memories/a/1.md"]);
      h.close();
    });

    test("a body that throws after writing loses nothing and rejects with its error", async () => {
      const h = await makeStorage().open("s");
      await putFiles(h, ["/memories/keep.md"]);
      await run(h, "readwrite", (tx) => tx.putContent("mem_keep", new Uint8Array([7])));
      const boom = new Error("boom");
      await assert.rejects(
        h.transaction("readwrite", (tx) => {
          tx.deleteFile("/memories/keep.md");
          tx.deleteContent("mem_keep");
          tx.putFile(record("/memories/new.md"));
          throw boom;
        }),
        (error) => error === boom,
      );
      assert.deepEqual(await subtree(h, "/memories"), ["/memories/keep.md"]);
      assert.deepEqual([...(await getContent(h, "mem_keep"))], [7]);
      h.close();
    });

    test("a read callback that throws after writing aborts the transaction", async () => {
      const h = await makeStorage().open("s");
      await putFiles(h, ["/memories/keep.md"]);
      const boom = new Error("late boom");
      await assert.rejects(
        h.transaction("readwrite", (tx) => {
          tx.getFile("/memories/keep.md", () => {
            tx.deleteFile("/memories/keep.md");
            tx.putFile(record("/memories/new.md"));
            tx.countFiles(() => {
              throw boom;
            });
          });
        }),
        (error) => error === boom,
      );
      assert.deepEqual(await subtree(h, "/memories"), ["/memories/keep.md"]);
      h.close();
    });

    test("writing in a readonly transaction fails with STORAGE_FAILED and changes nothing", async () => {
      const h = await makeStorage().open("s");
      await assert.rejects(
        h.transaction("readonly", (tx) => tx.putFile(record("/memories/x.md"))),
        (error) => error instanceof MemoryToolError && error.code === "STORAGE_FAILED",
      );
      assert.equal(await count(h), 0);
      h.close();
    });

    test("a transaction cannot be used after it finished", async () => {
      const h = await makeStorage().open("s");
      let kept;
      await h.transaction("readwrite", (tx) => {
        kept = tx;
      });
      assert.throws(
        () => kept.putFile(record("/memories/late.md")),
        (error) => error instanceof MemoryToolError && error.code === "STORAGE_FAILED",
      );
      assert.equal(await count(h), 0);
      h.close();
    });

    test("concurrent read-modify-write transactions serialize: no update is lost", async () => {
      const h = await makeStorage().open("s");
      await run(h, "readwrite", (tx) => tx.putFile(record("/memories/counter", { size: 0 })));
      const N = 25;
      const all = [];
      for (let i = 0; i < N; i++) {
        all.push(
          h.transaction("readwrite", (tx) => {
            tx.getFile("/memories/counter", (r) => {
              // A second read round before writing, as a multi-round command does.
              tx.countFiles(() => tx.putFile({ ...r, size: r.size + 1 }));
            });
          }),
        );
      }
      await Promise.all(all);
      assert.equal((await getFile(h, "/memories/counter")).size, N);
      h.close();
    });

    test("transactions asked for in order run in that order", async () => {
      const h = await makeStorage().open("s");
      const order = [];
      const a = h.transaction("readwrite", (tx) => tx.getFile("/x", () => order.push("a")));
      const b = h.transaction("readonly", (tx) => tx.getFile("/x", () => order.push("b")));
      const c = h.transaction("readwrite", (tx) => tx.getFile("/x", () => order.push("c")));
      await Promise.all([a, b, c]);
      assert.deepEqual(order, ["a", "b", "c"]);
      h.close();
    });

    test("handles from one storage share a store's data; other stores are apart", async () => {
      const storage = makeStorage();
      const one = await storage.open("shared");
      const two = await storage.open("shared");
      const other = await storage.open("other");
      await putFiles(one, ["/memories/a.md"]);
      assert.deepEqual(await subtree(two, "/memories"), ["/memories/a.md"]);
      assert.deepEqual(await subtree(other, "/memories"), []);
      one.close();
      two.close();
      other.close();
    });

    test("getFileById finds a record by its memory id, wherever it moved", async () => {
      const h = await makeStorage().open("s");
      const fileById = (id) => run(h, "readonly", (tx, done) => tx.getFileById(id, done));
      assert.equal(await fileById("mem_x"), null);
      const r = record("/a.md", { id: "mem_x", version: "memver_1", content: "memver_1" });
      await run(h, "readwrite", (tx) => tx.putFile(r));
      assert.deepEqual(await fileById("mem_x"), r);
      await run(h, "readwrite", (tx) => {
        tx.deleteFile("/a.md");
        tx.putFile({ ...r, path: "/b/a.md" });
      });
      assert.deepEqual(await fileById("mem_x"), { ...r, path: "/b/a.md" });
      await run(h, "readwrite", (tx) => tx.deleteFile("/b/a.md"));
      assert.equal(await fileById("mem_x"), null);
      h.close();
    });

    test("the files' id index is unique: two paths for one id fail with STORAGE_FAILED, nothing kept", async () => {
      const h = await makeStorage().open("s");
      await run(h, "readwrite", (tx) => tx.putFile(record("/a.md", { id: "mem_1" })));
      await assert.rejects(
        h.transaction("readwrite", (tx) => {
          tx.putFile(record("/c.md", { id: "mem_3" }));
          tx.putFile(record("/b.md", { id: "mem_1" }));
        }),
        (error) => error instanceof MemoryToolError && error.code === "STORAGE_FAILED",
      );
      assert.deepEqual(await subtree(h, ""), ["/a.md"]);
      // Overwriting a record at its own path with its own id is fine.
      await run(h, "readwrite", (tx) => tx.putFile(record("/a.md", { id: "mem_1", size: 9 })));
      assert.equal((await getFile(h, "/a.md")).size, 9);
      h.close();
    });

    test("versions: put, get (equal, a copy), missing is null, delete", async () => {
      const h = await makeStorage().open("s");
      const getVersion = (id) => run(h, "readonly", (tx, done) => tx.getVersion(id, done));
      assert.equal(await getVersion("memver_01"), null);
      const v = version("memver_01", "mem_a", { content: "memver_01" });
      await run(h, "readwrite", (tx) => tx.putVersion(v));
      v.createdBy.tool_use_id = "changed"; // the stored copy does not change with the caller's
      const back = await getVersion("memver_01");
      assert.deepEqual(back, version("memver_01", "mem_a", { content: "memver_01" }));
      back.createdBy.type = "api";
      assert.equal((await getVersion("memver_01")).createdBy.type, "tool");
      // A redaction rewrites the record without `content`: it leaves the content index.
      const redacted = { ...version("memver_01", "mem_a"), path: null, size: null, sha256: null, redactedAt: 9 };
      await run(h, "readwrite", (tx) => tx.putVersion(redacted));
      assert.deepEqual(await getVersion("memver_01"), redacted);
      assert.deepEqual(await withContent(h, "memver_01"), []);
      await run(h, "readwrite", (tx) => tx.deleteVersion("memver_01"));
      assert.equal(await getVersion("memver_01"), null);
      assert.deepEqual(await versionIds(h), []);
      h.close();
    });

    test("versionsDesc: newest first, by memory (index on [memoryId, id]), below an id, up to a limit", async () => {
      const h = await makeStorage().open("s");
      await run(h, "readwrite", (tx) => [...HISTORY].reverse().forEach((v) => tx.putVersion(v)));
      assert.deepEqual(await versionsDesc(h, null, null, 100), ["memver_06", "memver_05", "memver_04", "memver_03", "memver_02", "memver_01"]);
      assert.deepEqual(await versionsDesc(h, null, null, 2), ["memver_06", "memver_05"]);
      assert.deepEqual(await versionsDesc(h, null, "memver_05", 2), ["memver_04", "memver_03"]);
      assert.deepEqual(await versionsDesc(h, null, "memver_01", 5), []);
      assert.deepEqual(await versionsDesc(h, null, "memver_99", 1), ["memver_06"]);
      assert.deepEqual(await versionsDesc(h, "mem_a", null, 10), ["memver_05", "memver_03", "memver_01"]);
      assert.deepEqual(await versionsDesc(h, "mem_a", "memver_05", 10), ["memver_03", "memver_01"]);
      assert.deepEqual(await versionsDesc(h, "mem_a", "memver_04", 1), ["memver_03"]);
      assert.deepEqual(await versionsDesc(h, "mem_b", null, 10), ["memver_04", "memver_02"]);
      assert.deepEqual(await versionsDesc(h, "mem_ab", null, 10), ["memver_06"]);
      assert.deepEqual(await versionsDesc(h, "mem_none", null, 10), []);
      assert.deepEqual(await versionsDesc(h, "mem_a", null, 0), []);
      // Whole records come back.
      const records = await run(h, "readonly", (tx, done) => tx.getVersionsDesc("mem_b", null, 1, done));
      assert.deepEqual(records, [HISTORY[3]]);
      h.close();
    });

    test("versionsBelow: every version with a lower id, oldest first", async () => {
      const h = await makeStorage().open("s");
      await run(h, "readwrite", (tx) => HISTORY.forEach((v) => tx.putVersion(v)));
      assert.deepEqual(await versionsBelow(h, "memver_04"), ["memver_01", "memver_02", "memver_03"]);
      assert.deepEqual(await versionsBelow(h, "memver_01"), []);
      assert.deepEqual(await versionsBelow(h, "memver_~"), ids(HISTORY));
      const records = await run(h, "readonly", (tx, done) => tx.getVersionsBelow("memver_02", done));
      assert.deepEqual(records, [HISTORY[0]]);
      h.close();
    });

    test("versionsWithContent: the versions holding a content key (the content index)", async () => {
      const h = await makeStorage().open("s");
      await run(h, "readwrite", (tx) => HISTORY.forEach((v) => tx.putVersion(v)));
      assert.deepEqual(await withContent(h, "memver_01"), ["memver_01", "memver_03"]);
      assert.deepEqual(await withContent(h, "memver_05"), ["memver_05"]);
      assert.deepEqual(await withContent(h, "memver_04"), []); // a deletion holds no content
      await run(h, "readwrite", (tx) => tx.deleteVersion("memver_01"));
      assert.deepEqual(await withContent(h, "memver_01"), ["memver_03"]);
      h.close();
    });

    test("newestVersionId and versionIds", async () => {
      const h = await makeStorage().open("s");
      assert.equal(await newest(h), null);
      assert.deepEqual(await versionIds(h), []);
      await run(h, "readwrite", (tx) => [...HISTORY].reverse().forEach((v) => tx.putVersion(v)));
      assert.equal(await newest(h), "memver_06");
      assert.deepEqual(await versionIds(h), ids(HISTORY));
      // The highest id the store has held: a deleted one still bounds the next (ids only grow).
      await run(h, "readwrite", (tx) => tx.deleteVersion("memver_06"));
      assert.equal(await newest(h), "memver_06");
      assert.deepEqual(await versionIds(h), ids(HISTORY).slice(0, -1));
      h.close();
    });

    test("a failed body takes back version writes and their indexes too", async () => {
      const h = await makeStorage().open("s");
      await run(h, "readwrite", (tx) => HISTORY.slice(0, 3).forEach((v) => tx.putVersion(v)));
      await assert.rejects(
        h.transaction("readwrite", (tx) => {
          tx.deleteVersion("memver_01");
          tx.putVersion({ ...HISTORY[2], memoryId: "mem_z", content: "memver_09" });
          tx.putVersion(HISTORY[5]);
          tx.getNewestVersionId(() => {
            throw new Error("undo");
          });
        }),
        /undo/,
      );
      assert.deepEqual(await versionIds(h), ["memver_01", "memver_02", "memver_03"]);
      assert.deepEqual(await versionsDesc(h, "mem_a", null, 10), ["memver_03", "memver_01"]);
      assert.deepEqual(await versionsDesc(h, "mem_z", null, 10), []);
      assert.deepEqual(await withContent(h, "memver_01"), ["memver_01", "memver_03"]);
      assert.deepEqual(await withContent(h, "memver_09"), []);
      h.close();
    });

    test("a closed handle refuses transactions with STORAGE_FAILED", async () => {
      const h = await makeStorage().open("s");
      h.close();
      await assert.rejects(
        h.transaction("readonly", () => {}),
        (error) => error instanceof MemoryToolError && error.code === "STORAGE_FAILED",
      );
    });

    test("an unknown mode is refused", async () => {
      const h = await makeStorage().open("s");
      await assert.rejects(
        h.transaction("versionchange", () => {}),
        (error) => error instanceof MemoryToolError && error.code === "STORAGE_FAILED",
      );
      h.close();
    });
  });
}
