// In-memory storage: the MemoryStorage interface over plain Maps, for Node, workers and tests.
// Data lives as long as the InMemoryStorage instance; every store opened from one instance
// shares that instance's data.

import { MemoryToolError } from "./errors.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").TransactionMode} TransactionMode */
/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */

/** One store's data: file records by path (with their keys kept sorted) and contents by id. */
class StoreData {
  constructor() {
    /** @type {Map<string, FileRecord>} */
    this.files = new Map();
    /** Keys of `files`, sorted by UTF-16 code units as IndexedDB orders string keys. @type {string[]} */
    this.paths = [];
    /** @type {Map<string, Uint8Array>} */
    this.contents = new Map();
  }

  /**
   * Index of the first key that is not below `key`.
   * @param {string} key
   */
  lowerBound(key) {
    let lo = 0;
    let hi = this.paths.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.paths[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Keys in `[path + "/", path + "0")` ("0" follows "/"), in key order.
   * @param {string} path
   */
  subtreeKeys(path) {
    const end = path + "0";
    const keys = [];
    for (let i = this.lowerBound(path + "/"); i < this.paths.length && this.paths[i] < end; i++) {
      keys.push(this.paths[i]);
    }
    return keys;
  }

  /**
   * @param {string} path
   * @param {FileRecord | undefined} record the record to store, or undefined to delete
   */
  setFile(path, record) {
    const present = this.files.has(path);
    if (record === undefined) {
      if (!present) return;
      this.files.delete(path);
      this.paths.splice(this.lowerBound(path), 1);
    } else {
      this.files.set(path, record);
      if (!present) this.paths.splice(this.lowerBound(path), 0, path);
    }
  }

  /**
   * @param {string} id
   * @param {Uint8Array | undefined} bytes the bytes to store, or undefined to delete
   */
  setContent(id, bytes) {
    if (bytes === undefined) this.contents.delete(id);
    else this.contents.set(id, bytes);
  }
}

/**
 * Storage in plain Maps. `transaction` runs its body synchronously; the body's writes take
 * effect only if it returns without throwing, so a failed command loses nothing.
 * @implements {MemoryStorage}
 */
export class InMemoryStorage {
  /** @type {Map<string, StoreData>} */
  #stores = new Map();

  /**
   * Opens (or creates) the named store. Handles opened from one instance share its data.
   * @param {string} store
   * @returns {Promise<StoreHandle>}
   */
  async open(store) {
    if (typeof store !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "The store name must be a string.");
    }
    let data = this.#stores.get(store);
    if (data === undefined) {
      data = new StoreData();
      this.#stores.set(store, data);
    }
    return new InMemoryStoreHandle(data);
  }
}

/** @implements {StoreHandle} */
class InMemoryStoreHandle {
  #data;
  #closed = false;

  /** @param {StoreData} data */
  constructor(data) {
    this.#data = data;
  }

  /**
   * Runs `body` now, synchronously. Resolves if it returned; if it threw, undoes its writes
   * and rejects with what it threw.
   * @param {TransactionMode} mode
   * @param {(tx: StorageTx) => void} body
   * @returns {Promise<void>}
   */
  transaction(mode, body) {
    if (this.#closed) {
      return Promise.reject(
        new MemoryToolError("STORAGE_FAILED", "The in-memory store handle has been closed."),
      );
    }
    if (mode !== "readonly" && mode !== "readwrite") {
      return Promise.reject(
        new MemoryToolError("STORAGE_FAILED", `Unknown transaction mode: ${String(mode)}.`),
      );
    }
    const tx = new InMemoryTx(this.#data, mode);
    try {
      body(tx);
    } catch (error) {
      tx.rollBack();
      return Promise.reject(error);
    } finally {
      tx.end();
    }
    return Promise.resolve();
  }

  /** Closes this handle; the data stays in the storage instance. */
  close() {
    this.#closed = true;
  }
}

/**
 * A transaction over one store. Reads see the transaction's own earlier writes, as in
 * IndexedDB; an undo log takes the writes back if the body fails.
 * @implements {StorageTx}
 */
class InMemoryTx {
  #data;
  #mode;
  #active = true;
  /** @type {Array<() => void>} */
  #undo = [];

  /**
   * @param {StoreData} data
   * @param {TransactionMode} mode
   */
  constructor(data, mode) {
    this.#data = data;
    this.#mode = mode;
  }

  /** @param {string} path @param {(record: FileRecord | null) => void} cb */
  getFile(path, cb) {
    this.#checkActive();
    const record = this.#data.files.get(path);
    cb(record === undefined ? null : { ...record });
  }

  /** @param {string} path @param {(records: FileRecord[]) => void} cb */
  getSubtree(path, cb) {
    this.#checkActive();
    const files = this.#data.files;
    cb(this.#data.subtreeKeys(path).map((key) => ({ .../** @type {FileRecord} */ (files.get(key)) })));
  }

  /** @param {string} path @param {(yes: boolean) => void} cb */
  hasChildren(path, cb) {
    this.#checkActive();
    const data = this.#data;
    const i = data.lowerBound(path + "/");
    cb(i < data.paths.length && data.paths[i] < path + "0");
  }

  /** @param {(n: number) => void} cb */
  countFiles(cb) {
    this.#checkActive();
    cb(this.#data.files.size);
  }

  /** @param {string} id @param {(bytes: Uint8Array | undefined) => void} cb */
  getContent(id, cb) {
    this.#checkActive();
    const bytes = this.#data.contents.get(id);
    cb(bytes === undefined ? undefined : bytes.slice());
  }

  /** @param {FileRecord} record */
  putFile(record) {
    this.#checkWritable();
    const path = record.path;
    if (typeof path !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "A file record must have a string path.");
    }
    const before = this.#data.files.get(path);
    this.#undo.push(() => this.#data.setFile(path, before));
    this.#data.setFile(path, { ...record });
  }

  /** @param {string} path */
  deleteFile(path) {
    this.#checkWritable();
    const before = this.#data.files.get(path);
    this.#undo.push(() => this.#data.setFile(path, before));
    this.#data.setFile(path, undefined);
  }

  /** @param {string} id @param {Uint8Array} bytes */
  putContent(id, bytes) {
    this.#checkWritable();
    if (!(bytes instanceof Uint8Array)) {
      throw new MemoryToolError("STORAGE_FAILED", "Content must be a Uint8Array.");
    }
    const before = this.#data.contents.get(id);
    this.#undo.push(() => this.#data.setContent(id, before));
    this.#data.setContent(id, bytes.slice());
  }

  /** @param {string} id */
  deleteContent(id) {
    this.#checkWritable();
    const before = this.#data.contents.get(id);
    this.#undo.push(() => this.#data.setContent(id, before));
    this.#data.setContent(id, undefined);
  }

  /** Takes back every write of this transaction, newest first. */
  rollBack() {
    for (let i = this.#undo.length - 1; i >= 0; i--) this.#undo[i]();
    this.#undo.length = 0;
  }

  /** Marks the transaction finished: later calls throw, as with an inactive IndexedDB transaction. */
  end() {
    this.#active = false;
    this.#undo.length = 0;
  }

  #checkActive() {
    if (!this.#active) {
      throw new MemoryToolError(
        "STORAGE_FAILED",
        "The transaction has finished; requests must be made while its body runs.",
      );
    }
  }

  #checkWritable() {
    this.#checkActive();
    if (this.#mode !== "readwrite") {
      throw new MemoryToolError("STORAGE_FAILED", "Cannot write in a readonly transaction.");
    }
  }
}
