// The floor each command is measured against: a hand-written IndexedDB transaction, in the page,
// with no wasm and no adapter, issuing the same requests as the package does for that command
// over the same schema (src/js/indexeddb-schema.js, version 5: `files` by path with unique index
// `id`, `contents` by content key (`{path}\0{version id}` for a head's bytes), `versions` by id with indexes `memory` and `content`,
// `listing` by `{path}\0{size}` key, `meta` with the store's metadata record under "store"):
// the same reads in the same rounds (a round's requests in parallel, the next round once they
// have all answered), then the same writes of records of the same shape and the same bytes, in
// one transaction over the same five object stores with the same durability. The records and
// bytes it writes are made before the clock starts (hashing, rendering and text editing are the
// core's job, which is what the ratio measures); it only reads what the next round needs
// (`files.get(path).content` for the content read, the metadata record it writes back).
// This floor is the package's own yardstick ("are the wasm and the adapter cheap?"); what a web
// developer would write instead is the other one, bench/alternatives/ (docs/BENCHMARKS.md).
//
// Each function returns a promise that settles when the transaction completes, as
// `StoreHandle.transaction` does.
//
// What the package reads, per command (`node bench/request-trace.mjs` prints it; round by round):
//   view file         files.get(p), contents.openCursor([p\0, p\x01), "prev")  (one round: the
//                     head's bytes by the file key; a head a rename moved: | contents.get)
//   view directory    files.get(d) | listing.getAllKeys([d/, d0))  (view /memories: ["/", "0"),
//                     one round)
//   create            files.get(p), files.get(a) for each directory a on the way,
//                     files.getKey([p/, p0)), meta.get       | writes
//   str_replace,      files.get(p), meta.get, contents.openCursor([p\0, p\x01), "prev") | writes
//   insert            (the history budget: the record's count, within budget, so no
//                     versions.memory.getAll)
//   rename directory  files.get(d), files.get(e), files.getAll([d/, d0)), meta.get,
//                     files.getKey([e/, e0))                 | writes
//   delete directory  files.get(d), files.getAll([d/, d0)), meta.get | writes
// Writes: create, str_replace and insert put the content, the file record and a version, and
// (create, or a size that changed) the file's listing key `{path}\0{size}` (the old one
// deleted); rename deletes the old directory's file records and listing keys with one key range
// each, then puts each file record, its new listing key and a version per file; delete deletes
// the directory's records and listing keys with one key range each and puts a version per file.
// Every write ends with one meta.put of the updated metadata record.

export const STORES = ["files", "contents", "versions", "listing", "meta"];
/** The key of the metadata record in `meta` (schema version 4). */
export const META_KEY = "store";

/** A file's key in the `listing` store (schema version 3 on): `{path}\0{size}`. */
export function listingKey(/** @type {string} */ path, /** @type {number} */ size) {
  return `${path}\u0000${size}`;
}

/**
 * @typedef {object} Env
 * @property {IDBDatabase} db
 * @property {"default" | "strict" | "relaxed"} [durability]
 */

/**
 * Runs `rounds` in one transaction: each round gets the previous round's results and returns
 * its requests (issued at once), or nothing for a round that only writes.
 * @param {Env} env
 * @param {IDBTransactionMode} mode
 * @param {Array<(stores: Record<string, IDBObjectStore>, previous: any[]) => IDBRequest[] | void>} rounds
 * @param {string[]} [scope] the object stores of the transaction (all five unless given: the
 *   package scopes a view's read-only transaction to the stores a view reads)
 * @returns {Promise<void>}
 */
export function transaction({ db, durability = "default" }, mode, rounds, scope = STORES) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(scope, mode, { durability });
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error("baseline transaction aborted"));
    /** @type {Record<string, IDBObjectStore>} */
    const stores = {};
    for (const name of scope) stores[name] = tx.objectStore(name);
    let i = 0;
    /** @param {any[]} previous */
    const next = (previous) => {
      if (i === rounds.length) return;
      const requests = /** @type {IDBRequest[]} */ (rounds[i++](stores, previous) ?? []);
      if (requests.length === 0) {
        next([]);
        return;
      }
      let pending = requests.length;
      /** @type {any[]} */
      const results = [];
      requests.forEach((request, k) => {
        request.onsuccess = () => {
          results[k] = request.result;
          if (--pending === 0) next(results);
        };
      });
    };
    next([]);
  });
}

/** `[path + "/", path + "0")`: every key below `path` (the adapter's `#subtree`). @param {string} path */
export function below(path) {
  return IDBKeyRange.bound(`${path}/`, `${path}0`, false, true);
}

/**
 * The key range of the contents of the heads written at `path`: `[path\0, path\x01)`.
 * @param {string} path
 */
export function headRange(path) {
  return IDBKeyRange.bound(`${path}\u0000`, `${path}\u0001`, false, true);
}

/**
 * view of a file: its record and its head's bytes by the file key, in one round.
 * @param {Env} env
 * @param {string} path store path (`/doc.md`)
 */
