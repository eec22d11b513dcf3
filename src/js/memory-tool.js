// MemoryTool: the package's surface, and the driver that runs one core task inside one
// storage transaction. No command logic lives here: texts and rules come from the core.

import { MemoryToolError, isStorageError, modelTextFor, toStorageError } from "./errors.js";
import { changeFeed, eventsOf } from "./events.js";
import { IndexedDbStorage } from "./storage-indexeddb.js";
import { InMemoryStorage } from "./storage-memory.js";
import { loadEngine } from "./wasm.js";
// Free functions of the core; callable once `loadEngine()` has instantiated the module.
import { planMounts, systemPrompt as systemPromptText } from "../../pkg/memory_tool_wasm.js";

/** @typedef {import("./index.js").MemoryToolOptions} MemoryToolOptions */
/** @typedef {import("./index.js").MemoryStorage} MemoryStorage */
/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").ExecuteResult} ExecuteResult */
/** @typedef {import("./index.js").ToolResultBlock} ToolResultBlock */
/** @typedef {import("./index.js").ToolResultContent} ToolResultContent */
/** @typedef {import("./index.js").MemoryToolErrorCode} MemoryToolErrorCode */
/** @typedef {import("./index.js").MemoryAccess} MemoryAccess */
/** @typedef {import("./index.js").Memory} Memory */
/** @typedef {import("./index.js").MemoryVersion} MemoryVersion */
/** @typedef {import("./index.js").MemoryList} MemoryList */
/** @typedef {import("./index.js").Bundle} Bundle */
/** @typedef {import("./index.js").ChangeListener} ChangeListener */
/** @typedef {import("./index.js").MountInfo} MountInfo */
/** @typedef {import("./index.js").MemoryStore} MemoryStore */
/** @typedef {import("./index.js").BeforeWrite} BeforeWrite */
/** @typedef {import("./events.js").ChangeFeed} ChangeFeed */
/** @typedef {import("../../pkg/memory_tool_wasm.js").Engine} Engine */
/** @typedef {import("../../pkg/memory_tool_wasm.js").Task} Task */

/**
 * What the core decided, read by `outcomeOf` (docs/ARCHITECTURE.md).
 * @typedef {object} Outcome
 * @property {ToolResultContent} content
 * @property {boolean} isError
 * @property {MemoryToolErrorCode} [code]
 * @property {Write[]} writes
 * @property {unknown} [value]
 */
/**
 * @typedef {{ op: "putFile", record: import("./index.js").FileRecord }
 *   | { op: "deleteFile", path: string }
 *   | { op: "putContent", id: string, bytes: number }
 *   | { op: "deleteContent", id: string }
 *   | { op: "putVersion", record: import("./index.js").VersionRecord }
 *   | { op: "deleteVersion", id: string }} Write
 */
/**
 * One mounted store of a MemoryTool: what `mounts` shows, plus its open handle and change feed.
 * @typedef {MountInfo & { handle: StoreHandle, feed: ChangeFeed }} Mounted
 */

/** Guards the constructor: a MemoryTool comes from `MemoryTool.open`. */
const OPENING = Symbol("MemoryTool.open");

const OPTION_NAMES = [
  "store",
  "storage",
  "access",
  "mounts",
  "limits",
  "maxViewChars",
  "createOverwrites",
  "retentionDays",
  "secretFilter",
  "beforeWrite",
];
const MOUNT_OPTION_NAMES = ["store", "access", "instructions"];
const LIMIT_NAMES = ["maxFileBytes", "maxFiles"];
const DAY_MS = 24 * 60 * 60 * 1000;
/** Half a surrogate pair: a string that is not well-formed UTF-16. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The store that holds the registry of named stores (`MemoryStores`): one record per store.
 * Store names starting with `__` are kept for the package's own stores.
 */
export const REGISTRY_STORE = "__stores__";
const RESERVED_PREFIX = "__";

/**
 * Who a change is by, recorded in its version's `created_by` (docs/ARCHITECTURE.md).
 * @param {string} type "tool", "api" or "import"
 * @param {string | null} session the tool's `session_id`, or null to leave it out
 * @param {Record<string, unknown>} [extra]
 */
function actor(type, session, extra) {
  return JSON.stringify({ type, ...extra, ...(session === null ? {} : { session_id: session }) });
}
const API_ACTOR = actor("api", null);

/**
 * Claude's memory tool (`memory_20250818`) over one store, or over several mounted stores
 * (`/memories/<slug>/` each). Tool calls (`run`, `runAll`, `execute`) never throw for the
 * model's mistakes; host calls (`writeFile`, `memories.list`) throw `MemoryToolError`s with a
 * stable `code`.
 */
