// The floor each command is measured against: a hand-written IndexedDB transaction, in the page,
// with no wasm and no adapter, issuing the same requests as the package does for that command
// over the same schema (src/js/indexeddb-schema.js, version 3: `files` by path with unique index
// `id`, `contents` by content key, `versions` by id with indexes `memory` and `content`,
// `listing` by `{path}\0{size}` key):
// the same reads in the same rounds (a round's requests in parallel, the next round once they
// have all answered), then the same writes of records of the same shape and the same bytes, in
// one transaction over the same four object stores with the same durability. The records and
// bytes it writes are made before the clock starts (hashing, rendering and text editing are the
// core's job, which is what the ratio measures); it only reads what the next round needs
// (`files.get(path).content` for the content read).
//
// Each function returns a promise that settles when the transaction completes, as
// `StoreHandle.transaction` does.
//
// What the package reads, per command (found by tracing its StorageTx calls; round by round):
//   view file         files.get(p), listing.getAllKeys([p/, p0))  | contents.get(record.content)
//   view directory    listing.getAllKeys([d/, d0))           (view /memories: ["/", "0"))
//   create            files.get(p), files.getKey([p/, p0)), versions.openKeyCursor(null, "prev"),
//                     files.count()                          | writes
//   str_replace,      files.get(p), versions.openKeyCursor(null, "prev") | contents.get(record.content)
//   insert                                                   | writes
//   rename directory  files.get(d), files.getAll([d/, d0)), openKeyCursor, files.get(e),
//                     files.getKey([e/, e0)), openKeyCursor (the package reads the newest
//                     version id twice in this round; the floor reads it once)  | writes
//   delete directory  files.get(d), files.getAll([d/, d0)), openKeyCursor | writes
// Writes: create, str_replace and insert put the content, the file record and a version, and
// (create, or a size that changed) the file's listing key `{path}\0{size}` (the old one
// deleted); rename deletes and puts each file record, puts its new listing key and a version
// per file, and deletes the old directory's listing keys with one key range; delete deletes
// each file record and puts a version per file, then the listing keys with one key range.

export const STORES = ["files", "contents", "versions", "listing"];

/** A file's key in the `listing` store (schema version 3): `{path}\0{size}`. */
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
 * @returns {Promise<void>}
 */
export function transaction({ db, durability = "default" }, mode, rounds) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORES, mode, { durability });
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error("baseline transaction aborted"));
    const stores = {
      files: tx.objectStore("files"),
      contents: tx.objectStore("contents"),
      versions: tx.objectStore("versions"),
      listing: tx.objectStore("listing"),
    };
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
 * view of a file: its record and whether it has children, then its bytes.
 * @param {Env} env
 * @param {string} path store path (`/doc.md`)
 */
export function viewFile(env, path) {
  return transaction(env, "readonly", [
    ({ files, listing }) => [files.get(path), listing.getAllKeys(below(path))],
    ({ contents }, [record]) => [contents.get(record.content)],
  ]);
}

/**
 * view of a directory: the listing keys (path and size) of every file below it.
 * @param {Env} env
 * @param {string} path store path of the directory (`""` for /memories)
 */
export function viewDirectory(env, path) {
  return transaction(env, "readonly", [({ listing }) => [listing.getAllKeys(below(path))]]);
}

/**
 * The newest version id, as the package reads it before every write.
 * @param {IDBObjectStore} versions
 */
export function newestVersionId(versions) {
  return versions.openKeyCursor(null, "prev");
}

/**
 * create: the place is free (record, children, newest version id, file count), then content,
 * record and version.
 * @param {Env} env
 * @param {{ record: Record<string, any>, version: Record<string, any>, bytes: Uint8Array }} write
 * @param {{ skipNewest?: boolean }} [options] `skipNewest`: leave out the newest-version read (lead b)
 */
