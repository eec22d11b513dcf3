// IndexedDB storage: one database per store, one IndexedDB transaction per command.
// Nothing but the transaction's own requests happens between its start and its end, so it
// never auto-commits early, and IndexedDB runs overlapping readwrite transactions one at a
// time across tabs and workers: commands are atomic and serializable with no lock of ours.
// Here: the storage and its store handles (connections, reopening, retiring); the database
// schema is indexeddb-schema.js's, a transaction's requests indexeddb-tx.js's.

import { MemoryToolError, toStorageError } from "./errors.js";
import { CONTENTS, FILES, LISTING, META, META_KEY, STORES, deleteDatabase, openDatabase } from "./indexeddb-schema.js";
import { IndexedDbTx } from "./indexeddb-tx.js";
import { forget, recall, remember } from "./known-stores.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").TransactionMode} TransactionMode */
/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */

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
    forget(name);
  }

  /**
   * After a store vanished (`STORE_VANISHED`: its database was deleted outside this package,
   * with memories in it), says to begin it again empty: the next open or command creates a
   * fresh database. Import a backup or sync again afterwards to get the memories back. Does
   * nothing to a store that did not vanish.
   * @param {string} store
   * @returns {Promise<void>}
   */
  async startOver(store) {
    if (typeof store !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "The store name must be a string.");
    }
    const name = this.#prefix + store;
    forget(name);
    for (const handle of handlesOf(this.#factory, name)) handle.forgetContents();
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
   * How many memories this handle last saw the store hold (from its metadata), or null
   * before its first transaction: a reopen that finds the database gone while this is above
   * zero refuses to create it anew.
   * @type {number | null}
   */
  #files = null;

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
    // Gone on purpose (deleted through the package, or started over, in any tab): made anew.
    // Otherwise, if this handle or this origin saw memories in it, it vanished.
    const remembered = recall(this.#name);
    const known = remembered?.deleted ? 0 : Math.max(this.#files ?? 0, remembered?.files ?? 0);
    this.#opening ??= openDatabase(this.#factory, this.#name, known > 0 ? () => this.#vanished(known) : undefined).then(
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
        this.#learnFiles(db);
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
   * Runs `body` inside one IndexedDB transaction over all object stores (a read-only one told
   * its `reads`: over the stores those use); resolves on `complete`, rejects on abort with a
   * MemoryToolError (or with what `body` or one of its callbacks threw, after aborting).
   * @param {TransactionMode} mode
   * @param {(tx: StorageTx) => void} body
   * @param {import("./index.js").TransactionOptions} [options]
   * @returns {Promise<void>}
   */
  transaction(mode, body, options) {
    const stores = mode === "readonly" ? storesFor(options?.reads) : STORES;
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
        return this.#start(db, mode, body, stores);
      } catch (error) {
        // Safari may close a connection without telling us; reopen once and retry.
        if (errorName(error) !== "InvalidStateError") return Promise.reject(toStorageError(error));
        this.#drop(db);
      }
    }
    return this.connect().then((fresh) => {
      try {
        return this.#start(fresh, mode, body, stores);
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

  /**
   * The store held `files` memories and is gone: no fresh one is made under the host.
   * @param {number} files
   */
  #vanished(files) {
    const store = this.#name;
    return new MemoryToolError(
      "STORE_VANISHED",
      `The memory store ${JSON.stringify(store)} held ${files} ${files === 1 ? "memory" : "memories"} and is gone: ` +
        "its database was deleted outside memory-tool-wasm (another tab, cleared site data, or the browser). " +
        "Nothing was recreated. To begin again empty, call startOver(store) on the storage, then import a " +
        "backup or sync again.",
      { detail: { database: store, files } },
    );
  }

  /**
   * Reads the store's file count once the connection is open (one small read-only request,
   * not awaited), so a handle that only ever views still knows whether the store held
   * memories if its database vanishes.
   * @param {IDBDatabase} db
   */
  #learnFiles(db) {
    try {
      const request = db.transaction(META, "readonly").objectStore(META).get(META_KEY);
      request.onsuccess = () => {
        const files = request.result?.files;
        if (Number.isSafeInteger(files)) this.#sawFiles(files);
      };
      request.onerror = (event) => event.preventDefault();
    } catch {
      // Closed meanwhile: the next transaction learns it.
    }
  }

  /** `startOver`: the store may be created empty on the next transaction. */
  forgetContents() {
    this.#files = 0;
  }

  /**
   * What a transaction saw of the store's metadata: its file count, remembered here and (when
   * it changed) outside the database.
   * @param {number} files
   */
  #sawFiles(files) {
    if (this.#files === files) return;
    this.#files = files;
    remember(this.#name, files);
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
   * @param {string[]} stores the object stores of its scope
   * @returns {Promise<void>}
   */
  #start(db, mode, body, stores) {
    // Durability: "default" leaves it to the browser. `complete` then means every tab and
    // every reload sees the change; "strict" also waits for the disk flush, which guards only
    // against an OS crash or power loss and costs a flush per command.
    const idbTx = db.transaction(stores, mode, { durability: this.#durability });
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
      const tx = new IndexedDbTx(idbTx, this.#keyRange, fail, (files) => this.#sawFiles(files));
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
 * The object stores the reads of these kinds use, in STORES order; all of them for a kind not
 * listed here (or no kinds given): in Chromium a transaction costs more the more stores it
 * spans, and a view reads three of the five.
 * @param {string[] | undefined} reads
 * @returns {string[]}
 */
function storesFor(reads) {
  if (!reads) return STORES;
  const needed = new Set();
  for (const kind of reads) {
    const stores = READ_STORES[kind];
    if (!stores) return STORES;
    for (const store of stores) needed.add(store);
  }
  return STORES.filter((store) => needed.has(store));
}

/**
 * The object stores each kind of read uses in IndexedDbTx, for the kinds a scoped transaction
 * is told of (a view's).
 * @type {Record<string, string[]>}
 */
const READ_STORES = { file: [FILES], headContent: [CONTENTS], content: [CONTENTS], listing: [LISTING] };

function closedError() {
  return new MemoryToolError("STORAGE_FAILED", "The memory store has been closed.");
}

/** @param {unknown} error */
function errorName(error) {
  return typeof error === "object" && error !== null && "name" in error ? error.name : undefined;
}
