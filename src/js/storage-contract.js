// The storage contract as a suite of checks any storage runs (docs/STORAGE.md#checking-your-storage).
// It needs no test framework and no Node: each case is `{ name, run }`, and `run()` resolves
// when the storage keeps that part of the contract, or rejects with an Error that says what
// it did instead. Hand the cases to the runner you use:
//
//   import { test } from "node:test";
//   for (const { name, run } of keyValueContract(() => new MyBackend(), { MemoryTool })) test(name, run);
//
// `keyValueContract(makeBackend)` checks a key-value backend for `KeyValueStorage` (the five
// requests, then the whole storage interface over it); `storageContract(makeStorage)` checks
// a storage that implements the storage interface itself (docs/ARCHITECTURE.md#the-storage-interface).
// With `{ MemoryTool }` (the class from the entry you use: it brings the core) both also run
// the six commands and the host API over the storage and compare every answer with the same
// calls over `InMemoryStorage`. Each case opens its own stores (named `contract-…`): give a
// factory that starts empty, or clear between cases.

import { MemoryToolError } from "./errors.js";
import { KeyValueStorage } from "./storage-kv.js";
import { InMemoryStorage } from "./storage-memory.js";

/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").KeyValueBackend} KeyValueBackend */
/** @typedef {import("./index.js").KeyValueStore} KeyValueStore */
/** @typedef {import("./index.js").KeyValueTx} KeyValueTx */
/** @typedef {{ name: string, run: () => Promise<void> }} ContractCase */
/** @typedef {import("./index.js").MemoryTool} Tool */
/** @typedef {{ MemoryTool?: { open(options?: import("./index.js").MemoryToolOptions): Promise<Tool> } }} ContractOptions */

// ---------------------------------------------------------------------------------------------
// Checks (a few of node:assert's, so that the suite runs in a browser too)

/** @param {unknown} value */
function show(value) {
  if (value instanceof Uint8Array) return `Uint8Array [${[...value].join(", ")}]`;
  try {
    const text = JSON.stringify(value, (_k, v) => (v instanceof Uint8Array ? `<bytes ${[...v].join(",")}>` : v));
    return text === undefined ? String(value) : text;
  } catch {
    return String(value);
  }
}

/** @param {unknown} a @param {unknown} b @returns {boolean} */
function same(a, b) {
  if (Object.is(a, b)) return true;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a).filter((k) => /** @type {any} */ (a)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => /** @type {any} */ (b)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => same(/** @type {any} */ (a)[k], /** @type {any} */ (b)[k]));
}

const check = {
  /** @param {unknown} actual @param {unknown} expected @param {string} [what] */
  equal(actual, expected, what) {
    if (!Object.is(actual, expected)) throw new Error(`${what ? `${what}: ` : ""}expected ${show(expected)}, got ${show(actual)}`);
  },
  /** @param {unknown} actual @param {unknown} expected @param {string} [what] */
  deepEqual(actual, expected, what) {
    if (!same(actual, expected)) throw new Error(`${what ? `${what}: ` : ""}expected ${show(expected)}, got ${show(actual)}`);
  },
  /** @param {unknown} value @param {string} what */
  ok(value, what) {
    if (!value) throw new Error(what);
  },
  /**
   * @param {Promise<unknown>} promise
   * @param {(error: unknown) => boolean} test
   * @param {string} what what the rejection should be
   */
  async rejects(promise, test, what) {
    try {
      await promise;
    } catch (error) {
      if (!test(error)) throw new Error(`expected ${what}, got ${error instanceof Error ? `${error.name}: ${error.message}` : show(error)}`);
      return;
    }
    throw new Error(`expected ${what}, but it resolved`);
  },
  /** @param {() => unknown} fn @param {(error: unknown) => boolean} test @param {string} what */
  throws(fn, test, what) {
    try {
      fn();
    } catch (error) {
      if (!test(error)) throw new Error(`expected ${what}, got ${error instanceof Error ? `${error.name}: ${error.message}` : show(error)}`);
      return;
    }
    throw new Error(`expected ${what}, but it returned`);
  },
};

/** @param {unknown} error */
const storageFailed = (error) => error instanceof MemoryToolError && error.code === "STORAGE_FAILED";

// ---------------------------------------------------------------------------------------------
// The storage interface (what KeyValueStorage gives, and a storage of its own must give)

/** This run's part of every store name, so that a storage that keeps data across runs starts each case empty. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
let opened = 0;
/** A store name no other case uses. */
const fresh = () => `contract-${RUN}-${(++opened).toString(36)}`;

/**
 * Runs one transaction; resolves to the value `body` hands to `done` (reads may be async).
 * @template T
 * @param {StoreHandle} h
 * @param {"readonly" | "readwrite"} mode
 * @param {(tx: StorageTx, done: (value: T) => void) => void} body
 * @returns {Promise<T>}
 */
function run(h, mode, body) {
  /** @type {any} */
  let value;
  return h.transaction(mode, (tx) => body(tx, (v) => (value = v))).then(() => value);
}

/** @param {string} path @param {Partial<FileRecord>} [extra] @returns {FileRecord} */
const record = (path, extra = {}) => ({ path, id: `mem_${path}`, size: 1, sha256: "00", createdAt: 1, updatedAt: 2, ...extra });

/** @param {string} id @param {string} memoryId @param {Partial<VersionRecord>} [extra] @returns {VersionRecord} */
const version = (id, memoryId, extra = {}) => ({
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
});

/** @param {Array<{ id: string }>} records */
const ids = (records) => records.map((r) => r.id);

/** Versions of two memories, interleaved; ids sort in write order. */
const HISTORY = [
  version("memver_01", "mem_a", { operation: "created", content: "memver_01" }),
  version("memver_02", "mem_b", { operation: "created", content: "memver_02" }),
  version("memver_03", "mem_a", { content: "memver_01" }), // a rename shares the bytes
  version("memver_04", "mem_b", { operation: "deleted", path: "/q", size: null, sha256: null }),
  version("memver_05", "mem_a", { content: "memver_05" }),
  version("memver_06", "mem_ab", { operation: "created", content: "memver_06" }), // "mem_a" is a prefix of it
];

// Keys around "/memories/a", in JavaScript's (and IndexedDB's) order: by UTF-16 code units.
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

/**
 * The cases of the storage interface, over storages from `makeStorage`.
 * @param {() => MemoryStorage} makeStorage
 * @returns {ContractCase[]}
 */
