// A storage from five primitive operations. `KeyValueStorage` turns the transactions of a
// key-value store of your own (get, getRange, put, delete, deleteRange over string keys) into
// the storage interface the package runs on, and keeps every index and figure the core reads
// as ordinary keys of that store, written in the same transaction as the change they follow:
// a memory's path by its id, the versions by memory and by content, the file count and bytes,
// the newest version id. docs/STORAGE.md is the contract a key-value store keeps; the
// `memory-tool-wasm/storage-contract` entry checks it.
//
// Keys (each begins with one character that says what it holds):
//   f{path}                      a file record
//   c{content key}               a text's bytes (a head's key is `{path}\0{version id}`)
//   v{version id}                a version record
//   i{memory id}                 → the path of the file record with that id
//   m{memory id}\0{version id}   → the version id: the versions of one memory
//   k{content key}\0{version id} → the version id: the versions that name one content key
//   s{name}                      the host's per-store state (MemoryTool.state)
//   !usage !newest !clock !archived   the store's figures

import { MemoryToolError } from "./errors.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").TransactionMode} TransactionMode */
/** @typedef {import("./index.js").EventScope} EventScope */
/** @typedef {import("./index.js").KeyValueBackend} KeyValueBackend */
/** @typedef {import("./index.js").KeyValueStore} KeyValueStore */
/** @typedef {import("./index.js").KeyValueTx} KeyValueTx */
/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */

const USAGE = "!usage";
const NEWEST = "!newest";
const CLOCK = "!clock";
const ARCHIVED = "!archived";
/** Above every key the package writes (they all begin with an ASCII character). */
const ALL_KEYS = ["", "\u007f"];

/**
 * The storage interface over a key-value store of your own (docs/STORAGE.md).
 * @implements {MemoryStorage}
 */
export class KeyValueStorage {
  #backend;
  /** The handles this storage opened, by store name: `destroy` ends them. @type {Map<string, Set<KeyValueHandle>>} */
  #handles = new Map();
  /** One event scope key per store name, for backends that give none. @type {Map<string, object>} */
  #scopes = new Map();

  /** @param {KeyValueBackend} backend */
  constructor(backend) {
    if (backend === null || typeof backend !== "object" || typeof backend.open !== "function") {
      throw new MemoryToolError("INVALID_INPUT", "KeyValueStorage needs a backend with an open(name) method.");
    }
    this.#backend = backend;
  }

  /**
   * Opens (or creates) the named store.
   * @param {string} store
   * @returns {Promise<StoreHandle>}
   */
  async open(store) {
    if (typeof store !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "The store name must be a string.");
    }
    const opened = await this.#backend.open(store);
    if (opened === null || typeof opened !== "object" || typeof opened.transaction !== "function") {
      throw new MemoryToolError("STORAGE_FAILED", "The key-value backend's open() gave no store with a transaction method.");
    }
    let scope = this.#scopes.get(store);
    if (scope === undefined) this.#scopes.set(store, (scope = {}));
    const handle = new KeyValueHandle(opened, opened.eventScope ?? { key: scope, name: "", channel: null }, () =>
      this.#handles.get(store)?.delete(handle),
    );
    let handles = this.#handles.get(store);
    if (handles === undefined) this.#handles.set(store, (handles = new Set()));
    handles.add(handle);
    return handle;
  }

  /**
   * Deletes the named store: the backend's `destroy` if it has one, else every key of the
   * store in one transaction. Handles this storage opened on it refuse later transactions.
   * @param {string} store
   * @returns {Promise<void>}
   */
  async destroy(store) {
    if (typeof store !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "The store name must be a string.");
    }
    for (const handle of this.#handles.get(store) ?? []) handle.end();
    this.#handles.delete(store);
    this.#scopes.delete(store);
    if (typeof this.#backend.destroy === "function") {
      await this.#backend.destroy(store);
      return;
    }
    const opened = await this.#backend.open(store);
    try {
      await opened.transaction("readwrite", (tx) => tx.deleteRange(ALL_KEYS[0], ALL_KEYS[1]));
    } finally {
      opened.close();
    }
  }
}

