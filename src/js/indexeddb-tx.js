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
   * Directory keys whose listing keys this transaction has dropped whole (a directory delete
   * or rename: one key-range request instead of one per file).
   * @type {Set<string>}
   */
  #unlistedTrees = new Set();

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
      (result) => cb(result ?? null),
    );
  }

  /** @param {string} path @param {(records: FileRecord[]) => void} cb */
  getSubtree(path, cb) {
    this.#request(
      () => this.#files.getAll(this.#subtree(path)),
      cb,
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
      (key) => cb(key !== undefined),
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
      (result) => cb(result ?? null),
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

  /**
   * Puts the record and keeps its listing key in step: the core says what size the record it
   * replaces had (null: none), so the old key goes without a read.
   * @param {FileRecord} record
   * @param {number | null} [previousSize] undefined when a caller cannot say: then any key of
   *   the path goes
   */
  putFile(record, previousSize) {
    this.#write(() => this.#files.put(record));
    const { path, size } = record;
    if (previousSize === size) return;
    if (previousSize !== null) this.#unlist(path, previousSize);
    this.#write(() => this.#listing.put(null, listingKey(path, size)));
  }

  /**
   * Deletes the record and its listing key; with `tree`, every listing key below that
   * directory goes in one key-range request, at its first file (the command deletes or moves
   * all of them, and any key it puts there later comes after that request).
   * @param {string} path
   * @param {number} [size] undefined when a caller cannot say: then any key of the path goes
   * @param {string} [tree]
   */
  deleteFile(path, size, tree) {
    this.#write(() => this.#files.delete(path));
    if (tree === undefined) {
      this.#unlist(path, size);
    } else if (!this.#unlistedTrees.has(tree)) {
      this.#unlistedTrees.add(tree);
      this.#write(() => this.#listing.delete(this.#subtree(tree)));
    }
  }

  /**
   * Deletes the listing key of `path`: the one for `size` if known, else any (a key range, as
   * paths hold no control character: `[path\0, path\u0001)`).
   * @param {string} path
   * @param {number | undefined} size
   */
  #unlist(path, size) {
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