function interfaceCases(makeStorage) {
  /** @type {ContractCase[]} */
  const cases = [];
  /**
   * A case over one fresh store; the handle is closed after it, whatever happened.
   * @param {string} name
   * @param {(h: StoreHandle, storage: MemoryStorage) => Promise<void>} body
   */
  const c = (name, body) =>
    cases.push({
      name,
      run: async () => {
        const storage = makeStorage();
        const h = await storage.open(fresh());
        try {
          await body(h, storage);
        } finally {
          h.close();
        }
      },
    });

  /** @param {StoreHandle} h @param {string} path */
  const getFile = (h, path) => run(h, "readonly", (tx, done) => tx.getFile(path, done));
  /** @param {StoreHandle} h @param {string} path */
  const subtree = (h, path) => run(h, "readonly", (tx, done) => tx.getSubtree(path, (rs) => done(rs.map((r) => r.path))));
  /** @param {StoreHandle} h @param {string} path */
  const hasChildren = (h, path) => run(h, "readonly", (tx, done) => tx.hasChildren(path, done));
  /** @param {StoreHandle} h */
  const count = (h) => run(h, "readonly", (tx, done) => tx.countFiles(done));
  /** @param {StoreHandle} h @param {string} id */
  const getContent = (h, id) => run(h, "readonly", (tx, done) => tx.getContent(id, done));
  /** @param {StoreHandle} h @param {string[]} paths */
  const putFiles = (h, paths) => run(h, "readwrite", (tx) => paths.forEach((p) => tx.putFile(record(p), null)));
  /** @param {StoreHandle} h @param {string | null} memoryId @param {string | null} below @param {number} limit */
  const versionsDesc = (h, memoryId, below, limit) =>
    run(h, "readonly", (tx, done) => tx.getVersionsDesc(/** @type {string} */ (memoryId), below, limit, (rs) => done(ids(rs))));
  /** @param {StoreHandle} h @param {string} id */
  const versionsBelow = (h, id) => run(h, "readonly", (tx, done) => tx.getVersionsBelow(id, (rs) => done(ids(rs))));
  /** @param {StoreHandle} h @param {string} key */
  const withContent = (h, key) => run(h, "readonly", (tx, done) => tx.getVersionIdsWithContent(key, done));
  /** @param {StoreHandle} h */
  const newest = (h) => run(h, "readonly", (tx, done) => tx.getNewestVersionId(done));
  /** @param {StoreHandle} h */
  const versionIds = (h) => run(h, "readonly", (tx, done) => tx.getVersionIds(done));

  c("a missing file reads null; a stored record reads back equal", async (h) => {
    check.equal(await getFile(h, "/memories/x.md"), null);
    const r = record("/memories/x.md", { size: 12, sha256: "ab".repeat(32) });
    await run(h, "readwrite", (tx) => tx.putFile(r, null));
    check.deepEqual(await getFile(h, "/memories/x.md"), r);
  });

  c("subtree is [P + '/', P + '0') in UTF-16 key order, siblings excluded", async (h) => {
    await putFiles(h, [...AROUND_A].reverse());
    check.deepEqual(await subtree(h, "/memories/a"), [
      "/memories/a/B.md",
      "/memories/a/x.md",
      "/memories/a/y/z.md",
      "/memories/a/\u{1F600}.md",
      "/memories/a/\uffff.md",
    ]);
    check.deepEqual(await subtree(h, "/memories/a-b"), []);
    check.deepEqual(await subtree(h, "/memories/a0"), ["/memories/a0/q.md"]);
    check.deepEqual(await subtree(h, "/memories"), [...AROUND_A].sort());
    check.deepEqual(await subtree(h, "/nothing"), []);
  });

  c("getListing (if the storage has it) gives `${path}\\0${size}` of the same range, and follows puts and deletes", async (h) => {
    /** @param {string} path @returns {Promise<string[] | null>} */
    const listing = (path) =>
      run(h, "readonly", (tx, done) =>
        typeof tx.getListing === "function" ? tx.getListing(path, (e) => done([...e].sort())) : done(null),
      );
    if ((await listing("")) === null) return; // optional: the core reads getSubtree instead
    const id = (/** @type {string} */ p) => `mem_${AROUND_A.indexOf(p)}`;
    await run(h, "readwrite", (tx) => AROUND_A.forEach((p, i) => tx.putFile(record(p, { id: id(p), size: i * 7 }), null)));
    /** @param {string} path */
    const expected = (path) =>
      AROUND_A.map((p, i) => /** @type {[string, number]} */ ([p, i * 7]))
        .filter(([p]) => p.startsWith(`${path}/`))
        .map(([p, size]) => `${p}\u0000${size}`)
        .sort();
    for (const path of ["/memories/a", "/memories/a-b", "/memories/a0", "/memories", "/nothing", ""]) {
      check.deepEqual(await listing(path), expected(path), `listing of ${JSON.stringify(path)}`);
    }
    const x = "/memories/a/x.md";
    await run(h, "readwrite", (tx) => {
      tx.putFile(record(x, { id: id(x), size: 1000 }), AROUND_A.indexOf(x) * 7);
      tx.deleteFile("/memories/a/B.md", AROUND_A.indexOf("/memories/a/B.md") * 7);
    });
    await run(h, "readwrite", (tx) =>
      tx.getFile("/memories/a0/q.md", (r) => {
        if (r === null) throw new Error("/memories/a0/q.md is missing");
        tx.deleteFile(r.path, r.size);
        tx.putFile({ ...r, path: "/memories/a0/moved.md" }, null);
      }),
    );
    const after = /** @type {string[]} */ (await listing("/memories"));
    check.ok(after.includes(`${x}\u00001000`), `the listing has ${x}'s new size: ${show(after)}`);
    check.equal(after.filter((e) => e.startsWith(`${x}\u0000`)).length, 1, `listing keys of ${x}`);
    check.ok(!after.some((e) => e.startsWith("/memories/a/B.md\u0000")), "a deleted file left the listing");
    check.ok(after.some((e) => e.startsWith("/memories/a0/moved.md\u0000")), "a moved file is listed at its new path");
    check.ok(!after.some((e) => e.startsWith("/memories/a0/q.md\u0000")), "a moved file left its old path");
    check.equal(after.length, AROUND_A.length - 1, "listing entries");
  });

  c("hasChildren answers for the same range", async (h) => {
    await putFiles(h, AROUND_A);
    check.equal(await hasChildren(h, "/memories/a"), true, "/memories/a");
    check.equal(await hasChildren(h, "/memories/a/y"), true, "/memories/a/y");
    check.equal(await hasChildren(h, "/memories/a-b"), false, "/memories/a-b");
    check.equal(await hasChildren(h, "/memories/a/x.md"), false, "/memories/a/x.md");
    check.equal(await hasChildren(h, "/memories/b"), false, "/memories/b");
    check.equal(await hasChildren(h, "/memories"), true, "/memories");
  });

  c("countFiles counts file records", async (h) => {
    check.equal(await count(h), 0);
    await putFiles(h, AROUND_A);
    check.equal(await count(h), AROUND_A.length);
    await run(h, "readwrite", (tx) => tx.deleteFile("/memories/b.md", 1));
    check.equal(await count(h), AROUND_A.length - 1);
  });

  c("contents: put, get (a copy), missing is undefined, delete", async (h) => {
    check.equal(await getContent(h, "mem_1"), undefined);
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    await run(h, "readwrite", (tx) => tx.putContent("mem_1", bytes));
    bytes[0] = 0; // the stored copy does not change with the caller's array
    const back = await getContent(h, "mem_1");
    check.ok(back instanceof Uint8Array, `content reads back as a Uint8Array, not ${show(back)}`);
    check.deepEqual([.../** @type {Uint8Array} */ (back)], [0x89, 0x50, 0x4e, 0x47, 0, 255]);
    await run(h, "readwrite", (tx) => tx.deleteContent("mem_1"));
    check.equal(await getContent(h, "mem_1"), undefined);
  });

  c("getHeadContent (if the storage has it): the highest key in [path\\0, path\\x01) with its bytes", async (h) => {
    /** @param {string} path */
    const head = (path) =>
      run(h, "readonly", (tx, done) =>
        typeof tx.getHeadContent === "function"
          ? tx.getHeadContent(path, (key, bytes) => done(key === undefined ? null : [key, [...(bytes ?? [])]]))
          : done("none"),
      );
    if ((await head("/a.md")) === "none") return; // optional: the core reads the record's key in a second round
    check.equal(await head("/a.md"), null);
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
    check.deepEqual(await head("/a.md"), ["/a.md\u0000memver_03", [3]]);
    await run(h, "readwrite", (tx) => tx.deleteContent("/a.md\u0000memver_03"));
    check.deepEqual(await head("/a.md"), ["/a.md\u0000memver_02", [2]]);
    const seen = await run(h, "readwrite", (tx, done) => {
      tx.putContent("/a.md\u0000memver_05", new Uint8Array([5]));
      /** @type {NonNullable<StorageTx["getHeadContent"]>} */ (tx.getHeadContent)("/a.md", (key) => done(key));
    });
    check.equal(seen, "/a.md\u0000memver_05", "a read sees its own transaction's write");
    await run(h, "readwrite", (tx) => ["01", "02", "05"].forEach((n) => tx.deleteContent(`/a.md\u0000memver_${n}`)));
    check.equal(await head("/a.md"), null);
  });

  c("getContents (if the storage has it): many contents in the order asked", async (h) => {
    await run(h, "readwrite", (tx) => {
      tx.putContent("k2", new Uint8Array([2]));
      tx.putContent("k1", new Uint8Array([1, 1]));
    });
    const got = await run(h, "readonly", (tx, done) =>
      typeof tx.getContents === "function" ? tx.getContents(["k1", "none", "k2"], (v) => done(v.map((b) => (b ? [...b] : null)))) : done("none"),
    );
    if (got !== "none") check.deepEqual(got, [[1, 1], null, [2]]);
  });

  c("getFilesAfter (if the storage has it): records in key order after a path, up to a limit", async (h) => {
    await putFiles(h, AROUND_A);
    /** @param {string | null} after @param {number} limit */
    const page = (after, limit) =>
      run(h, "readonly", (tx, done) =>
        typeof tx.getFilesAfter === "function" ? tx.getFilesAfter(after, limit, (rs) => done(rs.map((r) => r.path))) : done(null),
      );
    if ((await page(null, 1)) === null) return;
    const sorted = [...AROUND_A].sort();
    check.deepEqual(await page(null, 3), sorted.slice(0, 3));
    check.deepEqual(await page(sorted[2], 4), sorted.slice(3, 7));
    check.deepEqual(await page(sorted[sorted.length - 1], 4), []);
  });

  c("writes of a committed transaction are all visible afterwards", async (h) => {
    await run(h, "readwrite", (tx) => {
      tx.putFile(record("/memories/a.md"), null);
      tx.putContent("mem_a", new Uint8Array([1]));
      tx.putFile(record("/memories/b.md"), null);
      tx.deleteFile("/memories/b.md", 1);
    });
    check.deepEqual(await subtree(h, "/memories"), ["/memories/a.md"]);
    check.deepEqual([...(/** @type {Uint8Array} */ (await getContent(h, "mem_a")))], [1]);
  });

  c("reads inside a transaction see its own earlier writes", async (h) => {
    const seen = await run(h, "readwrite", (tx, done) => {
      tx.putFile(record("/memories/a/1.md"), null);
      tx.getSubtree("/memories/a", (records) => done(records.map((r) => r.path)));
    });
    check.deepEqual(seen, ["/memories/a/1.md"]);
  });

  c("a body that throws after writing loses nothing and rejects with its error", async (h) => {
    await putFiles(h, ["/memories/keep.md"]);
    await run(h, "readwrite", (tx) => tx.putContent("mem_keep", new Uint8Array([7])));
    const boom = new Error("boom");
    await check.rejects(
      h.transaction("readwrite", (tx) => {
        tx.deleteFile("/memories/keep.md", 1);
        tx.deleteContent("mem_keep");
        tx.putFile(record("/memories/new.md"), null);
        throw boom;
      }),
      (error) => error === boom,
      "the body's own error",
    );
    check.deepEqual(await subtree(h, "/memories"), ["/memories/keep.md"], "after the rollback");
    check.deepEqual([...(/** @type {Uint8Array} */ (await getContent(h, "mem_keep")))], [7], "content after the rollback");
    check.equal(await count(h), 1, "file count after the rollback");
  });

  c("a read callback that throws after writing aborts the transaction", async (h) => {
    await putFiles(h, ["/memories/keep.md"]);
    const boom = new Error("late boom");
    await check.rejects(
      h.transaction("readwrite", (tx) => {
        tx.getFile("/memories/keep.md", () => {
          tx.deleteFile("/memories/keep.md", 1);
          tx.putFile(record("/memories/new.md"), null);
          tx.countFiles(() => {
            throw boom;
          });
        });
      }),
      (error) => error === boom,
      "the callback's own error",
    );
    check.deepEqual(await subtree(h, "/memories"), ["/memories/keep.md"], "after the rollback");
  });

  c("writing in a readonly transaction fails with STORAGE_FAILED and changes nothing", async (h) => {
    await check.rejects(
      h.transaction("readonly", (tx) => tx.putFile(record("/memories/x.md"), null)),
      storageFailed,
      "a MemoryToolError with code STORAGE_FAILED",
    );
    check.equal(await count(h), 0);
  });

  c("a transaction cannot be used after it finished", async (h) => {
    /** @type {StorageTx | undefined} */
    let kept;
    await h.transaction("readwrite", (tx) => {
      kept = tx;
    });
    check.throws(
      () => /** @type {StorageTx} */ (kept).putFile(record("/memories/late.md"), null),
      storageFailed,
      "a MemoryToolError with code STORAGE_FAILED",
    );
    check.equal(await count(h), 0);
  });

  c("concurrent read-modify-write transactions serialize: no update is lost", async (h) => {
    await run(h, "readwrite", (tx) => tx.putFile(record("/memories/counter", { size: 0 }), null));
    const N = 25;
    const all = [];
    for (let i = 0; i < N; i++) {
      all.push(
        h.transaction("readwrite", (tx) => {
          tx.getFile("/memories/counter", (r) => {
            if (r === null) throw new Error("the counter is missing");
            // A second read round before writing, as a multi-round command does.
            tx.countFiles(() => tx.putFile({ ...r, size: r.size + 1 }, r.size));
          });
        }),
      );
    }
    await Promise.all(all);
    check.equal((await getFile(h, "/memories/counter"))?.size, N, "the counter after 25 increments");
  });

  c("transactions asked for in order run in that order", async (h) => {
    /** @type {string[]} */
    const order = [];
    const a = h.transaction("readwrite", (tx) => tx.getFile("/x", () => order.push("a")));
    const b = h.transaction("readonly", (tx) => tx.getFile("/x", () => order.push("b")));
    const d = h.transaction("readwrite", (tx) => tx.getFile("/x", () => order.push("c")));
    await Promise.all([a, b, d]);
    check.deepEqual(order, ["a", "b", "c"]);
  });

  c("handles of one storage share a store's data; other stores are apart", async (_h, storage) => {
    const name = fresh();
    const one = await storage.open(name);
    const two = await storage.open(name);
    const other = await storage.open(fresh());
    try {
      await putFiles(one, ["/memories/a.md"]);
      check.deepEqual(await subtree(two, "/memories"), ["/memories/a.md"], "the second handle");
      check.deepEqual(await subtree(other, "/memories"), [], "another store");
    } finally {
      one.close();
      two.close();
      other.close();
    }
  });

  c("getFileById finds a record by its memory id, wherever it moved", async (h) => {
    /** @param {string} id */
    const fileById = (id) => run(h, "readonly", (tx, done) => tx.getFileById(id, done));
    check.equal(await fileById("mem_x"), null);
    const r = record("/a.md", { id: "mem_x", version: "memver_1", content: "memver_1" });
    await run(h, "readwrite", (tx) => tx.putFile(r, null));
    check.deepEqual(await fileById("mem_x"), r);
    await run(h, "readwrite", (tx) => {
      tx.deleteFile("/a.md", 1);
      tx.putFile({ ...r, path: "/b/a.md" }, null);
    });
    check.deepEqual(await fileById("mem_x"), { ...r, path: "/b/a.md" }, "after a move in one transaction");
    await run(h, "readwrite", (tx) => tx.deleteFile("/b/a.md", 1));
    check.equal(await fileById("mem_x"), null, "after a delete");
  });

  c("the files' id index is unique: two paths for one id fail with STORAGE_FAILED, nothing kept", async (h) => {
    await run(h, "readwrite", (tx) => tx.putFile(record("/a.md", { id: "mem_1" }), null));
    await check.rejects(
      h.transaction("readwrite", (tx) => {
        tx.putFile(record("/c.md", { id: "mem_3" }), null);
        tx.putFile(record("/b.md", { id: "mem_1" }), null);
      }),
      storageFailed,
      "a MemoryToolError with code STORAGE_FAILED",
    );
    check.deepEqual(await subtree(h, ""), ["/a.md"]);
    await run(h, "readwrite", (tx) => tx.putFile(record("/a.md", { id: "mem_1", size: 9 }), 1));
    check.equal((await getFile(h, "/a.md"))?.size, 9, "a record overwritten at its own path with its own id");
  });

  c("the id index is unique at the moment of each put, inside one transaction too", async (h) => {
    const refused = "a MemoryToolError with code STORAGE_FAILED";
    // Two paths for an id new to the store, in one transaction.
    await check.rejects(
      h.transaction("readwrite", (tx) => {
        tx.putFile(record("/a.md", { id: "mem_1" }), null);
        tx.putFile(record("/b.md", { id: "mem_1" }), null);
      }),
      storageFailed,
      refused,
    );
    check.deepEqual(await subtree(h, ""), [], "nothing kept");
    await run(h, "readwrite", (tx) => tx.putFile(record("/a.md", { id: "mem_1" }), null));
    // The new path put before the old one goes: two paths held it at that moment.
    await check.rejects(
      h.transaction("readwrite", (tx) => {
        tx.putFile(record("/b.md", { id: "mem_1" }), null);
        tx.deleteFile("/a.md", 1);
      }),
      storageFailed,
      refused,
    );
    // Moved away and back, one transaction: never two at once.
    await run(h, "readwrite", (tx) => {
      tx.deleteFile("/a.md", 1);
      tx.putFile(record("/b.md", { id: "mem_1" }), null);
      tx.deleteFile("/b.md", 1);
      tx.putFile(record("/a.md", { id: "mem_1" }), null);
    });
    check.deepEqual(await subtree(h, ""), ["/a.md"], "after the move away and back");
    check.equal((await run(h, "readonly", (tx, done) => tx.getFileById("mem_1", done)))?.path, "/a.md", "the id index");
    // Deleted, put elsewhere, and the old path put again with another id.
    await run(h, "readwrite", (tx) => {
      tx.deleteFile("/a.md", 1);
      tx.putFile(record("/c.md", { id: "mem_1" }), null);
      tx.putFile(record("/a.md", { id: "mem_2" }), null);
    });
    check.equal((await run(h, "readonly", (tx, done) => tx.getFileById("mem_1", done)))?.path, "/c.md", "mem_1");
    check.equal((await run(h, "readonly", (tx, done) => tx.getFileById("mem_2", done)))?.path, "/a.md", "mem_2");
    check.equal(await count(h), 2, "file count");
  });

  c("versions: put, get (equal, a copy), missing is null, delete", async (h) => {
    /** @param {string} id */
    const getVersion = (id) => run(h, "readonly", (tx, done) => tx.getVersion(id, done));
    check.equal(await getVersion("memver_01"), null);
    const v = version("memver_01", "mem_a", { content: "memver_01" });
    await run(h, "readwrite", (tx) => tx.putVersion(v));
    /** @type {any} */ (v.createdBy).tool_use_id = "changed"; // the stored copy does not change with the caller's
    const back = await getVersion("memver_01");
    check.deepEqual(back, version("memver_01", "mem_a", { content: "memver_01" }));
    /** @type {any} */ (back).createdBy.type = "api";
    check.equal((/** @type {any} */ (await getVersion("memver_01"))).createdBy.type, "tool", "a read gives a copy");
    // A redaction rewrites the record without `content`: it leaves the content index.
    const redacted = { ...version("memver_01", "mem_a"), path: null, size: null, sha256: null, redactedAt: 9 };
    await run(h, "readwrite", (tx) => tx.putVersion(redacted));
    check.deepEqual(await getVersion("memver_01"), redacted);
    check.deepEqual(await withContent(h, "memver_01"), [], "the content index after a redaction");
    await run(h, "readwrite", (tx) => tx.deleteVersion("memver_01"));
    check.equal(await getVersion("memver_01"), null);
    check.deepEqual(await versionIds(h), []);
  });

  c("versionsDesc: newest first, by memory, below an id, up to a limit", async (h) => {
    await run(h, "readwrite", (tx) => [...HISTORY].reverse().forEach((v) => tx.putVersion(v)));
    check.deepEqual(await versionsDesc(h, null, null, 100), ["memver_06", "memver_05", "memver_04", "memver_03", "memver_02", "memver_01"]);
    check.deepEqual(await versionsDesc(h, null, null, 2), ["memver_06", "memver_05"]);
    check.deepEqual(await versionsDesc(h, null, "memver_05", 2), ["memver_04", "memver_03"]);
    check.deepEqual(await versionsDesc(h, null, "memver_01", 5), []);
    check.deepEqual(await versionsDesc(h, null, "memver_99", 1), ["memver_06"]);
    check.deepEqual(await versionsDesc(h, "mem_a", null, 10), ["memver_05", "memver_03", "memver_01"]);
    check.deepEqual(await versionsDesc(h, "mem_a", "memver_05", 10), ["memver_03", "memver_01"]);
    check.deepEqual(await versionsDesc(h, "mem_a", "memver_04", 1), ["memver_03"]);
    check.deepEqual(await versionsDesc(h, "mem_b", null, 10), ["memver_04", "memver_02"]);
    check.deepEqual(await versionsDesc(h, "mem_ab", null, 10), ["memver_06"], "mem_a's versions are not mem_ab's");
    check.deepEqual(await versionsDesc(h, "mem_none", null, 10), []);
    check.deepEqual(await versionsDesc(h, "mem_a", null, 0), []);
    const records = await run(h, "readonly", (tx, done) => tx.getVersionsDesc("mem_b", null, 1, done));
    check.deepEqual(records, [HISTORY[3]], "whole records");
  });

  c("versionsBelow: every version with a lower id, oldest first", async (h) => {
    await run(h, "readwrite", (tx) => HISTORY.forEach((v) => tx.putVersion(v)));
    check.deepEqual(await versionsBelow(h, "memver_04"), ["memver_01", "memver_02", "memver_03"]);
    check.deepEqual(await versionsBelow(h, "memver_01"), []);
    check.deepEqual(await versionsBelow(h, "memver_\uffff"), ids(HISTORY), "below an id above every one");
    const records = await run(h, "readonly", (tx, done) => tx.getVersionsBelow("memver_02", done));
    check.deepEqual(records, [HISTORY[0]], "whole records");
  });

  c("versionsWithContent: the versions holding a content key", async (h) => {
    await run(h, "readwrite", (tx) => HISTORY.forEach((v) => tx.putVersion(v)));
    check.deepEqual(await withContent(h, "memver_01"), ["memver_01", "memver_03"]);
    check.deepEqual(await withContent(h, "memver_05"), ["memver_05"]);
    check.deepEqual(await withContent(h, "memver_04"), [], "a deletion holds no content");
    await run(h, "readwrite", (tx) => tx.deleteVersion("memver_01"));
    check.deepEqual(await withContent(h, "memver_01"), ["memver_03"]);
  });

  c("getHistory (if the storage has it): one memory's versions, oldest first", async (h) => {
    await run(h, "readwrite", (tx) => [...HISTORY].reverse().forEach((v) => tx.putVersion(v)));
    const got = await run(h, "readonly", (tx, done) =>
      typeof tx.getHistory === "function" ? tx.getHistory("mem_a", (rs) => done(ids(rs))) : done(null),
    );
    if (got !== null) check.deepEqual(got, ["memver_01", "memver_03", "memver_05"]);
  });

  c("newestVersionId and versionIds; the newest id stays after its delete (ids only grow)", async (h) => {
    check.equal(await newest(h), null);
    check.deepEqual(await versionIds(h), []);
    await run(h, "readwrite", (tx) => [...HISTORY].reverse().forEach((v) => tx.putVersion(v)));
    check.equal(await newest(h), "memver_06");
    check.deepEqual(await versionIds(h), ids(HISTORY));
    await run(h, "readwrite", (tx) => tx.deleteVersion("memver_06"));
    check.equal(await newest(h), "memver_06", "after the newest version's delete");
    check.deepEqual(await versionIds(h), ids(HISTORY).slice(0, -1));
  });

  c("a failed body takes back version writes and their indexes too", async (h) => {
    await run(h, "readwrite", (tx) => HISTORY.slice(0, 3).forEach((v) => tx.putVersion(v)));
    await check.rejects(
      h.transaction("readwrite", (tx) => {
        tx.deleteVersion("memver_01");
        tx.putVersion({ ...HISTORY[2], memoryId: "mem_z", content: "memver_09" });
        tx.putVersion(HISTORY[5]);
        tx.getNewestVersionId(() => {
          throw new Error("undo");
        });
      }),
      (error) => error instanceof Error && error.message === "undo",
      "the callback's own error",
    );
    check.deepEqual(await versionIds(h), ["memver_01", "memver_02", "memver_03"]);
    check.deepEqual(await versionsDesc(h, "mem_a", null, 10), ["memver_03", "memver_01"]);
    check.deepEqual(await versionsDesc(h, "mem_z", null, 10), []);
    check.deepEqual(await withContent(h, "memver_01"), ["memver_01", "memver_03"]);
    check.deepEqual(await withContent(h, "memver_09"), []);
  });

  c("store metadata (if the storage has it): archive flag, host state, clock", async (h) => {
    const has = await run(h, "readonly", (tx, done) => done(typeof tx.isArchived === "function" && typeof tx.getState === "function"));
    if (!has) return;
    const read = () =>
      run(h, "readonly", (tx, done) => {
        /** @type {any[]} */
        const out = [];
        /** @type {any} */ (tx).isArchived((/** @type {boolean} */ yes) => out.push(yes));
        /** @type {any} */ (tx).getState("sync", (/** @type {unknown} */ v) => out.push(v));
        /** @type {any} */ (tx).getState("other", (/** @type {unknown} */ v) => done([...out, v]));
      });
    check.deepEqual(await read(), [false, undefined, undefined], "a new store");
    await run(h, "readwrite", (tx) => {
      /** @type {any} */ (tx).putState("sync", { baseline: ["a", 1], at: 5 });
      /** @type {any} */ (tx).setArchived(7);
    });
    check.deepEqual(await read(), [true, { baseline: ["a", 1], at: 5 }, undefined]);
    await run(h, "readwrite", (tx) => /** @type {any} */ (tx).deleteState("sync"));
    check.deepEqual(await read(), [true, undefined, undefined], "after deleteState");
  });

  c("a closed handle refuses transactions with STORAGE_FAILED", async (_h, storage) => {
    const h = await storage.open(fresh());
    h.close();
    await check.rejects(h.transaction("readonly", () => {}), storageFailed, "a MemoryToolError with code STORAGE_FAILED");
  });

  c("an unknown mode is refused", async (h) => {
    await check.rejects(
      h.transaction(/** @type {any} */ ("versionchange"), () => {}),
      storageFailed,
      "a MemoryToolError with code STORAGE_FAILED",
    );
  });

  c("destroy (if the storage has it) drops a store: its handles refuse, the name opens empty", async (h, storage) => {
    if (typeof storage.destroy !== "function") return;
    const name = fresh();
    const doomed = await storage.open(name);
    await putFiles(doomed, ["/memories/a.md"]);
    await storage.destroy(name);
    await check.rejects(doomed.transaction("readonly", () => {}), storageFailed, "a MemoryToolError with code STORAGE_FAILED");
    doomed.close();
    const again = await storage.open(name);
    try {
      check.deepEqual(await subtree(again, ""), [], "the name opened again");
      check.equal(await count(again), 0, "its file count");
    } finally {
      again.close();
    }
    check.equal(await count(h), 0, "another store is untouched");
  });

  return cases;
}

