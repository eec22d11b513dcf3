// Where a MemorySync keeps what it must remember between passes and page loads: the baselines
// (per path, the hosted sha, memory id and version id last agreed), the refused files, the
// deletes awaiting corroboration and the sends whose outcome is unknown
// (docs/SYNC.md#baselines). They live in the local store's own database (`memory.state`), so
// they go when the store's data goes and never outlive it.

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

/**
 * The state store of one (local store, hosted store) pair: the tool's per-store state, under
 * `sync:<memoryStoreId>`. A storage that keeps no state (a host's own backend without
 * `getState`) keeps it in this process only, so a reload starts from no baseline, which is
 * safe: with no baseline nothing is deleted on either side (docs/SYNC.md#baselines).
 * @param {import("./index.js").MemoryTool} memory
 * @param {string} store the local store (its id or name)
 * @param {string} memoryStoreId the hosted store
 * @returns {SyncStateStore}
 */
export function stateStore(memory, store, memoryStoreId) {
  const key = `sync:${memoryStoreId}`;
  /** @type {SyncState | null} */
  let kept = null;
  let persistent = true;
  /** @param {unknown} error */
  const noState = (error) => /** @type {any} */ (error)?.code === "STORAGE_FAILED" && /keeps no per-store state/.test(String(/** @type {any} */ (error)?.message));
  return {
    load: async () => {
      try {
        return /** @type {SyncState | undefined} */ (await memory.state.get(key, { store })) ?? null;
      } catch (error) {
        if (!noState(error)) throw error;
        persistent = false;
        return kept;
      }
    },
    save: async (state) => {
      if (persistent) {
        try {
          await memory.state.set(key, state, { store });
          return;
        } catch (error) {
          if (!noState(error)) throw error;
          persistent = false;
        }
      }
      kept = structuredClone(state);
    },
  };
}
