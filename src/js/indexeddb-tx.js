// A command's IndexedDB transaction as the storage interface's StorageTx: each read and write
// of the driver becomes requests on the object stores of indexeddb-schema.js, with the
// `listing` store kept in step with `files` inside the same transaction.

import { toStorageError } from "./errors.js";
import { CONTENTS, FILES, LISTING, VERSIONS, listingKey } from "./indexeddb-schema.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").StorageTx} StorageTx */

/**
 * A transaction's requests. Callbacks run from the requests' success events; if one throws,
 * the transaction is aborted and rejects with what it threw.
 * @implements {StorageTx}
 */
export class IndexedDbTx {
  #files;
  #contents;
  #versions;
  #listing;
  #keyRange;
  #fail;
  /**
   * The size of each file record this transaction has read or written, by path (-1: known to
   * be absent), so a write changes its listing key only when the size changed, without a read.
   * @type {Map<string, number>}
   */
  #sizes = new Map();
  /**
   * Directories (as `path + "/"`) whose every file this transaction has read (or found none
   * of): a path below one that is not in `#sizes` is known to be absent.
   * @type {string[]}
   */
  #complete = [];
  /**
   * Between `beginWrites` and `endWrites`: the listing keys still to delete (path → size).
   * @type {Map<string, number> | null}
   */
  #batch = null;

  /**
   * @param {IDBTransaction} idbTx
   * @param {typeof IDBKeyRange} keyRange
   * @param {(error: unknown) => void} fail aborts the transaction with `error`
   */
  constructor(idbTx, keyRange, fail) {
    this.#keyRange = keyRange;
    this.#files = idbTx.objectStore(FILES);
    this.#contents = idbTx.objectStore(CONTENTS);
    this.#versions = idbTx.objectStore(VERSIONS);
    this.#listing = idbTx.objectStore(LISTING);
    this.#fail = fail;
  }

