// MemoryStores: the registry of named memory stores (docs/TOOL.md#stores-and-slugs) that `MemoryTool.open({ mounts })`
// mounts. The registry is itself a store of the same storage ("__stores__"), one record per
// store, written by the core's `stores.*` host calls: records get atomic updates and a
// history like any memory. A store's own memories live in the storage's store named by its id.

import { MemoryToolError, toStorageError } from "./errors.js";
import { isPlainObject, methodOptions } from "./arguments.js";
import { chooseStorage, readWasm } from "./options.js";
import { loadEngine } from "./wasm.js";
import { openRegistry } from "./registry.js";

/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */
/** @typedef {import("./index.js").MemoryStore} MemoryStore */

/** Guards the constructor: MemoryStores come from `MemoryStores.open`. */
const OPENING = Symbol("MemoryStores.open");

/** The fields of a store's create or update (`CreateStoreParams`' keys). */
export const FIELD_NAMES = /** @type {const} */ (["name", "description", "limits"]);
/**
 * A store's limits, named as its record spells them (`MemoryStoreLimitsInput`' keys), so that
 * `update(id, { limits: store.limits })` takes back what `get` gave.
 */
export const STORE_LIMIT_NAMES = /** @type {const} */ ([
  "max_file_bytes",
  "max_files",
  "max_versions_per_memory",
  "max_history_bytes_per_memory",
]);

/**
 * The named memory stores of a storage: create (`memstore_…` ids), list, get, update,
 * archive (read-only for good) and delete (every memory and version). Every method throws
 * `MemoryToolError`s with the core's codes (`NOT_FOUND`, `ARCHIVED`, `INVALID_INPUT`, …).
 */
export class MemoryStores {
  /** @type {Awaited<ReturnType<typeof openRegistry>>} */
  #registry;
  /** @type {MemoryStorage} */
  #storage;
  #closed = false;

  /**
   * Use `MemoryStores.open(options)`.
   * @param {symbol} token
   * @param {Awaited<ReturnType<typeof openRegistry>>} registry
   * @param {MemoryStorage} storage
   */
  constructor(token, registry, storage) {
    if (token !== OPENING) throw new TypeError("Use MemoryStores.open(options) to get MemoryStores.");
    this.#registry = registry;
    this.#storage = storage;
  }

  /**
   * Opens the store registry of `storage` ("indexeddb", "memory" or a storage object; default
   * IndexedDB where it exists, else in-memory). Pass the same storage to the
   * `MemoryTool.open` calls that mount its stores. Rejects with `INVALID_OPTIONS` for bad
   * options, `STORAGE_FAILED` if the registry cannot open.
   * @param {import("./index.js").MemoryStoresOptions} [options]
   * @returns {Promise<MemoryStores>}
   */
  static async open(options) {
    if (options === undefined) options = {};
    if (!isPlainObject(options)) {
      throw new MemoryToolError("INVALID_OPTIONS", "MemoryStores.open: the options must be an object.");
    }
    for (const name of Object.keys(/** @type {object} */ (options))) {
      if (name !== "storage" && name !== "wasm") {
        throw new MemoryToolError("INVALID_OPTIONS", `MemoryStores.open: unknown option \`${name}\`; the options are storage, wasm.`);
      }
    }
    const given = /** @type {{ storage?: unknown, wasm?: unknown }} */ (options);
    const storage = chooseStorage(given.storage, "MemoryStores.open");
    await loadEngine(readWasm(given.wasm, "MemoryStores.open"));
    const registry = await openRegistry(storage);
    // Retention, as for any store: old versions of the records go (heads stay).
    try {
      await registry.call("versions.prune", {});
    } catch {
      // Housekeeping only: a later open tries again.
    }
    return new MemoryStores(OPENING, registry, storage);
  }

  /**
   * Creates a store. `name` (1 to 255 characters, with a letter or digit: it names the
   * store's folder, `/memories/<slug>/`), `description` (at most 4,096 characters) and
   * `limits` (`max_file_bytes`, `max_files`, and the history budget's `max_versions_per_memory`,
   * `max_history_bytes_per_memory`, spelled as the store's record spells them; the tool's own,
   * or the defaults, when left out).
   * @param {import("./index.js").CreateStoreParams} params
   * @returns {Promise<MemoryStore>}
   */
  async create(params) {
    return this.#call("stores.create", storeFields("create", params));
  }

