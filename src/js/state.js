// MemoryTool.state: small per-store values the host keeps beside a store's memories, in the
// store's own database (IndexedDB: the `meta` object store), such as a sync's baselines.
// They are not memories: the model never sees them, they have no versions, and writing them
// publishes no change event. Each call is one transaction of its own.

import { MemoryToolError, toStorageError } from "./errors.js";
import { describeValue, methodOptions } from "./arguments.js";

/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").StorageTx} StorageTx */

/** The longest state name, in UTF-16 code units. */
const MAX_NAME = 256;

/**
 * The `state` API of a MemoryTool.
 * @param {(call: string, store: unknown) => StoreHandle} handleOf the handle of the mount a
 *   call's `store` option names (throws for a closed tool or an unknown store)
 * @returns {import("./index.js").StateApi}
 */
export function stateApi(handleOf) {
  /**
   * @param {string} call
   * @param {unknown} name
   * @param {unknown} options
   */
  const target = (call, name, options) => {
    if (typeof name !== "string" || name === "" || name.length > MAX_NAME) {
      throw new MemoryToolError(
        "INVALID_INPUT",
        `${call}: the name must be a string of 1 to ${MAX_NAME} characters, not ${describeValue(name)}.`,
      );
    }
    const { store } = methodOptions(call, options, false);
    return handleOf(call, store);
  };
  /**
   * @param {StoreHandle} handle
   * @param {"readonly" | "readwrite"} mode
   * @param {(tx: StorageTx) => void} body
   */
  const run = async (handle, mode, body) => {
    try {
      await handle.transaction(mode, (tx) => {
        if (typeof tx.getState !== "function" || typeof tx.putState !== "function" || typeof tx.deleteState !== "function") {
          throw new MemoryToolError("STORAGE_FAILED", "This storage keeps no per-store state (getState, putState, deleteState).");
        }
        body(tx);
      });
    } catch (error) {
      throw toStorageError(error);
    }
  };
  return Object.freeze({
    get: async (/** @type {string} */ name, /** @type {import("./index.js").StoreOption | undefined} */ options) => {
      const handle = target("state.get", name, options);
      /** @type {unknown} */
      let value;
      await run(handle, "readonly", (tx) => /** @type {Required<StorageTx>} */ (tx).getState(name, (v) => (value = v)));
      return value;
    },
    set: async (
      /** @type {string} */ name,
      /** @type {unknown} */ value,
      /** @type {import("./index.js").StoreOption | undefined} */ options,
    ) => {
      const handle = target("state.set", name, options);
      const data = jsonData("state.set", value);
      await run(handle, "readwrite", (tx) => /** @type {Required<StorageTx>} */ (tx).putState(name, data));
    },
    delete: async (/** @type {string} */ name, /** @type {import("./index.js").StoreOption | undefined} */ options) => {
      const handle = target("state.delete", name, options);
      await run(handle, "readwrite", (tx) => /** @type {Required<StorageTx>} */ (tx).deleteState(name));
    },
  });
}

/**
 * `value` as plain JSON data (a copy), or INVALID_INPUT: what is stored is exactly what a
 * later `get` returns, in every storage.
 * @param {string} call
 * @param {unknown} value
 */
function jsonData(call, value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new MemoryToolError("INVALID_INPUT", `${call}: the value has no JSON form (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (text === undefined) {
    throw new MemoryToolError("INVALID_INPUT", `${call}: the value must be JSON data, not ${describeValue(value)}; use state.delete to remove one.`);
  }
  return JSON.parse(text);
}