export class MemoryTool {
  /** @type {Engine} */
  #engine;
  /** The mounted stores, in mount order (one for a single store). @type {Mounted[]} */
  #mounts;
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
   * The host's memory API (SPEC §5, the memory stores API's shapes). Paths are store paths
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
    this.#session = newSessionId();
    // Versions say which session wrote them when the tool mounts named stores (issue 4); a
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
      const { store, ...args } = optionsArg(call, options, required);
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
    const EngineClass = await loadEngine();
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
      throw invalidOptions(`${messageOf(error)}.`);
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
    // Retention: versions past the retention period go on open, in every store the tool may
    // write. Pruning is housekeeping, so open does not wait for it: its transaction is created
    // here, before open resolves, so every later command of this tool runs after it (IndexedDB
    // runs overlapping transactions in the order they were created). If it fails (storage
    // trouble), the next open tries again.
    for (const [index, mount] of mounts.entries()) {
      if (mount.access !== "read_write") continue;
      tool.#host("versions.prune", {}, index).catch(() => {
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
    this.#checkOpen();
    const by = actor("tool", this.#recordedSession, { tool_use_id: toolUseId });
    const json = inputJson(input);
    const task =
      json.length > BIG_TEXT
        ? this.#engine.startUtf8(utf8.encode(json), Date.now(), entropy(), by)
        : this.#engine.start(json, Date.now(), entropy(), by);
    let outcome;
    try {
      outcome = await this.#perform(task);
    } catch (error) {
      if (isStorageError(error)) {
        const code = /** @type {MemoryToolErrorCode} */ (error.code);
        return { content: modelTextFor(error), isError: true, code };
      }
      throw error;
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
   * Runs every memory `tool_use` block of an assistant message (or of an array of content
   * blocks), one after the other, and returns their `tool_result` blocks in the same order.
   * Other blocks (text, other tools) are skipped.
   * @param {import("./index.js").AssistantMessage | ReadonlyArray<import("./index.js").ContentBlockLike>} message
   * @returns {Promise<ToolResultBlock[]>}
   */
  async runAll(message) {
    const blocks = Array.isArray(message) ? message : contentOf(message);
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
    if (typeof path !== "string") {
      throw new MemoryToolError("INVALID_INPUT", "writeFile(path, content): `path` must be a string.");
    }
    const bytes = toBytes(content);
    if (LONE_SURROGATE.test(path)) {
      // A string crosses into wasm as UTF-8, which turns half a surrogate pair into U+FFFD, a
      // legal name. JSON keeps the escape, so the core sees the path as sent and refuses it
      // with its own text (the path check comes before anything else a write does).
      const check = this.#engine.start(inputJson({ command: "create", path, file_text: "" }), 0, entropy(), API_ACTOR);
      try {
        const refused = check.done() ? outcomeOf(check) : undefined;
        if (refused?.isError) throw hostError(refused);
      } finally {
        check.free();
      }
    }
    const by = actor("api", this.#recordedSession);
    const outcome = await this.#perform(this.#engine.startWrite(path, bytes, Date.now(), entropy(), by));
    if (outcome.isError) throw hostError(outcome);
  }

  /**
   * Exports a store as a bundle: every memory with its content (and, with
   * `include_versions`, the retained history), in the memory stores API's shapes. With
   * several mounts, `store` says which (default the first).
   * @param {import("./index.js").ExportOptions} [options]
   * @returns {Promise<Bundle>}
   */
  async export(options) {
    const { include_versions, store } = optionsArg("export", options);
    return /** @type {Promise<Bundle>} */ (
      this.#host("export", { include_versions: include_versions === true }, this.#mountOf("export", store))
    );
  }

  /**
   * Imports a bundle in one transaction: all of it or nothing. Every hash is checked first
   * (`INVALID_BUNDLE`); `onConflict` says what to do with a memory whose place is taken
   * (`"fail"`, the default, throws `PATH_CONFLICT` and imports nothing). `onProgress` hears
   * `{ done, total }` storage writes: once with 0 before writing, then about every 1%. With
   * several mounts, `store` says which store receives it (default the first).
   * @param {Bundle} bundle
   * @param {import("./index.js").ImportOptions} [options]
   * @returns {Promise<import("./index.js").ImportResult>}
   */
  async import(bundle, options) {
    const { onConflict, onProgress, store, ...rest } = optionsArg("import", options);
    const unknown = Object.keys(rest);
    if (unknown.length > 0) {
      throw new MemoryToolError(
        "INVALID_INPUT",
        `import: unknown option \`${unknown[0]}\`; the options are onConflict, onProgress and store.`,
      );
    }
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
    return /** @type {Promise<import("./index.js").ImportResult>} */ (
      this.#host("import", { on_conflict: onConflict ?? "fail", bundle: value }, mount, "import", progress)
    );
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
   * later calls throw.
   */
  close() {
    if (this.#closed) return;
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
   * @param {"api" | "import"} [by]
   * @param {(done: number, total: number) => void} [progress]
   * @returns {Promise<any>}
   */
  async #host(call, args, mount, by = "api", progress) {
    this.#checkOpen();
    let json;
    try {
      json = JSON.stringify({ ...args, call });
    } catch (error) {
      throw new MemoryToolError("INVALID_INPUT", `${call}: the arguments have no JSON form (${messageOf(error)}).`);
    }
    const who = actor(by, this.#recordedSession);
    const task =
      json.length > BIG_TEXT
        ? this.#engine.startHostUtf8(utf8.encode(json), Date.now(), entropy(), who, mount)
        : this.#engine.startHost(json, Date.now(), entropy(), who, mount);
    const outcome = await this.#perform(task, progress);
    if (outcome.isError) throw hostError(outcome);
    return outcome.value;
  }

  /**
   * Runs a task on the store of its mount (or, for the view of `/memories` over several
   * mounts, on each mount it reads); once it committed, tells the store's listeners what
   * changed.
   * @param {Task} task
   * @param {(done: number, total: number) => void} [progress]
   * @returns {Promise<Outcome>}
   */
  async #perform(task, progress) {
    const index = task.mount();
    if (index < 0) {
      return performAcross(
        this.#mounts.map((mount) => mount.handle),
        task,
        this.#beforeWrite,
      );
    }
    const mount = this.#mounts[index];
    if (!mount) {
      task.free();
      throw new Error(`memory-tool-wasm: the core sent a command to mount ${index}, which does not exist`);
    }
    const outcome = await perform(mount.handle, task, progress, this.#beforeWrite);
    const writes = outcome.writes ?? [];
    if (writes.length > 0) mount.feed.publish(eventsOf(mount.store, writes));
    return outcome;
  }

  #checkOpen() {
    if (this.#closed) throw new MemoryToolError("STORAGE_FAILED", "This MemoryTool has been closed.");
  }
}

/**
 * Reads each mount's store record from the registry and has the core check the mounts
 * against them (count, access, instructions, archived stores, slugs).
 * @param {MemoryStorage} storage
 * @param {Array<{ store: string, access?: MemoryAccess, instructions?: unknown }>} mounts
 * @param {Record<string, unknown>} config the defaults every mount starts from
 * @returns {Promise<{ engine: unknown, mounts: MountInfo[] }>}
 */
async function planOf(storage, mounts, config) {
  // The count first, so TOO_MANY_MOUNTS does not wait for (or depend on) the records: the
  // core checks it before it looks at any store.
  const count = planned(planMounts(JSON.stringify({ mounts: mounts.map(() => ({})) })));
  if (count.error && (count.error.code === "TOO_MANY_MOUNTS" || mounts.length === 0)) {
    throw new MemoryToolError(count.error.code, count.error.message);
  }
  const registry = await openRegistry(storage);
  /** @type {MemoryStore[]} */
  const records = [];
  try {
    for (const mount of mounts) records.push(await registry.call("stores.get", { id: mount.store }));
  } finally {
    registry.close();
  }
  const request = {
    mounts: mounts.map((mount, i) => ({
      store: records[i],
      access: mount.access,
      instructions: mount.instructions,
    })),
    config,
  };
  const plan = planned(planMounts(JSON.stringify(request)));
  if (plan.error) throw new MemoryToolError(plan.error.code, plan.error.message);
  const ok = /** @type {{ engine: unknown, prompt: Array<Record<string, string>> }} */ (plan.ok);
  return {
    engine: ok.engine,
    mounts: ok.prompt.map((info, i) => ({
      store: info.id,
      name: info.name,
      slug: info.slug,
      path: info.path,
      access: /** @type {MemoryAccess} */ (info.access),
      description: info.description,
      instructions: info.instructions,
      archived: records[i].archived_at != null,
    })),
  };
}

/**
 * `planMounts`' answer, parsed.
 * @param {string} text
 * @returns {{ ok?: unknown, error?: { code: string, message: string } }}
 */
function planned(text) {
  return JSON.parse(text);
}

/**
 * Opens a store of `storage` and checks that what came back is a store handle.
 * @param {MemoryStorage} storage
 * @param {string} store
 * @returns {Promise<StoreHandle>}
 */
async function openHandle(storage, store) {
  let handle;
  try {
    handle = await storage.open(store);
  } catch (error) {
    throw toStorageError(error);
  }
  if (!handle || typeof handle.transaction !== "function" || typeof handle.close !== "function") {
    throw new MemoryToolError(
      "INVALID_OPTIONS",
      "`storage.open(store)` must resolve to an object with `transaction` and `close` methods.",
    );
  }
  return handle;
}

/**
 * The store registry of `storage` (the `__stores__` store), for `MemoryStores` and for
 * `MemoryTool.open({ mounts })`: its `call` runs one of the core's `stores.*` host calls (or
 * any other) as the host API, and resolves with the call's value.
 * @param {MemoryStorage} storage
 * @returns {Promise<{ call: (name: string, args: Record<string, unknown>) => Promise<any>, close: () => void }>}
 */
export async function openRegistry(storage) {
  const EngineClass = await loadEngine();
  const engine = new EngineClass("{}");
  let handle;
  try {
    handle = await openHandle(storage, REGISTRY_STORE);
  } catch (error) {
    engine.free();
    throw error;
  }
  let closed = false;
  return {
    async call(name, args) {
      if (closed) throw new MemoryToolError("STORAGE_FAILED", "The store registry has been closed.");
      let json;
      try {
        json = JSON.stringify({ ...args, call: name });
      } catch (error) {
        throw new MemoryToolError("INVALID_INPUT", `${name}: the arguments have no JSON form (${messageOf(error)}).`);
      }
      const outcome = await perform(handle, engine.startHost(json, Date.now(), entropy(), API_ACTOR, 0));
      if (outcome.isError) throw hostError(outcome);
      return outcome.value;
    },
    close() {
      if (closed) return;
      closed = true;
      handle.close();
      engine.free();
    },
  };
}

/**
 * Calls into the core for one task, remembering its first failure: that error is the one to
 * report, rather than the transaction abort it causes.
 */
class CoreCalls {
  /** @type {{ error: unknown } | null} */
  failure = null;

  /**
   * @template T
   * @param {() => T} call
   * @returns {T}
   */
  run = (call) => {
    try {
      return call();
    } catch (error) {
      this.failure ??= { error };
      throw error;
    }
  };

  /**
   * Gives the core a storage answer. A trap is a bug of the core; anything else means the
   * answer was unusable (a record of the wrong shape: corrupt or foreign data).
   * @param {() => void} supply
   */
  supply(supply) {
    try {
      supply();
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        this.failure ??= { error };
        throw error;
      }
      throw new MemoryToolError(
        "STORAGE_FAILED",
        `The storage answered a read with data the core cannot use (${messageOf(error)}).`,
        { cause: error },
      );
    }
  }
}

/**
 * Texts longer than this go into wasm as UTF-8 made by TextEncoder: wasm-bindgen copies a
 * string with a JS loop per character (~2 µs per KB), TextEncoder in native code.
 */
const BIG_TEXT = 2048;
const utf8 = new TextEncoder();

/**
 * Answers read `index` with `text` (JSON, or a listing).
 * @param {Task} task
 * @param {number} index
 * @param {string} text
 */
function supplyText(task, index, text) {
  if (text.length > BIG_TEXT) task.supplyUtf8(index, utf8.encode(text));
  else task.supply(index, text);
}

/**
 * The outcome of a finished task. A text result crosses on its own (`task.text()`), not
 * inside the JSON: no escaping in the core, no JSON.parse of it here.
 * @param {Task} task
 * @returns {Outcome}
 */
function outcomeOf(task) {
  const outcome = /** @type {Outcome} */ (JSON.parse(task.outcomeWithoutText()));
  if (outcome.content === null) outcome.content = task.text();
  return outcome;
}

/**
 * Runs one core task inside one storage transaction and resolves with its outcome once the
 * transaction has committed. Storage failures reject with a storage MemoryToolError; errors
 * of the core itself (bugs) reject as they were thrown. Always frees the task.
 * @param {StoreHandle} handle
 * @param {Task} task
 * @param {(done: number, total: number) => void} [progress] hears how many of the outcome's
 *   writes storage has carried out: (0, total) before the first, then as they complete
 * @param {BeforeWrite} [beforeWrite] the host's write policy, asked about `policy` reads
 * @returns {Promise<Outcome>}
 */
async function perform(handle, task, progress, beforeWrite) {
  /** @type {Outcome | undefined} */
  let outcome;
  /** The core's first failure wins over the abort it causes. */
  const calls = new CoreCalls();
  const core = calls.run;
  /** Set once the transaction settled: a late callback from a faulty storage is ignored. */
  let settled = false;
  /** Whether `task.prepare()` is still to be called (once, for a task that may write). */
  let prepare = false;

  /** @param {StorageTx} tx */
  const body = (tx) => {
    const round = () => {
      const reads = core(() => JSON.parse(task.reads()));
      let pending = reads.length;
      if (pending === 0) {
        next();
        return;
      }
      /** @type {boolean[]} */
      const answered = [];
      /**
       * @param {number} index
       * @param {() => void} supply
       */
      const answer = (index, supply) => {
        if (settled) return;
        if (answered[index]) {
          throw new MemoryToolError("STORAGE_FAILED", "The storage answered one read twice.");
        }
        answered[index] = true;
        calls.supply(supply);
        // A synchronous storage answers inside the loop below; `pending` was set first.
        if (--pending === 0) next();
      };
      reads.forEach((/** @type {any} */ read, /** @type {number} */ index) => {
        issueRead(tx, read, index, task, answer, core, beforeWrite);
      });
      // While storage answers the first round of a write: the core's work that needs no read.
      if (prepare && pending > 0) core(() => task.prepare());
      prepare = false;
    };
    const next = () => {
      if (core(() => task.resume())) finish();
      else round();
    };
    const finish = () => {
      outcome = core(() => outcomeOf(task));
      const writes = outcome.writes ?? [];
      // Take every byte array from the core before the first request, so a failure of the
      // core cannot leave the transaction half written.
      const bytes = writes.map((write) =>
        write.op === "putContent" ? core(() => task.writeBytes(write.bytes)) : undefined,
      );
      tx.beginWrites?.();
      if (!progress || outcome.isError) {
        writes.forEach((write, i) => issueWrite(tx, write, /** @type {Uint8Array} */ (bytes[i]), core));
        tx.endWrites?.();
        return;
      }
      // A transaction carries out its requests in order, so a cheap read issued after a batch
      // of writes answers once that batch is done: progress without asking storage for more
      // than the interface has.
      const total = writes.length;
      const step = Math.max(1, Math.floor(total / 100));
      notify(progress, 0, total);
      writes.forEach((write, i) => {
        issueWrite(tx, write, /** @type {Uint8Array} */ (bytes[i]), core);
        const done = i + 1;
        if (done % step === 0 || done === total) {
          tx.getFile("", () => {
            if (!settled) notify(progress, done, total);
          });
        }
      });
      tx.endWrites?.();
    };
    round();
  };

  try {
    // Refused by the input or path checks: the outcome is known without touching storage.
    if (task.done()) return outcomeOf(task);
    const mode = core(() => /** @type {"readonly" | "readwrite"} */ (task.mode()));
    prepare = mode === "readwrite";
    await handle.transaction(mode, body);
    if (outcome === undefined) {
      throw new MemoryToolError(
        "STORAGE_FAILED",
        "The storage finished the transaction before answering every read.",
      );
    }
    return outcome;
  } catch (error) {
    if (calls.failure) throw calls.failure.error;
    throw toStorageError(error);
  } finally {
    settled = true;
    task.free();
  }
}

/**
 * Runs a task that reads several mounts (the view of `/memories` over several stores): each
 * round's reads name their `mount`, and are answered in one readonly transaction per mount
 * involved. Such a task never writes. Errors as `perform`; always frees the task.
 * @param {StoreHandle[]} handles the mounts' handles, in mount order
 * @param {Task} task
 * @param {BeforeWrite} [beforeWrite]
 * @returns {Promise<Outcome>}
 */
async function performAcross(handles, task, beforeWrite) {
  /** The core's first failure wins over storage's. */
  const calls = new CoreCalls();
  const core = calls.run;
  try {
    let ready = task.done();
    while (!ready) {
      const reads = core(() => JSON.parse(task.reads()));
      /** @type {Map<number, number[]>} read indexes by mount */
      const byMount = new Map();
      reads.forEach((/** @type {{ mount?: unknown }} */ read, /** @type {number} */ index) => {
        const mount = read.mount;
        if (typeof mount !== "number" || !handles[mount]) {
          core(() => {
            throw new Error(`memory-tool-wasm: a read across mounts names no mount: ${JSON.stringify(read)}`);
          });
        }
        const list = byMount.get(/** @type {number} */ (mount)) ?? [];
        list.push(index);
        byMount.set(/** @type {number} */ (mount), list);
      });
      /** @type {boolean[]} */
      const answered = [];
      /**
       * @param {number} index
       * @param {() => void} supply
       */
      const answer = (index, supply) => {
        if (answered[index]) throw new MemoryToolError("STORAGE_FAILED", "The storage answered one read twice.");
        answered[index] = true;
        calls.supply(supply);
      };
      await Promise.all(
        [...byMount].map(([mount, indexes]) =>
          handles[mount].transaction("readonly", (tx) => {
            for (const index of indexes) issueRead(tx, reads[index], index, task, answer, core, beforeWrite);
          }),
        ),
      );
      if (reads.some((/** @type {unknown} */ _, /** @type {number} */ i) => !answered[i])) {
        throw new MemoryToolError("STORAGE_FAILED", "The storage finished the transaction before answering every read.");
      }
      ready = core(() => task.resume());
    }
    const outcome = core(() => outcomeOf(task));
    if ((outcome.writes ?? []).length > 0) {
      core(() => {
        throw new Error("memory-tool-wasm: a command that reads every mount asked to write");
      });
    }
    return outcome;
  } catch (error) {
    if (calls.failure) throw calls.failure.error;
    throw toStorageError(error);
  } finally {
    task.free();
  }
}

/**
 * Issues one read of the core's round on `tx`; its answer goes back through `answer`.
 * @param {StorageTx} tx
 * @param {{ kind: string, path?: string, id?: string, memoryId?: string, below?: string, limit?: number, source?: string }} read
 * @param {number} index
 * @param {Task} task
 * @param {(index: number, supply: () => void) => void} answer
 * @param {<T>(call: () => T) => T} core
 * @param {BeforeWrite} [beforeWrite]
 */
function issueRead(tx, read, index, task, answer, core, beforeWrite) {
  /** @param {unknown} value */
  const json = (value) => answer(index, () => supplyText(task, index, JSON.stringify(value)));
  const path = /** @type {string} */ (read.path);
  const id = /** @type {string} */ (read.id);
  switch (read.kind) {
    case "file":
      tx.getFile(path, (record) => json(record ?? null));
      return;
    case "subtree":
      tx.getSubtree(path, (records) => json(records));
      return;
    case "listing": {
      // Not JSON: the entries joined with "\n" (a path holds no control character).
      /** @param {string[]} entries */
      const listing = (entries) => answer(index, () => supplyText(task, index, entries.join("\n")));
      if (typeof tx.getListing === "function") tx.getListing(path, listing);
      else tx.getSubtree(path, (records) => listing(records.map((r) => `${r.path}\u0000${r.size}`)));
      return;
    }
    case "hasChildren":
      tx.hasChildren(path, (yes) => json(Boolean(yes)));
      return;
    case "count":
      tx.countFiles((n) => json(n));
      return;
    case "content":
      tx.getContent(id, (bytes) => answer(index, () => task.supplyBytes(index, bytes ?? undefined)));
      return;
    case "fileById":
      tx.getFileById(id, (record) => json(record ?? null));
      return;
    case "version":
      tx.getVersion(id, (record) => json(record ?? null));
      return;
    case "versionsDesc":
      tx.getVersionsDesc(read.memoryId ?? null, read.below ?? null, /** @type {number} */ (read.limit), (records) =>
        json(records),
      );
      return;
    case "versionsBelow":
      tx.getVersionsBelow(id, (records) => json(records));
      return;
    case "versionsWithContent":
      tx.getVersionIdsWithContent(id, (ids) => json(ids));
      return;
    case "newestVersionId":
      tx.getNewestVersionId((newest) => json(newest ?? null));
      return;
    case "versionIds":
      tx.getVersionIds((ids) => json(ids));
      return;
    case "policy": {
      // Asked here, inside the transaction, and answered at once: the hook decides
      // synchronously, so the transaction never waits on anything but its own requests.
      if (!beforeWrite) {
        core(() => {
          throw new Error("memory-tool-wasm: the core asked for a write policy that was not set");
        });
        return;
      }
      const policy = beforeWrite;
      answer(index, () => {
        const bytes = core(() => task.readBytes(index));
        const source = /** @type {import("./index.js").WriteSource} */ (String(read.source));
        const decision = decide(policy, { path, content: textOrBytes(bytes), source });
        if (decision.rewrite) task.supplyBytes(index, decision.rewrite);
        else task.supply(index, JSON.stringify(decision.answer));
      });
      return;
    }
    default:
      core(() => {
        throw new Error(`memory-tool-wasm: the core asked for an unknown read: ${JSON.stringify(read)}`);
      });
  }
}

/**
 * Issues one write of the core's outcome on `tx`.
 * @param {StorageTx} tx
 * @param {Write} write
 * @param {Uint8Array} bytes the bytes of a `putContent` write
 * @param {<T>(call: () => T) => T} core
 */
function issueWrite(tx, write, bytes, core) {
  switch (write.op) {
    case "putFile":
      tx.putFile(write.record);
      return;
    case "deleteFile":
      tx.deleteFile(write.path);
      return;
    case "putContent":
      tx.putContent(write.id, bytes);
      return;
    case "deleteContent":
      tx.deleteContent(write.id);
      return;
    case "putVersion":
      tx.putVersion(write.record);
      return;
    case "deleteVersion":
      tx.deleteVersion(write.id);
      return;
    default:
      core(() => {
        throw new Error(`memory-tool-wasm: the core asked for an unknown write: ${JSON.stringify(write)}`);
      });
  }
}

/**
 * The write policy's decision on one write, as the core takes it: `answer` (allow or refuse,
 * as JSON) or `rewrite` (the bytes to store instead). Whatever the hook does, a decision comes
 * back: a throw or a promise refuses the write, with a reason that says why.
 * @param {BeforeWrite} beforeWrite
 * @param {import("./index.js").PendingWrite} write
 * @returns {{ answer: { decision: "allow" } | { decision: "refuse", reason?: string }, rewrite?: undefined }
 *   | { rewrite: Uint8Array, answer?: undefined }}
 */
function decide(beforeWrite, write) {
  /** @param {string} [reason] */
  const refuse = (reason) => ({
    answer: reason === undefined ? { decision: /** @type {const} */ ("refuse") } : { decision: /** @type {const} */ ("refuse"), reason },
  });
  let result;
  try {
    result = beforeWrite(Object.freeze(write));
  } catch (error) {
    return refuse(`the write policy failed: ${messageOf(error)}`);
  }
  if (result === undefined || result === true || result === "allow") {
    return { answer: { decision: /** @type {const} */ ("allow") } };
  }
  if (isThenable(result)) {
    // Its outcome cannot matter any more; keep a rejection from going unhandled.
    Promise.resolve(result).catch(() => {});
    return refuse("beforeWrite must decide synchronously");
  }
  // No reason: the core says "the host's write policy refused it".
  if (result === false) return refuse();
  if (typeof result === "string") return { rewrite: new TextEncoder().encode(result) };
  if (result instanceof Uint8Array) return { rewrite: result };
  if (result instanceof ArrayBuffer) return { rewrite: new Uint8Array(result) };
  if (ArrayBuffer.isView(result)) {
    return { rewrite: new Uint8Array(result.buffer, result.byteOffset, result.byteLength) };
  }
  if (isPlainObject(result) && "refuse" in /** @type {object} */ (result)) {
    const reason = /** @type {{ refuse: unknown }} */ (result).refuse;
    return refuse(typeof reason === "string" && reason.trim() !== "" ? reason : undefined);
  }
  return refuse(`beforeWrite returned ${describeValue(result)}, which is not a decision`);
}

/**
 * The content of a write as the policy sees it: text when the bytes are UTF-8, else the bytes.
 * @param {Uint8Array} bytes
 * @returns {string | Uint8Array}
 */
function textOrBytes(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return bytes;
  }
}

/** @param {unknown} value */
function isThenable(value) {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (/** @type {{ then?: unknown }} */ (value).then) === "function"
  );
}

/**
 * A short description of a value for messages.
 * @param {unknown} value
 */
function describeValue(value) {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return Array.isArray(value) ? "an array" : "an object";
  return `${typeof value} ${String(value)}`;
}

/**
 * Checks `MemoryTool.open`'s options; throws `INVALID_OPTIONS` with what is wrong.
 * @param {unknown} options
 * @returns {{ storage: MemoryStorage, engineConfig: Record<string, number | boolean>,
 *   beforeWrite: BeforeWrite | undefined, store: string, access: MemoryAccess,
 *   mounts: Array<{ store: string, access?: MemoryAccess, instructions?: unknown }> | null }}
 */
function readOptions(options) {
  if (options === undefined) options = {};
  if (!isPlainObject(options)) throw invalidOptions("The options must be an object.");
  const given = /** @type {Record<string, unknown>} */ (options);
  for (const name of Object.keys(given)) {
    if (!OPTION_NAMES.includes(name)) {
      throw invalidOptions(`Unknown option \`${name}\`; the options are ${OPTION_NAMES.join(", ")}.`);
    }
  }

  const mounts = given.mounts === undefined ? null : readMounts(given.mounts);
  if (mounts && given.store !== undefined) {
    throw invalidOptions("`store` and `mounts` cannot both be given: mount the store instead.");
  }
  if (mounts && given.access !== undefined) {
    throw invalidOptions("With `mounts`, access is per mount: give each mount its own `access`.");
  }

  const store = given.store ?? "memories";
  if (typeof store !== "string" || store === "") {
    throw invalidOptions("`store` must be a non-empty string.");
  }
  if (store.startsWith(RESERVED_PREFIX)) {
    throw invalidOptions(
      `\`store\` names starting with "${RESERVED_PREFIX}" are reserved (the store registry is "${REGISTRY_STORE}").`,
    );
  }

  const access = /** @type {MemoryAccess} */ (given.access ?? "read_write");
  if (access !== "read_write" && access !== "read_only") {
    throw invalidOptions('`access` must be "read_write" or "read_only".');
  }

  /** @type {Record<string, number | boolean>} */
  const engineConfig = {};
  const limits = given.limits ?? {};
  if (!isPlainObject(limits)) throw invalidOptions("`limits` must be an object.");
  for (const [name, value] of Object.entries(/** @type {object} */ (limits))) {
    if (!LIMIT_NAMES.includes(name)) {
      throw invalidOptions(`Unknown limit \`${name}\`; the limits are ${LIMIT_NAMES.join(", ")}.`);
    }
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || /** @type {number} */ (value) < 0) {
      throw invalidOptions(`\`limits.${name}\` must be a whole number, 0 or more.`);
    }
    engineConfig[name] = /** @type {number} */ (value);
  }
  if (given.maxViewChars !== undefined) {
    // Its minimum is the core's to say (the Engine refuses values too small to show a line).
    if (!Number.isSafeInteger(given.maxViewChars)) {
      throw invalidOptions("`maxViewChars` must be a whole number.");
    }
    engineConfig.maxViewChars = /** @type {number} */ (given.maxViewChars);
  }
  if (given.createOverwrites !== undefined) {
    if (typeof given.createOverwrites !== "boolean") {
      throw invalidOptions("`createOverwrites` must be a boolean.");
    }
    engineConfig.createOverwrites = given.createOverwrites;
  }
  if (given.retentionDays !== undefined) {
    const days = given.retentionDays;
    const ms = typeof days === "number" ? Math.round(days * DAY_MS) : NaN;
    if (!(typeof days === "number" && days >= 0 && Number.isSafeInteger(ms))) {
      throw invalidOptions("`retentionDays` must be a number of days, 0 or more.");
    }
    engineConfig.retentionMs = ms;
  }
  if (given.secretFilter !== undefined) {
    if (typeof given.secretFilter !== "boolean") {
      throw invalidOptions("`secretFilter` must be a boolean.");
    }
    engineConfig.secretFilter = given.secretFilter;
  }
  /** @type {BeforeWrite | undefined} */
  let beforeWrite;
  if (given.beforeWrite !== undefined) {
    if (typeof given.beforeWrite !== "function") {
      throw invalidOptions("`beforeWrite` must be a function ({ path, content, source }) => decision.");
    }
    beforeWrite = /** @type {BeforeWrite} */ (given.beforeWrite);
    engineConfig.writeHook = true;
  }

  return {
    storage: chooseStorage(given.storage, "MemoryTool.open"),
    engineConfig,
    beforeWrite,
    store,
    access,
    mounts,
  };
}

/**
 * Checks the `mounts` option's shape (the core checks the rest against the stores' records).
 * @param {unknown} mounts
 * @returns {Array<{ store: string, access?: MemoryAccess, instructions?: unknown }>}
 */
function readMounts(mounts) {
  if (!Array.isArray(mounts)) {
    throw invalidOptions("`mounts` must be an array of { store, access, instructions }.");
  }
  return mounts.map((mount, i) => {
    if (!isPlainObject(mount)) throw invalidOptions(`\`mounts[${i}]\` must be an object { store, access, instructions }.`);
    for (const name of Object.keys(mount)) {
      if (!MOUNT_OPTION_NAMES.includes(name)) {
        throw invalidOptions(
          `Unknown option \`mounts[${i}].${name}\`; a mount has ${MOUNT_OPTION_NAMES.join(", ")}.`,
        );
      }
    }
    const { store, access, instructions } = /** @type {Record<string, unknown>} */ (mount);
    if (typeof store !== "string" || store === "") {
      throw invalidOptions(`\`mounts[${i}].store\` must be a store id (from MemoryStores).`);
    }
    if (access !== undefined && access !== "read_write" && access !== "read_only") {
      throw invalidOptions(`\`mounts[${i}].access\` must be "read_write" or "read_only".`);
    }
    return { store, access: /** @type {MemoryAccess | undefined} */ (access), instructions };
  });
}

/**
 * The storage an `open` call asked for.
 * @param {unknown} storage the `storage` option
 * @param {string} who the call, for messages
 * @returns {MemoryStorage}
 */
export function chooseStorage(storage, who) {
  if (storage === undefined) {
    return typeof globalThis.indexedDB === "object" && globalThis.indexedDB !== null
      ? new IndexedDbStorage()
      : new InMemoryStorage();
  }
  try {
    if (storage === "indexeddb") return new IndexedDbStorage();
  } catch (error) {
    // No IndexedDB here: the constructor's INVALID_OPTIONS, said by the call that was given it.
    throw new MemoryToolError("INVALID_OPTIONS", `${who}: ${messageOf(error)}`);
  }
  if (storage === "memory") return new InMemoryStorage();
  if (typeof storage === "object" && storage !== null && typeof (/** @type {any} */ (storage).open) === "function") {
    return /** @type {MemoryStorage} */ (storage);
  }
  throw new MemoryToolError(
    "INVALID_OPTIONS",
    `${who}: \`storage\` must be "indexeddb", "memory" or a storage object with an \`open(store)\` method.`,
  );
}

/**
 * Throws `INVALID_TOOL_USE` unless `block` is a `tool_use` block of the tool named "memory".
 * @param {unknown} block
 * @returns {asserts block is import("./index.js").ToolUseBlock}
 */
function checkToolUse(block) {
  /** @param {string} why */
  const fail = (why) => {
    throw new MemoryToolError("INVALID_TOOL_USE", `Not a memory tool_use block: ${why}.`);
  };
  if (typeof block !== "object" || block === null || Array.isArray(block)) fail("expected an object");
  const b = /** @type {Record<string, unknown>} */ (block);
  if (b.type !== "tool_use") fail(`its type is ${JSON.stringify(b.type) ?? "missing"}, not "tool_use"`);
  if (typeof b.id !== "string" || b.id === "") fail("it has no `id` string");
  if (b.name !== "memory") fail(`its name is ${JSON.stringify(b.name) ?? "missing"}, not "memory"`);
}

/**
 * The `content` of a message-like value, or undefined.
 * @param {unknown} message
 */
function contentOf(message) {
  return typeof message === "object" && message !== null ? /** @type {{ content?: unknown }} */ (message).content : undefined;
}

/**
 * JSON text of a tool input; "null" (which the core refuses as not an object) when the value
 * has no JSON form (undefined, a BigInt, a cycle).
 * @param {unknown} value
 */
function inputJson(value) {
  try {
    const json = JSON.stringify(value);
    return typeof json === "string" ? json : "null";
  } catch {
    return "null";
  }
}

/**
 * The bytes of a `writeFile` content: strings as UTF-8 (a lone surrogate becomes U+FFFD).
 * @param {unknown} content
 * @returns {Uint8Array}
 */
function toBytes(content) {
  if (typeof content === "string") return new TextEncoder().encode(content);
  if (content instanceof Uint8Array) return content;
  if (content instanceof ArrayBuffer) return new Uint8Array(content);
  if (ArrayBuffer.isView(content)) return new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
  throw new MemoryToolError(
    "INVALID_INPUT",
    "writeFile(path, content): `content` must be a string or a Uint8Array.",
  );
}

/** 16 random bytes for the core's ids. */
function entropy() {
  if (entropyPool.used === entropyPool.bytes.length) {
    crypto.getRandomValues(entropyPool.bytes);
    entropyPool.used = 0;
  }
  const seed = entropyPool.bytes.slice(entropyPool.used, entropyPool.used + 16);
  entropyPool.used += 16;
  return seed;
}

/**
 * Random bytes drawn 4 KiB at a time: one getRandomValues call per 256 commands rather than
 * one each (in Node a call costs ~5 µs, a fifth of a small command). Each seed is used once.
 */
const entropyPool = { bytes: new Uint8Array(4096), used: 4096 };

/** Lowercase Crockford base32, as the core writes its ids. */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** A fresh session id: `session_` and 24 characters of Crockford base32 (120 random bits). */
function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(15));
  let out = "session_";
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = ((acc << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD[(acc >> bits) & 31];
    }
  }
  return out;
}