  /**
   * The stores, oldest first; archived ones only with `includeArchived`.
   * @param {import("./index.js").ListStoresOptions} [options]
   * @returns {Promise<MemoryStore[]>}
   */
  async list(options) {
    if (options === undefined) options = {};
    if (!isPlainObject(options)) throw invalidInput("list: the options must be an object.");
    const { includeArchived } = methodOptions("stores.list", options);
    if (includeArchived !== undefined && typeof includeArchived !== "boolean") {
      throw invalidInput("list: `includeArchived` must be a boolean.");
    }
    return this.#call("stores.list", { include_archived: includeArchived === true });
  }

  /**
   * The store with id `id`; `NOT_FOUND` if there is none.
   * @param {string} id
   * @returns {Promise<MemoryStore>}
   */
  async get(id) {
    return this.#call("stores.get", { id: storeId("get", id) });
  }

  /**
   * Changes a store's name, description or limits (a limit of `null` goes back to the
   * default). `ARCHIVED` once the store is archived. A new name moves the store's mount path
   * the next time it is mounted.
   * @param {string} id
   * @param {import("./index.js").UpdateStoreParams} fields
   * @returns {Promise<MemoryStore>}
   */
  async update(id, fields) {
    return this.#call("stores.update", { ...storeFields("update", fields), id: storeId("update", id) });
  }

  /**
   * Archives a store: read-only for good. It can still be mounted `read_only`; mounting it
   * `read_write` throws `ARCHIVED`, and so do its updates. Archiving again changes nothing.
   * @param {string} id
   * @returns {Promise<MemoryStore>}
   */
  async archive(id) {
    const record = await this.#call("stores.archive", { id: storeId("archive", id) });
    // The store's own database says so too, inside the transactions of every later write:
    // tools that opened it before, or by id, are refused as well. Archiving again repeats it,
    // so a crash between the two writes is mended by the next call.
    const handle = await this.#storage.open(record.id);
    try {
      const at = Date.parse(record.archived_at);
      await handle.transaction("readwrite", (tx) => tx.setArchived?.(Number.isFinite(at) ? at : Date.now()));
    } catch (error) {
      throw toStorageError(error);
    } finally {
      handle.close();
    }
    return record;
  }

  /**
   * Deletes a store: its record, then its data (every memory, content and version; for
   * IndexedDB, its database). MemoryTools of this context that have it open fail from then on
   * (`STORAGE_FAILED`). The core redacts the record's own history in the registry in the same
   * transaction as the deletion.
   * @param {string} id
   * @returns {Promise<{ type: "memory_store_deleted", id: string }>}
   */
  async delete(id) {
    storeId("delete", id);
    const storage = this.#storage;
    if (typeof storage.destroy !== "function") {
      throw new MemoryToolError(
        "INVALID_OPTIONS",
        "delete: this storage cannot drop a store's data: it has no `destroy(store)` method.",
      );
    }
    const deleted = await this.#call("stores.delete", { id });
    try {
      await storage.destroy(id);
    } catch (error) {
      const cause = toStorageError(error);
      throw new MemoryToolError(
        cause.code,
        `Memory store ${id} is deleted from the registry, but its data could not be dropped: ${cause.message}`,
        { cause: error },
      );
    }
    return deleted;
  }

  /** Closes the registry; later calls throw. MemoryTools opened from it stay open. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#registry.close();
  }

  /**
   * @param {string} call
   * @param {Record<string, unknown>} args
   */
  async #call(call, args) {
    if (this.#closed) throw new MemoryToolError("STORAGE_FAILED", "These MemoryStores have been closed.");
    return this.#registry.call(call, args);
  }
}

/**
 * The fields of a create or update, for the core, which checks their names and values.
 * @param {string} call
 * @param {unknown} params
 * @returns {Record<string, unknown>}
 */
function storeFields(call, params) {
  if (!isPlainObject(params)) throw invalidInput(`${call}: the fields must be an object { name, description, limits }.`);
  return { .../** @type {object} */ (params) };
}

/**
 * @param {string} call
 * @param {unknown} id
 * @returns {string}
 */
function storeId(call, id) {
  if (typeof id !== "string" || id === "") throw invalidInput(`${call}: the store id must be a non-empty string.`);
  return id;
}

/** @param {string} message */
function invalidInput(message) {
  return new MemoryToolError("INVALID_INPUT", message);
}