/** @implements {StoreHandle} */
class KeyValueHandle {
  #store;
  #scope;
  #forget;
  #ended = false;
  #closed = false;

  /**
   * @param {KeyValueStore} store
   * @param {EventScope} scope
   * @param {() => void} forget
   */
  constructor(store, scope, forget) {
    this.#store = store;
    this.#scope = scope;
    this.#forget = forget;
  }

  /** Where this store's change events go: the backend's scope, else this storage's per name. */
  get eventScope() {
    return this.#scope;
  }

  /**
   * @param {TransactionMode} mode
   * @param {(tx: StorageTx) => void} body
   * @returns {Promise<void>}
   */
  transaction(mode, body) {
    if (this.#ended) {
      return Promise.reject(new MemoryToolError("STORAGE_FAILED", "This memory store has been deleted."));
    }
    if (this.#closed) {
      return Promise.reject(new MemoryToolError("STORAGE_FAILED", "This store handle has been closed."));
    }
    if (mode !== "readonly" && mode !== "readwrite") {
      return Promise.reject(new MemoryToolError("STORAGE_FAILED", `Unknown transaction mode: ${String(mode)}.`));
    }
    /** @type {KeyValueTransaction | null} */
    let tx = null;
    const end = () => tx?.end();
    try {
      return Promise.resolve(
        this.#store.transaction(mode, (kv) => {
          tx = new KeyValueTransaction(kv, mode);
          body(tx);
        }),
      ).finally(end);
    } catch (error) {
      end();
      return Promise.reject(error);
    }
  }

  /** Set by `destroy`: every later transaction refuses. */
  end() {
    this.#ended = true;
  }

  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#forget();
    this.#store.close();
  }
}

/**
 * Stored content as bytes: a Uint8Array as it is, another view's bytes, anything else none.
 * @param {unknown} value
 * @returns {Uint8Array | undefined}
 */
function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

/**
 * Issues one read per item, all at once (one round), and calls `cb` with the answers in the
 * items' order once the last has come.
 * @template I, T
 * @param {I[]} items
 * @param {(item: I, answer: (value: T) => void) => void} ask
 * @param {(values: T[]) => void} cb
 */
