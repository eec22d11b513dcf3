// What this origin remembers, outside a store's own database, about each IndexedDB store it
// has seen hold memories: how many, and when that was last seen. A database that was deleted
// behind the package's back (another tab, cleared site data, a browser that dropped a corrupt
// database) would otherwise come back as an empty store with no word said
// (docs/ARCHITECTURE.md#a-store-that-vanished). Kept in localStorage where there is one (a
// page; not a worker): a different backend from IndexedDB, so it outlives a browser deleting
// the origin's databases, though not "clear site data".

/** The localStorage key of database `name`'s record. @param {string} name */
const keyOf = (name) => `memory-tool-wasm/known/${name}`;

/** The page's localStorage, or null (a worker, Node, or storage access denied). */
function local() {
  try {
    const storage = /** @type {any} */ (globalThis).localStorage;
    return storage && typeof storage.getItem === "function" ? /** @type {Storage} */ (storage) : null;
  } catch {
    return null;
  }
}

/**
 * What is remembered of database `name`: how many memories it was last seen holding, or that
 * it was deleted on purpose (through the package, in any tab); null if nothing is.
 * @param {string} name
 * @returns {{ files: number, deleted: boolean } | null}
 */
export function recall(name) {
  try {
    const text = local()?.getItem(keyOf(name));
    if (!text) return null;
    const record = JSON.parse(text);
    const files = record?.files;
    if (!Number.isSafeInteger(files) || files < 0) return null;
    return { files, deleted: record.deleted === true };
  } catch {
    return null;
  }
}

/**
 * Remembers that database `name` holds `files` memories (now).
 * @param {string} name
 * @param {number} files
 */
export function remember(name, files) {
  try {
    local()?.setItem(keyOf(name), JSON.stringify({ files, seenAt: new Date().toISOString() }));
  } catch {
    // Full or denied: detection falls back to what open handles remember.
  }
}

/**
 * Remembers that database `name` was deleted, or started over, on purpose: a tab that finds
 * it gone then makes it anew, as asked.
 * @param {string} name
 */
export function forget(name) {
  try {
    local()?.setItem(keyOf(name), JSON.stringify({ files: 0, deleted: true, seenAt: new Date().toISOString() }));
  } catch {
    // Full or denied: tabs that saw memories there will report it vanished.
  }
}
