// IndexedDB storage: one database per store, one IndexedDB transaction per command.
// Nothing but the transaction's own requests happens between its start and its end, so it
// never auto-commits early, and IndexedDB runs overlapping readwrite transactions one at a
// time across tabs and workers: commands are atomic and serializable with no lock of ours.

import { MemoryToolError, toStorageError } from "./errors.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").TransactionMode} TransactionMode */
/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */

/** The schema version this code writes; `upgrade` brings any older database up to it. */
const SCHEMA_VERSION = 3;
/** File records, keyed by their `path`; unique index `id` (the memory id). */
const FILES = "files";
/**
 * File contents (`Uint8Array`), keyed out of line by their content key: the id of the version
 * that first wrote them (version 1 databases: the memory id).
 */
const CONTENTS = "contents";
/** Version records, keyed by `id`; index `memory` on [memoryId, id], index `content`. */
const VERSIONS = "versions";
/**
 * The directory listing: a key `{path}\0{size}` (value null) per file record, kept in step
 * with `files` in every transaction that writes a record (version 3). A directory view reads
 * only these keys: for 10,000 files, one `getAllKeys` of ~12 ms where `getAll` of the records
 * takes ~50 ms in Chromium (the cost is per value read, whatever its size).
 */
const LISTING = "listing";
/** How long an open may wait with no event before it fails clearly. */
const OPEN_TIMEOUT_MS = 5000;
const STORES = [FILES, CONTENTS, VERSIONS, LISTING];

/**
 * The handles open in this context, by factory and database name, so `destroy` can retire
 * every one of them (from any IndexedDbStorage instance) before the database goes.
 * @type {WeakMap<IDBFactory, Map<string, Set<IndexedDbStoreHandle>>>}
 */
const openHandles = new WeakMap();

/**
 * The open handles of database `name` (created on demand).
 * @param {IDBFactory} factory
 * @param {string} name
 */
function handlesOf(factory, name) {
  let byName = openHandles.get(factory);
  if (!byName) openHandles.set(factory, (byName = new Map()));
  let handles = byName.get(name);
  if (!handles) byName.set(name, (handles = new Set()));
  return handles;
}

/**
 * Storage in the page's IndexedDB: database `dbPrefix + store` per store, with object stores
 * `files` (file records by path), `contents` (bytes by content key) and `versions` (the
 * history). Change events of a store cross tabs and workers on the BroadcastChannel named
 * like its database.
 * @implements {MemoryStorage}
 */
export class IndexedDbStorage {
  #prefix;
  #factory;
  #keyRange;
  #durability;

  /**
   * @param {import("./index.js").IndexedDbStorageOptions} [options]
   */
  constructor(options = {}) {
    const {
      dbPrefix = "memory-tool-wasm:",
      indexedDB = globalThis.indexedDB,
      IDBKeyRange = globalThis.IDBKeyRange,
      durability = "default",
    } = options ?? {};
    if (typeof dbPrefix !== "string") {
      throw new MemoryToolError("INVALID_OPTIONS", "`dbPrefix` must be a string.");
    }
    if (!indexedDB || typeof indexedDB.open !== "function") {
      throw new MemoryToolError(
        "INVALID_OPTIONS",
        "IndexedDB is not available here; pass an `indexedDB` factory or use in-memory storage.",
      );
    }
    if (typeof IDBKeyRange?.bound !== "function") {
      throw new MemoryToolError(
        "INVALID_OPTIONS",
        "IDBKeyRange is not available here; pass the `IDBKeyRange` of your `indexedDB`.",
      );
    }
    if (durability !== "default" && durability !== "strict" && durability !== "relaxed") {
      throw new MemoryToolError(
        "INVALID_OPTIONS",
        '`durability` must be "default", "strict" or "relaxed".',
      );
    }
    this.#prefix = dbPrefix;
    this.#factory = indexedDB;
    this.#keyRange = IDBKeyRange;
    this.#durability = durability;
  }

