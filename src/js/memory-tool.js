// MemoryTool: the package's surface. Each call checks its arguments, starts a core task and
// has the transaction driver (driver.js) run it; no command logic lives here: texts and rules
// come from the core.

import { MemoryToolError, hostError, isStorageError, messageOf, toStorageError } from "./errors.js";
import {
  actor,
  checkToolUse,
  contentOf,
  describeValue,
  isPlainObject,
  inputJson,
  methodOptions,
  optionsArg,
  throttled,
  toBytes,
  versionFilters,
} from "./arguments.js";
import { perform, startHostCall, startTask } from "./driver.js";
import { changeFeed, eventScope, eventsOf } from "./events.js";
import { newSessionId } from "./ids.js";
import { invalidOptions, readOptions, readWasm } from "./options.js";
import { openHandle, planOf } from "./registry.js";
import { loadEngine, preloadEngine } from "./wasm.js";
import { stateApi } from "./state.js";
import { exportBlob } from "./export-stream.js";
import { bundleParts } from "./import-parts.js";
import { HOST_CALL_AS } from "./host-call-as.js";
// A free function of the core; callable once `loadEngine()` has instantiated the module.
import { storageFailureText, systemPrompt as systemPromptText } from "../../pkg/memory_tool_wasm.js";

/** @typedef {import("./index.js").WasmSource} WasmSource */
/** @typedef {import("./index.js").MemoryToolOptions} MemoryToolOptions */
/** @typedef {import("./index.js").ExecuteResult} ExecuteResult */
/** @typedef {import("./index.js").ToolResultBlock} ToolResultBlock */
/** @typedef {import("./index.js").MemoryToolErrorCode} MemoryToolErrorCode */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").Bundle} Bundle */
/** @typedef {import("./index.js").ChangeListener} ChangeListener */
/** @typedef {import("./index.js").MountInfo} MountInfo */
/** @typedef {import("./index.js").BeforeWrite} BeforeWrite */
/** @typedef {import("./events.js").ChangeFeed} ChangeFeed */
/** @typedef {import("./driver.js").Outcome} Outcome */
/** @typedef {import("../../pkg/memory_tool_wasm.js").Engine} Engine */
/** @typedef {import("../../pkg/memory_tool_wasm.js").Task} Task */

/**
 * One mounted store of a MemoryTool: what `mounts` shows, plus its open handle and change feed.
 * @typedef {MountInfo & { handle: StoreHandle, feed: ChangeFeed }} Mounted
 */

/**
 * How long the uses a view reports wait to be written together (ms): short, so that another
 * tab's expiry learns of a use before it deletes (docs/TOOL.md#last-use-and-expiry).
 */
const USE_DELAY_MS = 100;
/** How long after open the background expiry starts if no command came first (ms). */
const EXPIRY_DELAY_MS = 5000;
/**
 * How long the background expiry waits between choosing what is due and deleting it (ms):
 * a memory used meanwhile, in this tab or another, is kept.
 */
const EXPIRY_CONFIRM_MS = 2000;

/** Guards the constructor: a MemoryTool comes from `MemoryTool.open`. */
const OPENING = Symbol("MemoryTool.open");

/**
 * Claude's memory tool (`memory_20250818`) over one store, or over several mounted stores
 * (`/memories/<slug>/` each). Tool calls (`run`, `runAll`, `execute`) never throw for the
 * model's mistakes; host calls (`writeFile`, `memories.list`) throw `MemoryToolError`s with a
 * stable `code`.
 */
/** How long `persist()` waits for the browser's answer by default (docs/RELIABILITY.md#engines). */
const PERSIST_TIMEOUT_MS = 10_000;

export class MemoryTool {
  /** @type {Engine} */
  #engine;
  /** The mounted stores, in mount order (one for a single store). @type {Mounted[]} */
  #mounts;
  /** Their handles, in mount order, for the driver. @type {StoreHandle[]} */
  #handles;
  /** This tool's session id (`session_…`). @type {string} */
  #session;
  /** The session id recorded in versions, or null (single-store tools keep the plain actors). */
  #recordedSession;
  /** The host's write policy, if any. @type {BeforeWrite | undefined} */
  #beforeWrite;
  /** This tool's subscriptions, ended by `close`. @type {Set<() => void>} */
  #unsubscribes = new Set();
  #closed = false;
  /**
   * While an import reads its bundle into the core (a part at a time, the page running
   * between parts), the calls made after it wait for this before they start their
   * transactions, so the tool's commands still run in the order they were called: it
   * settles once the last such import has started its own. null when no import is reading.
   * @type {Promise<void> | null}
   */
  #queue = null;
  /**
   * Per mount, the store keys of memories viewed whose last use is to be recorded (a view
   * stays one read-only transaction; the use goes in a write of its own, batched).
   * @type {Map<number, Set<string>>}
   */
  #used = new Map();
  /** The pending flush of `#used`, if any. @type {ReturnType<typeof setTimeout> | null} */
  #usedTimer = null;
  /** Per mount, the expiry in days (`expireAfterDays`), or undefined. @type {Array<number | undefined>} */
  #expiry = [];
  /** The mounts whose store was found vanished (told to subscribers once). @type {Set<number>} */
  #vanished = new Set();
  /** The background expiry, until it started: runs after the first command, or after a while. */
  #expiryPending = /** @type {(() => void) | null} */ (null);

