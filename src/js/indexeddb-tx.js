// A command's IndexedDB transaction as the storage interface's StorageTx: each read and write
// of the driver becomes requests on the object stores of indexeddb-schema.js, with the
// `listing` store kept in step with `files` inside the same transaction. Each text is in one
// place, the content store.

import { toStorageError } from "./errors.js";
import {
  CONTENTS,
  FILES,
  LISTING,
  META,
  META_KEY,
  CLOCK_KEY,
  VERSIONS,
  HEAD_BYTES,
  listingKey,
  measure,
} from "./indexeddb-schema.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./indexeddb-schema.js").StoreMeta} StoreMeta */

/**
 * A transaction's requests. Callbacks run from the requests' success events; if one throws,
 * the transaction is aborted and rejects with what it threw.
 * @implements {StorageTx}
 */
export class IndexedDbTx {
  /** @type {IDBTransaction} */
  #idbTx;
  /** The object stores this transaction has used, each asked of IndexedDB once, on first use. */
  /** @type {Map<string, IDBObjectStore>} */
  #stores = new Map();
  #keyRange;
  #fail;
  /** @type {(files: number) => void} */
  #sawFiles;
  /**
   * The StoreMeta record as this transaction read it (once, on first need), or the callbacks
   * waiting for it while the read is out.
   * @type {{ record: StoreMeta } | { waiting: Array<(meta: StoreMeta) => void> } | null}
   */
  #metaRead = null;
  /** What this transaction's writes change in StoreMeta, written by `finish`. */
  #delta = { files: 0, bytes: 0, newestVersion: /** @type {string | null} */ (null), dirty: false };
  /** Set when a write could not say what it replaced: `finish` counts the store again. */
  #recount = false;
  /**
   * Set by `finish({ putNothing: true })` (a compact delete at full quota, where the browser
   * refuses any put: docs/TOOL.md#delete-at-full-quota): the StoreMeta record is deleted
   * instead of written, and the next transaction counts the store again.
   */
  #putNothing = false;
  /**
   * Directory keys whose file records this transaction has deleted whole (one key-range
   * request instead of one per file).
   * @type {Set<string>}
   */
  #deletedTrees = new Set();

  /**
   * @param {IDBTransaction} idbTx
   * @param {typeof IDBKeyRange} keyRange
   * @param {(error: unknown) => void} fail aborts the transaction with `error`
   * @param {(files: number) => void} [sawFiles] told the file count whenever the metadata is
   *   read or written
   */
  constructor(idbTx, keyRange, fail, sawFiles) {
    this.#sawFiles = sawFiles ?? (() => {});
    this.#keyRange = keyRange;
    this.#idbTx = idbTx;
    this.#fail = fail;
  }

