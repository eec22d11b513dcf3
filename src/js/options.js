// The options of `MemoryTool.open` (and the `storage` option `MemoryStores.open` shares):
// checked, with a message that says what is wrong (`INVALID_OPTIONS`), and turned into the
// Engine's configuration, the storage, and the mounts to plan. The values of the core's
// options are the core's to check, once (the Engine refuses them with these options' names).

import { MemoryToolError, messageOf } from "./errors.js";
import { isPlainObject } from "./arguments.js";
import { REGISTRY_STORE, RESERVED_PREFIX } from "./registry.js";
import { IndexedDbStorage } from "./storage-indexeddb.js";
import { InMemoryStorage } from "./storage-memory.js";

/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */
/** @typedef {import("./index.js").MemoryAccess} MemoryAccess */
/** @typedef {import("./index.js").BeforeWrite} BeforeWrite */
/** @typedef {import("./index.js").WasmSource} WasmSource */

/**
 * The options `MemoryTool.open` takes, in the order its messages name them (the type test
 * holds them equal to `MemoryToolOptions`' keys).
 */
export const OPTION_NAMES = /** @type {const} */ ([
  "store",
  "storage",
  "access",
  "mounts",
  "limits",
  "maxViewChars",
  "createOverwrites",
  "retentionDays",
  "expireAfterDays",
  "secretFilter",
  "beforeWrite",
  "wasm",
]);
/** The fields of one of the `mounts` (`MountOptions`' keys). */
export const MOUNT_OPTION_NAMES = /** @type {const} */ (["store", "access", "instructions", "expireAfterDays"]);
/** The names under `limits`. */
export const LIMIT_NAMES = /** @type {const} */ (["maxFileBytes", "maxFiles", "maxVersionsPerMemory", "maxHistoryBytesPerMemory"]);
/**
 * Whether `name` is one of `names`.
 * @param {readonly string[]} names
 * @param {string} name
 */
const isOneOf = (names, name) => names.includes(name);
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Checks `MemoryTool.open`'s options; throws `INVALID_OPTIONS` with what is wrong. Returns
 * the storage to use, the Engine's configuration (defaults of every mount), the write
 * policy, and either the single store and its access or the mounts (`mounts` non-null).
 * @param {unknown} options
 * @returns {{ storage: MemoryStorage, engineConfig: Record<string, unknown>,
 *   beforeWrite: BeforeWrite | undefined, store: string, access: MemoryAccess, wasm: WasmSource | undefined,
 *   expireAfterDays: number | undefined,
 *   mounts: Array<{ store: string, access?: MemoryAccess, instructions?: unknown, expireAfterDays?: number }> | null }}
 */