  /**
   * The host's memory API (docs/TOOL.md#memory-stores, the memory stores API's shapes). Paths are store paths
   * (`/notes/todo.md`, the tool's `/memories/notes/todo.md`). With several mounts, each call
   * takes `{ store }` (a mounted store's id or slug; default the first mount). Throws
   * `MemoryToolError`s.
   * @type {import("./index.js").MemoriesApi}
   */
  memories;

  /**
   * The history API: every change is a version (`memver_…`). With several mounts, each call
   * takes `{ store }` as `memories` does. Throws `MemoryToolError`s.
   * @type {import("./index.js").VersionsApi}
   */
  versions;

  /**
   * Per-store host state (docs/ARCHITECTURE.md#store-metadata): small JSON values kept in the
   * store's own database beside its memories, such as a sync's baselines. Not memories: no
   * versions, no change events, never shown to the model. With several mounts, each call
   * takes `{ store }`. Throws `MemoryToolError`s.
   * @type {import("./index.js").StateApi}
   */
  state;

  /**
   * Use `MemoryTool.open(options)`.
   * @param {symbol} token
   * @param {Engine} engine
   * @param {Mounted[]} mounts
   * @param {boolean} mounted opened with `mounts`
   * @param {BeforeWrite | undefined} beforeWrite
   */
  constructor(token, engine, mounts, mounted, beforeWrite) {
    if (token !== OPENING) throw new TypeError("Use MemoryTool.open(options) to get a MemoryTool.");
    this.#engine = engine;
    this.#mounts = mounts;
    this.#handles = mounts.map((mount) => mount.handle);
    this.#session = newSessionId();
    // Versions say which session wrote them when the tool mounts named stores (docs/TOOL.md#mounts); a
    // single store keeps the actors the versions API has always shown.
    this.#recordedSession = mounted ? this.#session : null;
    this.#beforeWrite = beforeWrite;
    /**
     * A host call on the mount its options name.
     * @param {string} call
     * @param {unknown} options
     * @param {Record<string, unknown>} [fixed] arguments that options cannot override
     * @param {boolean} [required] whether options must be given
     */
    const on = (call, options, fixed = {}, required = false) => {
      const { store, ...args } = methodOptions(call, options, required);
      return this.#host(call, { ...args, ...fixed }, this.#mountOf(call, store));
    };
    // Every method is async: bad arguments reject, as storage and core errors do.
    this.memories = Object.freeze({
      list: async (/** @type {import("./index.js").ListOptions | undefined} */ options) =>
        on("memories.list", options),
      get: async (/** @type {string} */ id, /** @type {import("./index.js").StoreOption | undefined} */ options) =>
        on("memories.get", options, { id }),
      getByPath: async (/** @type {string} */ path, /** @type {import("./index.js").StoreOption | undefined} */ options) =>
        on("memories.getByPath", options, { path }),
      create: async (/** @type {import("./index.js").CreateMemoryParams} */ params) =>
        on("memories.create", params, {}, true),
      update: async (/** @type {string} */ id, /** @type {import("./index.js").UpdateMemoryParams} */ params) =>
        on("memories.update", params, { id }, true),
      delete: async (/** @type {string} */ id, /** @type {import("./index.js").DeleteMemoryOptions | undefined} */ options) =>
        on("memories.delete", options, { id }),
      keep: async (/** @type {string} */ id, /** @type {import("./index.js").StoreOption | undefined} */ options) =>
        on("memories.keep", options, { id }),
      expire: async (/** @type {import("./index.js").ExpireOptions | undefined} */ options) => {
        const { store, dryRun, olderThanDays } = methodOptions("memories.expire", options);
        if (dryRun !== undefined && typeof dryRun !== "boolean") {
          throw new MemoryToolError("INVALID_INPUT", "memories.expire: `dryRun` must be true or false.");
        }
        const mount = this.#mountOf("memories.expire", store);
        const days = olderThanDays ?? this.#expiry[mount];
        if (days === undefined) {
          throw new MemoryToolError(
            "INVALID_INPUT",
            "memories.expire: give `olderThanDays`, or open the tool with `expireAfterDays`.",
          );
        }
        // Uses still queued are recorded first: a memory this tool just used is never due.
        await this.#recordUse();
        return this.#host("memories.expire", { older_than_days: days, dry_run: dryRun === true }, mount, "expiry");
      },
    });
    this.versions = Object.freeze({
      list: async (/** @type {import("./index.js").VersionFilters | undefined} */ filters) => {
        const { store, ...args } = versionFilters(filters);
        return this.#host("versions.list", args, this.#mountOf("versions.list", store));
      },
      get: async (/** @type {string} */ id, /** @type {import("./index.js").StoreOption | undefined} */ options) =>
        on("versions.get", options, { id }),
      redact: async (/** @type {string} */ id, /** @type {import("./index.js").StoreOption | undefined} */ options) =>
        on("versions.redact", options, { id }),
      restore: async (/** @type {string} */ id, /** @type {import("./index.js").StoreOption | undefined} */ options) =>
        on("versions.restore", options, { id }),
      prune: async (/** @type {import("./index.js").StoreOption | undefined} */ options) =>
        on("versions.prune", options),
    });
    this.state = stateApi((call, store) => {
      this.#checkOpen();
      return this.#handles[this.#mountOf(call, store)];
    });
  }

