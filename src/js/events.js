// Change events: after a transaction commits, every version it wrote becomes one event for
// the listeners of `MemoryTool.subscribe`, in this context and (IndexedDB) in every other tab
// and worker of the origin, over a BroadcastChannel opened lazily and closed on `pagehide`.

/** @typedef {import("./index.js").ChangeEvent} ChangeEvent */
/** @typedef {import("./index.js").StoreEvent} StoreEvent */
/** @typedef {import("./index.js").ChangeListener} ChangeListener */
/** @typedef {import("./index.js").VersionRecord} VersionRecord */
/** @typedef {import("./index.js").EventScope} EventScope */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */

/** Marks our messages on a channel, so anything else posted there is ignored. */
const MESSAGE_KIND = "memory-tool-wasm/changes";

/**
 * The events of one committed transaction: one per version it wrote (`putVersion`), in write
 * order. `origin` is left for delivery to set.
 * @param {string} store the store's name
 * @param {ReadonlyArray<{ op: string, record?: unknown }>} writes the outcome's writes
 * @returns {Array<Omit<ChangeEvent, "origin">>}
 */
export function eventsOf(store, writes) {
  const versions = writes.filter((write) => write.op === "putVersion").map((write) => /** @type {VersionRecord} */ (write.record));
  // A redaction rewrites one version, redacted, and touches no file record (an import or any
  // other change writes the file it changes): its event says `redacted`, not the operation the
  // version once recorded, which would read as a memory created at no path.
  const redaction =
    versions.length === 1 &&
    isRedacted(versions[0]) &&
    !writes.some((write) => write.op === "putFile" || write.op === "deleteFile");
  return versions.map((record) => ({
    type: /** @type {const} */ ("change"),
    store,
    memory_id: record.memoryId,
    path: record.path ?? null,
    operation: redaction ? /** @type {const} */ ("redacted") : record.operation,
    version_id: record.id,
    redacted: isRedacted(record),
    created_by: record.createdBy ?? null,
  }));
}

/** @param {VersionRecord} record */
function isRedacted(record) {
  return record.redactedAt !== undefined && record.redactedAt !== null;
}

/**
 * Where a store's change events go: the handle's own scope (IndexedDB: its database), else
 * the storage object and store name (two tools over one InMemoryStorage and store share data).
 * @param {StoreHandle} handle
 * @param {MemoryStorage} storage
 * @param {string} store
 * @returns {EventScope}
 */
export function eventScope(handle, storage, store) {
  const scope = handle.eventScope;
  if (typeof scope === "object" && scope !== null && typeof scope.key === "object" && scope.key !== null) {
    return { key: scope.key, name: String(scope.name ?? ""), channel: typeof scope.channel === "string" ? scope.channel : null };
  }
  return { key: storage, name: store, channel: null };
}

/** Feeds by scope key, then by name: one feed per store per context. */
const feeds = /** @type {WeakMap<object, Map<string, ChangeFeed>>} */ (new WeakMap());

/**
 * The change feed of a store in this context: every MemoryTool whose storage names the same
 * scope shares it.
 * @param {EventScope} scope
 * @returns {ChangeFeed}
 */
export function changeFeed(scope) {
  let byName = feeds.get(scope.key);
  if (!byName) feeds.set(scope.key, (byName = new Map()));
  let feed = byName.get(scope.name);
  if (!feed) byName.set(scope.name, (feed = new ChangeFeed(scope.channel ?? null)));
  return feed;
}

/**
 * The listeners of one store in this context, and its BroadcastChannel (if it has one).
 */
export class ChangeFeed {
  /** @type {Set<{ listener: ChangeListener }>} */
  #subscriptions = new Set();
  /** @type {string | null} */
  #channelName;
  /** @type {BroadcastChannel | null} */
  #channel = null;
  #hooked = false;

  /** @param {string | null} channelName the BroadcastChannel's name; null for none */
  constructor(channelName) {
    this.#channelName = typeof globalThis.BroadcastChannel === "function" ? channelName : null;
  }

