// Helpers of the sync tests in Node: an SDK client on the emulator, "devices" (a MemoryTool over
// its own storage with a MemorySync), and the end states to compare.

import Anthropic from "@anthropic-ai/sdk";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { IndexedDbStorage, InMemoryStorage, MemoryTool } from "memory-tool-wasm";
import { MemorySync } from "memory-tool-wasm/sync";

/** An SDK client on the emulator. @param {{ url: string }} emu */
export function sdkClient(emu, maxRetries = 0) {
  return new Anthropic({ apiKey: "test", baseURL: emu.url, maxRetries });
}

/**
 * A device: a MemoryTool over fresh storage (in memory, or fake-indexeddb) and its sync with
 * `memoryStoreId`. Options go to `MemorySync.start` (fast retries by default).
 * @param {{ url: string }} emu
 * @param {string} memoryStoreId
 * @param {{ storage?: "memory" | "indexeddb", storageObject?: any, tool?: object, sync?: object, firstPass?: boolean }} [options]
 */
export async function device(emu, memoryStoreId, options = {}) {
  const storage = options.storageObject ??
    (options.storage === "indexeddb"
      ? new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })
      : new InMemoryStorage());
  const memory = await MemoryTool.open({ store: "user", storage, ...options.tool });
  const client = sdkClient(emu);
  /** @type {any[]} */
  const events = [];
  const sync = await MemorySync.start(memory, {
    client,
    memoryStoreId,
    intervalMs: 60_000,
    deleteCorroborationMs: 0,
    retry: { baseMs: 5, maxMs: 50 },
    ...options.sync,
  });
  sync.subscribe((e) => events.push(e));
  // The first pass, done before the test acts (started by the sync's timer, it would race the
  // test's own writes); `firstPass: false` leaves it to the test, which must call now() at once.
  if (options.firstPass !== false) await sync.now();
  return { memory, sync, events, storage, client };
}

/**
 * A local store's files as `{ path: text }` (store paths, sorted), read in one transaction (an
 * export): a pass the sync starts by itself meanwhile cannot delete a memory between a listing
 * and the read of its text.
 * @param {any} memory
 */
export async function localFiles(memory) {
  const bundle = await memory.export();
  /** @type {Array<{ path: string, content?: string | null }>} */
  const memories = [...bundle.memories].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  /** @type {Record<string, string | null>} */
  const files = {};
  for (const m of memories) files[m.path] = m.content ?? null;
  return files;
}

/** Writes a file as the model would (the tool's create, overwriting). @param {any} memory */
export async function toolWrite(memory, path, text) {
  const existing = await memory.memories.getByPath(path).catch(() => null);
  if (existing) {
    const r = await memory.execute({ command: "str_replace", path: `/memories${path}`, old_str: existing.content, new_str: text });
    if (r.isError) throw new Error(String(r.content));
    return;
  }
  const r = await memory.execute({ command: "create", path: `/memories${path}`, file_text: text });
  if (r.isError) throw new Error(String(r.content));
}

/** Deletes a file as the model would. @param {any} memory */
export async function toolDelete(memory, path) {
  const r = await memory.execute({ command: "delete", path: `/memories${path}` });
  if (r.isError) throw new Error(String(r.content));
}

/** Creates a hosted store with `files` through the SDK; its id. */
export async function hostedStore(/** @type {Anthropic} */ client, /** @type {Record<string, string>} */ files = {}, name = "hosted") {
  const store = await client.beta.memoryStores.create({ name });
  for (const [path, content] of Object.entries(files)) {
    await client.beta.memoryStores.memories.create(store.id, { path, content });
  }
  return store.id;
}

/** The hosted memory at `path` (basic view) through the SDK, or undefined. */
export async function hostedAt(/** @type {Anthropic} */ client, /** @type {string} */ storeId, /** @type {string} */ path) {
  for await (const item of client.beta.memoryStores.memories.list(storeId, { limit: 100 })) {
    if (item.type === "memory" && item.path === path) return item;
  }
  return undefined;
}