  /**
   * Starts loading the core's `.wasm` (download, compile, instantiate) now, so that the first
   * `open` (or `MemoryStores.open`) finds it loaded or on its way: for an app that opens its
   * tool later than it imports the package. Takes `{ wasm }` only, as `open` does; the first
   * load wins, so a later `open`'s `wasm` is then not read. Resolves once the core is loaded
   * or its load failed, and never rejects for a failed load: that failure is not kept, and
   * the next `open` tries again and rejects with `open`'s own errors. Rejects with
   * `INVALID_OPTIONS` for bad options.
   * @param {{ wasm?: WasmSource }} [options]
   * @returns {Promise<void>}
   */
  static async preload(options) {
    if (options !== undefined && !isPlainObject(options)) {
      throw new MemoryToolError("INVALID_OPTIONS", "MemoryTool.preload: the options must be an object.");
    }
    const { wasm, ...rest } = /** @type {{ wasm?: unknown }} */ (options ?? {});
    const unknown = Object.keys(rest);
    if (unknown.length > 0) {
      throw new MemoryToolError("INVALID_OPTIONS", `MemoryTool.preload: unknown option \`${unknown[0]}\`; the one option is wasm.`);
    }
    return preloadEngine(readWasm(wasm, "MemoryTool.preload"));
  }

