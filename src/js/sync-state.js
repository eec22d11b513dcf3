// Where a MemorySync keeps what it must remember between passes and page loads: the baselines
// (per path, the hosted sha, memory id and version id last agreed), the refused files, the
// deletes awaiting corroboration and the sends whose outcome is unknown
// (docs/SYNC.md#baselines). One small load/save interface, so the storage behind it is a few
// lines to change.

/**
 * @typedef {{ v: 1, baseline: Record<string, [sha: string, id: string, version: string]>,
 *   refused: Record<string, string>, deletes: Record<string, [firstSeen: number, passes: number]>,
 *   sent: Record<string, string> }} SyncState
 * @typedef {{ load(): Promise<SyncState | null>, save(state: SyncState): Promise<void> }} SyncStateStore
 */

/** @returns {SyncState} */
export function emptyState() {
  return { v: 1, baseline: {}, refused: {}, deletes: {}, sent: {} };
}

/** @type {WeakMap<object, Map<string, string>>} */
const inProcess = new WeakMap();

/**
 * The state store of one (local store, hosted store) pair: the tool's own per-store state when
 * it has one (`memory.state`, kept in the store's database), else the page's `localStorage`,
 * else this process's memory.
 * @param {any} memory the MemoryTool
 * @param {string} store the local store (its id or name)
 * @param {string} memoryStoreId the hosted store
 * @returns {SyncStateStore}
 */
export function stateStore(memory, store, memoryStoreId) {
  const key = `sync:${memoryStoreId}`;
  if (memory.state && typeof memory.state.get === "function") {
    return {
      load: async () => (await memory.state.get(key, { store })) ?? null,
      save: (state) => memory.state.set(key, state, { store }),
    };
  }
  const storageKey = `memory-tool-wasm:${store}:${key}`;
  /** @type {Storage | undefined} */
  let local;
  try {
    local = globalThis.localStorage;
  } catch {
    local = undefined;
  }
  if (!inProcess.has(memory)) inProcess.set(memory, new Map());
  const map = /** @type {Map<string, string>} */ (inProcess.get(memory));
  return {
    load: async () => {
      const text = local ? local.getItem(storageKey) : map.get(storageKey);
      return text ? JSON.parse(text) : null;
    },
    save: async (state) => {
      const text = JSON.stringify(state);
      if (local) local.setItem(storageKey, text);
      else map.set(storageKey, text);
    },
  };
}
