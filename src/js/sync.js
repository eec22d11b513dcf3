// memory-tool-wasm/sync: keeps a local store in step with a hosted memory store (the memory
// stores API, through the official SDK client the host passes), on the package's public host
// API (docs/SYNC.md). Three parts: the decisions of a pass are one pure function
// (sync-plan.js); the hosted side, with its retries and its checks of every answer, is
// sync-hosted.js; this file is the lifecycle (one state, named transitions), the triggers, the
// syncing role across tabs (Web Locks), and a pass's I/O around the plan.

import { HOST_CALL_AS } from "./host-call-as.js";
import { recordStore } from "./sync-state.js";
import { FAILURES_BEFORE_SKIP, baselineOf, emptyRecord, failingWait, plan } from "./sync-plan.js";
import { FULL_PAGE, HostedStore, MAX_RETRY_AFTER_MS, isConflictError, isUnanswered, sleep } from "./sync-hosted.js";
import { hostedContentProblem, hostedPathProblem, isPermanentRefusal, statusOf } from "./sync-rules.js";

/** Content fetches in flight at once during a pass (docs/SYNC.md#a-pass). */
const FETCH_CONCURRENCY = 8;
/** Uploads in flight at once. */
const PUSH_CONCURRENCY = 4;

const DEFAULTS = {
  intervalMs: 15_000,
  pollMs: 60_000,
  deleteCorroborationMs: 30_000,
  stopTimeoutMs: 30_000,
  retry: { attempts: 4, baseMs: 500, maxMs: 30_000 },
};

/**
 * The lifecycle: `#to(next)` is the one way the state changes, along these transitions.
 *   starting → standby (another tab holds the role) | idle (this tab took it)
 *   standby  → idle (the role came to this tab)
 *   idle | offline | error | held → syncing (a pass starts)
 *   syncing  → idle (the pass did its work) | held (a suspected hosted wipe holds its deletes)
 *            | offline (a request got no answer) | error (anything else)
 *   any      → stopped
 * @type {Record<string, string[]>}
 */
const TRANSITIONS = {
  starting: ["standby", "idle", "stopped"],
  standby: ["idle", "stopped"],
  idle: ["syncing", "stopped"],
  syncing: ["idle", "held", "offline", "error", "stopped"],
  held: ["syncing", "stopped"],
  offline: ["syncing", "stopped"],
  error: ["syncing", "stopped"],
  stopped: [],
};

const OPENING = Symbol("MemorySync.start");

/**
 * @typedef {import("./sync.js").MemorySyncOptions} MemorySyncOptions
 * @typedef {import("./sync.js").SyncResult} SyncResult
 * @typedef {import("./sync.js").SyncStatus} SyncStatus
 * @typedef {import("./sync.js").SyncEvent} SyncEvent
 * @typedef {import("./sync-plan.js").SyncRecord} SyncRecord
 * @typedef {import("./sync-plan.js").LocalMemory} LocalMemory
 * @typedef {import("./sync-plan.js").HostedMemory} HostedMemory
 * @typedef {import("./sync-plan.js").Pull} Pull
 * @typedef {import("./sync-plan.js").Push} Push
 * @typedef {import("./sync-hosted.js").FullMemory} FullMemory
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

/**
 * Runs `fn` over `items`, at most `limit` at a time. A failure of one item is that item's: `fn`
 * handles it. Only a failure with no answer (the network is down) stops new items from
 * starting and is thrown once all have settled.
 * @template T @param {T[]} items @param {number} limit @param {(item: T) => Promise<void>} fn
 */