// ---------------------------------------------------------------------------------------------
// The whole package over the storage, against the same calls over InMemoryStorage

/** The six commands, errors included; every answer must be the reference's, string for string. */
const SCRIPT = [
  { command: "view", path: "/memories" },
  { command: "create", path: "/memories/notes.md", file_text: "- one\n- two\n" },
  { command: "create", path: "/memories/a/b/c.md", file_text: "deep\n" },
  { command: "create", path: "/memories/a-b.md", file_text: "a sibling of a/\n" },
  { command: "view", path: "/memories" },
  { command: "view", path: "/memories/notes.md" },
  { command: "view", path: "/memories/notes.md", view_range: [2, 2] },
  { command: "str_replace", path: "/memories/notes.md", old_str: "two", new_str: "three" },
  { command: "str_replace", path: "/memories/notes.md", old_str: "missing", new_str: "x" },
  { command: "insert", path: "/memories/notes.md", insert_line: 0, insert_text: "# Notes\n" },
  { command: "create", path: "/memories/notes.md", file_text: "again" },
  { command: "view", path: "/memories/a" },
  { command: "rename", old_path: "/memories/a", new_path: "/memories/z" },
  { command: "view", path: "/memories/z/b/c.md" },
  { command: "view", path: "/memories/a/b/c.md" },
  { command: "create", path: "/memories/\u00e9t\u00e9.md", file_text: "caf\u00e9 \u{1F600}\n" },
  { command: "view", path: "/memories/e\u0301te\u0301.md" },
  { command: "rename", old_path: "/memories/notes.md", new_path: "/memories/\u00e9t\u00e9.md" },
  { command: "delete", path: "/memories/nothing.md" },
  { command: "delete", path: "/memories/z" },
  { command: "view", path: "/memories" },
  { command: "view", path: "/memories/notes.md" },
];

