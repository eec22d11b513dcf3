// Where a MemorySync keeps its SyncRecord (sync-plan.js) between passes and page loads: the
// baselines, the refused and failing files, the deletes awaiting corroboration, the memories
// expired here, a suspected hosted wipe and the sends whose outcome is unknown
// (docs/SYNC.md#baselines). They live in the local store's own database (`memory.state`), so
// they go when the store's data goes and never outlive it.

import { readRecord } from "./sync-plan.js";

/**
 * @typedef {import("./sync-plan.js").SyncRecord} SyncRecord
 * @typedef {{ load(): Promise<SyncRecord>, save(record: SyncRecord): Promise<void> }} SyncRecordStore
 */

/**
 * The record store of one (local store, hosted store) pair: the tool's per-store state, under
 * `sync:<memoryStoreId>`. A storage that keeps no state (a host's own backend without
 * `getState`) keeps it in this process only, so a reload starts from no baseline, which is
 * safe: with no baseline nothing is deleted on either side (docs/SYNC.md#baselines).
 * @param {import("./index.js").MemoryTool} memory
 * @param {string} store the local store (its id or name)
 * @param {string} memoryStoreId the hosted store
 * @returns {SyncRecordStore}
 */
export function recordStore(memory, store, memoryStoreId) {
  const key = `sync:${memoryStoreId}`;
  /** @type {SyncRecord | null} */
  let kept = null;
  let persistent = true;
  /** @param {unknown} error */
  const noState = (error) => /** @type {any} */ (error)?.code === "STORAGE_FAILED" && /keeps no per-store state/.test(String(/** @type {any} */ (error)?.message));
  return {
    load: async () => {
      try {
        return readRecord(await memory.state.get(key, { store }));
      } catch (error) {
        if (!noState(error)) throw error;
        persistent = false;
        return readRecord(kept);
      }
    },
    save: async (record) => {
      if (persistent) {
        try {
          await memory.state.set(key, record, { store });
          return;
        } catch (error) {
          if (!noState(error)) throw error;
          persistent = false;
        }
      }
      kept = structuredClone(record);
    },
  };
}
