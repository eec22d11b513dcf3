// Record layouts over IndexedDB, by hand: what a schema after the current one (five stores, four
// requests a memory: its bytes, its file record, its listing key, its version) would cost,
// measured before one is designed on it (docs/BENCHMARKS.md#record-layouts). Each layout puts
// `count` memories of `bytes` bytes in one transaction, then times the reads the package's
// commands make of it: the listing `view /memories` needs (every path with its size), the
// records `memories.list` reads (no content), and one file's view (its record and its text).
// Runs in the bench page (bench/page.mjs); `npm run bench -- --only layout` prints the table.

import { summarize } from "./stats.mjs";

const PREFIX = "memory-tool-bench-layout:";

/** A 64-character hex digest stand-in (the layouts store one; none is computed). */
const SHA = "0".repeat(64);

/**
 * A layout: its object stores and what one memory's import writes into them.
 * @typedef {object} Layout
 * @property {string} name
 * @property {string} what
 * @property {(db: IDBDatabase) => void} upgrade
 * @property {string[]} stores
 * @property {(tx: IDBTransaction, memory: Memory) => void} put
 * @property {(tx: IDBTransaction, done: (entries: Array<[string, number]>) => void) => void} listing
 * @property {(tx: IDBTransaction, done: (records: unknown[]) => void) => void} records
 * @property {(tx: IDBTransaction, path: string, done: (text: unknown) => void) => void} view
 */
/** @typedef {{ path: string, id: string, version: string, text: string, bytes: Uint8Array }} Memory */

/** The listing key of the current schema: the path, a NUL, the size. */
const listingKey = (/** @type {string} */ path, /** @type {number} */ size) => `${path}\u0000${size}`;

/** Paths and sizes from listing keys. @param {IDBValidKey[]} keys @returns {Array<[string, number]>} */
function fromListingKeys(keys) {
  return keys.map((key) => {
    const text = String(key);
    const cut = text.lastIndexOf("\u0000");
    return [text.slice(0, cut), Number(text.slice(cut + 1))];
  });
}

/** A file record without its bytes, as the current schema keeps it. @param {Memory} m */
function fileRecord(m, extra = {}) {
  return {
    path: m.path,
    id: m.id,
    size: m.bytes.length,
    sha256: SHA,
    createdAt: 1,
    updatedAt: 1,
    version: m.version,
    content: `${m.path}\u0000${m.version}`,
    accessedAt: 1,
    ...extra,
  };
}

/** A version record as the current schema keeps it. @param {Memory} m */
function versionRecord(m, extra = {}) {
  return {
    id: m.version,
    memoryId: m.id,
    path: m.path,
    operation: "created",
    size: m.bytes.length,
    sha256: SHA,
    content: `${m.path}\u0000${m.version}`,
    createdBy: { type: "host" },
    ...extra,
  };
}

/**
 * The listing by a key cursor over index `listing` of `files` (each entry's index key is
 * `path\0size`): one callback per file.
 * @param {IDBTransaction} tx
 * @param {(entries: Array<[string, number]>) => void} done
 */
function listingByCursor(tx, done) {
  /** @type {IDBValidKey[]} */
  const keys = [];
  const request = tx.objectStore("files").index("listing").openKeyCursor();
  request.onsuccess = () => {
    const cursor = request.result;
    if (cursor) {
      keys.push(cursor.key);
      cursor.continue();
    } else {
      done(fromListingKeys(keys));
    }
  };
}

/**
 * The listing by `getAllRecords` of index `listing` (the index keys with their records, in one
 * request), where the browser has it; else null.
 * @param {IDBTransaction} tx
 * @param {(entries: Array<[string, number]> | null) => void} done
 */
function listingByRecords(tx, done) {
  const index = /** @type {any} */ (tx.objectStore("files").index("listing"));
  if (typeof index.getAllRecords !== "function") return done(null);
  const request = index.getAllRecords();
  request.onsuccess = () => done(fromListingKeys(request.result.map((/** @type {any} */ r) => r.key)));
}

/**
 * One round, as the package views a file: the record and, in parallel, the newest bytes under
 * the path's content keys (`path\0version`: a cursor, backwards).
 * @param {IDBTransaction} tx
 * @param {string} path
 * @param {(text: unknown) => void} done
 */
function headView(tx, path, done) {
  const record = tx.objectStore("files").get(path);
  const head = tx.objectStore("contents").openCursor(IDBKeyRange.bound(`${path}\u0000`, `${path}\u0001`, false, true), "prev");
  head.onsuccess = () => done(record.result && head.result ? head.result.value : undefined);
}

/**
 * Every record of `store`, in one `getAll`.
 * @param {string} store
 * @returns {Layout["records"]}
 */
const allOf = (store) => (tx, done) => {
  const request = tx.objectStore(store).getAll();
  request.onsuccess = () => done(request.result);
};

/**
 * The listing from every record of `store` (one `getAll`, the texts with them if they hold any).
 * @param {string} store
 * @returns {Layout["listing"]}
 */