  /** @param {string} path @param {(record: FileRecord | null) => void} cb */
  getFile(path, cb) {
    this.#request(
      () => this.#files.get(path),
      (result) => {
        this.#sizes.set(path, result ? result.size : -1);
        cb(result ?? null);
      },
    );
  }

  /** @param {string} path @param {(records: FileRecord[]) => void} cb */
  getSubtree(path, cb) {
    this.#request(
      () => this.#files.getAll(this.#subtree(path)),
      (records) => {
        for (const record of records) {
          if (!this.#sizes.has(record.path)) this.#sizes.set(record.path, record.size);
        }
        this.#complete.push(path + "/");
        cb(records);
      },
    );
  }

  /** @param {string} path @param {(entries: string[]) => void} cb */
  getListing(path, cb) {
    this.#request(
      () => this.#listing.getAllKeys(this.#subtree(path)),
      (keys) => cb(/** @type {string[]} */ (keys)),
    );
  }

  /** @param {string} path @param {(yes: boolean) => void} cb */
  hasChildren(path, cb) {
    this.#request(
      () => this.#files.getKey(this.#subtree(path)),
      (key) => {
        if (key === undefined) this.#complete.push(path + "/");
        cb(key !== undefined);
      },
    );
  }

  /** @param {(n: number) => void} cb */
  countFiles(cb) {
    this.#request(() => this.#files.count(), cb);
  }

  /** @param {string} id @param {(bytes: Uint8Array | undefined) => void} cb */
  getContent(id, cb) {
    this.#request(
      () => this.#contents.get(id),
      (value) => cb(value instanceof ArrayBuffer ? new Uint8Array(value) : value ?? undefined),
    );
  }

  /** @param {string} id @param {(record: FileRecord | null) => void} cb */
  getFileById(id, cb) {
    this.#request(
      () => this.#files.index("id").get(id),
      (result) => {
        if (result) this.#sizes.set(result.path, result.size);
        cb(result ?? null);
      },
    );
  }

  /** @param {string} id @param {(record: VersionRecord | null) => void} cb */
  getVersion(id, cb) {
    this.#request(() => this.#versions.get(id), (result) => cb(result ?? null));
  }

  /**
   * Up to `limit` versions, newest (highest id) first: of memory `memoryId` if given (the
   * `memory` index), with ids below `below` if given. A cursor walks backwards.
   * @param {string | null} memoryId
   * @param {string | null} below
   * @param {number} limit
   * @param {(records: VersionRecord[]) => void} cb
   */
  getVersionsDesc(memoryId, below, limit, cb) {
    const keyRange = this.#keyRange;
    /** @type {VersionRecord[]} */
    const out = [];
    /** @type {() => IDBRequest<IDBCursorWithValue | null>} */
    let issue;
    if (memoryId === null) {
      const range = below === null ? null : keyRange.upperBound(below, true);
      issue = () => this.#versions.openCursor(range, "prev");
    } else {
      // [M] sorts before every [M, id]; [M, []] after every [M, string] (arrays follow strings).
      const range =
        below === null
          ? keyRange.bound([memoryId], [memoryId, []])
          : keyRange.bound([memoryId], [memoryId, below], false, true);
      issue = () => this.#versions.index("memory").openCursor(range, "prev");
    }
    const request = this.#write(issue);
    request.onsuccess = () => {
      try {
        const cursor = request.result;
        if (cursor && out.length < limit) {
          out.push(cursor.value);
          if (out.length < limit) {
            cursor.continue();
            return;
          }
        }
        cb(out);
      } catch (error) {
        this.#fail(error);
      }
    };
  }

  /** @param {string} id @param {(records: VersionRecord[]) => void} cb */
  getVersionsBelow(id, cb) {
    this.#request(() => this.#versions.getAll(this.#keyRange.upperBound(id, true)), cb);
  }

  /** @param {string} key @param {(ids: string[]) => void} cb */
  getVersionIdsWithContent(key, cb) {
    this.#request(
      () => this.#versions.index("content").getAllKeys(key),
      (keys) => cb(/** @type {string[]} */ (keys)),
    );
  }

  /** @param {(id: string | null) => void} cb */
  getNewestVersionId(cb) {
    this.#request(
      () => this.#versions.openKeyCursor(null, "prev"),
      (cursor) => cb(cursor ? /** @type {string} */ (cursor.key) : null),
    );
  }

  /** @param {(ids: string[]) => void} cb */
  getVersionIds(cb) {
    this.#request(() => this.#versions.getAllKeys(), (keys) => cb(/** @type {string[]} */ (keys)));
  }

  /** @param {FileRecord} record */
  putFile(record) {
    this.#write(() => this.#files.put(record));
    const { path, size } = record;
    // Deleted earlier in this batch: its old key goes now, before the new one is put.
    const held = this.#batch?.get(path);
    if (held !== undefined) {
      this.#batch?.delete(path);
      this.#unlist(path, held);
    }
    const before = this.#sizeOf(path);
    if (before === size) return;
    this.#unlist(path, before);
    this.#write(() => this.#listing.put(null, listingKey(path, size)));
    this.#sizes.set(path, size);
  }

  /** @param {string} path */
  deleteFile(path) {
    this.#write(() => this.#files.delete(path));
    const before = this.#sizeOf(path);
    if (before === -1) return;
    if (this.#batch && before !== undefined) this.#batch.set(path, before);
    else this.#unlist(path, before);
    this.#sizes.set(path, -1);
  }

  /**
   * A command's writes follow, until `endWrites`: listing keys of deleted files may then go
   * in one key-range delete per directory that ends up empty (a directory delete or rename of
   * 10,000 files: one request instead of 10,000).
   */
  beginWrites() {
    this.#batch ??= new Map();
  }

  /** Issues the listing deletes `beginWrites` held back. */
  endWrites() {
    const batch = this.#batch;
    this.#batch = null;
    if (!batch || batch.size === 0) return;
    // Outermost directories first: one range can cover those inside it.
    for (const dir of [...this.#complete].sort((a, b) => a.length - b.length)) {
      let covers = false;
      for (const path of batch.keys()) {
        if (path.startsWith(dir)) {
          covers = true;
          break;
        }
      }
      if (!covers) continue;
      // Empty now only if every file this transaction knows below it (all there were, as
      // the directory was read whole) is deleted.
      let empty = true;
      for (const [path, size] of this.#sizes) {
        if (size !== -1 && path.startsWith(dir)) {
          empty = false;
          break;
        }
      }
      if (!empty) continue;
      const range = this.#keyRange.bound(dir, dir.slice(0, -1) + "0", false, true);
      this.#write(() => this.#listing.delete(range));
      for (const path of [...batch.keys()]) if (path.startsWith(dir)) batch.delete(path);
    }
    for (const [path, size] of batch) this.#unlist(path, size);
  }

  /**
   * The size of the record at `path` as this transaction knows it: -1 if known absent,
   * undefined if not known.
   * @param {string} path
   */
  #sizeOf(path) {
    const size = this.#sizes.get(path);
    if (size !== undefined) return size;
    return this.#complete.some((dir) => path.startsWith(dir)) ? -1 : undefined;
  }

  /**
   * Deletes the listing key of `path`: the one for `size` if known, else any (a key range, as
   * paths hold no control character: `[path\0, path\u0001)`).
   * @param {string} path
   * @param {number | undefined} size undefined if not known; -1 if known absent
   */
  #unlist(path, size) {
    if (size === -1) return;
    const key =
      size === undefined
        ? this.#keyRange.bound(path + "\u0000", path + "\u0001", false, true)
        : listingKey(path, size);
    this.#write(() => this.#listing.delete(key));
  }

  /** @param {string} id @param {Uint8Array} bytes */
  putContent(id, bytes) {
    this.#write(() => this.#contents.put(bytes, id));
  }

  /** @param {string} id */
  deleteContent(id) {
    this.#write(() => this.#contents.delete(id));
  }

  /** @param {VersionRecord} record */
  putVersion(record) {
    this.#write(() => this.#versions.put(record));
  }

  /** @param {string} id */
  deleteVersion(id) {
    this.#write(() => this.#versions.delete(id));
  }

  /**
   * Every key below `path`: `[path + "/", path + "0")`, as "0" follows "/".
   * @param {string} path
   */
  #subtree(path) {
    return this.#keyRange.bound(path + "/", path + "0", false, true);
  }

  /**
   * Issues a read; its callback gets the result. Errors thrown by IndexedDB itself become
   * storage errors.
   * @template T
   * @param {() => IDBRequest<T>} issue
   * @param {(result: T) => void} cb
   */
  #request(issue, cb) {
    const request = this.#write(issue);
    request.onsuccess = () => {
      try {
        cb(request.result);
      } catch (error) {
        this.#fail(error);
      }
    };
  }

  /**
   * @template T
   * @param {() => IDBRequest<T>} issue
   * @returns {IDBRequest<T>}
   */
  #write(issue) {
    try {
      return issue();
    } catch (error) {
      // DataError, ReadOnlyError, TransactionInactiveError, DataCloneError, …
      throw toStorageError(error);
    }
  }
}