async function pool(items, limit, fn) {
  const queue = items[Symbol.iterator]();
  /** @type {unknown[]} */
  const down = [];
  const worker = async () => {
    for (const item of queue) {
      if (down.length > 0) return;
      try {
        await fn(item);
      } catch (error) {
        down.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (down.length > 0) throw down[0];
}

/** @param {unknown} e */
const codeOf = (e) => String(/** @type {any} */ (e)?.code ?? "");
/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** Keeps one local store in step with one hosted memory store (docs/SYNC.md). */
export class MemorySync {
  // What it syncs, and how (fixed at start).
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
  #records;
  /** @type {Set<(event: SyncEvent) => void>} */ #listeners = new Set();
  /** @type {Array<() => void>} */ #cleanups = [];
  #abort = new AbortController();

  // The lifecycle.
  /** @type {string} */ #state = "starting";
  /** Set by `stop()`: no pass starts but its last one, and none is scheduled. */
  #stopping = false;
  /** @type {SyncStatus} */ #status;
  /** @type {(() => void) | null} */ #releaseLock = null;

  // What the sync remembers (persisted), and what it learnt of the hosted store this page.
  /** @type {SyncRecord} */ #record = emptyRecord();
  /** @type {boolean | null} */ #archived = null;
  #requests = 0;

  // When the next pass runs.
  /** @type {Promise<SyncResult> | null} */ #queued = null;
  /** @type {Promise<SyncResult> | null} */ #running = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */ #timer;
  #timerAt = Infinity;
  #lastPassAt = -Infinity;
  #failures = 0;
  #dirty = false;

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
    this.#records = recordStore(memory, store, this.#memoryStoreId);
    this.#status = {
      state: "idle",
      leader: false,
      lastSyncAt: null,
      lastError: null,
      pending: { push: 0, pull: 0, delete: 0 },
      hostedArchived: false,
      suspectedWipe: null,
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
    const retry = options.retry;
    if (retry !== undefined) {
      if (typeof retry !== "object" || retry === null) bad("`retry` must be an object");
      const r = /** @type {Record<string, unknown>} */ (retry);
      if (r.attempts !== undefined && !(Number.isInteger(r.attempts) && /** @type {number} */ (r.attempts) >= 1 && /** @type {number} */ (r.attempts) <= 20)) {
        bad("`retry.attempts` must be a whole number from 1 to 20");
      }
      for (const name of ["baseMs", "maxMs"]) {
        const v = r[name];
        if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= MAX_RETRY_AFTER_MS)) {
          bad(`\`retry.${name}\` must be a number of milliseconds from 0 to ${MAX_RETRY_AFTER_MS}`);
        }
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
    if (this.#stopping) return Promise.resolve(this.#skipped("stopped"));
    if (!this.#status.leader) return Promise.resolve(this.#skipped("standby"));
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
    if (this.#stopping) return null;
    const last = this.#status.leader ? this.now() : null;
    this.#stopping = true;
    clearTimeout(this.#timer);
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    /** @type {SyncResult | null} */
    let result = null;
    if (last) {
      const cut = new AbortController();
      const timeout = sleep(this.#stopTimeoutMs, cut.signal).then(() => null);
      result = await Promise.race([last, timeout]);
      cut.abort();
      if (result === null) this.#abort.abort();
      await last.catch(() => {});
      await this.#save();
    }
    this.#to("stopped");
    this.#releaseLock?.();
    this.#setStatus({ state: "stopped", leader: false });
    return result;
  }

  // -------------------------------------------------------------------------------------------
  // The lifecycle, the syncing role, triggers

  /**
   * Moves the lifecycle to `next`, if that transition is one of TRANSITIONS; returns whether
   * it did.
   * @param {string} next
   */
  #to(next) {
    if (!TRANSITIONS[this.#state]?.includes(next)) return false;
    this.#state = next;
    return true;
  }

  async #begin() {
    this.#record = await this.#records.load();
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
        if (this.#dirty && this.#status.leader) void this.now();
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
        if (this.#stopping) release(undefined);
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
    this.#to("standby");
    this.#setStatus({ state: "standby", leader: false });
    locks.request(name, () => hold(true)).catch(() => {});
  }

  /**
   * Takes the syncing role. A tab that waited for it reads the record again first: the tab
   * that held the role saved newer baselines meanwhile.
   * @param {boolean} [reload]
   */
  async #becomeLeader(reload = false) {
    if (reload) {
      try {
        this.#record = await this.#records.load();
      } catch (error) {
        this.#setStatus({ lastError: `could not read the sync state: ${messageOf(error)}` });
      }
    }
    if (this.#stopping || !this.#to("idle")) return;
    this.#setStatus({ state: "idle", leader: true });
    this.#wake(Date.now());
  }

  /** Makes sure a pass starts no later than `at` (ms since the epoch). @param {number} at */
  #wake(at) {
    if (this.#stopping || !this.#status.leader) return;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    // setTimeout holds at most 2^31 - 1 ms; a later `at` would fire at once.
    const delay = Math.min(Math.max(0, at - Date.now()), MAX_RETRY_AFTER_MS);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      void this.now();
    }, delay);
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
      failed: [],
      wiped: false,
      suspectedWipe: false,
      requests: 0,
    };
  }

  async #save() {
    try {
      await this.#records.save(this.#record);
    } catch (error) {
      this.#setStatus({ lastError: `could not save the sync state: ${messageOf(error)}` });
    }
  }

  // -------------------------------------------------------------------------------------------
  // A pass: gather the facts, plan, carry the plan out

  /** @returns {Promise<SyncResult>} */
  async #pass() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    this.#lastPassAt = Date.now();
    this.#dirty = false;
    const result = this.#blank();
    // The SDK adds a listener to each request's signal and leaves it there: a signal of this
    // pass alone takes them with it when the pass ends.
    const passAbort = new AbortController();
    const cut = () => passAbort.abort();
    this.#abort.signal.addEventListener("abort", cut, { once: true });
    const hosted = new HostedStore(this.#client, this.#memoryStoreId, this.#retry, passAbort.signal);
    const nav = /** @type {any} */ (globalThis).navigator;
    /** @type {string} */
    let ended;
    /** @type {Partial<SyncStatus>} */
    let change;
    if (!this.#to("syncing")) return this.#skipped("stopped");
    try {
      // The browser knows it has no network: no request is sent (the `online` event, or the
      // backoff below, brings the next pass).
      if (nav && nav.onLine === false) throw new MemorySyncError("OFFLINE", "offline");
      this.#setStatus({ state: "syncing" });
      await this.#reconcile(hosted, result);
      result.ok = true;
      this.#failures = 0;
      ended = result.suspectedWipe ? "held" : "idle";
      change = { lastSyncAt: new Date().toISOString(), lastError: null };
    } catch (error) {
      this.#failures++;
      result.error = messageOf(error);
      // Offline only when a request got no answer; a local failure (a vanished or damaged
      // store) or an answer that cannot be believed is an error the host must see.
      ended = codeOf(error) === "OFFLINE" || (isUnanswered(error) && !this.#abort.signal.aborted) ? "offline" : "error";
      change = { lastError: result.error };
    }
    this.#abort.signal.removeEventListener("abort", cut);
    result.requests = hosted.requests;
    this.#requests += hosted.requests;
    await this.#save();
    this.#setStatus(this.#to(ended) ? { ...change, state: /** @type {any} */ (ended) } : change);
    if (!this.#stopping) {
      const backoff =
        this.#failures === 0
          ? this.#pollMs
          : Math.max(hosted.retryAfterMs, Math.min(this.#retry.maxMs, this.#retry.baseMs * 2 ** this.#failures) * (0.5 + Math.random() / 2));
      this.#wake(Date.now() + backoff);
      if (this.#dirty) this.#wake(Math.max(Date.now(), this.#lastPassAt + this.#intervalMs));
    }
    this.#emit({ type: "pass", result: structuredClone(result) });
    return result;
  }

  /**
   * @param {HostedStore} hosted
   * @param {SyncResult} result
   */
  async #reconcile(hosted, result) {
    let local = await this.#localMemories();
    // A first download (no baseline, nothing here) lists with the text: the full pages are the
    // listing, so no `basic` page comes first, and each is written as it comes.
    const first = Object.keys(this.#record.baseline).length === 0 && local.size === 0;
    /** @type {Map<string, HostedMemory | FullMemory>} */
    let listed;
    if (first) {
      listed = await this.#download(hosted, result);
      local = await this.#localMemories();
    } else {
      listed = await hosted.list("basic");
    }
    const gone = await this.#whyGone(local);
    const decide = (/** @type {boolean} */ pushing) =>
      plan({ local, gone, hosted: listed, state: this.#record, now: Date.now(), pushing, corroborationMs: this.#corroborationMs });
    // Whether the hosted store is archived matters only to a pass that would change it: it is
    // read (once per MemorySync) when a plan first has something to send, and the plan is made
    // again without pushing if it is (the plan is pure: the state in is unchanged).
    let decided = decide(!this.#readOnly && this.#archived !== true);
    if (this.#archived === null && (decided.pushes.length > 0 || decided.hostedDeletes.length > 0)) {
      this.#archived = await hosted.archived();
      this.#setStatus({ hostedArchived: this.#archived });
      if (this.#archived) decided = decide(false);
    }
    this.#record = decided.state;
    if (decided.wiped) {
      result.wiped = true;
      this.#emit({ type: "wipe", memoryStoreId: this.#memoryStoreId, hostedCount: listed.size });
    }
    const suspect = decided.suspected ? this.#record.suspect : null;
    result.suspectedWipe = suspect !== null;
    if (suspect && suspect.passes === 1) {
      this.#emit({ type: "suspected_wipe", memoryStoreId: this.#memoryStoreId, hostedCount: suspect.hostedCount, missing: suspect.missing });
    }
    this.#setStatus({ suspectedWipe: suspect && { since: new Date(suspect.since).toISOString(), hostedCount: suspect.hostedCount, missing: suspect.missing } });

    const pending = {
      push: decided.pushes.length,
      pull: decided.pulls.length,
      delete: decided.hostedDeletes.length + decided.waiting.hostedDeletes + decided.localDeletes.length + decided.waiting.localDeletes,
    };
    this.#setStatus({ pending: { ...pending } });
    await this.#pullAll(hosted, decided.pulls, listed, result, pending);
    for (const d of decided.localDeletes) {
      if (await this.#deleteLocal(hosted, d.path, d.local, result)) pending.delete--;
    }
    await pool(decided.pushes, PUSH_CONCURRENCY, async (p) => {
      if ((await this.#push(hosted, p, result)) !== "deferred") pending.push--;
    });
    for (const d of decided.hostedDeletes) {
      if (await this.#deleteHosted(hosted, d, result)) pending.delete--;
    }
    this.#setStatus({ pending: { ...pending } });
  }

  /** @returns {Promise<Map<string, LocalMemory>>} the local memories by path (no content, one transaction) */
  async #localMemories() {
    /** @type {LocalMemory[]} */
    const list = (await this.#memory.memories.list({ store: this.#store })).filter((/** @type {any} */ m) => m.type === "memory");
    return new Map(list.map((m) => [m.path, m]));
  }

  /**
   * A first download (no baseline, nothing here): the `view=full` pages are the listing, and
   * each page's memories are written here in one transaction (`memories.createMany`, all or
   * none, each text checked against its sha) while the next page is fetched. A page that
   * cannot be written whole is written one memory at a time, each with its own outcome; what
   * was not written (no text in the page, refused, failing) is left to the plan that follows,
   * which sees the whole listing. Only pulls are decided per page: with no baseline and
   * nothing here there is nothing to push or delete (invariants 1 and 5).
   * @param {HostedStore} hosted @param {SyncResult} result
   * @returns {Promise<Map<string, HostedMemory | FullMemory>>} the whole listing
   */
  async #download(hosted, result) {
    /** @type {Map<string, HostedMemory | FullMemory>} */
    const listed = new Map();
    let done = 0;
    const pages = hosted.pages("full");
    let next = pages.next();
    for (;;) {
      const page = await next;
      if (page.done) break;
      // The next page is on its way while this one is written; a failure of it surfaces at
      // the `await` above.
      next = pages.next();
      next.catch(() => {});
      const here = new Map(page.value.map((m) => [m.path, m]));
      for (const [path, m] of here) listed.set(path, m);
      const { pulls } = plan({ local: new Map(), gone: new Map(), hosted: here, state: this.#record, now: Date.now(), pushing: false, corroborationMs: this.#corroborationMs });
      const withText = pulls.filter((p) => typeof (/** @type {any} */ (p.hosted).content) === "string");
      done += await this.#writePage(withText, result);
      this.#emit({ type: "progress", phase: "pull", done, total: listed.size });
    }
    return listed;
  }

  /**
   * Writes a page of pulls of new memories in one transaction, or, when one of them cannot
   * be written as it is, each on its own. The texts written are dropped from the listing.
   * @param {Pull[]} pulls @param {SyncResult} result
   * @returns {Promise<number>} how many were written
   */
  async #writePage(pulls, result) {
    if (pulls.length === 0) return 0;
    /** @type {any} */
    let written;
    try {
      written = await this.#memory[HOST_CALL_AS](
        "memories.createMany",
        {
          store: this.#store,
          memories: pulls.map(({ path, hosted: h }) => ({
            path,
            content: /** @type {FullMemory} */ (h).content,
            content_sha256: h.content_sha256,
            memory_version_id: h.memory_version_id,
          })),
        },
        { memory_store_id: this.#memoryStoreId },
      );
    } catch {
      let count = 0;
      for (const pull of pulls) if (await this.#writeLocal(pull, /** @type {FullMemory} */ (pull.hosted), result)) count++;
      return count;
    }
    pulls.forEach((pull, i) => {
      const id = written?.[i]?.id;
      this.#record.baseline[pull.path] = baselineOf(pull.hosted, typeof id === "string" ? id : undefined);
      delete this.#record.refused[`local:${pull.path}`];
      delete this.#record.failing[pull.path];
      delete (/** @type {any} */ (pull.hosted).content);
      result.pulled.push(pull.path);
    });
    return pulls.length;
  }

  /**
   * Why each path the baseline holds and this store does not is gone: deleted here by expiry
   * (its last version's actor), or otherwise. One local read per such path, and none for a path
   * already known expired.
   * @param {Map<string, LocalMemory>} local
   * @returns {Promise<Map<string, "expiry" | "other">>}
   */
  async #whyGone(local) {
    /** @type {Map<string, "expiry" | "other">} */
    const gone = new Map();
    for (const [path, entry] of Object.entries(this.#record.baseline)) {
      if (local.has(path) || this.#record.expired[path] !== undefined) continue;
      const localId = entry[3];
      if (typeof localId !== "string") {
        gone.set(path, "other");
        continue;
      }
      const { data } = await this.#memory.versions.list({ store: this.#store, memory_id: localId, limit: 1 });
      const last = data?.[0];
      gone.set(path, last?.operation === "deleted" && last?.created_by?.type === "expiry" ? "expiry" : "other");
    }
    return gone;
  }

  /**
   * Fetches and writes locally what changed on the hosted side: the texts a full listing
   * brought, one request per memory, or the `view=full` pages when that takes fewer requests.
   * A memory that cannot be fetched is that memory's failure (`failed`, then skipped until it
   * changes); only a request with no answer ends the pass.
   * @param {HostedStore} hosted
   * @param {Pull[]} pulls
   * @param {Map<string, HostedMemory | FullMemory>} listed
   * @param {SyncResult} result
   * @param {{ pull: number }} pending
   */
  async #pullAll(hosted, pulls, listed, result, pending) {
    if (pulls.length === 0) return;
    let done = 0;
    const total = pulls.length;
    this.#emit({ type: "progress", phase: "pull", done, total });
    const write = async (/** @type {Pull} */ pull, /** @type {FullMemory | null} */ full) => {
      if (full !== null && (await this.#writeLocal(pull, full, result))) pending.pull--;
      done++;
      this.#emit({ type: "progress", phase: "pull", done, total });
    };
    const withText = pulls.filter((p) => typeof (/** @type {any} */ (p.hosted).content) === "string");
    for (const pull of withText) await write(pull, /** @type {FullMemory} */ (pull.hosted));
    const rest = pulls.filter((p) => !withText.includes(p));
    if (rest.length === 0) return;
    if (rest.length > Math.ceil(listed.size / FULL_PAGE)) {
      const wanted = new Map(rest.map((p) => [p.path, p]));
      for await (const item of hosted.memories("full")) {
        const pull = wanted.get(item.path);
        if (!pull || typeof (/** @type {any} */ (item).content) !== "string") continue;
        wanted.delete(item.path);
        await write(pull, /** @type {FullMemory} */ (item));
        if (wanted.size === 0) break;
      }
      // What the pages did not carry whole is fetched on its own below.
      rest.splice(0, rest.length, ...wanted.values());
    }
    await pool(rest, FETCH_CONCURRENCY, async (pull) => {
      /** @type {FullMemory | null} */
      let full;
      try {
        // Deleted since the listing (null): the next pass reconciles it.
        full = await hosted.retrieve(pull.hosted.id);
      } catch (error) {
        if (isUnanswered(error)) throw error;
        this.#failed(result, pull.path, pull.hosted.content_sha256, messageOf(error));
        return;
      }
      await write(pull, full);
    });
  }

  /**
   * Writes a hosted memory locally as a new version recording the hosted store and version,
   * and, over a local change, the local version it set aside (kept restorable,
   * docs/TOOL.md#retention). The text is written only if it is the one its sha names.
   * @param {Pull} pull @param {FullMemory} full @param {SyncResult} result
   * @returns {Promise<boolean>} whether it was written
   */
  async #writeLocal(pull, full, result) {
    const { path, local } = pull;
    if (typeof full.content !== "string") {
      this.#failed(result, path, full.content_sha256, "the hosted memory holds no text");
      return false;
    }
    const content = full.content;
    const by = { memory_store_id: this.#memoryStoreId, memory_version_id: full.memory_version_id };
    // Over a local change, the local text is set aside and kept restorable (docs/TOOL.md#retention).
    const keep = pull.conflict && local?.memory_version_id ? { keep_version_id: local.memory_version_id } : {};
    /** @type {any} */
    let written;
    try {
      written = local
        ? await this.#memory[HOST_CALL_AS](
            "memories.update",
            {
              store: this.#store,
              id: local.id,
              content,
              content_sha256: full.content_sha256,
              precondition: { type: "content_sha256", content_sha256: local.content_sha256 },
              ...keep,
            },
            by,
          )
        : await this.#memory[HOST_CALL_AS]("memories.create", { store: this.#store, path, content, content_sha256: full.content_sha256 }, by);
    } catch (error) {
      const code = codeOf(error);
      // Changed here during the pass: the next pass sees both sides again.
      if (code === "PRECONDITION_FAILED" || code === "PATH_CONFLICT" || code === "NOT_FOUND") return false;
      // Not the text its sha names: this memory's failure this pass (a lying or broken answer).
      if (code === "CONTENT_MISMATCH") this.#failed(result, path, full.content_sha256, `the hosted memory's text does not match its content_sha256: ${messageOf(error)}`);
      else this.#refuse(result, "local", path, full.content_sha256, messageOf(error));
      return false;
    }
    this.#record.baseline[path] = baselineOf(full, typeof written?.id === "string" ? written.id : undefined);
    delete this.#record.refused[`local:${path}`];
    delete this.#record.failing[path];
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
   * Deletes locally what the hosted store deleted, if unchanged here (its versions keep the
   * text, restorable for the retention period from this delete). A listing is not proof
   * enough: the memory is first asked for by its id, and a hosted store that still holds it
   * (a listing that left it out) keeps it here too.
   * @param {HostedStore} hosted @param {string} path @param {LocalMemory} local @param {SyncResult} result
   */
  async #deleteLocal(hosted, path, local, result) {
    const hostedId = this.#record.baseline[path]?.[1];
    if (hostedId !== undefined) {
      /** @type {FullMemory | null} */
      let still;
      try {
        still = await hosted.retrieve(hostedId);
      } catch (error) {
        if (isUnanswered(error)) throw error;
        this.#failed(result, path, this.#record.baseline[path]?.[0] ?? "", `could not make sure the hosted store deleted it: ${messageOf(error)}`, "hosted");
        return false;
      }
      // Still there at this path: the listing left it out. (At another path it moved, and the
      // delete here is right.)
      if (still !== null && still.path === path) {
        this.#failed(result, path, still.content_sha256, "the hosted listing left it out, but the hosted store still holds it", "hosted");
        return false;
      }
    }
    try {
      await this.#memory[HOST_CALL_AS](
        "memories.delete",
        { store: this.#store, id: local.id, expected_content_sha256: local.content_sha256 },
        { memory_store_id: this.#memoryStoreId },
      );
    } catch (error) {
      if (codeOf(error) !== "NOT_FOUND") return false;
    }
    delete this.#record.baseline[path];
    result.deletedLocal.push(path);
    return true;
  }

  /**
   * Sends one local change: an update over the hosted sha it was based on, or a create.
   * @param {HostedStore} hosted @param {Push} p @param {SyncResult} result
   * @returns {Promise<"pushed" | "refused" | "deferred">} deferred: for a later pass
   */
  async #push(hosted, p, result) {
    /** @type {any} */
    let memory;
    try {
      memory = await this.#memory.memories.getByPath(p.path, { store: this.#store });
    } catch (error) {
      if (codeOf(error) === "NOT_FOUND") return "deferred";
      throw error;
    }
    const sha = memory.content_sha256;
    if (this.#record.refused[p.path] === sha) return "refused";
    const problem = hostedPathProblem(p.path) ?? hostedContentProblem(memory);
    if (problem) {
      this.#refuse(result, "hosted", p.path, sha, problem);
      return "refused";
    }
    this.#record.sent[p.path] = sha;
    /** @type {HostedMemory} */
    let saved;
    try {
      saved = p.hosted ? await hosted.update(p.hosted.id, memory.content, p.hosted.content_sha256) : await hosted.create(p.path, memory.content);
    } catch (error) {
      const status = statusOf(error);
      if (p.hosted && status === 404) return this.#push(hosted, { ...p, hosted: null }, result);
      if (isConflictError(error)) this.#markArchived();
      if (isPermanentRefusal(error)) {
        delete this.#record.sent[p.path];
        this.#refuse(result, "hosted", p.path, sha, messageOf(error), status);
        return "refused";
      }
      // A precondition or path conflict: the hosted side moved; the next pass pulls it.
      if (status === 409) {
        delete this.#record.sent[p.path];
        return "deferred";
      }
      if (isUnanswered(error)) throw error;
      // An answer saying it failed (a 5xx after the retries, an answer that cannot be
      // believed): this file's failure; the others go on.
      delete this.#record.sent[p.path];
      this.#failed(result, p.path, sha, messageOf(error), "hosted");
      return "deferred";
    }
    delete this.#record.sent[p.path];
    delete this.#record.refused[p.path];
    this.#record.baseline[p.path] = baselineOf(saved, memory.id);
    result.pushed.push(p.path);
    return "pushed";
  }

  /**
   * Deletes a hosted memory whose local file stayed deleted, if it still holds the baseline.
   * @param {HostedStore} hosted
   * @param {{ path: string, hosted: HostedMemory, base: string }} d @param {SyncResult} result
   */
  async #deleteHosted(hosted, d, result) {
    try {
      await this.#memory.memories.getByPath(d.path, { store: this.#store });
      delete this.#record.deletes[d.path];
      return false;
    } catch (error) {
      if (codeOf(error) !== "NOT_FOUND") throw error;
    }
    try {
      await hosted.delete(d.hosted.id, d.base);
    } catch (error) {
      const status = statusOf(error);
      if (status === 409 || isPermanentRefusal(error)) {
        if (isConflictError(error)) this.#markArchived();
        return false;
      }
      if (isUnanswered(error)) throw error;
      if (status !== 404) {
        this.#failed(result, d.path, d.base, messageOf(error), "hosted");
        return false;
      }
    }
    delete this.#record.baseline[d.path];
    delete this.#record.deletes[d.path];
    result.deletedHosted.push(d.path);
    return true;
  }

  /** The hosted store refused a write as archived: nothing is pushed from now on. */
  #markArchived() {
    this.#archived = true;
    this.#setStatus({ hostedArchived: true });
  }

  /**
   * Records a refusal of this content at this path and reports it, once.
   * @param {SyncResult} result @param {"hosted" | "local"} side @param {string} path
   * @param {string} sha @param {string} reason @param {number} [status]
   * @param {boolean} [remember] false: reported, but tried again later (a memory that keeps failing)
   */
  #refuse(result, side, path, sha, reason, status, remember = true) {
    const key = side === "hosted" ? path : `local:${path}`;
    if (this.#record.refused[key] === sha) return;
    if (remember) this.#record.refused[key] = sha;
    const refusal = { side, path, content_sha256: sha, reason, ...(status === undefined ? {} : { status }) };
    result.refused.push(refusal);
    this.#emit({ type: "refused", memoryStoreId: this.#memoryStoreId, ...refusal });
  }

  /**
   * One memory failed this pass (its fetch, push or delete) while the rest went on: reported
   * in the pass's `failed`; a hosted memory that failed FAILURES_BEFORE_SKIP passes in a row
   * with the same sha then waits between tries (an hour, doubling, at most a day) unless it
   * changes, and is reported once as refused.
   * @param {SyncResult} result @param {string} path @param {string} sha @param {string} reason
   * @param {"hosted" | "local"} [side] where the failure was: "local" for a pull
   */
  #failed(result, path, sha, reason, side = "local") {
    result.failed.push({ side, path, reason });
    if (side !== "local") return;
    const previous = this.#record.failing[path];
    const failures = previous && previous[0] === sha ? previous[1] + 1 : 1;
    this.#record.failing[path] = failures >= FAILURES_BEFORE_SKIP ? [sha, failures, Date.now() + failingWait(failures)] : [sha, failures];
    if (failures === FAILURES_BEFORE_SKIP) {
      this.#refuse(result, "local", path, sha, `${failures} passes could not fetch it (${reason}); it is tried again less often until it changes`, undefined, false);
    }
  }
}