/**
 * The cases that run the package over storages from `makeStorage`.
 * @param {() => MemoryStorage} makeStorage
 * @param {NonNullable<ContractOptions["MemoryTool"]>} MemoryTool
 * @returns {ContractCase[]}
 */
function packageCases(makeStorage, MemoryTool) {
  /**
   * Opens a tool over the storage and one over InMemoryStorage, runs `body` on each, and
   * compares what the two gave.
   * @param {string} name
   * @param {(tool: Tool, storage: MemoryStorage, store: string) => Promise<unknown>} body
   * @param {object} [options] more MemoryTool.open options
   * @returns {ContractCase}
   */
  const both = (name, body, options = {}) => ({
    name,
    run: async () => {
      /** @type {unknown[]} */
      const answers = [];
      for (const storage of [makeStorage(), new InMemoryStorage()]) {
        const store = fresh();
        const tool = await MemoryTool.open({ ...options, storage, store });
        try {
          answers.push(await body(tool, storage, store));
        } finally {
          tool.close();
        }
      }
      check.deepEqual(answers[0], answers[1], "over this storage, against InMemoryStorage");
    },
  });
  /** @param {Tool} tool @param {object[]} script */
  const runScript = async (tool, script) => {
    const out = [];
    for (const input of script) out.push(await tool.execute(input));
    return out;
  };
  /** @param {Tool} tool */
  const view = async (tool) => (await tool.execute({ command: "view", path: "/memories" })).content;
  /** @param {Array<Record<string, unknown>>} versions */
  const shape = (versions) => versions.map((v) => [v.operation, v.path, v.content_size_bytes ?? null]);

  return [
    both("the six commands answer as over InMemoryStorage, errors included", (tool) => runScript(tool, SCRIPT)),

    both("a directory of 200 files: listed, renamed and deleted whole; usage follows", async (tool) => {
      const out = [];
      for (let i = 0; i < 200; i++) {
        await tool.execute({ command: "create", path: `/memories/dir/${String(i).padStart(3, "0")}.md`, file_text: `file ${i}\n`.repeat(i % 7 + 1) });
      }
      out.push(await view(tool), await tool.usage());
      out.push(await tool.execute({ command: "rename", old_path: "/memories/dir", new_path: "/memories/moved/dir" }));
      out.push(await view(tool), (await tool.execute({ command: "view", path: "/memories/moved/dir/123.md" })).content);
      out.push(await tool.execute({ command: "delete", path: "/memories/moved" }));
      out.push(await view(tool), await tool.usage());
      return out.map((x) => (x && typeof x === "object" && "origin" in x ? { files: x.files, bytes: x.bytes } : x));
    }),

    both(
      "a command refused by a limit changes nothing",
      async (tool) => {
        const out = await runScript(tool, [
          { command: "create", path: "/memories/1.md", file_text: "one" },
          { command: "create", path: "/memories/2.md", file_text: "two" },
          { command: "create", path: "/memories/3.md", file_text: "three" },
          { command: "create", path: "/memories/big.md", file_text: "x".repeat(2000) },
          { command: "str_replace", path: "/memories/1.md", old_str: "one", new_str: "y".repeat(2000) },
        ]);
        const usage = await tool.usage();
        return [out, await view(tool), usage.files, usage.bytes];
      },
      { limits: { maxFiles: 2, maxFileBytes: 1024 } },
    ),

    both("versions: each write is one, a redaction clears one, the history budget prunes", async (tool) => {
      await runScript(tool, [
        { command: "create", path: "/memories/v.md", file_text: "1\n" },
        { command: "str_replace", path: "/memories/v.md", old_str: "1", new_str: "2" },
        { command: "insert", path: "/memories/v.md", insert_line: 1, insert_text: "3\n" },
        { command: "rename", old_path: "/memories/v.md", new_path: "/memories/w.md" },
        { command: "str_replace", path: "/memories/w.md", old_str: "3", new_str: "4" },
      ]);
      const memory = await tool.memories.getByPath("/w.md");
      const page = await tool.versions.list({ memory_id: memory.id, limit: 100 });
      const versions = /** @type {Array<Record<string, unknown>>} */ (/** @type {unknown} */ (page.data));
      const oldest = /** @type {string} */ (versions[versions.length - 1].id);
      const redacted = await tool.versions.redact(oldest);
      const after = await tool.versions.list({ memory_id: memory.id, limit: 100 });
      return [shape(versions), redacted.redacted_at !== null, shape(/** @type {any} */ (after.data)), await view(tool)];
    }, { limits: { maxVersionsPerMemory: 4 } }),

    both("export with versions, then import into an empty store: the same memories", async (tool, storage) => {
      await runScript(tool, SCRIPT.slice(0, 10));
      const bundle = await tool.export({ include_versions: true });
      const into = await MemoryTool.open({ storage, store: fresh() });
      try {
        const result = await into.import(bundle);
        const memories = await into.memories.list();
        return [
          { ...result, versions: result.versions > 0 },
          await view(into),
          (await into.execute({ command: "view", path: "/memories/notes.md" })).content,
          memories.map((m) => [m.type, m.path]),
        ];
      } finally {
        into.close();
      }
    }),

    both("the host's state and the file count survive a reopen", async (tool, storage, store) => {
      await tool.state.set("contract", { n: 1, list: ["a", "\u{1F600}"] });
      await tool.execute({ command: "create", path: "/memories/kept.md", file_text: "kept\n" });
      const again = await MemoryTool.open({ storage, store });
      try {
        return [await again.state.get("contract"), await view(again), (await again.usage()).files];
      } finally {
        again.close();
      }
    }),
  ];
}