  /**
   * Opens (or creates, or upgrades) the store's database; resolves when it is ready.
   * @param {string} store
   * @returns {Promise<StoreHandle>}
   */
  async open(store) {
    if (typeof store !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "The store name must be a string.");
    }
    const handle = new IndexedDbStoreHandle(
      this.#factory,
      this.#keyRange,
      this.#prefix + store,
      this.#durability,
    );
    try {
      await handle.connect();
    } catch (error) {
      handle.close();
      throw error;
    }
    return handle;
  }

  /**
   * Deletes the store's database: every memory, content and version. Handles open on it in
   * this context are retired first (their later transactions reject with STORAGE_FAILED), and
   * those in other tabs close on `versionchange`. Rejects with STORAGE_FAILED if a connection
   * elsewhere does not close (an old version of the package in another tab): the deletion then
   * happens once that tab closes it. Deleting a store that does not exist does nothing.
   * @param {string} store
   * @returns {Promise<void>}
   */
  async destroy(store) {
    if (typeof store !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "The store name must be a string.");
    }
    const name = this.#prefix + store;
    const handles = handlesOf(this.#factory, name);
    for (const handle of [...handles]) handle.retire();
    await deleteDatabase(this.#factory, name);
  }
}

/** @implements {StoreHandle} */
class IndexedDbStoreHandle {
  #factory;
  #keyRange;
  #name;
  #durability;
  /** The open connection, or null when it was closed under us (reopened lazily). @type {IDBDatabase | null} */
  #db = null;
  /** @type {Promise<IDBDatabase> | null} */
  #opening = null;
  #closed = false;
  /** Set by `retire`: the database was deleted through `destroy`. */
  #deleted = false;

  /**
   * @param {IDBFactory} factory
   * @param {typeof IDBKeyRange} keyRange the IDBKeyRange class that goes with `factory`
   * @param {string} name database name
   * @param {"default" | "strict" | "relaxed"} durability
   */
  constructor(factory, keyRange, name, durability) {
    this.#factory = factory;
    this.#keyRange = keyRange;
    this.#name = name;
    this.#durability = durability;
    handlesOf(factory, name).add(this);
  }

