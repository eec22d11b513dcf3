// In-memory storage: the MemoryStorage interface over plain Maps, for Node, workers and tests.
// Data lives as long as the InMemoryStorage instance; every store opened from one instance
// shares that instance's data. It keeps the same indexes as the IndexedDB schema (files by
// memory id, versions by memory and by content key), so both answer every read alike.

import { MemoryToolError } from "./errors.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").TransactionMode} TransactionMode */
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
 * Adds `key` to the sorted `keys` unless it is there.
 * @param {string[]} keys
 * @param {string} key
 */
function insertSorted(keys, key) {
  const i = lowerBound(keys, key);
  if (keys[i] !== key) keys.splice(i, 0, key);
}

/**
 * Removes `key` from the sorted `keys` if it is there.
 * @param {string[]} keys
 * @param {string} key
 */
function removeSorted(keys, key) {
  const i = lowerBound(keys, key);
  if (keys[i] === key) keys.splice(i, 1);
}

/**
 * One store's data: file records by path (keys kept sorted, and a unique index by memory id),
 * contents by key, and version records by id (ids kept sorted, indexed by memory and by
 * content key).
 */
class StoreData {
  constructor() {
    /** @type {Map<string, FileRecord>} */
    this.files = new Map();
    /** Keys of `files`, sorted by UTF-16 code units as IndexedDB orders string keys. @type {string[]} */
    this.paths = [];
    /** The files' `id` index (unique): memory id → path. @type {Map<string, string>} */
    this.pathById = new Map();
    /** @type {Map<string, Uint8Array>} */
    this.contents = new Map();
    /**
     * The content keys that begin with a file key and `\0` (the keys the core gives a head's
     * bytes), by that file key, sorted: `getHeadContent` in constant time.
     * @type {Map<string, string[]>}
     */
    this.headKeys = new Map();
    /** @type {Map<string, VersionRecord>} */
    this.versions = new Map();
    /** Keys of `versions`, sorted. @type {string[]} */
    this.versionIds = [];
    /** The highest version id ever stored (deleted ones too: ids only grow). @type {string | null} */
    this.newestVersion = null;
    /** The versions' `memory` index: memory id → its version ids, sorted. @type {Map<string, string[]>} */
    this.versionsByMemory = new Map();
    /** The versions' `content` index: content key → version ids. @type {Map<string, Set<string>>} */
    this.versionsByContent = new Map();
    /** The host's per-store state (`MemoryTool.state`), by name. @type {Map<string, unknown>} */
    this.state = new Map();
    /** When the store was archived (epoch ms), or null. @type {number | null} */
    this.archivedAt = null;
    /**
     * What the store remembers of the time (docs/TOOL.md#a-clock-that-can-be-trusted).
     * @type {{ seen: number, acting: number } | undefined}
     */
    this.clock = undefined;
    /** Set by `destroy`: the store is gone, and handles on it refuse every transaction. */
    this.deleted = false;
  }

  /** Drops every record, content and version, for good. */
  drop() {
    this.deleted = true;
    this.files.clear();
    this.paths.length = 0;
    this.pathById.clear();
    this.contents.clear();
    this.headKeys.clear();
    this.versions.clear();
    this.versionIds.length = 0;
    this.newestVersion = null;
    this.versionsByMemory.clear();
    this.versionsByContent.clear();
    this.state.clear();
    this.clock = undefined;
  }

  /**
   * Keys in `[path + "/", path + "0")` ("0" follows "/"), in key order.
   * @param {string} path
   */
  subtreeKeys(path) {
    const end = path + "0";
    const keys = [];
    for (let i = lowerBound(this.paths, path + "/"); i < this.paths.length && this.paths[i] < end; i++) {
      keys.push(this.paths[i]);
    }
    return keys;
  }

  /**
   * @param {string} path
   * @param {FileRecord | undefined} record the record to store, or undefined to delete
   */
  setFile(path, record) {
    const before = this.files.get(path);
    if (before !== undefined && this.pathById.get(before.id) === path) this.pathById.delete(before.id);
    if (record === undefined) {
      if (before === undefined) return;
      this.files.delete(path);
      removeSorted(this.paths, path);
    } else {
      this.files.set(path, record);
      if (before === undefined) insertSorted(this.paths, path);
      if (typeof record.id === "string") this.pathById.set(record.id, path);
    }
  }

