// The store the page is looking at: its record, its MemoryTool, and its change events. Panels
// read `session.memory` when they act, and listen for:
//   "switch"  the page moved to another store (repaint everything)
//   "change"  a change was committed to the store (detail: the ChangeEvent), from this tab
//             (the console, the editor, the agent) or from another tab
//   "vanished" the store's database was deleted outside the page (detail: the package's
//             `{ type: "vanished", store, files }`); its commands fail with STORE_VANISHED until
//             the user starts over or imports a backup

/** @typedef {import("memory-tool-wasm").MemoryStore} MemoryStore */

export class StoreSession extends EventTarget {
  /** @type {import("./stores.js").StoreCatalog} */
  #catalog;
  /** @type {MemoryStore} */
  #store;
  /** @type {import("memory-tool-wasm").MemoryTool} */
  #memory;
  /** @type {() => void} */
  #unsubscribe = () => {};

  /**
   * @param {import("./stores.js").StoreCatalog} catalog
   * @param {MemoryStore} store
   * @param {import("memory-tool-wasm").MemoryTool} memory the store, opened
   */
  constructor(catalog, store, memory) {
    super();
    this.#catalog = catalog;
    this.#store = store;
    this.#memory = memory;
    this.#listen();
  }

  /** Opens `store` and starts a session on it. @param {import("./stores.js").StoreCatalog} catalog @param {MemoryStore} store */
  static async open(catalog, store) {
    return new StoreSession(catalog, store, await catalog.openForBrowsing(store));
  }

  /** The open store's MemoryTool. */
  get memory() {
    return this.#memory;
  }

  /** The open store's record (id, name, slug, description, archived_at). */
  get store() {
    return this.#store;
  }

  /** The open store's name. */
  get name() {
    return this.#store.name;
  }

  /** The registry. */
  get catalog() {
    return this.#catalog;
  }

  /**
   * Makes `store` the page's; the old one is closed once the new one is open (if opening fails,
   * nothing changes and the error is thrown). Reopens the same store too (after archiving it).
   * @param {MemoryStore} store
   */
  async switchTo(store) {
    const next = await this.#catalog.openForBrowsing(store);
    const previous = this.#memory;
    this.#unsubscribe();
    this.#memory = next;
    this.#store = store;
    this.#listen();
    previous.close();
    this.dispatchEvent(new CustomEvent("switch", { detail: { store } }));
  }

  #listen() {
    this.#unsubscribe = this.#memory.subscribe((event) => {
      this.dispatchEvent(new CustomEvent(event.type === "vanished" ? "vanished" : "change", { detail: event }));
    });
  }
}