export function create(env, { record, version, bytes }, { skipNewest = false } = {}) {
  return transaction(env, "readwrite", [
    ({ files, versions }) => [
      files.get(record.path),
      files.getKey(below(record.path)),
      ...(skipNewest ? [] : [newestVersionId(versions)]),
      files.count(),
    ],
    ({ files, contents, versions, listing }) => {
      contents.put(bytes, record.content);
      files.put(record);
      listing.put(null, listingKey(record.path, record.size));
      versions.put(version);
    },
  ]);
}

/**
 * str_replace or insert: the record and newest version id, then the old bytes, then the new
 * content, record and version.
 * @param {Env} env
 * @param {{ record: Record<string, any>, version: Record<string, any>, bytes: Uint8Array }} write
 * @param {{ skipNewest?: boolean }} [options]
 */
export function edit(env, { record, version, bytes }, { skipNewest = false } = {}) {
  /** @type {{ size: number }} */
  let old = { size: -1 };
  return transaction(env, "readwrite", [
    ({ files, versions }) => [files.get(record.path), ...(skipNewest ? [] : [newestVersionId(versions)])],
    ({ contents }, [stored]) => {
      old = stored;
      return [contents.get(stored.content)];
    },
    ({ files, contents, versions, listing }) => {
      contents.put(bytes, record.content);
      files.put(record);
      // The package changes the listing key only when the size changed.
      if (old.size !== record.size) {
        listing.delete(listingKey(record.path, old.size));
        listing.put(null, listingKey(record.path, record.size));
      }
      versions.put(version);
    },
  ]);
}

/**
 * rename of a directory: both places, then per file: delete the old record, put the new one
 * and a version.
 * @param {Env} env
 * @param {string} from store path of the directory
 * @param {string} to
 * @param {Array<{ from: string, record: Record<string, any>, version: Record<string, any> }>} moves
 */
export function renameDirectory(env, from, to, moves) {
  return transaction(env, "readwrite", [
    ({ files, versions }) => [
      files.get(from),
      files.getAll(below(from)),
      newestVersionId(versions),
      files.get(to),
      files.getKey(below(to)),
    ],
    ({ files, versions, listing }) => {
      for (const move of moves) {
        files.delete(move.from);
        files.put(move.record);
        listing.put(null, listingKey(move.record.path, move.record.size));
        versions.put(move.version);
      }
      // The emptied directory's listing keys: one range (the package's endWrites).
      listing.delete(below(from));
    },
  ]);
}

/**
 * delete of a directory: its record and children, then per file: delete the record, put a
 * version.
 * @param {Env} env
 * @param {string} path store path of the directory
 * @param {Array<{ path: string, version: Record<string, any> }>} deletes
 */
export function deleteDirectory(env, path, deletes) {
  return transaction(env, "readwrite", [
    ({ files, versions }) => [files.get(path), files.getAll(below(path)), newestVersionId(versions)],
    ({ files, versions, listing }) => {
      for (const gone of deletes) {
        files.delete(gone.path);
        versions.put(gone.version);
      }
      listing.delete(below(path));
    },
  ]);
}

/**
 * Puts records straight into a database, in one transaction (populating stores, restoring a
 * deleted directory between runs; never timed).
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
 * export (the host API's, without versions): every file record, then every file's bytes, in
 * one readonly transaction; resolves with the records and bytes read.
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
 * import into an empty store: every file record and the newest version id, then per memory its
 * content, file record, listing key and version (the package's requests: the store was read
 * whole, so no listing key is deleted).
 * @param {Env} env
 * @param {{ files: any[], versions: any[], contents: Array<[string, Uint8Array]> }} records made before the clock starts
 */
export function importAll(env, { files, versions, contents }) {
  return transaction(env, "readwrite", [
    ({ files: f, versions: v }) => [f.getAll(below("")), newestVersionId(v)],
    ({ files: f, contents: c, versions: v, listing }) => {
      for (let i = 0; i < files.length; i++) {
        const [key, bytes] = contents[i];
        c.put(bytes, key);
        f.put(files[i]);
        listing.put(null, listingKey(files[i].path, files[i].size));
        v.put(versions[i]);
      }
    },
  ]);
}