export function readOptions(options) {
  if (options === undefined) options = {};
  if (!isPlainObject(options)) throw invalidOptions("The options must be an object.");
  const given = /** @type {Record<string, unknown>} */ (options);
  for (const name of Object.keys(given)) {
    if (!isOneOf(OPTION_NAMES, name)) {
      throw invalidOptions(`Unknown option \`${name}\`; the options are ${OPTION_NAMES.join(", ")}.`);
    }
  }

  const mounts = given.mounts === undefined ? null : readMounts(given.mounts);
  if (mounts && given.store !== undefined) {
    throw invalidOptions("`store` and `mounts` cannot both be given: mount the store instead.");
  }
  if (mounts && given.access !== undefined) {
    throw invalidOptions("With `mounts`, access is per mount: give each mount its own `access`.");
  }

  const store = given.store ?? "memories";
  if (typeof store !== "string" || store === "") {
    throw invalidOptions("`store` must be a non-empty string.");
  }
  if (store.startsWith(RESERVED_PREFIX)) {
    throw invalidOptions(
      `\`store\` names starting with "${RESERVED_PREFIX}" are reserved (the store registry is "${REGISTRY_STORE}").`,
    );
  }

  const access = /** @type {MemoryAccess} */ (given.access ?? "read_write");
  if (access !== "read_write" && access !== "read_only") {
    throw invalidOptions('`access` must be "read_write" or "read_only".');
  }

  // The values are the core's to check (Engine's configuration, with these options' names
  // in its messages); here they are only renamed, and days turned into milliseconds.
  /** @type {Record<string, unknown>} */
  const engineConfig = {};
  const limits = given.limits ?? {};
  if (!isPlainObject(limits)) throw invalidOptions("`limits` must be an object.");
  for (const [name, value] of Object.entries(/** @type {object} */ (limits))) {
    if (!isOneOf(LIMIT_NAMES, name)) {
      throw invalidOptions(`Unknown limit \`${name}\`; the limits are ${LIMIT_NAMES.join(", ")}.`);
    }
    if (value !== undefined) engineConfig[name] = asJson(value);
  }
  for (const name of /** @type {const} */ (["maxViewChars", "createOverwrites", "secretFilter"])) {
    if (given[name] !== undefined) engineConfig[name] = asJson(given[name]);
  }
  if (given.retentionDays !== undefined) {
    const days = given.retentionDays;
    engineConfig.retentionMs = typeof days === "number" ? Math.round(days * DAY_MS) : asJson(days);
  }
  /** @type {BeforeWrite | undefined} */
  let beforeWrite;
  if (given.beforeWrite !== undefined) {
    if (typeof given.beforeWrite !== "function") {
      throw invalidOptions("`beforeWrite` must be a function ({ path, content, source }) => decision.");
    }
    beforeWrite = /** @type {BeforeWrite} */ (given.beforeWrite);
    engineConfig.writeHook = true;
  }

  return {
    storage: chooseStorage(given.storage, "MemoryTool.open"),
    engineConfig,
    beforeWrite,
    store,
    access,
    mounts,
    expireAfterDays: readExpiry(given.expireAfterDays, "expireAfterDays"),
    wasm: readWasm(given.wasm, "MemoryTool.open"),
  };
}

/**
 * Checks the `wasm` option (where the core's .wasm comes from): a URL, a string (a URL or a
 * path), a `Response` (or a promise of one), bytes, or a compiled `WebAssembly.Module`.
 * @param {unknown} wasm
 * @param {string} who the call, for messages
 * @returns {WasmSource | undefined}
 */
export function readWasm(wasm, who) {
  if (wasm === undefined) return undefined;
  const g = /** @type {any} */ (globalThis);
  const isA = (/** @type {string} */ name) => typeof g[name] === "function" && wasm instanceof g[name];
  if (
    typeof wasm === "string" ||
    wasm instanceof URL ||
    wasm instanceof ArrayBuffer ||
    ArrayBuffer.isView(wasm) ||
    isA("Response") ||
    (typeof g.WebAssembly === "object" && wasm instanceof g.WebAssembly.Module) ||
    (typeof wasm === "object" && wasm !== null && typeof (/** @type {any} */ (wasm)).then === "function")
  ) {
    return /** @type {WasmSource} */ (wasm);
  }
  throw new MemoryToolError(
    "INVALID_OPTIONS",
    `${who}: \`wasm\` must be a URL, a string, a Response, bytes (ArrayBuffer or a typed array) or a WebAssembly.Module.`,
  );
}

/**
 * Checks the `mounts` option's shape (the core checks the rest against the stores' records).
 * @param {unknown} mounts
 * @returns {Array<{ store: string, access?: MemoryAccess, instructions?: unknown, expireAfterDays?: number }>}
 */
