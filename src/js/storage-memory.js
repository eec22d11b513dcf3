// In-memory storage, for Node, workers and tests: `KeyValueStorage` over a sorted map of its
// own. Data lives as long as the InMemoryStorage instance; every store opened from one
// instance shares that instance's data. Everything the core reads besides its records (the
// indexes, the figures) is derived by `KeyValueStorage`, as for any key-value store
// (docs/STORAGE.md): this file keeps only keys and values.

import { MemoryToolError } from "./errors.js";
import { KeyValueStorage } from "./storage-kv.js";

/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").TransactionMode} TransactionMode */
/** @typedef {import("./index.js").KeyValueTx} KeyValueTx */
/** @typedef {import("./index.js").KeyValueStore} KeyValueStore */
/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */

/**
 * Index of the first element of the sorted `keys` that is not below `key` (UTF-16 code unit
 * order, as IndexedDB orders string keys).
 * @param {string[]} keys
 * @param {string} key
 */
function lowerBound(keys, key) {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A copy of stored data that shares nothing with it: bytes, arrays and plain objects copied,
 * the rest (strings, numbers, null) as it is.
 * @param {unknown} value
 * @returns {unknown}
 */
function copy(value) {
  if (value instanceof Uint8Array) return value.slice();
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === "object") {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = copy(v);
    return out;
  }
  return value;
}

/**
 * One store's keys and values. Keys are kept sorted in one array per first character (what
 * the key holds, docs/STORAGE.md#keys), so a range reads only its own kind and an insert
 * moves only the keys of its kind.
 */
class StoreData {
  constructor() {
    /** @type {Map<string, unknown>} */
    this.values = new Map();
    /** @type {Map<string, string[]>} */
    this.sorted = new Map();
    /** Set by `destroy`: the store is gone. */
    this.deleted = false;
  }

  /** @param {string} key */
  bucket(key) {
    const first = key.charAt(0);
    let keys = this.sorted.get(first);
    if (keys === undefined) this.sorted.set(first, (keys = []));
    return keys;
  }

  /**
   * @param {string} key
   * @param {unknown} value the value to store, or undefined to delete
   */
  set(key, value) {
    const had = this.values.has(key);
    if (value === undefined) {
      if (!had) return;
      this.values.delete(key);
      const keys = this.bucket(key);
      const i = lowerBound(keys, key);
      if (keys[i] === key) keys.splice(i, 1);
      return;
    }
    this.values.set(key, value);
    if (had) return;
    const keys = this.bucket(key);
    keys.splice(lowerBound(keys, key), 0, key);
  }

  /**
   * The keys in `[lower, upper)`, in order.
   * @param {string} lower
   * @param {string} upper
   * @returns {string[]}
   */
  keysIn(lower, upper) {
    if (!(lower < upper)) return [];
    /** @type {string[]} */
    const out = [];
    const firsts = [...this.sorted.keys()].filter((c) => c >= lower.charAt(0) && c <= upper.charAt(0)).sort();
    for (const first of firsts) {
      const keys = /** @type {string[]} */ (this.sorted.get(first));
      for (let i = lowerBound(keys, lower); i < keys.length && keys[i] < upper; i++) out.push(keys[i]);
    }
    return out;
  }

  drop() {
    this.deleted = true;
    this.values.clear();
    this.sorted.clear();
  }
}

/** The key-value backend of InMemoryStorage: one StoreData per name. */
class MemoryBackend {
  /** @type {Map<string, StoreData>} */
  stores = new Map();

  /** @param {string} name */
  async open(name) {
    let data = this.stores.get(name);
    if (data === undefined) this.stores.set(name, (data = new StoreData()));
    return new MemoryStore(data);
  }

  /** @param {string} name */
  async destroy(name) {
    this.stores.get(name)?.drop();
    this.stores.delete(name);
  }
}

/** @implements {KeyValueStore} */
class MemoryStore {
  #data;
  #closed = false;

  /** @param {StoreData} data */
  constructor(data) {
    this.#data = data;
  }

  /**
   * Where this store's change events go: every MemoryTool over the same data (one
   * InMemoryStorage, one store name) hears them; nothing leaves this context.
   * @returns {import("./index.js").EventScope}
   */
  get eventScope() {
    return { key: this.#data, name: "", channel: null };
  }

  /**
   * Runs `body` now, synchronously, each request answered at once. Resolves if it returned;
   * if it (or a callback) threw, undoes its writes and rejects with what it threw.
   * @param {TransactionMode} mode
   * @param {(tx: KeyValueTx) => void} body
   * @returns {Promise<void>}
   */
  transaction(mode, body) {
    if (this.#closed) {
      return Promise.reject(new MemoryToolError("STORAGE_FAILED", "The in-memory store handle has been closed."));
    }
    if (this.#data.deleted) {
      return Promise.reject(new MemoryToolError("STORAGE_FAILED", "This memory store has been deleted."));
    }
    const tx = new MemoryTx(this.#data, mode);
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
 * A transaction over one store's map. Reads see its own earlier writes; an undo log takes
 * the writes back if the body fails.
 * @implements {KeyValueTx}
 */
class MemoryTx {
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

  /** @param {string} key @param {(value: unknown) => void} cb */
  get(key, cb) {
    this.#checkActive();
    cb(copy(this.#data.values.get(key)));
  }

  /**
   * @param {string} lower
   * @param {string} upper
   * @param {{ limit?: number, reverse?: boolean }} options
   * @param {(entries: Array<[string, unknown]>) => void} cb
   */
  getRange(lower, upper, options, cb) {
    this.#checkActive();
    let keys = this.#data.keysIn(lower, upper);
    if (options?.reverse) keys.reverse();
    if (options?.limit !== undefined) keys = keys.slice(0, Math.max(0, options.limit));
    const values = this.#data.values;
    cb(keys.map((key) => [key, copy(values.get(key))]));
  }

  /** @param {string} key @param {unknown} value */
  put(key, value) {
    this.#write(key, copy(value));
  }

  /** @param {string} key */
  delete(key) {
    this.#write(key, undefined);
  }

  /** @param {string} lower @param {string} upper */
  deleteRange(lower, upper) {
    this.#checkWritable();
    for (const key of this.#data.keysIn(lower, upper)) this.#write(key, undefined);
  }

  /**
   * @param {string} key
   * @param {unknown} value undefined: delete
   */
  #write(key, value) {
    this.#checkWritable();
    const data = this.#data;
    const had = data.values.has(key);
    const before = data.values.get(key);
    this.#undo.push(() => data.set(key, had ? before : undefined));
    data.set(key, value);
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

/**
 * Storage in plain Maps. `transaction` runs its body synchronously; the body's writes take
 * effect only if it returns without throwing, so a failed command loses nothing.
 * @implements {MemoryStorage}
 */
export class InMemoryStorage {
  #storage = new KeyValueStorage(new MemoryBackend());

  /**
   * Opens (or creates) the named store. Handles opened from one instance share its data.
   * @param {string} store
   * @returns {Promise<StoreHandle>}
   */
  open(store) {
    return this.#storage.open(store);
  }

  /**
   * Deletes the named store: every memory, content and version. Handles already open on it
   * refuse later transactions (STORAGE_FAILED); opening the name again starts an empty store.
   * Deleting a store that does not exist does nothing.
   * @param {string} store
   * @returns {Promise<void>}
   */
  destroy(store) {
    return this.#storage.destroy(store);
  }
}