const sizesOf = (store) => (tx, done) => allOf(store)(tx, (records) => done(records.map((/** @type {any} */ r) => [r.path, r.size])));

/** A file's view when its record holds its bytes: one request. @type {Layout["view"]} */
const bytesInRecord = (tx, path, done) => {
  const record = tx.objectStore("files").get(path);
  record.onsuccess = () => done(record.result?.bytes);
};

/**
 * The file store (`id` index, and a `listing` index if asked) and the version store (by
 * memory, and by content if asked), with a content store if asked.
 * @param {IDBDatabase} db
 * @param {{ listingIndex: boolean, contents: boolean }} options
 */
function indexedStores(db, { listingIndex, contents }) {
  const files = db.createObjectStore("files", { keyPath: "path" });
  files.createIndex("id", "id", { unique: true });
  if (listingIndex) files.createIndex("listing", "listing");
  if (contents) db.createObjectStore("contents");
  const versions = db.createObjectStore("versions", { keyPath: "id" });
  versions.createIndex("memory", ["memoryId", "id"]);
  if (contents) versions.createIndex("content", "content");
}

/** @type {Layout[]} */
export const LAYOUTS = [
  {
    name: "one record",
    what: "idb's: one store, `{ path, content, size, updatedAt }` with the text in it (1 request a memory)",
    stores: ["m"],
    upgrade: (db) => void db.createObjectStore("m", { keyPath: "path" }),
    put: (tx, m) => void tx.objectStore("m").put({ path: m.path, content: m.text, size: m.text.length, updatedAt: 1 }),
    listing: sizesOf("m"),
    records: allOf("m"),
    view: (tx, path, done) => {
      const request = tx.objectStore("m").get(path);
      request.onsuccess = () => done(request.result?.content);
    },
  },
  {
    name: "schema 5 (today)",
    what: "the package's: file record, bytes, listing key, version in four stores (4 requests)",
    stores: ["files", "contents", "listing", "versions"],
    upgrade: (db) => {
      indexedStores(db, { listingIndex: false, contents: true });
      db.createObjectStore("listing");
    },
    put: (tx, m) => {
      tx.objectStore("contents").put(m.bytes, `${m.path}\u0000${m.version}`);
      tx.objectStore("files").put(fileRecord(m));
      tx.objectStore("listing").put(null, listingKey(m.path, m.bytes.length));
      tx.objectStore("versions").put(versionRecord(m));
    },
    listing: (tx, done) => {
      const request = tx.objectStore("listing").getAllKeys();
      request.onsuccess = () => done(fromListingKeys(request.result));
    },
    records: allOf("files"),
    view: headView,
  },
  {
    name: "listing index",
    what: "the listing key as an index of the file store: bytes, file record, version (3 requests)",
    stores: ["files", "contents", "versions"],
    upgrade: (db) => indexedStores(db, { listingIndex: true, contents: true }),
    put: (tx, m) => {
      tx.objectStore("contents").put(m.bytes, `${m.path}\u0000${m.version}`);
      tx.objectStore("files").put(fileRecord(m, { listing: listingKey(m.path, m.bytes.length) }));
      tx.objectStore("versions").put(versionRecord(m));
    },
    listing: listingByCursor,
    records: allOf("files"),
    view: headView,
  },
  {
    name: "bytes in the version",
    what: "listing index; the bytes inside the version record the file names (2 requests)",
    stores: ["files", "versions"],
    upgrade: (db) => indexedStores(db, { listingIndex: true, contents: false }),
    put: (tx, m) => {
      tx.objectStore("files").put(fileRecord(m, { listing: listingKey(m.path, m.bytes.length) }));
      tx.objectStore("versions").put(versionRecord(m, { bytes: m.bytes }));
    },
    listing: listingByCursor,
    records: allOf("files"),
    view: (tx, path, done) => {
      // Two rounds: the record names its version.
      const record = tx.objectStore("files").get(path);
      record.onsuccess = () => {
        if (!record.result) return done(undefined);
        const version = tx.objectStore("versions").get(record.result.version);
        version.onsuccess = () => done(version.result?.bytes);
      };
    },
  },
  {
    name: "bytes in the file",
    what: "listing index; the head's bytes inside the file record, the version without them (2 requests)",
    stores: ["files", "versions"],
    upgrade: (db) => indexedStores(db, { listingIndex: true, contents: false }),
    put: (tx, m) => {
      tx.objectStore("files").put(fileRecord(m, { listing: listingKey(m.path, m.bytes.length), bytes: m.bytes }));
      tx.objectStore("versions").put(versionRecord(m));
    },
    listing: listingByCursor,
    records: allOf("files"),
    view: bytesInRecord,
  },
  {
    name: "file and version, no index",
    what: "the least a memory with one version takes: its record with its bytes, its version, no index on either (2 requests)",
    stores: ["files", "versions"],
    upgrade: (db) => {
      db.createObjectStore("files", { keyPath: "path" });
      db.createObjectStore("versions", { keyPath: "id" });
    },
    put: (tx, m) => {
      tx.objectStore("files").put(fileRecord(m, { bytes: m.bytes }));
      tx.objectStore("versions").put(versionRecord(m));
    },
    listing: sizesOf("files"),
    records: allOf("files"),
    view: bytesInRecord,
  },
];

