// memory-tool-wasm/sync: keeps a local store in step with a hosted memory store (the memory
// stores API, through the official SDK client the host passes), on the package's public host
// API (docs/SYNC.md). One pass: list both sides (the hosted one with `view=basic`, paths and
// shas only), decide per path against the baseline, then move only what differs.

import { HOST_CALL_AS } from "./sync-actor.js";
import { emptyState, stateStore } from "./sync-state.js";
import {
  errorTypeOf,
  hostedContentProblem,
  hostedPathProblem,
  isPermanentRefusal,
  retryAfterOf,
  statusOf,
} from "./sync-rules.js";

/** The hosted API's page sizes: `basic` pages carry up to 100 items, `full` ones 20. */
const PAGE = 100;
const FULL_PAGE = 20;
/** Content fetches in flight at once during a pass (docs/SYNC.md#a-pass). */
const FETCH_CONCURRENCY = 8;
/** Uploads in flight at once. */
const PUSH_CONCURRENCY = 4;
/** Hosted deletes per pass: a quarter of the baseline, at least 8, at most 50 (as the SDK). */
const DELETE_CAP_FLOOR = 8;
const DELETE_CAP_CEILING = 50;

const DEFAULTS = {
  intervalMs: 15_000,
  pollMs: 60_000,
  deleteCorroborationMs: 30_000,
  stopTimeoutMs: 30_000,
  retry: { attempts: 4, baseMs: 500, maxMs: 30_000 },
};

const OPENING = Symbol("MemorySync.start");

/**
 * @typedef {import("./sync.js").MemorySyncOptions} MemorySyncOptions
 * @typedef {import("./sync.js").SyncResult} SyncResult
 * @typedef {import("./sync.js").SyncStatus} SyncStatus
 * @typedef {import("./sync.js").SyncEvent} SyncEvent
 * @typedef {import("./sync-state.js").SyncState} SyncState
 * @typedef {{ type: "memory", id: string, path: string, content_sha256: string,
 *   content_size_bytes: number, memory_version_id: string | null }} LocalMemory
 * @typedef {{ id: string, path: string, content_sha256: string, memory_version_id: string,
 *   content?: string | null }} HostedMemory
 * @typedef {{ path: string, hosted: HostedMemory, local: LocalMemory | null, conflict: boolean }} Pull
 * @typedef {{ path: string, local: LocalMemory, hosted: HostedMemory | null }} Push
 */

/** The error `start` throws for bad options. */
export class MemorySyncError extends Error {
  /** @type {"MemorySyncError"} */
  name = "MemorySyncError";
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** @param {number} ms @param {AbortSignal} [signal] */
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });

/**
 * Runs `fn` over `items`, at most `limit` at a time. One item's failure does not cut the
 * others short, except that no new item starts after a failure with no answer (the network is
 * down); the first failure is thrown once all have settled.
 * @template T @param {T[]} items @param {number} limit @param {(item: T) => Promise<void>} fn
 */
