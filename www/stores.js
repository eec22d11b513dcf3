// The named memory stores of this browser (the package's `MemoryStores` registry) and opening
// them: one at a time for the memory browser and the console, several at once (mounts) for the
// agent. A store's data is its own IndexedDB database; the registry keeps names, descriptions
// and whether a store is archived (read-only for good).

import { slugOf } from "./core.js";

/** @typedef {import("memory-tool-wasm").MemoryStore} MemoryStore */

/**
 * A mount: a store the agent sees, with its access and the instructions the model gets for it.
 * @typedef {{ store: string, access: "read_write" | "read_only", instructions: string }} Mount
 */

/** At most this many stores can be mounted at once (docs/TOOL.md#mounts). */
export const MAX_MOUNTS = 8;

/**
 * The demo's expiry: memories neither viewed nor changed for this many days are deleted, as a
 * version by `{ type: "expiry" }`, restorable from their history for the retention period from
 * then (docs/TOOL.md#retention).
 * Every store the demo opens to write has it; archived (read-only) stores never expire.
 */
export const EXPIRE_AFTER_DAYS = 30;

/**
 * How long a text that stopped being live (deleted by the model, by you, by expiry, sync or
 * repair; or overwritten) stays restorable, counted from that moment: the package's default
 * `retentionDays`, which the demo keeps (docs/TOOL.md#retention).
 */
export const RETENTION_DAYS = 30;

// A store's mount slug is the core's (the package's `slugOf`): the demo keeps no copy of the rule.
export { slugOf };

/**
 * What is wrong with a new store's name, in words, or null.
 * @param {string} name
 * @param {ReadonlyArray<MemoryStore>} existing
 */
export function storeNameProblem(name, existing) {
  if (name.trim() === "") return "Give the store a name.";
  if (name !== name.trim()) return "A store name cannot start or end with a space.";
  if (name.length > 255) return "Keep the name under 256 characters.";
  if (slugOf(name) === "") return "The name needs at least one letter or digit: it names the store's folder.";
  if (existing.some((s) => s.name === name)) return `A store named “${name}” exists already.`;
  const clash = existing.find((s) => s.slug === slugOf(name));
  if (clash) return `“${name}” would share the folder /memories/${clash.slug}/ with “${clash.name}”; pick another name.`;
  return null;
}

/**
 * The registry of stores, and how the demo opens them.
 */
export class StoreCatalog {
  /** @type {typeof import("memory-tool-wasm")} */
  #pkg;
  /** @type {import("memory-tool-wasm").MemoryStores} */
  #registry;

  /**
   * @param {typeof import("memory-tool-wasm")} pkg
   * @param {import("memory-tool-wasm").MemoryStores} registry
   */
  constructor(pkg, registry) {
    this.#pkg = pkg;
    this.#registry = registry;
  }

  /** Opens the registry in this browser's IndexedDB. @param {typeof import("memory-tool-wasm")} pkg */
  static async open(pkg) {
    // IndexedDB by name: where it is missing, opening fails in words instead of falling back to
    // a memory the stores' tools would not share (the demo's stores live in IndexedDB).
    return new StoreCatalog(pkg, await pkg.MemoryStores.open({ storage: "indexeddb" }));
  }

  /** Every store, archived ones too, oldest first. */
  list() {
    return this.#registry.list({ includeArchived: true });
  }

  /**
   * The store named `name`, created (with `description`) if there is none.
   * @param {string} name
   * @param {string} [description]
   */
  async ensure(name, description = "") {
    const found = (await this.list()).find((s) => s.name === name);
    return found ?? this.#registry.create({ name, description });
  }

  /** @param {{ name: string, description?: string }} fields */
  create(fields) {
    return this.#registry.create(fields);
  }

  /** @param {string} id */
  get(id) {
    return this.#registry.get(id);
  }

  /** @param {string} id */
  archive(id) {
    return this.#registry.archive(id);
  }

  /** @param {string} id */
  remove(id) {
    return this.#registry.delete(id);
  }

  /**
   * Opens one store for the memory browser and the console: mounted alone, it is /memories
   * itself; an archived store opens read-only. Writable, it expires what went unused for
   * EXPIRE_AFTER_DAYS days.
   * @param {MemoryStore} store
   */
  openForBrowsing(store) {
    return this.#pkg.MemoryTool.open({
      storage: "indexeddb",
      mounts: [store.archived_at ? { store: store.id, access: "read_only" } : { store: store.id, access: "read_write", expireAfterDays: EXPIRE_AFTER_DAYS }],
    });
  }

  /**
   * Lets a store whose database vanished (`STORE_VANISHED`) be created again, empty, on its next
   * open or command (docs/ARCHITECTURE.md#a-store-that-vanished).
   * @param {MemoryStore} store
   */
  startOver(store) {
    return new this.#pkg.IndexedDbStorage().startOver(store.id);
  }

  /**
   * Opens what the agent's memory tool runs on: the mounted stores (one is /memories itself;
   * several are /memories/<slug>/ each), with the system prompt text that describes them.
   * Writes that look like credentials are refused (`secretFilter`).
   * @param {Mount[]} mounts
   */
  async openForAgent(mounts) {
    const memory = await this.#pkg.MemoryTool.open({
      storage: "indexeddb",
      // A page where people paste API keys: the model may not file one away in memory.
      secretFilter: true,
      mounts: mounts.map((m) => ({
        store: m.store,
        access: m.access,
        ...(m.access === "read_write" ? { expireAfterDays: EXPIRE_AFTER_DAYS } : {}),
        ...(m.instructions.trim() ? { instructions: m.instructions.trim() } : {}),
      })),
    });
    const writable = memory.mounts.find((m) => m.access === "read_write") ?? memory.mounts[0];
    return { memory, system: memory.systemPrompt(), root: writable.path.replace(/\/$/, "") };
  }
}