  /**
   * Where this store's change events go: MemoryTools over the same database (same factory,
   * same name) share them in this context, and the BroadcastChannel named like the database
   * carries them to other tabs and workers of the origin.
   * @returns {import("./index.js").EventScope}
   */
  get eventScope() {
    return { key: this.#factory, name: this.#name, channel: this.#name };
  }

  /**
   * The open connection, opening it first if needed.
   * @returns {Promise<IDBDatabase>}
   */
  connect() {
    if (this.#closed) return Promise.reject(this.#closedError());
    if (this.#db) return Promise.resolve(this.#db);
    this.#opening ??= openDatabase(this.#factory, this.#name).then(
      (db) => {
        this.#opening = null;
        if (this.#closed) {
          db.close();
          throw this.#closedError();
        }
        // Another tab wants to upgrade or delete the database: step aside at once (it waits
        // for our open connections), and reopen on the next transaction.
        db.onversionchange = () => this.#drop(db);
        // The browser closed the connection (storage cleared, Safari in the background). A
        // transaction started just before this event may never settle: settle it here.
        db.onclose = () => {
          this.#drop(db);
          for (const settle of this.#unsettled.get(db) ?? []) settle();
          this.#unsettled.delete(db);
        };
        this.#db = db;
        return db;
      },
      (error) => {
        this.#opening = null;
        throw error;
      },
    );
    return this.#opening;
  }

  /**
   * Runs `body` inside one IndexedDB transaction over all object stores; resolves on
   * `complete`, rejects on abort with a MemoryToolError (or with what `body` or one of its
   * callbacks threw, after aborting).
   * @param {TransactionMode} mode
   * @param {(tx: StorageTx) => void} body
   * @returns {Promise<void>}
   */
  transaction(mode, body) {
    if (this.#closed) return Promise.reject(this.#closedError());
    if (mode !== "readonly" && mode !== "readwrite") {
      return Promise.reject(
        new MemoryToolError("STORAGE_FAILED", `Unknown transaction mode: ${String(mode)}.`),
      );
    }
    // With an open connection the transaction is created now, so transactions start in the
    // order they were asked for.
    const db = this.#db;
    if (db) {
      try {
        return this.#start(db, mode, body);
      } catch (error) {
        // Safari may close a connection without telling us; reopen once and retry.
        if (errorName(error) !== "InvalidStateError") return Promise.reject(toStorageError(error));
        this.#drop(db);
      }
    }
    return this.connect().then((fresh) => {
      try {
        return this.#start(fresh, mode, body);
      } catch (error) {
        throw toStorageError(error);
      }
    });
  }

  /** Closes the connection; later transactions reject with STORAGE_FAILED. */
  close() {
    this.#closed = true;
    handlesOf(this.#factory, this.#name).delete(this);
    const db = this.#db;
    this.#db = null;
    // Transactions already running finish first (IndexedDB's close pending flag).
    db?.close();
  }

  /**
   * Closes this handle for good because its database is being deleted: unlike a deletion by
   * someone else (after which the next command starts a fresh store), a store deleted through
   * `destroy` must not come back empty under a MemoryTool that still has it open.
   */
  retire() {
    this.#deleted = true;
    this.close();
  }

  #closedError() {
    return this.#deleted
      ? new MemoryToolError("STORAGE_FAILED", "This memory store has been deleted.")
      : closedError();
  }

  /**
   * Per connection, how to fail each of its transactions that has not settled yet.
   * @type {WeakMap<IDBDatabase, Set<() => void>>}
   */
  #unsettled = new WeakMap();

  /**
   * Creates the transaction (throws synchronously if the connection is gone) and runs `body`.
   * @param {IDBDatabase} db
   * @param {TransactionMode} mode
   * @param {(tx: StorageTx) => void} body
   * @returns {Promise<void>}
   */
  #start(db, mode, body) {
    // Durability: "default" leaves it to the browser. `complete` then means every tab and
    // every reload sees the change; "strict" also waits for the disk flush, which guards only
    // against an OS crash or power loss and costs a flush per command.
    const idbTx = db.transaction(STORES, mode, { durability: this.#durability });
    const unsettled = this.#unsettled.get(db) ?? new Set();
    this.#unsettled.set(db, unsettled);
    return new Promise((resolve, reject) => {
      const lost = () =>
        reject(
          new MemoryToolError(
            "STORAGE_FAILED",
            "The browser closed the memory store's connection before this command finished; it was not saved.",
          ),
        );
      unsettled.add(lost);
      const settled = () => unsettled.delete(lost);
      /** What body or a callback threw; the transaction rejects with it rather than AbortError. */
      let thrown = /** @type {{ error: unknown } | null} */ (null);
      /** @param {unknown} error */
      const fail = (error) => {
        thrown ??= { error };
        try {
          idbTx.abort();
        } catch {
          // Already finishing; the abort or complete event settles the promise.
        }
      };
      idbTx.oncomplete = () => {
        settled();
        resolve();
      };
      idbTx.onabort = () => {
        // An abort we did not ask for, other than a full disk, may mean the browser closed the
        // connection (site data cleared): a transaction started before its `close` event would
        // never settle, so drop the connection now and reopen on the next command.
        settled();
        if (!thrown && errorName(idbTx.error) !== "QuotaExceededError") this.#drop(db);
        reject(thrown ? thrown.error : toStorageError(idbTx.error));
      };
      // A failed request aborts the transaction by default; `abort` carries its error.
      const tx = new IndexedDbTx(idbTx, this.#keyRange, fail);
      try {
        body(tx);
      } catch (error) {
        fail(error);
      }
    });
  }

  /**
   * Forgets (and closes) a connection that must not be used any more.
   * @param {IDBDatabase} db
   */
  #drop(db) {
    try {
      db.close();
    } catch {
      // Already closed.
    }
    if (this.#db === db) this.#db = null;
  }
}

/**
 * A transaction's requests. Callbacks run from the requests' success events; if one throws,
 * the transaction is aborted and rejects with what it threw.
 * @implements {StorageTx}
 */
class IndexedDbTx {
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

/**
 * The listing key of a file: `{path}\0{size}`.
 * @param {string} path
 * @param {number} size
 */
function listingKey(path, size) {
  return `${path}\u0000${size}`;
}

/**
 * Opens the database at SCHEMA_VERSION, creating or upgrading it.
 * @param {IDBFactory} factory
 * @param {string} name
 * @returns {Promise<IDBDatabase>}
 */
function openDatabase(factory, name) {
  return new Promise((resolve, reject) => {
    /** @type {IDBOpenDBRequest} */
    let request;
    try {
      request = factory.open(name, SCHEMA_VERSION);
    } catch (error) {
      reject(toStorageError(error));
      return;
    }
    let givenUp = false;
    // An open can wait in IndexedDB's queue with no event at all (behind another tab's upgrade
    // that an old tab blocks): give up after a while, clearly, rather than hang.
    const timer = setTimeout(() => {
      givenUp = true;
      reject(
        new MemoryToolError(
          "STORAGE_FAILED",
          "The memory store could not be opened: another tab is holding it (an upgrade is " +
            "waiting); close the other tabs of this site and try again.",
        ),
      );
    }, OPEN_TIMEOUT_MS);
    request.onupgradeneeded = (event) =>
      upgrade(request.result, /** @type {IDBTransaction} */ (request.transaction), event.oldVersion);
    request.onsuccess = () => {
      clearTimeout(timer);
      // Opened after all, once the blocking connection went away: no one waits for it now.
      if (givenUp) request.result.close();
      else resolve(request.result);
    };
    request.onerror = () => {
      clearTimeout(timer);
      reject(toStorageError(request.error));
    };
    // `blocked` means a connection elsewhere (a tab running an older version that ignores
    // `versionchange`) did not close for our upgrade. It may never close: rather than hang,
    // say what to do; the next transaction tries again.
    request.onblocked = () => {
      clearTimeout(timer);
      givenUp = true;
      reject(
        new MemoryToolError(
          "STORAGE_FAILED",
          "The memory store cannot be opened while another tab keeps an older version of it " +
            "open; close the other tabs of this site and try again.",
        ),
      );
    };
  });
}

/**
 * Brings the schema from `oldVersion` up to SCHEMA_VERSION, one version at a time, keeping
 * the data. Version 1 file records have no `content` or `version`: the core reads their bytes
 * under the memory id, where version 1 stored them, so no record needs rewriting.
 * @param {IDBDatabase} db
 * @param {IDBTransaction} tx the upgrade transaction
 * @param {number} oldVersion 0 for a new database
 */
function upgrade(db, tx, oldVersion) {
  // Created whenever missing, whatever the old version: an empty version-1 database (opened by
  // name without a version, as a devtools snippet does) must not lock the store out.
  if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES, { keyPath: "path" });
  if (!db.objectStoreNames.contains(CONTENTS)) db.createObjectStore(CONTENTS);
  if (oldVersion < 2) {
    tx.objectStore(FILES).createIndex("id", "id", { unique: true });
    const versions = db.createObjectStore(VERSIONS, { keyPath: "id" });
    versions.createIndex("memory", ["memoryId", "id"]);
    versions.createIndex("content", "content");
  }
  if (!db.objectStoreNames.contains(LISTING)) {
    // Version 3: the listing keys of the records already there, written in the upgrade
    // transaction (one cursor walk; the open completes only once they are all in).
    const listing = db.createObjectStore(LISTING);
    const walk = tx.objectStore(FILES).openCursor();
    walk.onsuccess = () => {
      const cursor = walk.result;
      if (!cursor) return;
      const { path, size } = /** @type {FileRecord} */ (cursor.value);
      listing.put(null, listingKey(path, size));
      cursor.continue();
    };
  }
}

/**
 * Deletes database `name`.
 * @param {IDBFactory} factory
 * @param {string} name
 * @returns {Promise<void>}
 */
function deleteDatabase(factory, name) {
  return new Promise((resolve, reject) => {
    /** @type {IDBOpenDBRequest} */
    let request;
    try {
      request = factory.deleteDatabase(name);
    } catch (error) {
      reject(toStorageError(error));
      return;
    }
    request.onsuccess = () => resolve();
    request.onerror = () => reject(toStorageError(request.error));
    // Every connection of this package closes on `versionchange`; one that does not belongs to
    // another tab running an old version. The request stays queued and completes once that
    // connection closes; rather than hang until then, say so.
    request.onblocked = () =>
      reject(
        new MemoryToolError(
          "STORAGE_FAILED",
          "The memory store cannot be deleted yet: another tab keeps it open with an older " +
            "version of memory-tool-wasm. It will be deleted once that tab closes it; close the " +
            "other tabs of this site to finish now.",
        ),
      );
  });
}

function closedError() {
  return new MemoryToolError("STORAGE_FAILED", "The memory store has been closed.");
}

/** @param {unknown} error */
function errorName(error) {
  return typeof error === "object" && error !== null && "name" in error ? error.name : undefined;
}