/** @param {string} name @param {(db: IDBDatabase) => void} upgrade @returns {Promise<IDBDatabase>} */
function openDb(name, upgrade) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => upgrade(request.result);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** @param {string} name @returns {Promise<void>} */
function deleteDb(name) {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

/**
 * Runs `body` in a transaction over `stores`; resolves with what `body`'s callback gave, once
 * the transaction completed, and the time from its start to then.
 * @template T
 * @param {IDBDatabase} db
 * @param {string[]} stores
 * @param {IDBTransactionMode} mode
 * @param {(tx: IDBTransaction, done: (value: T) => void) => void} body
 * @returns {Promise<{ value: T | undefined, ms: number }>}
 */
function timed(db, stores, mode, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const tx = db.transaction(stores, mode);
    /** @type {T | undefined} */
    let value;
    body(tx, (v) => {
      value = v;
    });
    tx.oncomplete = () => resolve({ value, ms: performance.now() - started });
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

/**
 * Every layout, `runs` times interleaved: the put of `count` memories of `bytes` bytes in one
 * transaction into a fresh database, then (over it) the listing, the records and `views`
 * views of single files.
 * @param {{ count: number, bytes: number, runs: number, views?: number }} options
 */
export async function layoutCases({ count, bytes, runs, views = 50 }) {
  const encoder = new TextEncoder();
  /** @type {Memory[]} */
  const memories = [];
  for (let i = 0; i < count; i++) {
    const text = `note ${i} `.padEnd(bytes, "x");
    memories.push({
      path: `/dir/note-${String(i).padStart(6, "0")}.md`,
      id: `mem_${String(i).padStart(20, "0")}`,
      version: `ver_${String(i).padStart(24, "0")}`,
      text,
      bytes: encoder.encode(text),
    });
  }
  /** @type {Map<string, { put: number[], listing: number[], records: number[], view: number[], listingRecords: number[] }>} */
  const times = new Map(LAYOUTS.map((l) => [l.name, { put: [], listing: [], records: [], view: [], listingRecords: [] }]));
  for (let run = 0; run < runs; run++) {
    for (const layout of LAYOUTS) {
      const name = `${PREFIX}${layout.name}:${run}`;
      await deleteDb(name);
      const db = await openDb(name, layout.upgrade);
      const t = /** @type {NonNullable<ReturnType<typeof times.get>>} */ (times.get(layout.name));
      const put = await timed(db, layout.stores, "readwrite", (tx, done) => {
        for (const m of memories) layout.put(tx, m);
        done(true);
      });
      t.put.push(put.ms);
      const listing = await timed(db, layout.stores, "readonly", layout.listing);
      if (!Array.isArray(listing.value) || listing.value.length !== count || listing.value[0]?.[1] !== bytes) {
        throw new Error(`layout ${layout.name}: the listing gave ${JSON.stringify(listing.value?.slice?.(0, 1))} of ${listing.value?.length}`);
      }
      t.listing.push(listing.ms);
      if (layout.listing === listingByCursor) {
        const byRecords = await timed(db, layout.stores, "readonly", listingByRecords);
        if (byRecords.value !== null && byRecords.value !== undefined) t.listingRecords.push(byRecords.ms);
      }
      const records = await timed(db, layout.stores, "readonly", layout.records);
      t.records.push(records.ms);
      for (let v = 0; v < views; v++) {
        const m = memories[(v * 7919) % count];
        const view = await timed(db, layout.stores, "readonly", (tx, done) => layout.view(tx, m.path, done));
        if (view.value === undefined) throw new Error(`layout ${layout.name}: no text for ${m.path}`);
        t.view.push(view.ms);
      }
      db.close();
      await deleteDb(name);
    }
    console.log(`bench-layout: run ${run + 1} of ${runs} done`);
  }
  const base = /** @type {NonNullable<ReturnType<typeof times.get>>} */ (times.get(LAYOUTS[0].name));
  const median = (/** @type {number[]} */ xs) => summarize(xs).median_ms;
  return LAYOUTS.map((layout) => {
    const t = /** @type {NonNullable<ReturnType<typeof times.get>>} */ (times.get(layout.name));
    return {
      suite: "chromium-layout",
      case: layout.name,
      what: layout.what,
      count,
      bytes,
      runs,
      put_ms: t.put.map((ms) => Math.round(ms)),
      put_ratio: Math.round((median(t.put) / median(base.put)) * 100) / 100,
      listing_median_ms: median(t.listing),
      listing_records_median_ms: t.listingRecords.length > 0 ? median(t.listingRecords) : null,
      records_median_ms: median(t.records),
      view_median_ms: median(t.view),
    };
  });
}