async function pool(items, limit, fn) {
  const queue = items[Symbol.iterator]();
  /** @type {{ error: unknown }[]} */
  const failed = [];
  let down = false;
  const worker = async () => {
    for (const item of queue) {
      if (down) return;
      try {
        await fn(item);
      } catch (error) {
        failed.push({ error });
        if (statusOf(error) === undefined) down = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed.length > 0) throw failed[0].error;
}

/** @param {unknown} e */
const codeOf = (e) => String(/** @type {any} */ (e)?.code ?? "");
/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** Keeps one local store in step with one hosted memory store (docs/SYNC.md). */
export class MemorySync {
  /** @type {any} */ #memory;
  /** @type {any} */ #client;
  #memoryStoreId;
  #store;
  #readOnly;
  #intervalMs;
  #pollMs;
  #corroborationMs;
  #stopTimeoutMs;
  #retry;
  #stateStore;
  /** @type {SyncState} */ #state = emptyState();
  /** @type {Set<(event: SyncEvent) => void>} */ #listeners = new Set();
  /** @type {SyncStatus} */ #status;
  /** @type {Promise<SyncResult> | null} */ #queued = null;
  /** @type {Promise<SyncResult> | null} */ #running = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */ #timer;
  #timerAt = Infinity;
  #lastPassAt = -Infinity;
  #failures = 0;
  #retryAfterMs = 0;
  #dirty = false;
  #stopped = false;
  #leader = false;
  #archived = false;
  #checkedStore = false;
  #abort = new AbortController();
  /** @type {Array<() => void>} */ #cleanups = [];
  /** @type {(() => void) | null} */ #releaseLock = null;
  #requests = 0;
  /** The last request failure that had no answer (the network, not the service). */
  /** @type {unknown} */ #unanswered = null;

  /**
   * @param {symbol} token
   * @param {import("./index.js").MemoryTool} memory
   * @param {MemorySyncOptions} options
   * @param {string} store
   */
  constructor(token, memory, options, store) {
    if (token !== OPENING) throw new TypeError("Use MemorySync.start(memory, options).");
    this.#memory = memory;
    this.#client = options.client;
    this.#memoryStoreId = options.memoryStoreId;
    this.#store = store;
    this.#readOnly = (options.access ?? "read_write") === "read_only";
    this.#intervalMs = options.intervalMs ?? DEFAULTS.intervalMs;
    this.#pollMs = options.pollMs ?? Math.max(DEFAULTS.pollMs, this.#intervalMs);
    this.#corroborationMs = options.deleteCorroborationMs ?? DEFAULTS.deleteCorroborationMs;
    this.#stopTimeoutMs = options.stopTimeoutMs ?? DEFAULTS.stopTimeoutMs;
    this.#retry = { ...DEFAULTS.retry, ...options.retry };
    this.#stateStore = stateStore(memory, store, this.#memoryStoreId);
    this.#status = {
      state: "idle",
      leader: false,
      lastSyncAt: null,
      lastError: null,
      pending: { push: 0, pull: 0, delete: 0 },
      hostedArchived: false,
    };
  }

  /**
   * Starts syncing `memory`'s store (or the mount `options.store` names) with the hosted store
   * `options.memoryStoreId`, through `options.client` (an `Anthropic` client). Resolves once it
   * has taken the syncing role for its store in this origin, or queued for it (`standby`).
   * @param {import("./index.js").MemoryTool} memory
   * @param {MemorySyncOptions} options
   * @returns {Promise<MemorySync>}
   */
  static async start(memory, options) {
    const bad = (/** @type {string} */ why) => {
      throw new MemorySyncError("INVALID_OPTIONS", `MemorySync.start: ${why}.`);
    };
    if (!memory || typeof memory.subscribe !== "function" || !memory.memories) bad("`memory` must be a MemoryTool");
    if (!options || typeof options !== "object") bad("the options must be an object");
    if (!options.client?.beta?.memoryStores?.memories) {
      bad("`client` must be an Anthropic client (new Anthropic({ … })) with beta.memoryStores");
    }
    if (typeof options.memoryStoreId !== "string" || options.memoryStoreId === "") {
      bad("`memoryStoreId` must be a hosted store id (memstore_…)");
    }
    if (options.access !== undefined && options.access !== "read_write" && options.access !== "read_only") {
      bad('`access` must be "read_write" or "read_only"');
    }
    for (const name of /** @type {const} */ (["intervalMs", "pollMs", "deleteCorroborationMs", "stopTimeoutMs"])) {
      const v = options[name];
      if (v !== undefined && !(typeof v === "number" && v >= 0 && Number.isFinite(v))) {
        bad(`\`${name}\` must be a number of milliseconds, 0 or more`);
      }
    }
    const mounts = memory.mounts;
    const mount =
      options.store === undefined ? mounts[0] : mounts.find((m) => m.store === options.store || (m.slug !== "" && m.slug === options.store));
    if (!mount) bad(`\`store\` names no mount of this tool: ${JSON.stringify(options.store)}`);
    const sync = new MemorySync(OPENING, memory, options, /** @type {{ store: string }} */ (mount).store);
    await sync.#begin();
    return sync;
  }

  /** The hosted store this syncs with. */
  get memoryStoreId() {
    return this.#memoryStoreId;
  }

  /** What the sync is doing, its last sync time, and what is pending (a fresh copy). */
  get status() {
    return structuredClone(this.#status);
  }

  /**
   * Hears status changes, progress, conflicts, refusals and wipes. Returns the function that
   * unsubscribes.
   * @param {(event: SyncEvent) => void} listener
   * @returns {() => void}
   */
  subscribe(listener) {
    if (typeof listener !== "function") throw new MemorySyncError("INVALID_INPUT", "subscribe(listener): `listener` must be a function.");
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Runs one reconcile pass now (after the one running, if any) and resolves with what it did.
   * In a tab that does not hold the syncing role, resolves at once with `skipped: "standby"`.
   * @returns {Promise<SyncResult>}
   */
  now() {
    if (this.#stopped) return Promise.resolve(this.#skipped("stopped"));
    if (!this.#leader) return Promise.resolve(this.#skipped("standby"));
    if (this.#queued) return this.#queued;
    const previous = this.#running ?? Promise.resolve();
    const queued = previous
      .catch(() => {})
      .then(() => {
        this.#queued = null;
        const running = this.#pass().finally(() => {
          if (this.#running === running) this.#running = null;
        });
        this.#running = running;
        return running;
      });
    this.#queued = queued;
    return queued;
  }

  /**
   * Stops: a last pass (bounded by `stopTimeoutMs`; requests still in flight then are
   * aborted), then gives up the syncing role. Later `now()` calls resolve `skipped: "stopped"`.
   * @returns {Promise<SyncResult | null>}
   */
  async stop() {
    if (this.#stopped) return null;
    const wasLeader = this.#leader;
    const last = wasLeader ? this.now() : null;
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    /** @type {SyncResult | null} */
    let result = null;
    if (last) {
      const timeout = sleep(this.#stopTimeoutMs).then(() => null);
      result = await Promise.race([last, timeout]);
      if (result === null) this.#abort.abort();
      await last.catch(() => {});
    }
    await this.#save();
    this.#leader = false;
    this.#releaseLock?.();
    this.#setStatus({ state: "stopped", leader: false });
    return result;
  }

  // -------------------------------------------------------------------------------------------
  // Starting, the syncing role, triggers

  async #begin() {
    const loaded = await this.#stateStore.load();
    if (loaded && loaded.v === 1) this.#state = { ...emptyState(), ...loaded };
    const unsubscribe = this.#memory.subscribe((/** @type {any} */ event) => {
      if (event.type !== "change" || event.store !== this.#store) return;
      if (event.created_by?.memory_store_id === this.#memoryStoreId) return;
      this.#dirty = true;
      this.#wake(Math.max(Date.now(), this.#lastPassAt + this.#intervalMs));
    });
    this.#cleanups.push(unsubscribe);
    const win = /** @type {any} */ (globalThis);
    if (typeof win.addEventListener === "function") {
      const online = () => this.#wake(Date.now());
      // Best effort: a pass started as the page goes may not finish (docs/SYNC.md#triggers).
      const leaving = () => {
        if (this.#dirty && this.#leader) void this.now();
      };
      const hidden = () => {
        if (win.document?.visibilityState === "hidden") leaving();
      };
      win.addEventListener("online", online);
      win.addEventListener("pagehide", leaving);
      win.document?.addEventListener?.("visibilitychange", hidden);
      this.#cleanups.push(() => {
        win.removeEventListener("online", online);
        win.removeEventListener("pagehide", leaving);
        win.document?.removeEventListener?.("visibilitychange", hidden);
      });
    }
    const locks = win.navigator?.locks;
    if (!locks || typeof locks.request !== "function") {
      await this.#becomeLeader();
      return;
    }
    // One tab per origin syncs a store: whoever holds this lock (docs/SYNC.md#tabs).
    const name = `memory-tool-wasm:sync:${this.#store}:${this.#memoryStoreId}`;
    /** @param {boolean} reload */
    const hold = (reload) =>
      new Promise((release) => {
        this.#releaseLock = () => release(undefined);
        if (this.#stopped) release(undefined);
        else void this.#becomeLeader(reload);
      });
    // The lock is held as long as the callback's promise is pending: until stop or the tab goes.
    const got = await new Promise((resolve) => {
      locks
        .request(name, { ifAvailable: true }, (/** @type {unknown} */ lock) => {
          resolve(lock !== null);
          return lock === null ? undefined : hold(false);
        })
        .catch(() => resolve(false));
    });
    if (got) return;
    this.#setStatus({ state: "standby", leader: false });
    locks.request(name, () => hold(true)).catch(() => {});
  }

  /**
   * Takes the syncing role. A tab that waited for it reads the state again first: the tab that
   * held the role saved newer baselines meanwhile.
   * @param {boolean} [reload]
   */
  async #becomeLeader(reload = false) {
    if (reload) {
      try {
        const loaded = await this.#stateStore.load();
        if (loaded && loaded.v === 1) this.#state = { ...emptyState(), ...loaded };
      } catch (error) {
        this.#setStatus({ lastError: `could not read the sync state: ${messageOf(error)}` });
      }
      if (this.#stopped) return;
    }
    this.#leader = true;
    this.#setStatus({ state: "idle", leader: true });
    this.#wake(Date.now());
  }

  /** Makes sure a pass starts no later than `at` (ms since the epoch). @param {number} at */
  #wake(at) {
    if (this.#stopped || !this.#leader) return;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      void this.now();
    }, Math.max(0, at - Date.now()));
  }

  // -------------------------------------------------------------------------------------------
  // Events and status

  /** @param {SyncEvent} event */
  #emit(event) {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        // The listener's failure is its own: reported as an uncaught error would be (the
        // console where there is no reportError, Node 20), and the pass goes on.
        const platform = /** @type {{ reportError?: (error: unknown) => void }} */ (globalThis);
        if (typeof platform.reportError === "function") platform.reportError(error);
        else console.error("memory-tool-wasm/sync: a listener threw:", error);
      }
    }
  }

  /** @param {Partial<SyncStatus>} change */
  #setStatus(change) {
    const next = { ...this.#status, ...change };
    if (JSON.stringify(next) === JSON.stringify(this.#status)) return;
    this.#status = next;
    this.#emit({ type: "status", status: structuredClone(next) });
  }

  /** @param {"standby" | "stopped"} why @returns {SyncResult} */
  #skipped(why) {
    return { ...this.#blank(), skipped: why };
  }

  /** @returns {SyncResult} */
  #blank() {
    return {
      ok: false,
      error: null,
      pulled: [],
      pushed: [],
      deletedLocal: [],
      deletedHosted: [],
      conflicts: [],
      refused: [],
      wiped: false,
      requests: 0,
    };
  }

  async #save() {
    try {
      await this.#stateStore.save(this.#state);
    } catch (error) {
      this.#setStatus({ lastError: `could not save the sync state: ${messageOf(error)}` });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Requests: the SDK's own retries off, ours on (backoff with jitter, retry-after honoured)

  /**
   * Sends one request (`send(requestOptions)`), retrying what is safe to retry: reads and
   * preconditioned writes after any failure without an answer and after 429/5xx; a create
   * only after an answer saying it was not done (429, 503, 529), never after a dropped
   * connection, whose outcome the next listing settles (docs/SYNC.md#network).
   * @template T
   * @param {"read" | "idempotent" | "create"} kind
   * @param {(options: object) => Promise<T>} send
   * @returns {Promise<T>}
   */
  async #request(kind, send) {
    for (let attempt = 1; ; attempt++) {
      if (this.#abort.signal.aborted) throw new MemorySyncError("ABORTED", "the sync stopped");
      this.#requests++;
      try {
        return await send({ maxRetries: 0, signal: this.#abort.signal });
      } catch (error) {
        const status = statusOf(error);
        const notDone = status === 429 || status === 503 || status === 529;
        const retryable =
          notDone || (kind !== "create" && (status === undefined || status === 408 || (status >= 500 && status < 600)));
        if (!retryable || attempt >= this.#retry.attempts || this.#abort.signal.aborted) {
          if (status === undefined) this.#unanswered = error;
          throw error;
        }
        const asked = retryAfterOf(error, Date.now());
        if (asked !== null) this.#retryAfterMs = asked;
        const backoff = Math.min(this.#retry.maxMs, this.#retry.baseMs * 2 ** (attempt - 1));
        const delay = asked !== null ? Math.min(asked, this.#retry.maxMs) : backoff / 2 + (Math.random() * backoff) / 2;
        await sleep(delay, this.#abort.signal);
      }
    }
  }

  /**
   * The hosted store's memories (not its directory entries), page by page as `memories.list`
   * gives them; a caller that stops early requests no further page.
   * @param {"basic" | "full"} view @param {number} limit
   * @returns {AsyncGenerator<HostedMemory>}
   */
  async *#hostedMemories(view, limit) {
    /** @type {string | null} */
    let page = null;
    do {
      const cursor = page;
      /** @type {any} */
      const result = await this.#request("read", (o) =>
        this.#client.beta.memoryStores.memories.list(this.#memoryStoreId, { view, limit, ...(cursor ? { page: cursor } : {}) }, o),
      );
      for (const item of result.data ?? []) if (item.type === "memory") yield item;
      page = result.next_page ?? null;
    } while (page);
  }

  /** Every hosted memory, `view=basic`, keyed by path. @returns {Promise<Map<string, HostedMemory>>} */
  async #listHosted() {
    /** @type {Map<string, HostedMemory>} */
    const hosted = new Map();
    for await (const item of this.#hostedMemories("basic", PAGE)) hosted.set(item.path, item);
    return hosted;
  }

  // -------------------------------------------------------------------------------------------
  // A pass

  /** @returns {Promise<SyncResult>} */
  async #pass() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const startedAt = Date.now();
    this.#lastPassAt = startedAt;
    this.#dirty = false;
    const requestsBefore = this.#requests;
    const result = this.#blank();
    const nav = /** @type {any} */ (globalThis).navigator;
    try {
      // The browser knows it has no network: no request is sent (the `online` event, or the
      // backoff below, brings the next pass).
      if (nav && nav.onLine === false) throw new MemorySyncError("OFFLINE", "offline");
      this.#setStatus({ state: "syncing" });
      await this.#reconcile(result);
      result.ok = true;
      this.#failures = 0;
      this.#retryAfterMs = 0;
      this.#setStatus({ state: "idle", lastSyncAt: new Date().toISOString(), lastError: null });
    } catch (error) {
      this.#failures++;
      result.error = messageOf(error);
      // Offline only when a request got no answer; a local failure (a vanished or damaged
      // store) is an error the host must see.
      const offline =
        codeOf(error) === "OFFLINE" || (error === this.#unanswered && !this.#abort.signal.aborted);
      this.#setStatus({ state: offline ? "offline" : "error", lastError: result.error });
    }
    result.requests = this.#requests - requestsBefore;
    await this.#save();
    if (!this.#stopped) {
      const backoff =
        this.#failures === 0
          ? this.#pollMs
          : Math.max(this.#retryAfterMs, Math.min(this.#retry.maxMs, this.#retry.baseMs * 2 ** this.#failures) * (0.5 + Math.random() / 2));
      this.#wake(Date.now() + backoff);
      if (this.#dirty) this.#wake(Math.max(Date.now(), this.#lastPassAt + this.#intervalMs));
    }
    this.#emit({ type: "pass", result: structuredClone(result) });
    return result;
  }

  /** @param {SyncResult} result */
  async #reconcile(result) {
    const state = this.#state;
    if (!this.#checkedStore) {
      /** @type {any} */
      const store = await this.#request("read", (o) => this.#client.beta.memoryStores.retrieve(this.#memoryStoreId, {}, o));
      this.#archived = store.archived_at !== null && store.archived_at !== undefined;
      this.#checkedStore = true;
      this.#setStatus({ hostedArchived: this.#archived });
    }
    const pushing = !this.#readOnly && !this.#archived;
    /** @type {LocalMemory[]} */
    const localList = (await this.#memory.memories.list({ store: this.#store })).filter(
      (/** @type {any} */ m) => m.type === "memory",
    );
    const local = new Map(localList.map((m) => [m.path, m]));
    const hosted = await this.#listHosted();

    // Sends whose answer never came: a hosted memory holding exactly what was sent is that
    // send, landed after all.
    for (const [path, sha] of Object.entries(state.sent)) {
      const h = hosted.get(path);
      if (h && h.content_sha256 === sha) state.baseline[path] = [h.content_sha256, h.id, h.memory_version_id];
    }
    state.sent = {};

    // A local store found empty while its baseline is not was wiped (cleared site data, an
    // evicted origin, a deleted store): download it again, push and delete nothing.
    const baselineSize = Object.keys(state.baseline).length;
    if (local.size === 0 && baselineSize > 1) {
      state.baseline = {};
      state.deletes = {};
      result.wiped = true;
      this.#emit({ type: "wipe", memoryStoreId: this.#memoryStoreId, hostedCount: hosted.size });
    }

    /** @type {Pull[]} */ const pulls = [];
    /** @type {Push[]} */ const pushes = [];
    /** @type {Array<{ path: string, local: LocalMemory }>} */ const localDeletes = [];
    /** @type {Array<{ path: string, hosted: HostedMemory, base: string }>} */ const hostedDeletes = [];
    let pendingDeletes = 0;
    const paths = new Set([...local.keys(), ...hosted.keys(), ...Object.keys(state.baseline)]);
    for (const path of [...paths].sort()) {
      const l = local.get(path) ?? null;
      const h = hosted.get(path) ?? null;
      const base = state.baseline[path]?.[0];
      if (l) delete state.deletes[path];
      if (!h) {
        if (!l) {
          delete state.baseline[path];
          delete state.deletes[path];
        } else if (base !== undefined && l.content_sha256 === base) {
          localDeletes.push({ path, local: l });
        } else if (pushing && state.refused[path] !== l.content_sha256) {
          pushes.push({ path, local: l, hosted: null });
        }
        continue;
      }
      if (!l) {
        if (base === undefined || h.content_sha256 !== base) {
          delete state.deletes[path];
          if (state.refused[`local:${path}`] !== h.content_sha256) pulls.push({ path, hosted: h, local: null, conflict: false });
        } else if (pushing) {
          // Deleted here, unchanged there: deleted there only once corroborated.
          const seen = (state.deletes[path] ??= [Date.now(), 0]);
          seen[1]++;
          if (seen[1] >= 2 && Date.now() - seen[0] >= this.#corroborationMs) hostedDeletes.push({ path, hosted: h, base });
          else pendingDeletes++;
        }
        continue;
      }
      if (l.content_sha256 === h.content_sha256) {
        state.baseline[path] = [h.content_sha256, h.id, h.memory_version_id];
        delete state.refused[path];
        continue;
      }
      const hostedChanged = h.content_sha256 !== base;
      const localChanged = l.content_sha256 !== base;
      if (hostedChanged && state.refused[`local:${path}`] === h.content_sha256) continue;
      if (hostedChanged) pulls.push({ path, hosted: h, local: l, conflict: localChanged });
      else if (pushing && state.refused[path] !== l.content_sha256) pushes.push({ path, local: l, hosted: h });
    }

    const pending = { push: pushes.length, pull: pulls.length, delete: pendingDeletes + hostedDeletes.length };
    this.#setStatus({ pending: { ...pending } });
    await this.#pullAll(pulls, hosted.size, result, pending);
    await this.#deleteLocal(localDeletes, result);
    await pool(pushes, PUSH_CONCURRENCY, async (p) => {
      if ((await this.#push(p, result)) !== "deferred") pending.push--;
    });
    const cap = Math.max(DELETE_CAP_FLOOR, Math.min(DELETE_CAP_CEILING, Math.floor(baselineSize / 4)));
    for (const d of hostedDeletes.slice(0, cap)) {
      if (await this.#deleteHosted(d, result)) pending.delete--;
    }
    this.#setStatus({ pending: { ...pending } });
  }

  /**
   * Fetches and writes locally what changed on the hosted side: one request per memory, or the
   * `view=full` listing when that takes fewer requests (a first download).
   * @param {Pull[]} pulls @param {number} hostedCount @param {SyncResult} result
   * @param {{ pull: number }} pending
   */
  async #pullAll(pulls, hostedCount, result, pending) {
    if (pulls.length === 0) return;
    let done = 0;
    const total = pulls.length;
    this.#emit({ type: "progress", phase: "pull", done, total });
    const write = async (/** @type {Pull} */ pull, /** @type {HostedMemory} */ full) => {
      if (await this.#writeLocal(pull, full, result)) pending.pull--;
      done++;
      this.#emit({ type: "progress", phase: "pull", done, total });
    };
    if (pulls.length > Math.ceil(hostedCount / FULL_PAGE)) {
      const wanted = new Map(pulls.map((p) => [p.path, p]));
      for await (const item of this.#hostedMemories("full", FULL_PAGE)) {
        const pull = wanted.get(item.path);
        if (!pull) continue;
        wanted.delete(item.path);
        await write(pull, item);
        if (wanted.size === 0) break;
      }
      return;
    }
    await pool(pulls, FETCH_CONCURRENCY, async (pull) => {
      /** @type {any} */
      let full;
      try {
        full = await this.#request("read", (o) =>
          this.#client.beta.memoryStores.memories.retrieve(pull.hosted.id, { memory_store_id: this.#memoryStoreId, view: "full" }, o),
        );
      } catch (error) {
        // Deleted since the listing: the next pass reconciles it.
        if (statusOf(error) === 404) return;
        throw error;
      }
      await write(pull, full);
    });
  }

  /**
   * Writes a hosted memory locally as a new version recording the hosted store and version.
   * @param {Pull} pull @param {HostedMemory} full @param {SyncResult} result
   * @returns {Promise<boolean>} whether it was written
   */
  async #writeLocal(pull, full, result) {
    const { path, local } = pull;
    const content = full.content ?? "";
    const by = { memory_store_id: this.#memoryStoreId, memory_version_id: full.memory_version_id };
    try {
      if (local) {
        await this.#memory[HOST_CALL_AS](
          "memories.update",
          { store: this.#store, id: local.id, content, precondition: { type: "content_sha256", content_sha256: local.content_sha256 } },
          by,
        );
      } else {
        await this.#memory[HOST_CALL_AS]("memories.create", { store: this.#store, path, content }, by);
      }
    } catch (error) {
      const code = codeOf(error);
      // Changed here during the pass: the next pass sees both sides again.
      if (code === "PRECONDITION_FAILED" || code === "PATH_CONFLICT" || code === "NOT_FOUND") return false;
      this.#refuse(result, "local", path, full.content_sha256, messageOf(error));
      return false;
    }
    this.#state.baseline[path] = [full.content_sha256, full.id, full.memory_version_id];
    delete this.#state.refused[`local:${path}`];
    result.pulled.push(path);
    if (pull.conflict && local) {
      const conflict = {
        path,
        local_version_id: local.memory_version_id,
        local_content_sha256: local.content_sha256,
        hosted_version_id: full.memory_version_id,
        hosted_content_sha256: full.content_sha256,
      };
      result.conflicts.push(conflict);
      this.#emit({ type: "conflict", memoryStoreId: this.#memoryStoreId, ...conflict });
    }
    return true;
  }

  /**
   * Deletes locally what the hosted store deleted, if unchanged here (its versions stay).
   * @param {Array<{ path: string, local: LocalMemory }>} deletes @param {SyncResult} result
   */
  async #deleteLocal(deletes, result) {
    for (const { path, local } of deletes) {
      try {
        await this.#memory[HOST_CALL_AS](
          "memories.delete",
          { store: this.#store, id: local.id, expected_content_sha256: local.content_sha256 },
          { memory_store_id: this.#memoryStoreId },
        );
      } catch (error) {
        if (codeOf(error) !== "NOT_FOUND") continue;
      }
      delete this.#state.baseline[path];
      result.deletedLocal.push(path);
    }
  }

  /**
   * Sends one local change: an update over the hosted sha it was based on, or a create.
   * @param {Push} p @param {SyncResult} result
   * @returns {Promise<"pushed" | "refused" | "deferred">} deferred: for a later pass
   */
  async #push(p, result) {
    /** @type {any} */
    let memory;
    try {
      memory = await this.#memory.memories.getByPath(p.path, { store: this.#store });
    } catch (error) {
      if (codeOf(error) === "NOT_FOUND") return "deferred";
      throw error;
    }
    const sha = memory.content_sha256;
    if (this.#state.refused[p.path] === sha) return "refused";
    const problem = hostedPathProblem(p.path) ?? hostedContentProblem(memory);
    if (problem) {
      this.#refuse(result, "hosted", p.path, sha, problem);
      return "refused";
    }
    this.#state.sent[p.path] = sha;
    const id = this.#memoryStoreId;
    const memories = this.#client.beta.memoryStores.memories;
    /** @type {any} */
    let saved;
    try {
      saved = p.hosted
        ? await this.#request("idempotent", (o) =>
            memories.update(
              /** @type {HostedMemory} */ (p.hosted).id,
              {
                memory_store_id: id,
                content: memory.content,
                precondition: { type: "content_sha256", content_sha256: /** @type {HostedMemory} */ (p.hosted).content_sha256 },
              },
              o,
            ),
          )
        : await this.#request("create", (o) => memories.create(id, { path: p.path, content: memory.content }, o));
    } catch (error) {
      const status = statusOf(error);
      if (p.hosted && status === 404) return this.#push({ ...p, hosted: null }, result);
      if (status === 409 && errorTypeOf(error) === "conflict_error") {
        this.#archived = true;
        this.#setStatus({ hostedArchived: true });
      }
      if (isPermanentRefusal(error)) {
        delete this.#state.sent[p.path];
        this.#refuse(result, "hosted", p.path, sha, messageOf(error), status);
        return "refused";
      }
      // A precondition or path conflict: the hosted side moved; the next pass pulls it.
      if (status === 409) {
        delete this.#state.sent[p.path];
        return "deferred";
      }
      if (status !== undefined) delete this.#state.sent[p.path];
      throw error;
    }
    delete this.#state.sent[p.path];
    delete this.#state.refused[p.path];
    this.#state.baseline[p.path] = [saved.content_sha256, saved.id, saved.memory_version_id];
    result.pushed.push(p.path);
    return "pushed";
  }

  /**
   * Deletes a hosted memory whose local file stayed deleted, if it still holds the baseline.
   * @param {{ path: string, hosted: HostedMemory, base: string }} d @param {SyncResult} result
   */
  async #deleteHosted(d, result) {
    try {
      await this.#memory.memories.getByPath(d.path, { store: this.#store });
      delete this.#state.deletes[d.path];
      return false;
    } catch (error) {
      if (codeOf(error) !== "NOT_FOUND") throw error;
    }
    try {
      await this.#request("idempotent", (o) =>
        this.#client.beta.memoryStores.memories.delete(
          d.hosted.id,
          { memory_store_id: this.#memoryStoreId, expected_content_sha256: d.base },
          o,
        ),
      );
    } catch (error) {
      const status = statusOf(error);
      if (status === 409 || isPermanentRefusal(error)) {
        if (errorTypeOf(error) === "conflict_error") {
          this.#archived = true;
          this.#setStatus({ hostedArchived: true });
        }
        return false;
      }
      if (status !== 404) throw error;
    }
    delete this.#state.baseline[d.path];
    delete this.#state.deletes[d.path];
    result.deletedHosted.push(d.path);
    return true;
  }

  /**
   * Records a refusal of this content at this path and reports it, once.
   * @param {SyncResult} result @param {"hosted" | "local"} side @param {string} path
   * @param {string} sha @param {string} reason @param {number} [status]
   */
  #refuse(result, side, path, sha, reason, status) {
    const key = side === "hosted" ? path : `local:${path}`;
    if (this.#state.refused[key] === sha) return;
    this.#state.refused[key] = sha;
    const refusal = { side, path, content_sha256: sha, reason, ...(status === undefined ? {} : { status }) };
    result.refused.push(refusal);
    this.#emit({ type: "refused", memoryStoreId: this.#memoryStoreId, ...refusal });
  }
}