function readMounts(mounts) {
  if (!Array.isArray(mounts)) {
    throw invalidOptions("`mounts` must be an array of { store, access, instructions }.");
  }
  return mounts.map((mount, i) => {
    if (!isPlainObject(mount)) throw invalidOptions(`\`mounts[${i}]\` must be an object { store, access, instructions }.`);
    for (const name of Object.keys(mount)) {
      if (!isOneOf(MOUNT_OPTION_NAMES, name)) {
        throw invalidOptions(
          `Unknown option \`mounts[${i}].${name}\`; a mount has ${MOUNT_OPTION_NAMES.join(", ")}.`,
        );
      }
    }
    const { store, access, instructions, expireAfterDays } = /** @type {Record<string, unknown>} */ (mount);
    if (typeof store !== "string" || store === "") {
      throw invalidOptions(`\`mounts[${i}].store\` must be a store id (from MemoryStores).`);
    }
    if (access !== undefined && access !== "read_write" && access !== "read_only") {
      throw invalidOptions(`\`mounts[${i}].access\` must be "read_write" or "read_only".`);
    }
    return {
      store,
      access: /** @type {MemoryAccess | undefined} */ (access),
      instructions,
      expireAfterDays: readExpiry(expireAfterDays, `mounts[${i}].expireAfterDays`),
    };
  });
}

/**
 * An expiry in whole days (1 to 36,500), or undefined for none.
 * @param {unknown} days
 * @param {string} name the option, for messages
 * @returns {number | undefined}
 */
function readExpiry(days, name) {
  if (days === undefined) return undefined;
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > 36_500) {
    throw invalidOptions(`\`${name}\` must be a whole number of days from 1 to 36,500.`);
  }
  return days;
}

/**
 * The storage an `open` call asked for: `"indexeddb"`, `"memory"`, a storage object as given,
 * or (left out) IndexedDB where it exists, else memory. Throws `INVALID_OPTIONS`, naming `who`.
 * @param {unknown} storage the `storage` option
 * @param {string} who the call, for messages
 * @returns {MemoryStorage}
 */
export function chooseStorage(storage, who) {
  if (storage === undefined) {
    if (typeof globalThis.indexedDB === "object" && globalThis.indexedDB !== null) return new IndexedDbStorage();
    // A page or a worker without IndexedDB (a private window, an embedded browser, a blocked
    // origin): memories kept in a Map would vanish at reload without a word, so refuse
    // instead. Elsewhere (Node, a server) memory is the documented default.
    if (inBrowser()) {
      throw new MemoryToolError(
        "STORAGE_FAILED",
        `${who}: this page has no IndexedDB (a private window, an embedded browser or a blocked origin can take it away), so memories cannot be kept across reloads here. Pass \`storage: "memory"\` to keep them in this page only, lost when it reloads.`,
      );
    }
    return new InMemoryStorage();
  }
  try {
    if (storage === "indexeddb") return new IndexedDbStorage();
  } catch (error) {
    // No IndexedDB here: the constructor's INVALID_OPTIONS, said by the call that was given it.
    throw new MemoryToolError("INVALID_OPTIONS", `${who}: ${messageOf(error)}`);
  }
  if (storage === "memory") return new InMemoryStorage();
  if (typeof storage === "object" && storage !== null && typeof (/** @type {any} */ (storage).open) === "function") {
    return /** @type {MemoryStorage} */ (storage);
  }
  throw new MemoryToolError(
    "INVALID_OPTIONS",
    `${who}: \`storage\` must be "indexeddb", "memory" or a storage object with an \`open(store)\` method.`,
  );
}

/** Whether this is a page or a web worker, where IndexedDB is the storage users expect. */
function inBrowser() {
  const g = /** @type {any} */ (globalThis);
  return (typeof g.window === "object" && typeof g.document === "object") || typeof g.WorkerGlobalScope === "function";
}

/**
 * `MemoryTool.open`'s error for bad options.
 * @param {string} message what is wrong
 * @returns {MemoryToolError}
 */
export function invalidOptions(message) {
  return new MemoryToolError("INVALID_OPTIONS", `MemoryTool.open: ${message}`);
}

/**
 * A value as it must reach the core to be judged: JSON drops functions and symbols and throws
 * on bigints, so those become `null`, which no option takes.
 * @param {unknown} value
 * @returns {unknown}
 */
function asJson(value) {
  return typeof value === "function" || typeof value === "symbol" || typeof value === "bigint" ? null : value;
}