/**
 * The error a host call throws for an error outcome: the core's code and text.
 * @param {Outcome} outcome
 */
function hostError(outcome) {
  const text = typeof outcome.content === "string" ? outcome.content : JSON.stringify(outcome.content);
  const detail = isPlainObject(outcome.value) ? /** @type {Record<string, unknown>} */ (outcome.value) : undefined;
  return new MemoryToolError(outcome.code ?? "INVALID_INPUT", text.replace(/^Error: /, ""), { detail });
}

/**
 * Where the store's change events go: the handle's own scope (IndexedDB: its database), else
 * the storage object and store name (two tools over one InMemoryStorage and store share data).
 * @param {StoreHandle} handle
 * @param {MemoryStorage} storage
 * @param {string} store
 * @returns {import("./index.js").EventScope}
 */
function eventScope(handle, storage, store) {
  const scope = handle.eventScope;
  if (typeof scope === "object" && scope !== null && typeof scope.key === "object" && scope.key !== null) {
    return { key: scope.key, name: String(scope.name ?? ""), channel: typeof scope.channel === "string" ? scope.channel : null };
  }
  return { key: storage, name: store, channel: null };
}

/**
 * A host call's options object (undefined: none). Anything else is `INVALID_INPUT`.
 * @param {string} call
 * @param {unknown} options
 * @param {boolean} [required]
 * @returns {Record<string, any>}
 */