/**
 * The storage contract, for a storage that implements the storage interface itself
 * (docs/ARCHITECTURE.md#the-storage-interface). Methods the interface marks optional are
 * checked where the storage has them.
 * @param {() => MemoryStorage} makeStorage a new storage (or the same one: each case opens its own store names)
 * @param {ContractOptions} [options] `MemoryTool` to run the package over it too
 * @returns {ContractCase[]}
 */
export function storageContract(makeStorage, options = {}) {
  if (typeof makeStorage !== "function") {
    throw new MemoryToolError("INVALID_INPUT", "storageContract needs a function that makes a storage.");
  }
  const cases = interfaceCases(makeStorage);
  if (options.MemoryTool !== undefined) cases.push(...packageCases(makeStorage, options.MemoryTool));
  return cases;
}

// ---------------------------------------------------------------------------------------------
// The five requests of a key-value backend

/**
 * Runs one key-value transaction; resolves to what `body` hands to `done`.
 * @template T
 * @param {KeyValueStore} store
 * @param {"readonly" | "readwrite"} mode
 * @param {(tx: KeyValueTx, done: (value: T) => void) => void} body
 * @returns {Promise<T>}
 */
function kv(store, mode, body) {
  /** @type {any} */
  let value;
  return Promise.resolve(store.transaction(mode, (tx) => body(tx, (v) => (value = v)))).then(() => value);
}

