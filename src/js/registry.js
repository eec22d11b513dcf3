// The store registry (`__stores__`, one record per named store, written by the core's
// `stores.*` host calls), the plan of a tool's mounts from the stores' records, and opening a
// store of a storage.

import { MemoryToolError, hostError, toStorageError } from "./errors.js";
import { API_ACTOR } from "./arguments.js";
import { perform, startHostCall } from "./driver.js";
import { loadEngine } from "./wasm.js";
// A free function of the core; callable once `loadEngine()` has instantiated the module.
import { planMounts } from "../../pkg/memory_tool_wasm.js";

/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").MemoryAccess} MemoryAccess */
/** @typedef {import("./index.js").MountInfo} MountInfo */
/** @typedef {import("./index.js").MemoryStore} MemoryStore */

/**
 * The store that holds the registry of named stores (`MemoryStores`): one record per store.
 * Store names starting with `__` are kept for the package's own stores.
 */
export const REGISTRY_STORE = "__stores__";
/** The prefix of the package's own store names, refused as a user's `store`. */
export const RESERVED_PREFIX = "__";

/**
 * Reads each mount's store record from the registry and has the core check the mounts
 * against them (count, access, instructions, archived stores, slugs). Resolves with the
 * Engine's configuration and each mount's `MountInfo`, in mount order; rejects with the core's
 * code (`TOO_MANY_MOUNTS`, `NOT_FOUND`, `SLUG_CONFLICT`, `ARCHIVED`, …) otherwise.
 * @param {MemoryStorage} storage
 * @param {Array<{ store: string, access?: MemoryAccess, instructions?: unknown }>} mounts
 * @param {Record<string, unknown>} config the defaults every mount starts from
 * @returns {Promise<{ engine: unknown, mounts: MountInfo[] }>}
 */
export async function planOf(storage, mounts, config) {
  // The count first, so TOO_MANY_MOUNTS does not wait for (or depend on) the records: the
  // core checks it before it looks at any store.
  const count = planned(planMounts(JSON.stringify({ mounts: mounts.map(() => ({})) })));
  if (count.error && (count.error.code === "TOO_MANY_MOUNTS" || mounts.length === 0)) {
    throw new MemoryToolError(count.error.code, count.error.message);
  }
  const registry = await openRegistry(storage);
  /** @type {MemoryStore[]} */
  const records = [];
  try {
    for (const mount of mounts) records.push(await registry.call("stores.get", { id: mount.store }));
  } finally {
    registry.close();
  }
  const request = {
    mounts: mounts.map((mount, i) => ({
      store: records[i],
      access: mount.access,
      instructions: mount.instructions,
    })),
    config,
  };
  const plan = planned(planMounts(JSON.stringify(request)));
  if (plan.error) throw new MemoryToolError(plan.error.code, plan.error.message);
  const ok = /** @type {{ engine: unknown, prompt: Array<Record<string, string>> }} */ (plan.ok);
  return {
    engine: ok.engine,
    mounts: ok.prompt.map((info, i) => ({
      store: info.id,
      name: info.name,
      slug: info.slug,
      path: info.path,
      access: /** @type {MemoryAccess} */ (info.access),
      description: info.description,
      instructions: info.instructions,
      archived: records[i].archived_at != null,
    })),
  };
}

/**
 * `planMounts`' answer, parsed.
 * @param {string} text
 * @returns {{ ok?: unknown, error?: { code: string, message: string } }}
 */
function planned(text) {
  return JSON.parse(text);
}

/**
 * Opens a store of `storage` and checks that what came back is a store handle. A failure to
 * open is a storage error (`STORAGE_FAILED`, `QUOTA_EXCEEDED`); something that is not a
 * handle is `INVALID_OPTIONS`.
 * @param {MemoryStorage} storage
 * @param {string} store
 * @returns {Promise<StoreHandle>}
 */
export async function openHandle(storage, store) {
  let handle;
  try {
    handle = await storage.open(store);
  } catch (error) {
    throw toStorageError(error);
  }
  if (!handle || typeof handle.transaction !== "function" || typeof handle.close !== "function") {
    throw new MemoryToolError(
      "INVALID_OPTIONS",
      "`storage.open(store)` must resolve to an object with `transaction` and `close` methods.",
    );
  }
  return handle;
}

/**
 * The store registry of `storage` (the `__stores__` store), for `MemoryStores` and for
 * `MemoryTool.open({ mounts })`: its `call` runs one of the core's `stores.*` host calls (or
 * any other) as the host API, and resolves with the call's value.
 * @param {MemoryStorage} storage
 * @returns {Promise<{ call: (name: string, args: Record<string, unknown>) => Promise<any>, close: () => void }>}
 */
export async function openRegistry(storage) {
  const EngineClass = await loadEngine();
  const engine = new EngineClass("{}");
  let handle;
  try {
    handle = await openHandle(storage, REGISTRY_STORE);
  } catch (error) {
    engine.free();
    throw error;
  }
  let closed = false;
  return {
    async call(name, args) {
      if (closed) throw new MemoryToolError("STORAGE_FAILED", "The store registry has been closed.");
      const outcome = await perform([handle], startHostCall(engine, name, args, API_ACTOR, 0));
      if (outcome.isError) throw hostError(outcome);
      return outcome.value;
    },
    close() {
      if (closed) return;
      closed = true;
      handle.close();
      engine.free();
    },
  };
}