  /**
   * Opens the memory tool: over one store (`store`, default "memories"), or over named stores
   * of the store registry (`mounts`, see `MemoryStores`). IndexedDB by default where it
   * exists, else in-memory. Rejects with `INVALID_OPTIONS` for bad options, `NOT_FOUND` for a
   * mount whose store is not in the registry, `TOO_MANY_MOUNTS`, `SLUG_CONFLICT` and
   * `ARCHIVED` for mounts the core refuses, `STORAGE_FAILED` if a store cannot open.
   * @param {MemoryToolOptions} [options]
   * @returns {Promise<MemoryTool>}
   */
  static async open(options) {
    const opened = readOptions(options);
    const EngineClass = await loadEngine(opened.wasm);
    /** @type {string} the Engine's configuration */
    let config;
    /** @type {MountInfo[]} */
    let infos;
    if (opened.mounts) {
      const plan = await planOf(opened.storage, opened.mounts, opened.engineConfig);
      config = JSON.stringify(plan.engine);
      infos = plan.mounts;
    } else {
      const { store, access } = opened;
      config = JSON.stringify({ ...opened.engineConfig, readOnly: access === "read_only" });
      infos = [
        { store, name: store, slug: "", path: "/memories/", access, description: "", instructions: "", archived: false },
      ];
    }
    let engine;
    try {
      engine = new EngineClass(config);
    } catch (error) {
      throw invalidOptions(messageOf(error));
    }
    /** @type {Mounted[]} */
    const mounts = [];
    try {
      for (const info of infos) {
        const handle = await openHandle(opened.storage, info.store);
        mounts.push({ ...info, handle, feed: changeFeed(eventScope(handle, opened.storage, info.store)) });
      }
    } catch (error) {
      for (const mount of mounts) mount.handle.close();
      engine.free();
      throw error;
    }
    const tool = new MemoryTool(OPENING, engine, mounts, Boolean(opened.mounts), opened.beforeWrite);
    tool.#expiry = opened.mounts
      ? opened.mounts.map((m) => m.expireAfterDays)
      : [opened.expireAfterDays];
    tool.#scheduleExpiry();
    // Retention: versions past the retention period go on open, in every store the tool may
    // write. Pruning is housekeeping, so open does not wait for it: its transaction is created
    // here, before open resolves, so every later command of this tool runs after it (IndexedDB
    // runs overlapping transactions in the order they were created). If it fails (storage
    // trouble), the next open tries again.
    for (const [index, mount] of mounts.entries()) {
      if (mount.access !== "read_write") continue;
      // On the store's trusted clock, which this open also records
      // (docs/TOOL.md#a-clock-that-can-be-trusted).
      tool.#host("versions.prune", { on_open: true }, index).catch(() => {
        // Nothing to do: the versions stay until a later prune.
      });
    }
    return tool;
  }

  /** The tool definition for the Messages API's `tools` list (a fresh object each time). */
  get toolParam() {
    return { type: /** @type {const} */ ("memory_20250818"), name: /** @type {const} */ ("memory") };
  }

  /**
   * The store's name; with `mounts`, the first mounted store's id (where host calls go by
   * default).
   */
  get store() {
    return this.#mounts[0].store;
  }

  /**
   * Whether the model may write (`"read_write"`) or only read (`"read_only"`); with `mounts`,
   * the first mount's access (see `mounts` for each).
   */
  get access() {
    return this.#mounts[0].access;
  }

  /**
   * The mounted stores, in mount order: each store's id (or, for a single store, its name),
   * name, slug, tool path, access, description and instructions, and whether it is archived.
   * @returns {ReadonlyArray<MountInfo>}
   */
  get mounts() {
    return Object.freeze(
      this.#mounts.map(({ handle, feed, ...info }) => Object.freeze(info)),
    );
  }

  /**
   * This tool's session id (`session_…`, random per MemoryTool). With `mounts`, every version
   * it writes records it in `created_by.session_id`, beside the `mount_path` it wrote through.
   */
  get sessionId() {
    return this.#session;
  }

  /**
   * The text to add to the system prompt so the model knows its memory: each mount's path,
   * name, access, description and instructions (the core's wording).
   * @returns {string}
   */
  systemPrompt() {
    const mounts = this.#mounts.map(({ name, path, access, description, instructions }) => ({
      name,
      path,
      access,
      description,
      instructions,
    }));
    return systemPromptText(JSON.stringify(mounts));
  }

  /**
   * Runs one tool input (the `input` of a memory `tool_use` block) in one transaction.
   * Resolves after the transaction committed. The model's mistakes and storage failures
   * come back as `isError` results, with the error's `code`.
   * @param {unknown} input
   * @returns {Promise<ExecuteResult>}
   */
  async execute(input) {
    return this.#execute(input, null);
  }

  /**
   * @param {unknown} input
   * @param {string | null} toolUseId the `tool_use` block's id, recorded in versions
   * @returns {Promise<ExecuteResult>}
   */
  async #execute(input, toolUseId) {
    // A call the page still makes after `close()` (a tool call landing as the page tears down)
    // is a storage failure the model is told of, as the declarations promise; it never rejects.
    if (this.#closed) {
      return { content: storageFailureText("STORAGE_FAILED"), isError: true, code: "STORAGE_FAILED" };
    }
    const by = actor("tool", this.#recordedSession, { tool_use_id: toolUseId });
    const json = inputJson(input);
    const task = startTask(this.#engine, "tool", json, { actor: by });
    let outcome;
    try {
      outcome = await this.#perform(task);
    } catch (error) {
      if (!isStorageError(error)) throw error;
      let failure = error;
      // A delete the browser refused for quota runs again in the compact form, which puts
      // nothing (docs/TOOL.md#delete-at-full-quota).
      if (isQuotaError(error) && isDeleteInput(input)) {
        try {
          outcome = await this.#perform(startTask(this.#engine, "tool", json, { actor: by, compact: true }), undefined, true);
        } catch (again) {
          if (!isStorageError(again)) throw again;
          failure = again;
        }
      }
      if (!outcome) {
        const code = /** @type {MemoryToolErrorCode} */ (failure.code);
        return { content: storageFailureText(code), isError: true, code };
      }
    }
    return outcome.isError
      ? { content: outcome.content, isError: true, code: outcome.code }
      : { content: outcome.content, isError: false };
  }

  /**
   * Runs a memory `tool_use` block and answers with its `tool_result` block.
   * Throws `INVALID_TOOL_USE` if the block is not a `tool_use` of the tool named "memory".
   * @param {import("./index.js").ToolUseBlock} toolUse
   * @returns {Promise<ToolResultBlock>}
   */
  async run(toolUse) {
    checkToolUse(toolUse);
    const { content, isError } = await this.#execute(toolUse.input, toolUse.id);
    /** @type {ToolResultBlock} */
    const result = { type: "tool_result", tool_use_id: toolUse.id, content };
    if (isError) result.is_error = true;
    return result;
  }

  /**
   * Runs every memory `tool_use` block of an assistant message (or of its content: an array
   * of content blocks, or a string, which has none), one after the other, and returns their
   * `tool_result` blocks in the same order. Other blocks (text, other tools) are skipped.
   * @param {import("./index.js").AssistantMessage | string | ReadonlyArray<import("./index.js").ContentBlockLike>} message
   * @returns {Promise<ToolResultBlock[]>}
   */
  async runAll(message) {
    const blocks = Array.isArray(message) || typeof message === "string" ? message : contentOf(message);
    if (typeof blocks === "string") return [];
    if (!Array.isArray(blocks)) {
      throw new MemoryToolError(
        "INVALID_TOOL_USE",
        "runAll expects an assistant message ({ role, content: [...] }) or an array of content blocks.",
      );
    }
    const uses = blocks.filter(
      (block) =>
        typeof block === "object" && block !== null && block.type === "tool_use" && block.name === "memory",
    );
    // All checked before any runs: a bad block must not leave the message half done.
    uses.forEach(checkToolUse);
    /** @type {ToolResultBlock[]} */
    const results = [];
    for (const use of uses) results.push(await this.run(use));
    return results;
  }

  /**
   * The host's way to put a file (an image, say) into memory: creates or overwrites `path`
   * (a tool path: with several mounts, `/memories/<slug>/…` says which store) with `content`
   * (a string is stored as UTF-8). Obeys the tool's paths, limits, access and write policy;
   * throws a `MemoryToolError` with the core's code otherwise.
   * @param {string} path
   * @param {string | Uint8Array | ArrayBuffer | ArrayBufferView} content
   * @returns {Promise<void>}
   */
  async writeFile(path, content) {
    this.#checkOpen();
    const bytes = toBytes(content);
    const by = actor("api", this.#recordedSession);
    const outcome = await this.#perform(startTask(this.#engine, "write", inputJson(path), { actor: by, content: bytes }));
    if (outcome.isError) throw hostError(outcome);
  }

  /**
   * How much a store holds, and what the browser says of the origin's storage.
   * @param {import("./index.js").StoreOption} [options]
   * @returns {Promise<import("./index.js").StorageUsage>}
   */
  async usage(options) {
    this.#checkOpen();
    const { store } = methodOptions("usage", options);
    const handle = this.#handles[this.#mountOf("usage", store)];
    /** @type {{ files: number, bytes: number } | undefined} */
    let counted;
    try {
      await handle.transaction("readonly", (tx) => {
        if (typeof tx.getUsage !== "function") {
          throw new MemoryToolError("STORAGE_FAILED", "This storage cannot say how much it holds (getUsage).");
        }
        tx.getUsage((usage) => (counted = usage));
      });
    } catch (error) {
      throw toStorageError(error);
    }
    const manager = /** @type {any} */ (globalThis).navigator?.storage;
    /** @type {{ usage: number, quota: number } | null} */
    let origin = null;
    /** @type {boolean | null} */
    let persisted = null;
    try {
      if (typeof manager?.estimate === "function") {
        const { usage = 0, quota = 0 } = await manager.estimate();
        origin = { usage, quota };
      }
      if (typeof manager?.persisted === "function") persisted = Boolean(await manager.persisted());
    } catch {
      // Not allowed here (an opaque origin, a worker without it): unknown.
    }
    return { files: counted?.files ?? 0, bytes: counted?.bytes ?? 0, origin, persisted };
  }

  /**
   * Asks the browser to keep this origin's storage under pressure instead of evicting it
   * (`navigator.storage.persist()`), and settles within a bound whatever the browser does.
   * Resolves with `true` when the origin is persisted (granted now or before), `false` when the
   * browser refused or has no Storage API (`navigator.storage`, as in WebKitGTK), and `null`
   * when the browser has not answered within `timeoutMs` (default 10,000 ms): Firefox asks the
   * person with a prompt and waits, for ever if nobody answers. The request then stays open in
   * the browser and may still be granted: `usage().persisted` says so later.
   * @param {{ timeoutMs?: number }} [options] `timeoutMs`: how long to wait for the browser's
   *   answer, in milliseconds (0 to 2,147,483,647; 0 resolves `null` unless the answer is
   *   already there)
   * @returns {Promise<boolean | null>}
   */
  async persist(options) {
    this.#checkOpen();
    const { timeoutMs = PERSIST_TIMEOUT_MS } = methodOptions("persist", options);
    if (typeof timeoutMs !== "number" || !Number.isInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > 2 ** 31 - 1) {
      throw new MemoryToolError("INVALID_INPUT", "persist: `timeoutMs` must be a whole number of milliseconds from 0 to 2,147,483,647.");
    }
    const manager = /** @type {any} */ (globalThis).navigator?.storage;
    if (typeof manager?.persist !== "function") return false;
    /** @type {Promise<boolean>} */
    let answer;
    try {
      answer = Promise.resolve(manager.persist()).then(Boolean, () => false);
    } catch {
      return false;
    }
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    /** @type {Promise<null>} */
    const noAnswer = new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    try {
      return await Promise.race([answer, noAnswer]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Finds what in a store cannot be trusted: a malformed file record, a memory whose content
   * is missing, a content whose bytes no longer match its `content_sha256`
   * (docs/TOOL.md#damaged-records). Reads the store a page at a time, each page its own
   * read-only transaction, so the core holds a few megabytes at most. Changes nothing.
   * @param {import("./index.js").StoreOption} [options]
   * @returns {Promise<import("./index.js").CheckResult>}
   */
  async check(options) {
    const { store } = methodOptions("check", options);
    return this.#checkPages("check", this.#mountOf("check", store));
  }

  /**
   * `check`, mending each page in its own transaction and keeping every text it can read: a
   * malformed record is removed, a memory whose content is missing is deleted as a version, a
   * content changed outside the package is kept as a new version with its own hash. Each
   * damaged item says what was done (`action`). Refused on read-only mounts.
   * @param {import("./index.js").StoreOption} [options]
   * @returns {Promise<import("./index.js").CheckResult>}
   */
  async repair(options) {
    const { store } = methodOptions("repair", options);
    return this.#checkPages("repair", this.#mountOf("repair", store));
  }

  /**
   * Runs `check` or `repair` page by page and gathers the pages' reports into one.
   * @param {"check" | "repair"} call
   * @param {number} mount
   * @returns {Promise<import("./index.js").CheckResult>}
   */
  async #checkPages(call, mount) {
    /** @type {import("./index.js").CheckResult} */
    const result = { type: "store_check", files: 0, repaired: call === "repair", damaged: [] };
    /** @type {string | null} */
    let after = null;
    do {
      // Repair's versions say `{ type: "repair" }`, so a history tells repair from a person.
      const page = await this.#host(call, after === null ? {} : { after }, mount, call === "repair" ? "repair" : "api");
      result.files += page.files;
      result.damaged.push(...page.damaged);
      after = page.next;
    } while (after !== null);
    return result;
  }

  /**
   * Exports a store as a bundle written while it is read (docs/TOOL.md#bundles): one
   * read-only transaction (a consistent snapshot), one entry in the core's memory at a time,
   * contents read in order through a window of requests; the same JSON as `export`, as a Blob
   * (for a store too big to hold as one object, a file download or an upload). With several
   * mounts, `store` says which.
   * @param {import("./index.js").ExportBlobOptions} [options]
   * @returns {Promise<Blob>}
   */
  async exportBlob(options) {
    this.#checkOpen();
    const { include_versions, store, onProgress } = methodOptions("exportBlob", options);
    if (include_versions !== undefined && typeof include_versions !== "boolean") {
      throw new MemoryToolError("INVALID_INPUT", "exportBlob: `include_versions` must be true or false.");
    }
    if (onProgress !== undefined && typeof onProgress !== "function") {
      throw new MemoryToolError("INVALID_INPUT", "exportBlob: `onProgress` must be a function.");
    }
    const handle = this.#handles[this.#mountOf("exportBlob", store)];
    // After the imports called before it (see `#queue`).
    if (this.#queue !== null) await this.#queue;
    return exportBlob(handle, { includeVersions: include_versions === true, onProgress });
  }

  /**
   * Exports a store as a bundle: every memory with its content (and, with
   * `include_versions`, the retained history), in the memory stores API's shapes. With
   * several mounts, `store` says which (default the first).
   * @param {import("./index.js").ExportOptions} [options]
   * @returns {Promise<Bundle>}
   */
  async export(options) {
    const { include_versions, store } = methodOptions("export", options);
    return /** @type {Promise<Bundle>} */ (
      this.#host("export", { include_versions }, this.#mountOf("export", store))
    );
  }

  /**
   * Imports a bundle (or its JSON text) in one transaction: all of it or nothing. Every hash
   * is checked first (`INVALID_BUNDLE`); `onConflict` says what to do with a memory whose
   * place is taken (`"fail"`, the default, throws `PATH_CONFLICT` and imports nothing).
   * `onProgress` hears `{ done, total }` storage writes: once with 0 before writing, then about
   * every 1%. With several mounts, `store` says which store receives it (default the first).
   * The bundle goes into the core a part at a time; the tool's calls made after this one wait
   * until its transaction is under way. Its lists are taken now, their items as the parts go.
   * @param {Bundle | string} bundle
   * @param {import("./index.js").ImportOptions} [options]
   * @returns {Promise<import("./index.js").ImportResult>}
   */
  async import(bundle, options) {
    const { onConflict, onProgress, store } = methodOptions("import", options);
    if (onProgress !== undefined && typeof onProgress !== "function") {
      throw new MemoryToolError("INVALID_INPUT", "import: `onProgress` must be a function.");
    }
    const mount = this.#mountOf("import", store);
    let value = bundle;
    if (typeof bundle === "string") {
      try {
        value = JSON.parse(bundle);
      } catch (error) {
        throw new MemoryToolError("INVALID_BUNDLE", `import: the bundle is not JSON (${messageOf(error)}).`);
      }
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new MemoryToolError("INVALID_BUNDLE", "import: the bundle must be an object.");
    }
    const progress = typeof onProgress === "function" ? throttled(onProgress) : undefined;
    // The lists as they are now: a memory added to them or taken from them after this call
    // changes nothing. (Their items are read as the parts go: change none until it settles.)
    const { memories, versions, toJSON } = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (value));
    if (Array.isArray(memories) && typeof toJSON !== "function") value = { ...value, memories: [...memories], ...(Array.isArray(versions) ? { versions: [...versions] } : {}) };
    const earlier = this.#queue;
    /** @type {() => void} */
    let started = () => {};
    const turn = new Promise((resolve) => (started = () => resolve(undefined)));
    this.#queue = turn;
    try {
      if (earlier !== null) await earlier;
      // Read into the core a part at a time, the page running between parts; a bundle of
      // another shape goes whole, and the core says what is wrong with it.
      const parts = await bundleParts(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (value)));
      // Closed meanwhile: the call below throws, and the parts are not handed to the core.
      if (this.#closed) parts?.free();
      const args = parts ? { on_conflict: onConflict ?? "fail" } : { on_conflict: onConflict ?? "fail", bundle: value };
      return /** @type {import("./index.js").ImportResult} */ (await this.#host("import", args, mount, "import", progress, parts ?? undefined, started));
    } finally {
      started();
      if (this.#queue === turn) this.#queue = null;
    }
  }

  /**
   * Calls `listener` with every change committed to the tool's stores (every mount) from now
   * on: by this tool, by other MemoryTools of the store in this context (`origin: "local"`),
   * and, for IndexedDB stores, by other tabs and workers of the origin (`origin: "remote"`).
   * One event per version written; `store` says which store. Returns the function that
   * unsubscribes; `close` unsubscribes too.
   * @param {ChangeListener} listener
   * @returns {() => void}
   */
  subscribe(listener) {
    this.#checkOpen();
    if (typeof listener !== "function") {
      throw new MemoryToolError("INVALID_INPUT", "subscribe(listener): `listener` must be a function.");
    }
    const stops = this.#mounts.map((mount) => mount.feed.subscribe(listener));
    const unsubscribe = () => {
      this.#unsubscribes.delete(unsubscribe);
      for (const stop of stops) stop();
    };
    this.#unsubscribes.add(unsubscribe);
    return unsubscribe;
  }

  /**
   * Closes the stores and ends this tool's subscriptions. Commands already running finish;
   * later tool calls answer with a `STORAGE_FAILED` error result, later host calls throw.
   */
  close() {
    if (this.#closed) return;
    // Uses still queued go now: their transactions start before the stores close.
    if (this.#used.size > 0) void this.#recordUse();
    this.#expiryPending = null;
    this.#closed = true;
    for (const unsubscribe of [...this.#unsubscribes]) unsubscribe();
    for (const mount of this.#mounts) mount.handle.close();
    this.#engine.free();
  }

  /**
   * The mount a host call's `store` option names (a mounted store's id or slug); the first
   * mount when it names none.
   * @param {string} call
   * @param {unknown} store
   * @returns {number}
   */
  #mountOf(call, store) {
    if (store === undefined) return 0;
    const index =
      typeof store === "string"
        ? this.#mounts.findIndex((m) => m.store === store || (m.slug !== "" && m.slug === store))
        : -1;
    if (index < 0) {
      const names = this.#mounts.map((m) => (m.slug ? `${m.store} (${m.slug})` : m.store)).join(", ");
      throw new MemoryToolError(
        "INVALID_INPUT",
        `${call}: \`store\` must name a store of this tool by id or slug: ${names}; not ${describeValue(store)}.`,
      );
    }
    return index;
  }

  /**
   * Runs a host call (`{"call": name, ...args}`) on mount `mount` and resolves with its
   * value; an error outcome throws a MemoryToolError with the core's code and details.
   * @param {string} call
   * @param {Record<string, unknown>} args
   * @param {number} mount
   * @param {"api" | "import" | "expiry" | "repair"} [by]
   * @param {(done: number, total: number) => void} [progress]
   * @param {import("../../pkg/memory_tool_wasm.js").BundleParts} [bundle] an import's bundle, read in parts
   * @param {() => void} [started] an import's: see `#perform`
   * @returns {Promise<any>}
   */
  async #host(call, args, mount, by = "api", progress, bundle = undefined, started = undefined) {
    this.#checkOpen();
    const who = actor(by, this.#recordedSession);
    const task = startHostCall(this.#engine, call, args, who, mount, false, bundle);
    let outcome;
    try {
      outcome = await this.#perform(task, progress, false, started);
    } catch (error) {
      // `memories.delete` refused for quota runs again in the compact form, which puts nothing
      // (docs/TOOL.md#delete-at-full-quota).
      if (!(call === "memories.delete" && isQuotaError(error))) throw error;
      outcome = await this.#perform(startHostCall(this.#engine, call, args, who, mount, true), undefined, true);
    }
    if (outcome.isError) throw hostError(outcome);
    return outcome.value;
  }

  /**
   * Runs a task on the store of its mount (or, for the view of `/memories` over several
   * mounts, on each mount it reads); once it committed, tells the store's listeners what
   * changed.
   * @param {Task} task
   * @param {(done: number, total: number) => void} [progress]
   * @param {boolean} [putNothing] a compact delete: its transaction puts no record
   *   (docs/TOOL.md#delete-at-full-quota)
   * @param {() => void} [started] an import's: called once its transaction is under way
   *   (the calls made after it wait till then; see `#queue`). Any other task first waits for
   *   the imports called before it.
   * @returns {Promise<Outcome>}
   */
  async #perform(task, progress, putNothing, started) {
    if (started === undefined && this.#queue !== null) await this.#queue;
    const mount = this.#mounts[task.mount()];
    const index = task.mount();
    /** @type {Outcome} */
    let outcome;
    try {
      const running = perform(this.#handles, task, { progress, beforeWrite: this.#beforeWrite, putNothing });
      started?.();
      outcome = await running;
    } catch (error) {
      if (mount && error instanceof MemoryToolError && error.code === "STORE_VANISHED" && !this.#vanished.has(index)) {
        // Said once per mount: the store held memories and its database is gone.
        this.#vanished.add(index);
        const files = /** @type {{ files?: unknown }} */ (error).files;
        mount.feed.publish([{ type: "vanished", store: mount.store, files: typeof files === "number" ? files : null }]);
      }
      throw error;
    }
    const writes = outcome.writes ?? [];
    if (mount && writes.length > 0) mount.feed.publish(eventsOf(mount.store, writes));
    if (mount && outcome.touched && outcome.touched.length > 0 && mount.access === "read_write") {
      this.#noteUse(index, outcome.touched);
    }
    this.#expiryPending?.();
    return outcome;
  }

  // Package-internal, for sync (src/js/host-call-as.js): `tool[HOST_CALL_AS](call, options, extra)`
  // runs host call `call`, its versions recording `created_by` as the host actor with `extra`'s
  // fields. Defined here to reach the private engine, on a Symbol so no public type shows it.
  static {
    /**
     * @this {MemoryTool}
     * @param {string} call
     * @param {Record<string, unknown>} options
     * @param {Record<string, unknown>} extra
     */
    async function hostCallAs(call, options, extra) {
      this.#checkOpen();
      const { store, ...args } = optionsArg(call, options, true);
      const mount = this.#mountOf(call, store);
      const who = actor("api", this.#recordedSession, extra);
      const outcome = await this.#perform(startHostCall(this.#engine, call, args, who, mount));
      if (outcome.isError) throw hostError(outcome);
      return outcome.value;
    }
    Object.defineProperty(MemoryTool.prototype, HOST_CALL_AS, { value: hostCallAs });
  }

  /**
   * Queues the use of memories at `keys` of mount `mount` (a view said their last use is a
   * day old or more); they are recorded together a moment later, or when the tool closes.
   * @param {number} mount
   * @param {string[]} keys
   */
  #noteUse(mount, keys) {
    let used = this.#used.get(mount);
    if (!used) this.#used.set(mount, (used = new Set()));
    for (const key of keys) used.add(key);
    if (this.#usedTimer === null) {
      this.#usedTimer = setTimeout(() => void this.#recordUse(), USE_DELAY_MS);
      /** @type {any} */ (this.#usedTimer).unref?.();
    }
  }

  /**
   * Records the queued uses: one write transaction per mount. Best effort: a failure drops
   * them. Resolves once they are recorded (or dropped).
   * @returns {Promise<void>}
   */
  async #recordUse() {
    if (this.#usedTimer !== null) clearTimeout(this.#usedTimer);
    this.#usedTimer = null;
    const used = [...this.#used];
    this.#used.clear();
    await Promise.all(
      used.map(([mount, keys]) =>
        this.#host("memories.touch", { paths: [...keys] }, mount).catch(() => {
          // Dropped: the next view a day later asks again.
        }),
      ),
    );
  }

  /**
   * Starts the background expiry of the mounts that have `expireAfterDays`: after the first
   * command (so it never delays it), or after EXPIRY_DELAY_MS if none comes. It acts on the
   * time this open's housekeeping trusted (docs/TOOL.md#a-clock-that-can-be-trusted), in two
   * steps: a dry run chooses what is due, and EXPIRY_CONFIRM_MS later only what nobody used
   * meanwhile (in this tab or another) is deleted. This tool's own queued uses are recorded
   * before each step, so nothing it used is ever due (docs/TOOL.md#last-use-and-expiry).
   */
  #scheduleExpiry() {
    const mounts = this.#expiry.flatMap((days, i) =>
      days !== undefined && this.#mounts[i]?.access === "read_write" ? [i] : [],
    );
    if (mounts.length === 0) return;
    const timer = setTimeout(() => this.#expiryPending?.(), EXPIRY_DELAY_MS);
    /** @type {any} */ (timer).unref?.();
    this.#expiryPending = () => {
      this.#expiryPending = null;
      clearTimeout(timer);
      if (this.#closed) return;
      for (const mount of mounts) {
        this.#expireInBackground(mount, /** @type {number} */ (this.#expiry[mount])).catch(() => {
          // An archived store, the policy, storage trouble, a closed tool: the next open
          // tries again.
        });
      }
    };
  }

  /**
   * The background expiry of one mount (see `#scheduleExpiry`).
   * @param {number} mount
   * @param {number} days
   */
  async #expireInBackground(mount, days) {
    await this.#recordUse();
    if (this.#closed) return;
    const chosen = await this.#host("memories.expire", { older_than_days: days, dry_run: true, on_open: true }, mount, "expiry");
    const due = /** @type {Array<{ id: string, last_accessed_at: string }>} */ (chosen.data);
    if (due.length === 0) return;
    await new Promise((resolve) => {
      const wait = setTimeout(resolve, EXPIRY_CONFIRM_MS);
      /** @type {any} */ (wait).unref?.();
    });
    if (this.#closed) return;
    await this.#recordUse();
    if (this.#closed) return;
    const only = due.map(({ id, last_accessed_at }) => ({ id, last_accessed_at }));
    await this.#host("memories.expire", { older_than_days: days, on_open: true, only }, mount, "expiry");
  }

  #checkOpen() {
    if (this.#closed) throw new MemoryToolError("STORAGE_FAILED", "This MemoryTool has been closed.");
  }
}

/**
 * Whether `error` is the browser's refusal for quota.
 * @param {unknown} error
 */
function isQuotaError(error) {
  return error instanceof MemoryToolError && error.code === "QUOTA_EXCEEDED";
}

/**
 * Whether a tool input is a `delete` command (its retry at full quota).
 * @param {unknown} input
 */
function isDeleteInput(input) {
  return typeof input === "object" && input !== null && /** @type {{ command?: unknown }} */ (input).command === "delete";
}