export function viewFile(env, path) {
  return transaction(env, "readonly", [({ files, contents }) => [files.get(path), contents.openCursor(headRange(path), "prev")]], VIEW_STORES);
}

/** The object stores of a view's transaction: what its reads use. */
export const VIEW_STORES = ["files", "contents", "listing"];

/**
 * view of a directory: the listing keys (path and size) of every file below it.
 * @param {Env} env
 * @param {string} path store path of the directory (`""` for /memories)
 */
export function viewDirectory(env, path) {
  return transaction(env, "readonly", [({ listing }) => [listing.getAllKeys(below(path))]], VIEW_STORES);
}

/**
 * The newest version id by a key cursor, as the package read it before schema 4 (bench/probe.mjs
 * still compares with it); the package now reads it from the metadata record.
 * @param {IDBObjectStore} versions
 */
export function newestVersionId(versions) {
  return versions.openKeyCursor(null, "prev");
}

/**
 * The metadata record after a write, from the one read in the first round: `files` and
 * `bytes` changed by the deltas, `newestVersion` the last version written (what the
 * package's `finish()` puts; its arithmetic is part of the floor, a few additions).
 * @param {any} meta the record read (undefined in a database without one)
 * @param {number} files
 * @param {number} bytes
 * @param {string} newestVersion
 */
function nextMeta(meta, files, bytes, newestVersion) {
  const now = Date.now();
  const base = meta ?? { files: 0, bytes: 0, createdAt: now, archivedAt: null };
  return { ...base, files: base.files + files, bytes: base.bytes + bytes, newestVersion, changedAt: now };
}

/**
 * Each directory on the way to store path `path`: `/a/b/c.md` gives `/a`, `/a/b`.
 * @param {string} path
 */
export function ancestorsOf(path) {
  const out = [];
  for (let i = path.indexOf("/", 1); i > 0; i = path.indexOf("/", i + 1)) out.push(path.slice(0, i));
  return out;
}

/**
 * create: the place is free (its record, each directory on the way is not a file, no
 * children) and the metadata record, then content, record, listing key, version, metadata.
 * @param {Env} env
 * @param {{ record: Record<string, any>, version: Record<string, any>, bytes: Uint8Array }} write
 */
export function create(env, { record, version, bytes }) {
  return transaction(env, "readwrite", [
    ({ files, meta }) => [
      files.get(record.path),
      ...ancestorsOf(record.path).map((dir) => files.get(dir)),
      files.getKey(below(record.path)),
      meta.get(META_KEY),
    ],
    ({ files, contents, versions, listing, meta }, read) => {
      contents.put(bytes, record.content);
      files.put(record);
      listing.put(null, listingKey(record.path, record.size));
      versions.put(version);
      meta.put(nextMeta(read[read.length - 1], 1, record.size, version.id), META_KEY);
    },
  ]);
}

/**
 * str_replace or insert: the record (with its history count), the metadata record and the
 * head's bytes by the file key, then the new content, record, listing key (when the size
 * changed), version and metadata.
 * @param {Env} env
 * @param {{ record: Record<string, any>, version: Record<string, any>, bytes: Uint8Array }} write
 */
export function edit(env, { record, version, bytes }) {
  /** @type {any} */ let old;
  /** @type {any} */ let storeMeta;
  return transaction(env, "readwrite", [
    ({ files, meta, contents }) => [files.get(record.path), meta.get(META_KEY), contents.openCursor(headRange(record.path), "prev")],
    ({ files, contents, versions, listing, meta }, first) => {
      [old, storeMeta] = first;
      contents.put(bytes, record.content);
      files.put(record);
      // The package changes the listing key only when the size changed.
      if (old.size !== record.size) {
        listing.delete(listingKey(record.path, old.size));
        listing.put(null, listingKey(record.path, record.size));
      }
      versions.put(version);
      meta.put(nextMeta(storeMeta, 0, record.size - old.size, version.id), META_KEY);
    },
  ]);
}

/**
 * rename of a directory: both places and the metadata record, then the old directory's file
 * records and listing keys by one key range each, then per file its new record, listing key
 * and a version, then the metadata.
 * @param {Env} env
 * @param {string} from store path of the directory
 * @param {string} to
 * @param {Array<{ from: string, record: Record<string, any>, version: Record<string, any> }>} moves
 */
export function renameDirectory(env, from, to, moves) {
  return transaction(env, "readwrite", [
    ({ files, meta }) => [files.get(from), files.get(to), files.getAll(below(from)), meta.get(META_KEY), files.getKey(below(to))],
    ({ files, versions, listing, meta }, [, , , storeMeta]) => {
      files.delete(below(from));
      listing.delete(below(from));
      for (const move of moves) {
        files.put(move.record);
        listing.put(null, listingKey(move.record.path, move.record.size));
        versions.put(move.version);
      }
      meta.put(nextMeta(storeMeta, 0, 0, moves[moves.length - 1].version.id), META_KEY);
    },
  ]);
}

/**
 * delete of a directory: its record, children and the metadata record, then its file records
 * and listing keys by one key range each, a version per file, the metadata.
 * @param {Env} env
 * @param {string} path store path of the directory
 * @param {Array<{ path: string, size: number, version: Record<string, any> }>} deletes
 */