/** Keys in code-unit order, as a backend must order them (a sort by code point would not). */
const ORDERED = ["a", "a\u0000", "a\u0000\u0000", "a\u0001", "a/", "a0", "aa", "a\u00e9", "a\ud83d\ude00", "a\uffff", "b"];

/**
 * @param {() => KeyValueBackend} makeBackend
 * @returns {ContractCase[]}
 */
function backendCases(makeBackend) {
  /** @type {ContractCase[]} */
  const cases = [];
  /**
   * @param {string} name
   * @param {(store: KeyValueStore, backend: KeyValueBackend) => Promise<void>} body
   */
  const c = (name, body) =>
    cases.push({
      name: `backend: ${name}`,
      run: async () => {
        const backend = makeBackend();
        const store = await backend.open(fresh());
        try {
          await body(store, backend);
        } finally {
          store.close();
        }
      },
    });
  /** @param {KeyValueStore} store @param {string} lower @param {string} upper @param {{ limit?: number, reverse?: boolean }} [options] */
  const keys = (store, lower, upper, options = {}) =>
    kv(store, "readonly", (tx, done) => tx.getRange(lower, upper, options, (entries) => done(entries.map(([k]) => k))));
  /** @param {KeyValueStore} store @param {string[]} list */
  const putAll = (store, list) => kv(store, "readwrite", (tx) => list.forEach((k, i) => tx.put(k, i)));

  c("get: a missing key is undefined; a put value reads back equal, as a copy", async (store) => {
    const value = { path: "/a.md", size: 3, nested: { list: [1, "two", null] }, none: null };
    const bytes = new Uint8Array([0, 1, 254, 255]);
    const got = await kv(store, "readwrite", (tx, done) => {
      tx.put("r", value);
      tx.put("b", bytes);
      tx.put("s", "text \u{1F600}");
      tx.put("n", 0);
      tx.get("missing", (missing) => done(missing));
    });
    check.equal(got, undefined, "a missing key");
    value.nested.list[0] = 9;
    bytes[0] = 9;
    const back = await kv(store, "readonly", (tx, done) => {
      /** @type {unknown[]} */
      const out = [];
      tx.get("r", (v) => out.push(v));
      tx.get("b", (v) => out.push(v));
      tx.get("s", (v) => out.push(v));
      tx.get("n", (v) => done([...out, v]));
    });
    check.deepEqual(back[0], { path: "/a.md", size: 3, nested: { list: [1, "two", null] }, none: null }, "an object");
    check.ok(back[1] instanceof Uint8Array, `bytes read back as a Uint8Array, not ${show(back[1])}`);
    check.deepEqual(back[1], new Uint8Array([0, 1, 254, 255]), "bytes");
    check.equal(back[2], "text \u{1F600}", "a string");
    check.equal(back[3], 0, "a number");
    /** @type {any} */ (back[0]).size = 7;
    const again = await kv(store, "readonly", (tx, done) => tx.get("r", done));
    check.equal(/** @type {any} */ (again).size, 3, "a read gives a copy");
  });

  c("getRange: [lower, upper) in UTF-16 code unit order, \\0 and surrogates included", async (store) => {
    await putAll(store, [...ORDERED].reverse());
    check.deepEqual(await keys(store, "", "\uffff\uffff"), ORDERED, "every key");
    check.deepEqual(await keys(store, "a", "a0"), ORDERED.slice(0, 5), "[a, a0)");
    check.deepEqual(await keys(store, "a\u0000", "a\u0001"), ["a\u0000", "a\u0000\u0000"], "[a\\0, a\\x01)");
    check.deepEqual(await keys(store, "a\ud83d", "b"), ["a\ud83d\ude00", "a\uffff"], "from a lone high surrogate");
    check.deepEqual(await keys(store, "a0", "a0"), [], "an empty range");
    check.deepEqual(await keys(store, "b", "a"), [], "a range upside down");
    const entries = await kv(store, "readonly", (tx, done) => tx.getRange("aa", "a\u00ea", {}, done));
    check.deepEqual(entries, [["aa", ORDERED.length - 1 - ORDERED.indexOf("aa")], ["a\u00e9", ORDERED.length - 1 - ORDERED.indexOf("a\u00e9")]], "entries are [key, value]");
  });

  c("getRange: limit and reverse", async (store) => {
    await putAll(store, ORDERED);
    check.deepEqual(await keys(store, "a", "b", { limit: 2 }), ["a", "a\u0000"], "the first 2");
    check.deepEqual(await keys(store, "a", "b", { reverse: true, limit: 2 }), ["a\uffff", "a\ud83d\ude00"], "the last 2, highest first");
    check.deepEqual(await keys(store, "a\u0000", "a\u0001", { reverse: true }), ["a\u0000\u0000", "a\u0000"], "reverse without a limit");
    check.deepEqual(await keys(store, "a", "b", { limit: 0 }), [], "limit 0");
    check.deepEqual(await keys(store, "", "\uffff", { limit: 100 }), ORDERED, "a limit above the count");
  });

  c("put overwrites; delete and deleteRange remove only what they name", async (store) => {
    await putAll(store, [...ORDERED, "\u00e9", "\ud83d\ude00"]);
    await kv(store, "readwrite", (tx) => {
      tx.put("aa", "new");
      tx.delete("a0");
      tx.delete("never-there");
      tx.deleteRange("a\u0000", "a/");
    });
    check.deepEqual(await keys(store, "", "\uffff"), ["a", "a/", "aa", "a\u00e9", "a\ud83d\ude00", "a\uffff", "b", "\u00e9", "\ud83d\ude00"]);
    check.equal(await kv(store, "readonly", (tx, done) => tx.get("aa", done)), "new", "the overwritten value");
    await kv(store, "readwrite", (tx) => tx.deleteRange("", "\u007f"));
    check.deepEqual(await keys(store, "", "\uffff"), ["\u00e9", "\ud83d\ude00"], "deleteRange('', '\\x7f') leaves only the keys above it");
  });

  c("a transaction reads its own writes, and callbacks come in request order", async (store) => {
    const seen = await kv(store, "readwrite", (tx, done) => {
      /** @type {unknown[]} */
      const order = [];
      tx.put("k1", 1);
      tx.get("k1", (v) => order.push(["get k1", v]));
      tx.put("k2", 2);
      tx.getRange("k", "l", { reverse: true, limit: 2 }, (e) => order.push(["last two", e.map(([k]) => k)]));
      tx.get("k2", (v) => order.push(["get k2", v]));
      tx.getRange("k", "l", {}, (e) => {
        order.push(["range", e.map(([k]) => k)]);
        // A request made in a callback belongs to the same transaction.
        tx.delete("k1");
        tx.get("k1", (v) => {
          order.push(["get k1 again", v]);
          done(order);
        });
      });
    });
    check.deepEqual(seen, [
      ["get k1", 1],
      ["last two", ["k2", "k1"]],
      ["get k2", 2],
      ["range", ["k1", "k2"]],
      ["get k1 again", undefined],
    ]);
    check.deepEqual(await keys(store, "k", "l"), ["k2"], "what stayed");
  });

  c("a body or callback that throws takes back every write and rejects with that error", async (store) => {
    await putAll(store, ["keep"]);
    const boom = new Error("boom");
    await check.rejects(
      Promise.resolve(
        store.transaction("readwrite", (tx) => {
          tx.put("new", 1);
          tx.delete("keep");
          throw boom;
        }),
      ),
      (error) => error === boom,
      "the body's own error",
    );
    const late = new Error("late");
    await check.rejects(
      Promise.resolve(
        store.transaction("readwrite", (tx) => {
          tx.put("new", 1);
          tx.get("keep", () => {
            tx.deleteRange("", "\u007f");
            tx.get("keep", () => {
              throw late;
            });
          });
        }),
      ),
      (error) => error === late,
      "the callback's own error",
    );
    check.deepEqual(await keys(store, "", "\u007f"), ["keep"], "after both rollbacks");
  });

  c("transactions of one store run one after another, in the order asked", async (store) => {
    await putAll(store, ["n"]);
    const all = [];
    /** @type {string[]} */
    const order = [];
    for (let i = 0; i < 20; i++) {
      all.push(
        kv(store, "readwrite", (tx) =>
          tx.get("n", (n) => tx.get("n", () => {
            order.push(String(i));
            tx.put("n", /** @type {number} */ (n) + 1);
          })),
        ),
      );
    }
    await Promise.all(all);
    check.equal(await kv(store, "readonly", (tx, done) => tx.get("n", done)), 20, "the counter after 20 increments");
    check.deepEqual(order, Array.from({ length: 20 }, (_, i) => String(i)), "the order they ran in");
  });

  c("stores of one backend are apart; a store opened again holds its keys", async (store, backend) => {
    const name = fresh();
    const one = await backend.open(name);
    await putAll(one, ["x"]);
    one.close();
    const two = await backend.open(name);
    try {
      check.deepEqual(await keys(two, "", "\u007f"), ["x"], "the store opened again");
      check.deepEqual(await keys(store, "", "\u007f"), [], "another store");
    } finally {
      two.close();
    }
  });

  return cases;
}

/**
 * The storage contract for a key-value backend of your own (docs/STORAGE.md): its five
 * requests, then the storage interface over `KeyValueStorage(backend)`, then (with
 * `MemoryTool`) the package over it.
 * @param {() => KeyValueBackend} makeBackend a new backend (or the same one: each case opens its own store names)
 * @param {ContractOptions} [options]
 * @returns {ContractCase[]}
 */
export function keyValueContract(makeBackend, options = {}) {
  if (typeof makeBackend !== "function") {
    throw new MemoryToolError("INVALID_INPUT", "keyValueContract needs a function that makes a backend.");
  }
  return [...backendCases(makeBackend), ...storageContract(() => new KeyValueStorage(makeBackend()), options)];
}