  /**
   * Object store `name` of this transaction (an `objectStore` call costs a few µs in Chromium:
   * a view uses two of the five).
   * @param {string} name
   */
  #store(name) {
    let store = this.#stores.get(name);
    if (!store) {
      store = this.#idbTx.objectStore(name);
      this.#stores.set(name, store);
    }
    return store;
  }

  get #files() {
    return this.#store(FILES);
  }

  get #contents() {
    return this.#store(CONTENTS);
  }

  get #versions() {
    return this.#store(VERSIONS);
  }

  get #listing() {
    return this.#store(LISTING);
  }

  get #meta() {
    return this.#store(META);
  }

  /** @param {string} path @param {(record: FileRecord | null) => void} cb */
  getFile(path, cb) {
    this.#request(
      () => this.#files.get(path),
      (result) => cb(result === undefined ? null : this.#record(result)),
    );
  }

  /** @param {string} path @param {(records: FileRecord[]) => void} cb */
  getSubtree(path, cb) {
    this.#request(
      () => this.#files.getAll(this.#subtree(path)),
      (records) => cb(this.#records(records)),
    );
  }

  /**
   * Up to `limit` file records in key order, after path `after` (null: from the first), for
   * reading a whole store a page at a time (the streamed export).
   * @param {string | null} after
   * @param {number} limit
   * @param {(records: FileRecord[]) => void} cb
   */
  getFilesAfter(after, limit, cb) {
    const range = after === null ? this.#subtree("") : this.#keyRange.bound(after, "0", true, true);
    this.#request(() => this.#files.getAll(range, limit), (records) => cb(this.#records(records)));
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

  /**
   * The file count, from the StoreMeta record (no `count()`, which grows with the store).
   * @param {(n: number) => void} cb
   */
  countFiles(cb) {
    this.#withMeta((meta) => cb(meta.files));
  }

  /** @param {string} id @param {(bytes: Uint8Array | undefined) => void} cb */
  getContent(id, cb) {
    this.#request(
      () => this.#contents.get(id),
      (value) => cb(value instanceof ArrayBuffer ? new Uint8Array(value) : value ?? undefined),
    );
  }

  /**
   * The newest content whose key begins with `path` and `\0` (the keys the core gives a
   * head's bytes), with its key: one cursor request, in the round that reads the record.
   * @param {string} path
   * @param {(key: string | undefined, bytes: Uint8Array | undefined) => void} cb
   */
  getHeadContent(path, cb) {
    const range = this.#keyRange.bound(`${path}\u0000`, `${path}\u0001`, false, true);
    this.#request(
      () => this.#contents.openCursor(range, "prev"),
      (cursor) => {
        if (!cursor) {
          cb(undefined, undefined);
          return;
        }
        const value = cursor.value;
        cb(String(cursor.key), value instanceof ArrayBuffer ? new Uint8Array(value) : value ?? undefined);
      },
    );
  }

  /**
   * The contents stored under `ids`, in their order (undefined where none). When the ids lie
   * close together in key order (a head's bytes are keyed by its path and version, so the
   * files of a page of records, with their older texts beside them, do), two
   * requests: the range's keys (at most twice as many as asked, no values), then its values in
   * one `getAll`; else one `get` per id. The cost in Chromium is per request (~40 µs a `get`
   * at 10,000 reads), so a chunk of 400 contents costs 2 requests where it cost 400.
   * @param {string[]} ids
   * @param {(values: Array<Uint8Array | undefined>) => void} cb
   */
  getContents(ids, cb) {
    /** @type {Array<Uint8Array | undefined>} */
    const values = new Array(ids.length);
    if (ids.length === 0) {
      cb(values);
      return;
    }
    const sorted = [...ids].sort();
    const range = this.#keyRange.bound(sorted[0], /** @type {string} */ (sorted.at(-1)));
    const limit = 2 * ids.length;
    const one = (/** @type {unknown} */ value) => (value instanceof ArrayBuffer ? new Uint8Array(value) : value ?? undefined);
    this.#request(
      () => this.#contents.getAllKeys(range, limit),
      (keys) => {
        // Dense: the range holds at most `limit` keys (fewer came back than asked for, or
        // exactly `limit` and the last is the highest id asked).
        const dense = keys.length < limit || keys.at(-1) === sorted.at(-1);
        if (!dense) {
          let left = ids.length;
          ids.forEach((id, i) => {
            this.#request(
              () => this.#contents.get(id),
              (value) => {
                values[i] = /** @type {Uint8Array | undefined} */ (one(value));
                if (--left === 0) cb(values);
              },
            );
          });
          return;
        }
        this.#request(
          () => this.#contents.getAll(range, keys.length),
          (found) => {
            /** @type {Map<unknown, unknown>} */
            const byKey = new Map();
            keys.forEach((key, i) => byKey.set(key, found[i]));
            ids.forEach((id, i) => {
              values[i] = /** @type {Uint8Array | undefined} */ (one(byKey.get(id)));
            });
            cb(values);
          },
        );
      },
    );
  }

  /** @param {string} id @param {(record: FileRecord | null) => void} cb */
  getFileById(id, cb) {
    this.#request(
      () => this.#files.index("id").get(id),
      (result) => cb(result === undefined ? null : this.#record(result)),
    );
  }

  /**
   * A stored file record as the core knows it. A database written by an earlier version of
   * the package may hold a copy of the head's bytes under HEAD_BYTES: never read, the content
   * store is the one place a text is (docs/ARCHITECTURE.md#the-storage-interface).
   * @param {any} stored
   * @returns {FileRecord}
   */
  #record(stored) {
    if (stored === null || typeof stored !== "object" || !(HEAD_BYTES in stored)) return stored;
    const { [HEAD_BYTES]: _copy, ...record } = stored;
    return /** @type {FileRecord} */ (record);
  }

  /** @param {any[]} stored @returns {FileRecord[]} */
  #records(stored) {
    return stored.map((value) => this.#record(value));
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

  /**
   * Up to `limit` versions in id order after `after` (null: from the first), one `getAll`: a
   * store's history a page at a time (the streamed export).
   * @param {string | null} after
   * @param {number} limit
   * @param {(records: VersionRecord[]) => void} cb
   */
  getVersionsAfter(after, limit, cb) {
    const range = after === null ? null : this.#keyRange.lowerBound(after, true);
    this.#request(() => this.#versions.getAll(range, limit), cb);
  }

  /** @param {string} id @param {(records: VersionRecord[]) => void} cb */
  getVersionsBelow(id, cb) {
    this.#request(() => this.#versions.getAll(this.#keyRange.upperBound(id, true)), cb);
  }

  /**
   * Every version of memory `memoryId`, oldest first: one request on the `memory` index
   * (records only; the history budget, docs/TOOL.md#history-budget).
   * @param {string} memoryId
   * @param {(records: VersionRecord[]) => void} cb
   */
  getHistory(memoryId, cb) {
    // [M] sorts before every [M, id]; [M, []] after every [M, string] (arrays follow strings).
    const range = this.#keyRange.bound([memoryId], [memoryId, []]);
    this.#request(() => this.#versions.index("memory").getAll(range), cb);
  }

  /** @param {string} key @param {(ids: string[]) => void} cb */
  getVersionIdsWithContent(key, cb) {
    this.#request(
      () => this.#versions.index("content").getAllKeys(key),
      (keys) => cb(/** @type {string[]} */ (keys)),
    );
  }

  /**
   * The newest version id, from the StoreMeta record (no key cursor).
   * @param {(id: string | null) => void} cb
   */
  getNewestVersionId(cb) {
    this.#withMeta((meta) => cb(meta.newestVersion));
  }

  /**
   * The StoreMeta record, read once per transaction; when it is missing (a database written
   * by hand, or a record lost), counted from the stores.
   * @param {(meta: StoreMeta) => void} cb
   */
  #withMeta(cb) {
    const read = this.#metaRead;
    if (read && "record" in read) {
      cb(read.record);
      return;
    }
    if (read) {
      read.waiting.push(cb);
      return;
    }
    /** @type {Array<(meta: StoreMeta) => void>} */
    const waiting = [cb];
    this.#metaRead = { waiting };
    /** @param {StoreMeta} record */
    const arrived = (record) => {
      this.#metaRead = { record };
      this.#sawFiles(record.files);
      for (const waiter of waiting) waiter(record);
    };
    this.#request(
      () => this.#meta.get(META_KEY),
      (value) => {
        if (isMeta(value)) arrived(value);
        else this.#guard(() => measure(this.#files, this.#versions, Date.now(), (m) => this.#guard(() => arrived(m)), this.#listing));
      },
    );
  }

  /**
   * The store's file count and the bytes of its files (StoreMeta; no scan).
   * @param {(usage: { files: number, bytes: number }) => void} cb
   */
  getUsage(cb) {
    this.#withMeta((meta) => cb({ files: meta.files, bytes: meta.bytes }));
  }

  /**
   * Whether the store is archived (StoreMeta `archivedAt`).
   * @param {(yes: boolean) => void} cb
   */
  isArchived(cb) {
    this.#withMeta((meta) => cb(meta.archivedAt != null));
  }

  /**
   * Marks the store archived at `at`; an archived store stays archived (the first time kept).
   * @param {number} at epoch ms
   */
  setArchived(at) {
    this.#withMeta((before) => {
      if (before.archivedAt != null) return;
      const record = { ...before, archivedAt: at };
      this.#putMeta(record);
    });
  }

  /**
   * Puts the StoreMeta record; later reads of this transaction see it.
   * @param {StoreMeta} record
   */
  #putMeta(record) {
    this.#metaRead = { record };
    this.#sawFiles(record.files);
    this.#write(() => this.#meta.put(record, META_KEY));
  }

  /**
   * Per-store host state (`MemoryTool.state`) under `name`, or undefined.
   * @param {string} name
   * @param {(value: unknown) => void} cb
   */
  getState(name, cb) {
    this.#request(() => this.#meta.get(["state", name]), cb);
  }

  /** @param {string} name @param {unknown} value */
  putState(name, value) {
    this.#write(() => this.#meta.put(value, ["state", name]));
  }

  /** @param {string} name */
  deleteState(name) {
    this.#write(() => this.#meta.delete(["state", name]));
  }

  /**
   * What the store remembers of the time (docs/TOOL.md#a-clock-that-can-be-trusted), or
   * undefined.
   * @param {(clock: unknown) => void} cb
   */
  getClock(cb) {
    this.#request(() => this.#meta.get(CLOCK_KEY), cb);
  }

  /** @param {{ seen: number, acting: number }} clock */
  putClock(clock) {
    this.#write(() => this.#meta.put(clock, CLOCK_KEY));
  }

  /**
   * Writes what this transaction's writes changed into the StoreMeta record: the driver calls
   * it after a command's last write. Without the call, the success of the last write that
   * changed the metadata writes it (one callback later); a transaction that wrote nothing
   * writes nothing. With `putNothing` (a transaction of deletes at full quota), the record is
   * deleted instead (docs/TOOL.md#delete-at-full-quota).
   * @param {{ putNothing?: boolean }} [options]
   */
  finish(options) {
    if (options?.putNothing) this.#putNothing = true;
    const delta = this.#delta;
    this.#lastChange = null;
    if (!delta.dirty && !this.#recount) return;
    this.#delta = { files: 0, bytes: 0, newestVersion: null, dirty: false };
    if (this.#putNothing) {
      // A compact delete: no put, so no byte added. The record goes; whoever reads it next
      // counts the store (`#withMeta`), as after a lost record.
      this.#recount = false;
      this.#metaRead = null;
      this.#write(() => this.#meta.delete(META_KEY));
      return;
    }
    const now = Date.now();
    if (this.#recount) {
      this.#recount = false;
      // Counted after every request issued so far, so it sees this transaction's writes.
      this.#guard(() =>
        measure(
          this.#files,
          this.#versions,
          now,
          (counted) =>
            this.#withMeta((before) => {
              const newest = maxId(counted.newestVersion, before.newestVersion);
              const record = { ...counted, newestVersion: newest, createdAt: before.createdAt, archivedAt: before.archivedAt ?? null };
              this.#putMeta(record);
            }),
          this.#listing,
        ),
      );
      return;
    }
    this.#withMeta((before) => {
      const record = {
        ...before,
        files: Math.max(0, before.files + delta.files),
        bytes: Math.max(0, before.bytes + delta.bytes),
        newestVersion: maxId(before.newestVersion, delta.newestVersion),
        changedAt: now,
      };
      this.#putMeta(record);
    });
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
    this.#changed(this.#write(() => this.#files.put(record)));
    const { path, size } = record;
    this.#delta.dirty = true;
    if (previousSize === undefined || typeof size !== "number") {
      this.#recount = true;
    } else {
      if (previousSize === null) this.#delta.files += 1;
      this.#delta.bytes += size - (previousSize ?? 0);
    }
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
    this.#delta.dirty = true;
    if (typeof size === "number") {
      this.#delta.files -= 1;
      this.#delta.bytes -= size;
    } else {
      this.#recount = true;
    }
    if (tree === undefined) {
      this.#changed(this.#write(() => this.#files.delete(path)));
      this.#unlist(path, size);
    } else if (!this.#deletedTrees.has(tree)) {
      // The whole directory in two key-range requests: its records and its listing keys.
      this.#deletedTrees.add(tree);
      const range = this.#subtree(tree);
      this.#changed(this.#write(() => this.#files.delete(range)));
      this.#write(() => this.#listing.delete(range));
    } else {
      this.#changed(null);
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
    this.#changed(this.#write(() => this.#versions.put(record)));
    this.#delta.dirty = true;
    if (typeof record?.id === "string") this.#delta.newestVersion = maxId(this.#delta.newestVersion, record.id);
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
   * The newest write that changed the metadata: when it succeeds with no `finish` since, the
   * metadata is written then.
   * @type {IDBRequest | null}
   */
  #lastChange = null;

  /**
   * Notes that a write changed the metadata; `request` is the write's request, or null when it
   * issued none (a file of a directory already deleted whole).
   * @param {IDBRequest | null} request
   */
  #changed(request) {
    if (request === null) {
      if (this.#lastChange === null) this.#withMeta(() => this.finish());
      return;
    }
    this.#lastChange = request;
    request.onsuccess = () => {
      if (this.#lastChange !== request) return;
      this.#lastChange = null;
      this.#guard(() => this.finish());
    };
  }

  /**
   * Runs `call`, aborting the transaction with what it throws.
   * @param {() => void} call
   */
  #guard(call) {
    try {
      call();
    } catch (error) {
      this.#fail(error);
    }
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

/**
 * The higher of two version ids (either may be null).
 * @param {string | null} a
 * @param {string | null} b
 */
function maxId(a, b) {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/**
 * Whether `value` is a StoreMeta record.
 * @param {unknown} value
 * @returns {value is StoreMeta}
 */
function isMeta(value) {
  if (typeof value !== "object" || value === null) return false;
  const m = /** @type {Record<string, unknown>} */ (value);
  return (
    Number.isSafeInteger(m.files) &&
    Number.isSafeInteger(m.bytes) &&
    (m.newestVersion === null || typeof m.newestVersion === "string") &&
    typeof m.createdAt === "number" &&
    typeof m.changedAt === "number"
  );
}