function gather(items, ask, cb) {
  if (items.length === 0) {
    cb([]);
    return;
  }
  /** @type {T[]} */
  const values = new Array(items.length);
  let left = items.length;
  items.forEach((item, n) =>
    ask(item, (value) => {
      values[n] = value;
      if (--left === 0) cb(values);
    }),
  );
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A stored record as the type it was put as (the core checks every field it reads).
 * @template T
 * @param {unknown} value
 * @returns {T | null}
 */
const recordOf = (value) => (isObject(value) ? /** @type {T} */ (/** @type {unknown} */ (value)) : null);

/**
 * The index keys a version record is found by (its memory's and its content key's).
 * @param {VersionRecord | undefined} record
 * @returns {string[]}
 */
function versionIndexKeys(record) {
  if (!isObject(record) || typeof record.id !== "string") return [];
  /** @type {string[]} */
  const keys = [];
  // Like an IndexedDB index, a record without a valid key for it is simply not indexed.
  if (typeof record.memoryId === "string") keys.push(`m${record.memoryId}\u0000${record.id}`);
  if (typeof record.content === "string") keys.push(`k${record.content}\u0000${record.id}`);
  return keys;
}

/**
 * One transaction of the storage interface, as requests of a key-value transaction. Every
 * write issues its own key's request at once, in order, so the store's own records follow
 * the core's writes exactly; what a write changes in the indexes and figures is decided when
 * the read of the record it replaces answers (callbacks come in request order, so each sees
 * every earlier write), and goes as requests of the same transaction.
 * @implements {StorageTx}
 */
class KeyValueTransaction {
  #tx;
  #mode;
  /** Cleared when the key-value transaction has settled: a request after that is refused. */
  #active = true;
  /**
   * The id index as this transaction left it, for the ids it touched (null: deleted here):
   * an index entry goes only if it still names the path that lost the id.
   * @type {Map<string, string | null>}
   */
  #ids = new Map();
  /** What this transaction's writes changed in the file count and bytes, not yet written. */
  #delta = { files: 0, bytes: 0 };
  /** How many changes of the figures this transaction made: the last one's marker writes them. */
  #changes = 0;
  /**
   * Set by `finish({ putNothing: true })` (a transaction of deletes at full quota,
   * docs/TOOL.md#delete-at-full-quota): the figures are deleted, not written, and counted
   * again when next asked.
   */
  #putNothing = false;
  /** The highest version id this transaction put. @type {string | null} */
  #newest = null;
  /**
   * The figures as this transaction knows them, its changes up to the last write of them
   * included, or null until it has read or counted them: from then on each write of the
   * figures adds the changes since to these, not to what the store held when a marker's read
   * was issued (a count still on its way may not be in that yet).
   * @type {{ files: number, bytes: number } | null}
   */
  #figures = null;
  /** How many file writes this transaction issued: the moment of each, for the id check. */
  #writes = 0;
  /** The moment of the last file write issued at each path. @type {Map<string, number>} */
  #touched = new Map();
  /** The moment of the first. @type {Map<string, number>} */
  #firstTouched = new Map();
  /** The ids this transaction put: at which path, at which moment. @type {Map<string, { path: string, at: number }>} */
  #putIds = new Map();

  /**
   * @param {KeyValueTx} kv
   * @param {TransactionMode} mode
   */
  constructor(kv, mode) {
    this.#tx = kv;
    this.#mode = mode;
  }

  /** The key-value transaction, while it runs (the backend need not refuse late requests itself). */
  get #kv() {
    if (!this.#active) {
      throw new MemoryToolError("STORAGE_FAILED", "The transaction has finished; requests must be made while its body runs.");
    }
    return this.#tx;
  }

  /** Called once the key-value transaction has settled. */
  end() {
    this.#active = false;
  }

  /**
   * @param {string} lower
   * @param {string} upper
   * @param {{ limit?: number, reverse?: boolean }} options
   * @param {(entries: Array<[string, unknown]>) => void} cb
   */
  #range(lower, upper, options, cb) {
    this.#kv.getRange(lower, upper, options, (entries) => cb(Array.isArray(entries) ? entries : []));
  }

  /** @param {string} path @param {(record: FileRecord | null) => void} cb */
  getFile(path, cb) {
    this.#kv.get(`f${path}`, (value) => cb(/** @type {FileRecord | null} */ (recordOf(value))));
  }

  /**
   * The records below directory key `path`, in key order.
   * @param {string} path
   * @param {(records: FileRecord[]) => void} cb
   */
  #below(path, cb) {
    this.#range(`f${path}/`, `f${path}0`, {}, (entries) => cb(entries.map(([, v]) => /** @type {FileRecord} */ (v))));
  }

  /** @param {string} path @param {(records: FileRecord[]) => void} cb */
  getSubtree(path, cb) {
    this.#below(path, cb);
  }

  /** @param {string} path @param {(entries: string[]) => void} cb */
  getListing(path, cb) {
    this.#below(path, (records) => cb(records.map((r) => `${r.path}\u0000${r.size}`)));
  }

  /** @param {string} path @param {(yes: boolean) => void} cb */
  hasChildren(path, cb) {
    this.#range(`f${path}/`, `f${path}0`, { limit: 1 }, (entries) => cb(entries.length > 0));
  }

  /**
   * @param {string | null} afterPath
   * @param {number} limit
   * @param {(records: FileRecord[]) => void} cb
   */
  getFilesAfter(afterPath, limit, cb) {
    // The least key above `afterPath` is `afterPath + "\0"`.
    const lower = afterPath === null ? "f/" : `f${afterPath}\u0000`;
    this.#range(lower, "f0", { limit }, (entries) => cb(entries.map(([, v]) => /** @type {FileRecord} */ (v))));
  }

  /** @param {(n: number) => void} cb */
  countFiles(cb) {
    this.getUsage((usage) => cb(usage.files));
  }

  /** @param {(usage: { files: number, bytes: number }) => void} cb */
  getUsage(cb) {
    // Read before any file write, the figures are the store's as this transaction began.
    const before = this.#writes === 0;
    this.#kv.get(USAGE, (value) => {
      if (!isUsage(value)) return this.#count(cb);
      if (before && this.#figures === null) this.#figures = { files: value.files, bytes: value.bytes };
      cb({ files: value.files, bytes: value.bytes });
    });
  }

  /**
   * Counts the file records and their bytes (the figures are missing: never written, or
   * dropped by a delete at full quota).
   * @param {(usage: { files: number, bytes: number }) => void} cb
   */
  #count(cb) {
    // Issued before any file write, the reads see the store as it was before this transaction.
    const before = this.#writes === 0;
    this.#below("", (records) => {
      let bytes = 0;
      for (const record of records) if (typeof record.size === "number") bytes += record.size;
      if (before && this.#figures === null) this.#figures = { files: records.length, bytes };
      cb({ files: records.length, bytes });
    });
  }

  /** @param {string} id @param {(bytes: Uint8Array | undefined) => void} cb */
  getContent(id, cb) {
    this.#kv.get(`c${id}`, (value) => cb(bytesOf(value)));
  }

  /** @param {string[]} ids @param {(values: Array<Uint8Array | undefined>) => void} cb */
  getContents(ids, cb) {
    gather(ids, (id, answer) => this.#kv.get(`c${id}`, (value) => answer(bytesOf(value))), cb);
  }

  /**
   * The content with the highest key in `[path + "\0", path + "\x01")`, with its key.
   * @param {string} path
   * @param {(key: string | undefined, bytes: Uint8Array | undefined) => void} cb
   */
  getHeadContent(path, cb) {
    this.#range(`c${path}\u0000`, `c${path}\u0001`, { limit: 1, reverse: true }, (entries) => {
      const first = entries[0];
      const bytes = first === undefined ? undefined : bytesOf(first[1]);
      if (first === undefined || bytes === undefined) cb(undefined, undefined);
      else cb(first[0].slice(1), bytes);
    });
  }

  /** @param {string} id @param {(record: FileRecord | null) => void} cb */
  getFileById(id, cb) {
    this.#kv.get(`i${id}`, (path) => {
      if (typeof path !== "string") {
        cb(null);
        return;
      }
      this.getFile(path, (record) => cb(record !== null && record.id === id ? record : null));
    });
  }

  /** @param {string} id @param {(record: VersionRecord | null) => void} cb */
  getVersion(id, cb) {
    this.#kv.get(`v${id}`, (value) => cb(/** @type {VersionRecord | null} */ (recordOf(value))));
  }

  /**
   * The version records of `ids`, in that order (any that is missing left out).
   * @param {string[]} ids
   * @param {(records: VersionRecord[]) => void} cb
   */
  #versions(ids, cb) {
    gather(ids, (id, answer) => this.getVersion(id, answer), (found) =>
      cb(/** @type {VersionRecord[]} */ (found.filter((r) => r !== null))),
    );
  }

  /**
   * The version ids an index range holds (its values), the exact entries only.
   * @param {string} prefix the index key up to the version id, `\0` included
   * @param {string} upper
   * @param {{ limit?: number, reverse?: boolean }} options
   * @param {(ids: string[]) => void} cb
   */
  #indexed(prefix, upper, options, cb) {
    this.#range(prefix, upper, options, (entries) =>
      cb(
        entries
          .filter(([key, id]) => typeof id === "string" && key === prefix + id)
          .map(([, id]) => /** @type {string} */ (id)),
      ),
    );
  }

  /**
   * @param {string | null} memoryId
   * @param {string | null} below
   * @param {number} limit
   * @param {(records: VersionRecord[]) => void} cb
   */
  getVersionsDesc(memoryId, below, limit, cb) {
    const options = { limit, reverse: true };
    if (memoryId === null) {
      this.#range("v", below === null ? "w" : `v${below}`, options, (entries) =>
        cb(entries.map(([, v]) => /** @type {VersionRecord} */ (v))),
      );
      return;
    }
    const prefix = `m${memoryId}\u0000`;
    this.#indexed(prefix, below === null ? `m${memoryId}\u0001` : prefix + below, options, (ids) =>
      this.#versions(ids, cb),
    );
  }

  /** @param {string} id @param {(records: VersionRecord[]) => void} cb */
  getVersionsBelow(id, cb) {
    this.#range("v", `v${id}`, {}, (entries) => cb(entries.map(([, v]) => /** @type {VersionRecord} */ (v))));
  }

  /**
   * @param {string | null} afterId
   * @param {number} limit
   * @param {(records: VersionRecord[]) => void} cb
   */
  getVersionsAfter(afterId, limit, cb) {
    this.#range(afterId === null ? "v" : `v${afterId}\u0000`, "w", { limit }, (entries) =>
      cb(entries.map(([, v]) => /** @type {VersionRecord} */ (v))),
    );
  }

  /** @param {string} memoryId @param {(records: VersionRecord[]) => void} cb */
  getHistory(memoryId, cb) {
    this.#indexed(`m${memoryId}\u0000`, `m${memoryId}\u0001`, {}, (ids) => this.#versions(ids, cb));
  }

  /** @param {string} key @param {(ids: string[]) => void} cb */
  getVersionIdsWithContent(key, cb) {
    this.#indexed(`k${key}\u0000`, `k${key}\u0001`, {}, cb);
  }

  /** @param {(id: string | null) => void} cb */
  getNewestVersionId(cb) {
    // The figure keeps a deleted version's id; the highest key answers where it is missing.
    /** @type {unknown} */
    let kept;
    this.#kv.get(NEWEST, (value) => (kept = value));
    this.#range("v", "w", { limit: 1, reverse: true }, (entries) => {
      const highest = entries[0]?.[0].slice(1) ?? null;
      const figure = typeof kept === "string" ? kept : null;
      cb(figure !== null && (highest === null || figure > highest) ? figure : highest);
    });
  }

  /** @param {(ids: string[]) => void} cb */
  getVersionIds(cb) {
    this.#range("v", "w", {}, (entries) => cb(entries.map(([key]) => key.slice(1))));
  }

  #checkWritable() {
    if (this.#mode !== "readwrite") {
      throw new MemoryToolError("STORAGE_FAILED", "Cannot write in a readonly transaction.");
    }
  }

  /**
   * Reads what `key` holds, then makes `write` (a request on `key`), then calls `then` with
   * the value read, after both requests are made, whether the store answers at once or later:
   * what `then` writes or counts comes after the write it follows.
   * @param {string} key
   * @param {() => void} write
   * @param {(old: unknown) => void} then
   */
  #replace(key, write, then) {
    let made = false;
    /** @type {{ value: unknown } | null} */
    let read = null;
    this.#kv.get(key, (value) => {
      if (made) then(value);
      else read = { value };
    });
    write();
    made = true;
    if (read !== null) then(/** @type {{ value: unknown }} */ (read).value);
  }

  /**
   * Removes the id index's entry for `id`, which the record at `path` held as this
   * transaction read it, if the entry still names `path`. Called from the answer to that read.
   * An id this transaction has not indexed yet is indexed as the store holds it, at the path
   * of its one record: at `path`, since that record was read there. So the entry goes without
   * a read of its own (which was a round more per delete). A later write of this transaction
   * that puts the id elsewhere issues its index entry after this answer, so after this delete.
   * @param {string} id
   * @param {string} path
   */
  #unindex(id, path) {
    const known = this.#ids.get(id);
    if (known !== undefined && known !== path) return;
    this.#ids.set(id, null);
    this.#kv.delete(`i${id}`);
  }

  /** @param {string} path @param {number} at the moment of a file write issued there */
  #touch(path, at) {
    this.#touched.set(path, at);
    if (!this.#firstTouched.has(path)) this.#firstTouched.set(path, at);
  }

  /**
   * @param {FileRecord} record
   * @param {number | null} [_previousSize] what it replaces (the read of the old record says)
   */
  putFile(record, _previousSize) {
    this.#checkWritable();
    const path = record?.path;
    if (typeof path !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "A file record must have a string path.");
    }
    const id = typeof record.id === "string" ? record.id : null;
    const key = `f${path}`;
    // The id index is unique, as in IndexedDB: two paths never hold one memory at the moment
    // of a put. Decided as of this put, whenever the backend answers: an id this transaction
    // put is held by its path until that path is touched again; else the stored index's
    // holder holds it unless this transaction touched that path before this put.
    const at = ++this.#writes;
    if (id !== null) {
      const put = this.#putIds.get(id);
      const refuse = () => {
        throw new MemoryToolError("STORAGE_FAILED", `A file record's id must be unique: ${id} is already at another path.`);
      };
      if (put !== undefined) {
        if (put.path !== path && this.#touched.get(put.path) === put.at) refuse();
      } else {
        this.#kv.get(`i${id}`, (holder) => {
          if (typeof holder !== "string" || holder === path) return;
          const first = this.#firstTouched.get(holder);
          if (first === undefined || first > at) refuse();
        });
      }
      this.#putIds.set(id, { path, at });
    }
    this.#touch(path, at);
    this.#replace(key, () => this.#kv.put(key, record), (old) => {
      const before = /** @type {FileRecord | null} */ (recordOf(old));
      this.#changed(before === null ? 1 : 0, sizeOf(record) - sizeOf(before));
      if (before !== null && typeof before.id === "string" && before.id !== id) this.#unindex(before.id, path);
      if (id !== null) {
        this.#ids.set(id, path);
        this.#kv.put(`i${id}`, path);
      }
    });
    this.#mark();
  }

  /**
   * @param {string} path
   * @param {number} [_size] its size (the read of the record says)
   * @param {string} [_tree] the directory deleted whole (each record still goes by its key)
   */
  deleteFile(path, _size, _tree) {
    this.#checkWritable();
    const key = `f${path}`;
    this.#touch(path, ++this.#writes);
    this.#replace(key, () => this.#kv.delete(key), (old) => {
      const before = /** @type {FileRecord | null} */ (recordOf(old));
      if (before === null) return;
      this.#changed(-1, -sizeOf(before));
      if (typeof before.id === "string") this.#unindex(before.id, path);
    });
    this.#mark();
  }

  /** @param {string} id @param {Uint8Array} bytes */
  putContent(id, bytes) {
    this.#checkWritable();
    if (!(bytes instanceof Uint8Array)) {
      throw new MemoryToolError("STORAGE_FAILED", "Content must be a Uint8Array.");
    }
    this.#kv.put(`c${id}`, bytes);
  }

  /** @param {string} id */
  deleteContent(id) {
    this.#checkWritable();
    this.#kv.delete(`c${id}`);
  }

  /**
   * Writes version `id` (undefined: deletes it) and moves its index entries from the record
   * it replaces to `record`.
   * @param {string} id
   * @param {VersionRecord | undefined} record
   */
  #reindexVersion(id, record) {
    const key = `v${id}`;
    this.#replace(key, () => (record === undefined ? this.#kv.delete(key) : this.#kv.put(key, record)), (old) => {
      const gone = versionIndexKeys(/** @type {VersionRecord | undefined} */ (old));
      const kept = versionIndexKeys(record);
      for (const key of gone) if (!kept.includes(key)) this.#kv.delete(key);
      for (const key of kept) if (!gone.includes(key)) this.#kv.put(key, id);
    });
  }

  /** @param {VersionRecord} record */
  putVersion(record) {
    this.#checkWritable();
    const id = record?.id;
    if (typeof id !== "string") {
      throw new MemoryToolError("STORAGE_FAILED", "A version record must have a string id.");
    }
    this.#reindexVersion(id, record);
    if (this.#newest === null || id > this.#newest) {
      // Each put of the figure is above the last this transaction made; none goes below the stored one.
      this.#newest = id;
      this.#kv.get(NEWEST, (value) => {
        if (typeof value !== "string" || id > value) this.#kv.put(NEWEST, id);
      });
    }
  }

  /** @param {string} id */
  deleteVersion(id) {
    this.#checkWritable();
    this.#reindexVersion(id, undefined);
  }

  /**
   * Adds a change of the file count and bytes. A read issued now answers after every request
   * made so far (and their callbacks): if no change came after this one by then, it writes the
   * figures once for them all.
   * @param {number} files
   * @param {number} bytes
   */
  #changed(files, bytes) {
    this.#delta.files += files;
    this.#delta.bytes += bytes;
  }

  /**
   * Issues the marker read of a write that may change the figures, right after the read of
   * the record it replaces: its answer comes after that read's (callbacks come in request
   * order), so with the change counted, and in the same round. The last marker writes them.
   */
  #mark() {
    const mark = ++this.#changes;
    this.#kv.get(USAGE, (value) => {
      if (mark !== this.#changes) return;
      if (this.#putNothing) {
        this.#delta = { files: 0, bytes: 0 };
        this.#kv.delete(USAGE);
        return;
      }
      // Not read or written by this transaction yet: what the store holds is as it began.
      if (this.#figures === null && isUsage(value)) this.#figures = { files: value.files, bytes: value.bytes };
      if (this.#figures !== null) {
        this.#writeFigures();
        return;
      }
      // Missing: counted after every write issued so far, so it sees their changes; the
      // changes of writes issued after this count come into the delta after its answer.
      this.#delta = { files: 0, bytes: 0 };
      this.#count((usage) => {
        this.#figures = usage;
        this.#writeFigures();
      });
    });
  }

  /** Writes the figures this transaction knows with the changes since added. */
  #writeFigures() {
    const figures = /** @type {{ files: number, bytes: number }} */ (this.#figures);
    const delta = this.#delta;
    this.#delta = { files: 0, bytes: 0 };
    this.#figures = { files: figures.files + delta.files, bytes: figures.bytes + delta.bytes };
    this.#kv.put(USAGE, this.#figures);
  }

  /**
   * Called by the driver after a command's last write. The figures need no call (the last
   * change writes them); with `putNothing` (a transaction of deletes at full quota,
   * docs/TOOL.md#delete-at-full-quota) they are deleted instead of written, and counted again
   * when next asked.
   * @param {{ putNothing?: boolean }} [options]
   */
  finish(options) {
    this.#checkWritable();
    if (!options?.putNothing) return;
    this.#putNothing = true;
    this.#kv.delete(USAGE);
  }

  /** @param {(yes: boolean) => void} cb */
  isArchived(cb) {
    this.#kv.get(ARCHIVED, (value) => cb(typeof value === "number"));
  }

  /** @param {number} at */
  setArchived(at) {
    this.#checkWritable();
    this.#kv.get(ARCHIVED, (value) => {
      if (typeof value !== "number") this.#kv.put(ARCHIVED, at);
    });
  }

  /** @param {string} name @param {(value: unknown) => void} cb */
  getState(name, cb) {
    this.#kv.get(`s${name}`, cb);
  }

  /** @param {string} name @param {unknown} value */
  putState(name, value) {
    this.#checkWritable();
    this.#kv.put(`s${name}`, value);
  }

  /** @param {string} name */
  deleteState(name) {
    this.#checkWritable();
    this.#kv.delete(`s${name}`);
  }

  /** @param {(clock: unknown) => void} cb */
  getClock(cb) {
    this.#kv.get(CLOCK, cb);
  }

  /** @param {{ seen: number, acting: number }} clock */
  putClock(clock) {
    this.#checkWritable();
    this.#kv.put(CLOCK, { seen: clock.seen, acting: clock.acting });
  }
}

/** @param {unknown} value @returns {value is { files: number, bytes: number }} */
function isUsage(value) {
  return isObject(value) && Number.isSafeInteger(value.files) && Number.isSafeInteger(value.bytes);
}

/** @param {FileRecord | null} record */
function sizeOf(record) {
  return record !== null && typeof record.size === "number" ? record.size : 0;
}