  /**
   * Adds a listener; returns the function that removes it (calling it twice is harmless).
   * Each call adds a subscription, so one function subscribed twice hears every event twice.
   * @param {ChangeListener} listener
   * @returns {() => void}
   */
  subscribe(listener) {
    const subscription = { listener };
    this.#subscriptions.add(subscription);
    this.#open();
    return () => {
      this.#subscriptions.delete(subscription);
    };
  }

  /**
   * Delivers a committed transaction's events to this context's listeners (origin "local")
   * and posts them to other tabs and workers (there, origin "remote").
   * @param {Array<Omit<ChangeEvent, "origin"> | Omit<import("./index.js").StoreVanishedEvent, "origin">>} events
   */
  publish(events) {
    if (events.length === 0) return;
    this.#deliver(events, "local");
    const channel = this.#open();
    if (!channel) return;
    try {
      channel.postMessage({ kind: MESSAGE_KIND, events });
    } catch {
      // A closed or unusable channel: other tabs miss these events; this tab's data is safe.
    }
  }

  /**
   * @param {ReadonlyArray<Omit<ChangeEvent, "origin"> | Omit<import("./index.js").StoreVanishedEvent, "origin">>} events
   * @param {"local" | "remote"} origin
   */
  #deliver(events, origin) {
    if (this.#subscriptions.size === 0) return;
    for (const event of events) {
      const delivered = freeze({ ...event, origin });
      // A copy of the set: a listener may unsubscribe (or subscribe) while events go out.
      for (const subscription of [...this.#subscriptions]) {
        if (!this.#subscriptions.has(subscription)) continue;
        try {
          subscription.listener(delivered);
        } catch (error) {
          // A listener's failure is its own: the change committed and the others still hear
          // of it. Reported as an uncaught error would be, without unwinding anything.
          report(error);
        }
      }
    }
  }

  /** The channel, opened if needed; null when there is none (no name, or no BroadcastChannel). */
  #open() {
    if (this.#channel || this.#channelName === null) return this.#channel;
    const channel = new BroadcastChannel(this.#channelName);
    channel.onmessage = (event) => {
      const data = event.data;
      if (data?.kind !== MESSAGE_KIND || !Array.isArray(data.events)) return;
      this.#deliver(data.events.filter(isEvent), "remote");
    };
    // Node: an open channel must not keep the process alive.
    /** @type {{ unref?: () => void }} */ (/** @type {unknown} */ (channel)).unref?.();
    this.#channel = channel;
    this.#hook();
    return channel;
  }

  /**
   * Closes the channel when the page is hidden (so it can enter the back/forward cache) and
   * reopens it when the page comes back, if anyone still listens.
   */
  #hook() {
    if (this.#hooked) return;
    const target = /** @type {any} */ (globalThis);
    if (typeof target.addEventListener !== "function" || !("onpagehide" in target)) return;
    this.#hooked = true;
    target.addEventListener("pagehide", () => {
      this.#channel?.close();
      this.#channel = null;
    });
    target.addEventListener("pageshow", () => {
      if (this.#subscriptions.size > 0) this.#open();
    });
  }
}

/**
 * Whether a message's item looks like one of our events (another version of the package in
 * another tab may post more fields; fewer is not ours).
 * @param {unknown} value
 */
function isEvent(value) {
  if (typeof value !== "object" || value === null) return false;
  const event = /** @type {Record<string, unknown>} */ (value);
  if (event.type === "vanished") return typeof event.store === "string";
  return typeof event.memory_id === "string" && typeof event.version_id === "string";
}

/**
 * Freezes an event and its `created_by`, so listeners cannot change what others see.
 * @template {object} T
 * @param {T} event
 * @returns {T}
 */
function freeze(event) {
  const createdBy = /** @type {{ created_by?: unknown }} */ (event).created_by;
  if (typeof createdBy === "object" && createdBy !== null) Object.freeze(createdBy);
  return Object.freeze(event);
}

/**
 * Reports a listener's error the way the platform reports an uncaught one (the console, and
 * `error` listeners), or on the console where there is no `reportError` (Node 20).
 * @param {unknown} error
 */
function report(error) {
  const platform = /** @type {{ reportError?: (error: unknown) => void }} */ (globalThis);
  if (typeof platform.reportError === "function") platform.reportError(error);
  else console.error("memory-tool-wasm: a change listener threw:", error);
}