function optionsArg(call, options, required = false) {
  if (options === undefined && !required) return {};
  if (!isPlainObject(options)) {
    throw new MemoryToolError("INVALID_INPUT", `${call}: the options must be an object.`);
  }
  return { .../** @type {object} */ (options) };
}

/**
 * `versions.list` filters for the core: times may be Dates (sent as RFC 3339).
 * @param {unknown} filters
 */
function versionFilters(filters) {
  const args = optionsArg("versions.list", filters);
  for (const name of ["created_at_gte", "created_at_lte"]) {
    const value = args[name];
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) {
        throw new MemoryToolError("INVALID_INPUT", `versions.list: \`${name}\` is an invalid Date.`);
      }
      args[name] = value.toISOString();
    }
  }
  return args;
}

/**
 * An import's progress callback, called when the share of writes done grows by 1% or more
 * (and at 0 and at the end).
 * @param {(progress: { done: number, total: number }) => void} onProgress
 * @returns {(done: number, total: number) => void}
 */
function throttled(onProgress) {
  let last = -1;
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done * 100) / total);
    if (done !== 0 && done !== total && percent === last) return;
    last = percent;
    onProgress({ done, total });
  };
}

/**
 * Calls a progress callback; what it throws is its own business, never the import's.
 * @param {(done: number, total: number) => void} progress
 * @param {number} done
 * @param {number} total
 */
function notify(progress, done, total) {
  try {
    progress(done, total);
  } catch {
    // The import goes on: a progress display failing must not lose the user's data.
  }
}

/** @param {string} message */
function invalidOptions(message) {
  return new MemoryToolError("INVALID_OPTIONS", `MemoryTool.open: ${message}`);
}

/** @param {unknown} value */
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** @param {unknown} error */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