export function deleteDirectory(env, path, deletes) {
  return transaction(env, "readwrite", [
    ({ files, meta }) => [files.get(path), files.getAll(below(path)), meta.get(META_KEY)],
    ({ files, versions, listing, meta }, [, , storeMeta]) => {
      files.delete(below(path));
      listing.delete(below(path));
      let bytes = 0;
      for (const gone of deletes) {
        versions.put(gone.version);
        bytes += gone.size;
      }
      meta.put(nextMeta(storeMeta, -deletes.length, -bytes, deletes[deletes.length - 1].version.id), META_KEY);
    },
  ]);
}

/**
 * Puts records straight into a database, in one transaction (populating stores, restoring a
 * deleted directory between runs; never timed), and then, in the same transaction, the
 * metadata record counted anew from the listing keys and the newest version id, so the
 * package finds its store as its own writes would have left it.
 * @param {Env} env
 * @param {{ files?: Array<Record<string, any>>, versions?: Array<Record<string, any>>, contents?: Array<[string, Uint8Array]>, deleteFiles?: string[] }} records
 */
export function putAll(env, { files = [], versions = [], contents = [], deleteFiles = [] }) {
  return transaction(env, "readwrite", [
    (stores) => {
      /** @param {string} path */
      const unlist = (path) => stores.listing.delete(IDBKeyRange.bound(`${path}\u0000`, `${path}\u0001`, false, true));
      for (const path of deleteFiles) {
        stores.files.delete(path);
        unlist(path);
      }
      for (const [key, bytes] of contents) stores.contents.put(bytes, key);
      for (const record of files) {
        stores.files.put(record);
        unlist(record.path);
        stores.listing.put(null, listingKey(record.path, record.size));
      }
      for (const record of versions) stores.versions.put(record);
      // Requests run in order: these see the writes above.
      return [stores.listing.getAllKeys(), newestVersionId(stores.versions), stores.meta.get(META_KEY)];
    },
    ({ meta }, [keys, cursor, old]) => {
      let bytes = 0;
      for (const key of /** @type {string[]} */ (keys)) bytes += Number(key.slice(key.lastIndexOf("\u0000") + 1));
      const now = Date.now();
      meta.put(
        { createdAt: now, archivedAt: null, ...old, files: keys.length, bytes, newestVersion: cursor ? cursor.key : null, changedAt: now },
        META_KEY,
      );
    },
  ]);
}

/**
 * Reads records (never timed).
 * @param {Env} env
 * @param {(stores: Record<string, IDBObjectStore>) => IDBRequest[]} issue
 * @returns {Promise<any[]>}
 */
export function read(env, issue) {
  /** @type {any[]} */
  let out = [];
  return transaction(env, "readonly", [
    (stores) => issue(stores),
    (_, results) => {
      out = results;
    },
  ]).then(() => out);
}

/**
 * The newest version record (never timed): the template for the floor's version records.
 * @param {Env} env
 */
export async function newestVersion(env) {
  const [cursor] = await read(env, ({ versions }) => [versions.openCursor(null, "prev")]);
  return cursor ? cursor.value : null;
}

/**
 * Opens database `name` as it is (no upgrade).
 * @param {string} name
 * @returns {Promise<IDBDatabase>}
 */
export function openDatabase(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * export (the host API's, without versions): every file record, then their contents, in one
 * readonly transaction; resolves with the records and bytes read.
 * @param {Env} env
 * @returns {Promise<{ files: any[], contents: any[] }>}
 */
export async function exportAll(env) {
  /** @type {{ files: any[], contents: any[] }} */
  const out = { files: [], contents: [] };
  await transaction(env, "readonly", [
    ({ files }) => [files.getAll(below(""))],
    ({ contents }, [records]) => {
      out.files = records;
      return records.map((/** @type {any} */ r) => contents.get(r.content));
    },
    (_, bytes) => {
      out.contents = bytes;
    },
  ]);
  return out;
}

/**
 * import into an empty store: every file record and the metadata record, then per memory its
 * content, file record, listing key and version, then the metadata (the package's requests:
 * the store was read whole, so no listing key is deleted).
 * @param {Env} env
 * @param {{ files: any[], versions: any[], contents: Array<[string, Uint8Array]> }} records made before the clock starts
 */
export function importAll(env, { files, versions, contents }) {
  return transaction(env, "readwrite", [
    ({ files: f, meta }) => [f.getAll(below("")), meta.get(META_KEY)],
    ({ files: f, contents: c, versions: v, listing, meta }, [, storeMeta]) => {
      let bytes = 0;
      for (let i = 0; i < files.length; i++) {
        const [key, data] = contents[i];
        c.put(data, key);
        f.put(files[i]);
        listing.put(null, listingKey(files[i].path, files[i].size));
        v.put(versions[i]);
        bytes += files[i].size;
      }
      meta.put(nextMeta(storeMeta, files.length, bytes, versions[versions.length - 1].id), META_KEY);
    },
  ]);
}