  /**
   * @param {string} id
   * @param {Uint8Array | undefined} bytes the bytes to store, or undefined to delete
   */
  setContent(id, bytes) {
    const had = this.contents.has(id);
    if (bytes === undefined) this.contents.delete(id);
    else this.contents.set(id, bytes);
    const cut = id.indexOf("\u0000");
    if (cut < 0 || had === (bytes !== undefined)) return;
    const path = id.slice(0, cut);
    const keys = this.headKeys.get(path) ?? [];
    if (bytes === undefined) removeSorted(keys, id);
    else insertSorted(keys, id);
    if (keys.length === 0) this.headKeys.delete(path);
    else this.headKeys.set(path, keys);
  }

  /**
   * @param {string} id
   * @param {VersionRecord | undefined} record the record to store, or undefined to delete
   */
  setVersion(id, record) {
    const before = this.versions.get(id);
    if (before !== undefined) {
      const ofMemory = this.versionsByMemory.get(before.memoryId);
      if (ofMemory) {
        removeSorted(ofMemory, id);
        if (ofMemory.length === 0) this.versionsByMemory.delete(before.memoryId);
      }
      if (typeof before.content === "string") {
        const holders = this.versionsByContent.get(before.content);
        holders?.delete(id);
        if (holders?.size === 0) this.versionsByContent.delete(before.content);
      }
    }
    if (record === undefined) {
      if (before === undefined) return;
      this.versions.delete(id);
      removeSorted(this.versionIds, id);
      return;
    }
    this.versions.set(id, record);
    if (before === undefined) insertSorted(this.versionIds, id);
    if (this.newestVersion === null || id > this.newestVersion) this.newestVersion = id;
    // Like an IndexedDB index, a record without a valid key for it is simply not indexed.
    if (typeof record.memoryId === "string") {
      let ofMemory = this.versionsByMemory.get(record.memoryId);
      if (!ofMemory) this.versionsByMemory.set(record.memoryId, (ofMemory = []));
      insertSorted(ofMemory, id);
    }
    if (typeof record.content === "string") {
      let holders = this.versionsByContent.get(record.content);
      if (!holders) this.versionsByContent.set(record.content, (holders = new Set()));
      holders.add(id);
    }
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

  /**
   * Deletes the named store: every memory, content and version. Handles already open on it
   * refuse later transactions (STORAGE_FAILED); opening the name again starts an empty store.
   * Deleting a store that does not exist does nothing.
   * @param {string} store
   * @returns {Promise<void>}
   */
  async destroy(store) {
    if (typeof store !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "The store name must be a string.");
    }
    this.#stores.get(store)?.drop();
    this.#stores.delete(store);
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
   * Where this store's change events go: every MemoryTool over the same data (one
   * InMemoryStorage, one store name) hears them; nothing leaves this context.
   * @returns {import("./index.js").EventScope}
   */
  get eventScope() {
    return { key: this.#data, name: "", channel: null };
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
    if (this.#data.deleted) {
      return Promise.reject(new MemoryToolError("STORAGE_FAILED", "This memory store has been deleted."));
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

  /**
   * Up to `limit` file records in key order, after path `after` (null: from the first): a
   * whole store a page at a time (the streamed export).
   * @param {string | null} after
   * @param {number} limit
   * @param {(records: FileRecord[]) => void} cb
   */
  getFilesAfter(after, limit, cb) {
    this.#checkActive();
    const { paths, files } = this.#data;
    let i = lowerBound(paths, after ?? "/");
    if (after !== null && paths[i] === after) i++;
    /** @type {FileRecord[]} */
    const out = [];
    for (; i < paths.length && out.length < limit && paths[i] < "0"; i++) {
      out.push({ .../** @type {FileRecord} */ (files.get(paths[i])) });
    }
    cb(out);
  }

  /** @param {string} path @param {(entries: string[]) => void} cb */
  getListing(path, cb) {
    this.#checkActive();
    const files = this.#data.files;
    cb(this.#data.subtreeKeys(path).map((key) => `${key}\u0000${/** @type {FileRecord} */ (files.get(key)).size}`));
  }

  /** @param {string} path @param {(yes: boolean) => void} cb */
  hasChildren(path, cb) {
    this.#checkActive();
    const data = this.#data;
    const i = lowerBound(data.paths, path + "/");
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

  /**
   * The newest content whose key begins with `path` and `\0`, with its key (both undefined
   * when none).
   * @param {string} path
   * @param {(key: string | undefined, bytes: Uint8Array | undefined) => void} cb
   */
  getHeadContent(path, cb) {
    this.#checkActive();
    const key = this.#data.headKeys.get(path)?.at(-1);
    const bytes = key === undefined ? undefined : this.#data.contents.get(key);
    if (key === undefined || bytes === undefined) cb(undefined, undefined);
    else cb(key, bytes.slice());
  }

  /** @param {string} id @param {(record: FileRecord | null) => void} cb */
  getFileById(id, cb) {
    this.#checkActive();
    const path = this.#data.pathById.get(id);
    const record = path === undefined ? undefined : this.#data.files.get(path);
    cb(record === undefined ? null : { ...record });
  }

  /** @param {string} id @param {(record: VersionRecord | null) => void} cb */
  getVersion(id, cb) {
    this.#checkActive();
    const record = this.#data.versions.get(id);
    cb(record === undefined ? null : copyVersion(record));
  }

  /**
   * Up to `limit` versions, newest (highest id) first: of memory `memoryId` if given, with
   * ids below `below` if given.
   * @param {string | null} memoryId
   * @param {string | null} below
   * @param {number} limit
   * @param {(records: VersionRecord[]) => void} cb
   */
  getVersionsDesc(memoryId, below, limit, cb) {
    this.#checkActive();
    const data = this.#data;
    const ids = memoryId === null ? data.versionIds : data.versionsByMemory.get(memoryId) ?? [];
    const end = below === null ? ids.length : lowerBound(ids, below);
    /** @type {VersionRecord[]} */
    const out = [];
    for (let i = end - 1; i >= 0 && out.length < limit; i--) {
      out.push(copyVersion(/** @type {VersionRecord} */ (data.versions.get(ids[i]))));
    }
    cb(out);
  }

  /** @param {string} id @param {(records: VersionRecord[]) => void} cb */
  getVersionsBelow(id, cb) {
    this.#checkActive();
    const data = this.#data;
    const end = lowerBound(data.versionIds, id);
    cb(data.versionIds.slice(0, end).map((v) => copyVersion(/** @type {VersionRecord} */ (data.versions.get(v)))));
  }

  /**
   * Up to `limit` versions in id order after `after` (null: from the first): a store's history
   * a page at a time (the streamed export).
   * @param {string | null} after
   * @param {number} limit
   * @param {(records: VersionRecord[]) => void} cb
   */
  getVersionsAfter(after, limit, cb) {
    this.#checkActive();
    const ids = this.#data.versionIds;
    let i = after === null ? 0 : lowerBound(ids, after);
    if (after !== null && ids[i] === after) i++;
    cb(ids.slice(i, i + limit).map((v) => copyVersion(/** @type {VersionRecord} */ (this.#data.versions.get(v)))));
  }

  /**
   * Every version of memory `memoryId`, oldest first (docs/TOOL.md#history-budget).
   * @param {string} memoryId
   * @param {(records: VersionRecord[]) => void} cb
   */
  getHistory(memoryId, cb) {
    this.#checkActive();
    const data = this.#data;
    const ids = data.versionsByMemory.get(memoryId) ?? [];
    cb(ids.map((v) => copyVersion(/** @type {VersionRecord} */ (data.versions.get(v)))));
  }

  /** @param {string} key @param {(ids: string[]) => void} cb */
  getVersionIdsWithContent(key, cb) {
    this.#checkActive();
    cb([...(this.#data.versionsByContent.get(key) ?? [])].sort());
  }

  /**
   * The highest version id this store has held, deleted or not (ids only grow).
   * @param {(id: string | null) => void} cb
   */
  getNewestVersionId(cb) {
    this.#checkActive();
    cb(this.#data.newestVersion);
  }

  /** @param {(ids: string[]) => void} cb */
  getVersionIds(cb) {
    this.#checkActive();
    cb(this.#data.versionIds.slice());
  }

  /** @param {FileRecord} record */
  putFile(record) {
    this.#checkWritable();
    const path = record?.path;
    if (typeof path !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "A file record must have a string path.");
    }
    // The `id` index is unique, as in IndexedDB: two paths never hold one memory.
    const holder = typeof record.id === "string" ? this.#data.pathById.get(record.id) : undefined;
    if (holder !== undefined && holder !== path) {
      throw new MemoryToolError(
        "STORAGE_FAILED",
        `A file record's id must be unique: ${record.id} is already at another path.`,
      );
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

  /** @param {VersionRecord} record */
  putVersion(record) {
    this.#checkWritable();
    const id = record?.id;
    if (typeof id !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "A version record must have a string id.");
    }
    const before = this.#data.versions.get(id);
    const newest = this.#data.newestVersion;
    this.#undo.push(() => {
      this.#data.setVersion(id, before);
      this.#data.newestVersion = newest;
    });
    this.#data.setVersion(id, copyVersion(record));
  }

  /** @param {string} id */
  deleteVersion(id) {
    this.#checkWritable();
    const before = this.#data.versions.get(id);
    this.#undo.push(() => this.#data.setVersion(id, before));
    this.#data.setVersion(id, undefined);
  }

  /** @param {(usage: { files: number, bytes: number }) => void} cb */
  getUsage(cb) {
    this.#checkActive();
    let bytes = 0;
    for (const record of this.#data.files.values()) if (typeof record.size === "number") bytes += record.size;
    cb({ files: this.#data.files.size, bytes });
  }

  /** @param {(yes: boolean) => void} cb */
  isArchived(cb) {
    this.#checkActive();
    cb(this.#data.archivedAt !== null);
  }

  /** @param {number} at */
  setArchived(at) {
    this.#checkWritable();
    const data = this.#data;
    if (data.archivedAt !== null) return;
    this.#undo.push(() => (data.archivedAt = null));
    data.archivedAt = at;
  }

  /**
   * The host's per-store state under `name` (a copy), or undefined.
   * @param {string} name
   * @param {(value: unknown) => void} cb
   */
  getState(name, cb) {
    this.#checkActive();
    const value = this.#data.state.get(name);
    cb(value === undefined ? undefined : structuredClone(value));
  }

  /** @param {string} name @param {unknown} value */
  putState(name, value) {
    this.#checkWritable();
    const state = this.#data.state;
    const had = state.has(name);
    const before = state.get(name);
    this.#undo.push(() => (had ? state.set(name, before) : state.delete(name)));
    state.set(name, structuredClone(value));
  }

  /**
   * What the store remembers of the time (docs/TOOL.md#a-clock-that-can-be-trusted), or
   * undefined.
   * @param {(clock: unknown) => void} cb
   */
  getClock(cb) {
    this.#checkActive();
    const clock = this.#data.clock;
    cb(clock === undefined ? undefined : { ...clock });
  }

  /** @param {{ seen: number, acting: number }} clock */
  putClock(clock) {
    this.#checkWritable();
    const data = this.#data;
    const before = data.clock;
    this.#undo.push(() => (data.clock = before));
    data.clock = { seen: clock.seen, acting: clock.acting };
  }

  /** @param {string} name */
  deleteState(name) {
    this.#checkWritable();
    const state = this.#data.state;
    if (!state.has(name)) return;
    const before = state.get(name);
    this.#undo.push(() => state.set(name, before));
    state.delete(name);
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
 * A copy of a version record that shares nothing with it (`createdBy` is an object).
 * @param {VersionRecord} record
 * @returns {VersionRecord}
 */
function copyVersion(record) {
  const copy = { ...record };
  if (typeof copy.createdBy === "object" && copy.createdBy !== null) {
    copy.createdBy = structuredClone(copy.createdBy);
  }
  return copy;
}
