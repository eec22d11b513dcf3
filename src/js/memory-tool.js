// MemoryTool: the package's surface, and the driver that runs one core task inside one
// storage transaction. No command logic lives here: texts and rules come from the core.

import { MemoryToolError, isStorageError, modelTextFor, toStorageError } from "./errors.js";
import { changeFeed, eventsOf } from "./events.js";
import { IndexedDbStorage } from "./storage-indexeddb.js";
import { InMemoryStorage } from "./storage-memory.js";
import { loadEngine } from "./wasm.js";

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
/** @typedef {import("./events.js").ChangeFeed} ChangeFeed */
/** @typedef {import("../../pkg/memory_tool_wasm.js").Engine} Engine */
/** @typedef {import("../../pkg/memory_tool_wasm.js").Task} Task */

/**
 * What the core decided, parsed from `task.outcome()` (docs/ARCHITECTURE.md).
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

/** Guards the constructor: a MemoryTool comes from `MemoryTool.open`. */
const OPENING = Symbol("MemoryTool.open");

const OPTION_NAMES = [
  "store",
  "storage",
  "access",
  "limits",
  "maxViewChars",
  "createOverwrites",
  "retentionDays",
];
const LIMIT_NAMES = ["maxFileBytes", "maxFiles"];
const DAY_MS = 24 * 60 * 60 * 1000;
/** Half a surrogate pair: a string that is not well-formed UTF-16. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Who a change is by, recorded in its version's `created_by` (docs/ARCHITECTURE.md). */
const API_ACTOR = JSON.stringify({ type: "api" });
const IMPORT_ACTOR = JSON.stringify({ type: "import" });
/** @param {string | null} toolUseId */
const toolActor = (toolUseId) => JSON.stringify({ type: "tool", tool_use_id: toolUseId });

/**
 * Claude's memory tool (`memory_20250818`) over one store. Tool calls (`run`, `runAll`,
 * `execute`) never throw for the model's mistakes; host calls (`writeFile`, `memories.list`)
 * throw `MemoryToolError`s with a stable `code`.
 */
export class MemoryTool {
  /** @type {Engine} */
  #engine;
  /** @type {StoreHandle} */
  #handle;
  /** @type {string} */
  #store;
  /** @type {"read_write" | "read_only"} */
  #access;
  /** The store's change feed in this context (shared with other MemoryTools of the store). @type {ChangeFeed} */
  #feed;
  /** This tool's subscriptions, ended by `close`. @type {Set<() => void>} */
  #unsubscribes = new Set();
  #closed = false;

  /**
   * The host's memory API (SPEC §5, the memory stores API's shapes). Paths are store paths
   * (`/notes/todo.md`, the tool's `/memories/notes/todo.md`). Throws `MemoryToolError`s.
   * @type {import("./index.js").MemoriesApi}
   */
  memories;

  /**
   * The history API: every change is a version (`memver_…`). Throws `MemoryToolError`s.
   * @type {import("./index.js").VersionsApi}
   */
  versions;

  /**
   * Use `MemoryTool.open(options)`.
   * @param {symbol} token
   * @param {Engine} engine
   * @param {StoreHandle} handle
   * @param {string} store
   * @param {"read_write" | "read_only"} access
   * @param {ChangeFeed} feed
   */
  constructor(token, engine, handle, store, access, feed) {
    if (token !== OPENING) throw new TypeError("Use MemoryTool.open(options) to get a MemoryTool.");
    this.#engine = engine;
    this.#handle = handle;
    this.#store = store;
    this.#access = access;
    this.#feed = feed;
    // Every method is async: bad arguments reject, as storage and core errors do.
    this.memories = Object.freeze({
      list: async (/** @type {import("./index.js").ListOptions | undefined} */ options) =>
        this.#host("memories.list", optionsArg("memories.list", options)),
      get: async (/** @type {string} */ id) => this.#host("memories.get", { id }),
      getByPath: async (/** @type {string} */ path) => this.#host("memories.getByPath", { path }),
      create: async (/** @type {import("./index.js").CreateMemoryParams} */ params) =>
        this.#host("memories.create", optionsArg("memories.create", params, true)),
      update: async (/** @type {string} */ id, /** @type {import("./index.js").UpdateMemoryParams} */ params) =>
        this.#host("memories.update", { ...optionsArg("memories.update", params, true), id }),
      delete: async (/** @type {string} */ id, /** @type {import("./index.js").DeleteMemoryOptions | undefined} */ options) =>
        this.#host("memories.delete", { ...optionsArg("memories.delete", options), id }),
    });
    this.versions = Object.freeze({
      list: async (/** @type {import("./index.js").VersionFilters | undefined} */ filters) =>
        this.#host("versions.list", versionFilters(filters)),
      get: async (/** @type {string} */ id) => this.#host("versions.get", { id }),
      redact: async (/** @type {string} */ id) => this.#host("versions.redact", { id }),
      restore: async (/** @type {string} */ id) => this.#host("versions.restore", { id }),
      prune: async () => this.#host("versions.prune", {}),
    });
  }

  /**
   * Opens the memory tool over a store: IndexedDB by default where it exists, else in-memory.
   * Rejects with `INVALID_OPTIONS` for bad options, `STORAGE_FAILED` if the store cannot open.
   * @param {MemoryToolOptions} [options]
   * @returns {Promise<MemoryTool>}
   */
  static async open(options) {
    const { store, storage, access, engineConfig } = readOptions(options);
    const EngineClass = await loadEngine();
    let engine;
    try {
      engine = new EngineClass(JSON.stringify(engineConfig));
    } catch (error) {
      throw invalidOptions(`${messageOf(error)}.`);
    }
    let handle;
    try {
      handle = await storage.open(store);
    } catch (error) {
      engine.free();
      throw toStorageError(error);
    }
    if (!handle || typeof handle.transaction !== "function" || typeof handle.close !== "function") {
      engine.free();
      throw new MemoryToolError(
        "INVALID_OPTIONS",
        "`storage.open(store)` must resolve to an object with `transaction` and `close` methods.",
      );
    }
    const tool = new MemoryTool(OPENING, engine, handle, store, access, changeFeed(eventScope(handle, storage, store)));
    if (access === "read_write") {
      // Retention: versions past the retention period go on open. Pruning is housekeeping:
      // if it fails (storage trouble), the store still opens and the next open tries again.
      try {
        await tool.versions.prune();
      } catch {
        // Nothing to do: the versions stay until a later prune.
      }
    }
    return tool;
  }

  /** The tool definition for the Messages API's `tools` list (a fresh object each time). */
  get toolParam() {
    return { type: /** @type {const} */ ("memory_20250818"), name: /** @type {const} */ ("memory") };
  }

  /** The store's name. */
  get store() {
    return this.#store;
  }

  /** Whether the model may write (`"read_write"`) or only read (`"read_only"`). */
  get access() {
    return this.#access;
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
    const task = this.#engine.start(inputJson(input), Date.now(), entropy(), toolActor(toolUseId));
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
   * with `content` (a string is stored as UTF-8). Obeys the tool's paths, limits and access;
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
        const refused = check.done() ? /** @type {Outcome} */ (JSON.parse(check.outcome())) : undefined;
        if (refused?.isError) throw hostError(refused);
      } finally {
        check.free();
      }
    }
    const outcome = await this.#perform(this.#engine.startWrite(path, bytes, Date.now(), entropy(), API_ACTOR));
    if (outcome.isError) throw hostError(outcome);
  }

  /**
   * Exports the store as a bundle: every memory with its content (and, with
   * `include_versions`, the retained history), in the memory stores API's shapes.
   * @param {import("./index.js").ExportOptions} [options]
   * @returns {Promise<Bundle>}
   */
  async export(options) {
    const { include_versions } = optionsArg("export", options);
    return /** @type {Promise<Bundle>} */ (this.#host("export", { include_versions: include_versions === true }));
  }

  /**
   * Imports a bundle in one transaction: all of it or nothing. Every hash is checked first
   * (`INVALID_BUNDLE`); `onConflict` says what to do with a memory whose place is taken
   * (`"fail"`, the default, throws `PATH_CONFLICT` and imports nothing). `onProgress` hears
   * `{ done, total }` storage writes: once with 0 before writing, then about every 1%.
   * @param {Bundle} bundle
   * @param {import("./index.js").ImportOptions} [options]
   * @returns {Promise<import("./index.js").ImportResult>}
   */
  async import(bundle, options) {
    const { onConflict, onProgress, ...rest } = optionsArg("import", options);
    const unknown = Object.keys(rest);
    if (unknown.length > 0) {
      throw new MemoryToolError(
        "INVALID_INPUT",
        `import: unknown option \`${unknown[0]}\`; the options are onConflict and onProgress.`,
      );
    }
    if (onProgress !== undefined && typeof onProgress !== "function") {
      throw new MemoryToolError("INVALID_INPUT", "import: `onProgress` must be a function.");
    }
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
      this.#host("import", { on_conflict: onConflict ?? "fail", bundle: value }, IMPORT_ACTOR, progress)
    );
  }

  /**
   * Calls `listener` with every change committed to this store from now on: by this tool,
   * by other MemoryTools of the store in this context (`origin: "local"`), and, for IndexedDB
   * stores, by other tabs and workers of the origin (`origin: "remote"`). One event per
   * version written. Returns the function that unsubscribes; `close` unsubscribes too.
   * @param {ChangeListener} listener
   * @returns {() => void}
   */
  subscribe(listener) {
    this.#checkOpen();
    if (typeof listener !== "function") {
      throw new MemoryToolError("INVALID_INPUT", "subscribe(listener): `listener` must be a function.");
    }
    const stop = this.#feed.subscribe(listener);
    const unsubscribe = () => {
      this.#unsubscribes.delete(unsubscribe);
      stop();
    };
    this.#unsubscribes.add(unsubscribe);
    return unsubscribe;
  }

  /**
   * Closes the store and ends this tool's subscriptions. Commands already running finish;
   * later calls throw.
   */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    for (const unsubscribe of [...this.#unsubscribes]) unsubscribe();
    this.#handle.close();
    this.#engine.free();
  }

  /**
   * Runs a host call (`{"call": name, ...args}`) and resolves with its value; an error
   * outcome throws a MemoryToolError with the core's code and details.
   * @param {string} call
   * @param {Record<string, unknown>} args
   * @param {string} [actor]
   * @param {(done: number, total: number) => void} [progress]
   * @returns {Promise<any>}
   */
  async #host(call, args, actor = API_ACTOR, progress) {
    this.#checkOpen();
    let json;
    try {
      json = JSON.stringify({ ...args, call });
    } catch (error) {
      throw new MemoryToolError("INVALID_INPUT", `${call}: the arguments have no JSON form (${messageOf(error)}).`);
    }
    // Mount 0: a MemoryTool is one store (the core's mounts are not this adapter's yet).
    const outcome = await this.#perform(this.#engine.startHost(json, Date.now(), entropy(), actor, 0), progress);
    if (outcome.isError) throw hostError(outcome);
    return outcome.value;
  }

  /**
   * Runs a task in one transaction; once it committed, tells the store's listeners what
   * changed.
   * @param {Task} task
   * @param {(done: number, total: number) => void} [progress]
   * @returns {Promise<Outcome>}
   */
  async #perform(task, progress) {
    const outcome = await perform(this.#handle, task, progress);
    const writes = outcome.writes ?? [];
    if (writes.length > 0) this.#feed.publish(eventsOf(this.#store, writes));
    return outcome;
  }

  #checkOpen() {
    if (this.#closed) throw new MemoryToolError("STORAGE_FAILED", "This MemoryTool has been closed.");
  }
}

/**
 * Runs one core task inside one storage transaction and resolves with its outcome once the
 * transaction has committed. Storage failures reject with a storage MemoryToolError; errors
 * of the core itself (bugs) reject as they were thrown. Always frees the task.
 * @param {StoreHandle} handle
 * @param {Task} task
 * @param {(done: number, total: number) => void} [progress] hears how many of the outcome's
 *   writes storage has carried out: (0, total) before the first, then as they complete
 * @returns {Promise<Outcome>}
 */
async function perform(handle, task, progress) {
  /** @type {Outcome | undefined} */
  let outcome;
  /** Set when the core (or our reading of it) threw, so that error wins over the abort. */
  let coreFailure = /** @type {{ error: unknown } | null} */ (null);
  /** Set once the transaction settled: a late callback from a faulty storage is ignored. */
  let settled = false;

  /**
   * @template T
   * @param {() => T} call
   * @returns {T}
   */
  const core = (call) => {
    try {
      return call();
    } catch (error) {
      coreFailure ??= { error };
      throw error;
    }
  };

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
        try {
          supply();
        } catch (error) {
          // A trap is a bug of the core; anything else means the storage's answer was unusable
          // (a record of the wrong shape: corrupt or foreign data).
          if (error instanceof WebAssembly.RuntimeError) {
            coreFailure ??= { error };
            throw error;
          }
          throw new MemoryToolError(
            "STORAGE_FAILED",
            `The storage answered a read with data the core cannot use (${messageOf(error)}).`,
            { cause: error },
          );
        }
        // A synchronous storage answers inside the loop below; `pending` was set first.
        if (--pending === 0) next();
      };
      reads.forEach((/** @type {any} */ read, /** @type {number} */ index) => {
        issueRead(tx, read, index, task, answer, core);
      });
    };
    const next = () => {
      if (core(() => task.resume())) finish();
      else round();
    };
    const finish = () => {
      outcome = core(() => /** @type {Outcome} */ (JSON.parse(task.outcome())));
      const writes = outcome.writes ?? [];
      // Take every byte array from the core before the first request, so a failure of the
      // core cannot leave the transaction half written.
      const bytes = writes.map((write) =>
        write.op === "putContent" ? core(() => task.writeBytes(write.bytes)) : undefined,
      );
      if (!progress || outcome.isError) {
        writes.forEach((write, i) => issueWrite(tx, write, /** @type {Uint8Array} */ (bytes[i]), core));
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
    };
    round();
  };

  try {
    // Refused by the input or path checks: the outcome is known without touching storage.
    if (task.done()) return /** @type {Outcome} */ (JSON.parse(task.outcome()));
    await handle.transaction(core(() => /** @type {"readonly" | "readwrite"} */ (task.mode())), body);
    if (outcome === undefined) {
      throw new MemoryToolError(
        "STORAGE_FAILED",
        "The storage finished the transaction before answering every read.",
      );
    }
    return outcome;
  } catch (error) {
    if (coreFailure) throw coreFailure.error;
    throw toStorageError(error);
  } finally {
    settled = true;
    task.free();
  }
}

/**
 * Issues one read of the core's round on `tx`; its answer goes back through `answer`.
 * @param {StorageTx} tx
 * @param {{ kind: string, path?: string, id?: string, memoryId?: string, below?: string, limit?: number }} read
 * @param {number} index
 * @param {Task} task
 * @param {(index: number, supply: () => void) => void} answer
 * @param {<T>(call: () => T) => T} core
 */
function issueRead(tx, read, index, task, answer, core) {
  /** @param {unknown} value */
  const json = (value) => answer(index, () => task.supply(index, JSON.stringify(value)));
  const path = /** @type {string} */ (read.path);
  const id = /** @type {string} */ (read.id);
  switch (read.kind) {
    case "file":
      tx.getFile(path, (record) => json(record ?? null));
      return;
    case "subtree":
      tx.getSubtree(path, (records) => json(records));
      return;
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
 * Checks `MemoryTool.open`'s options; throws `INVALID_OPTIONS` with what is wrong.
 * @param {unknown} options
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

  const store = given.store ?? "memories";
  if (typeof store !== "string" || store === "") {
    throw invalidOptions("`store` must be a non-empty string.");
  }

  const access = /** @type {MemoryAccess} */ (given.access ?? "read_write");
  if (access !== "read_write" && access !== "read_only") {
    throw invalidOptions('`access` must be "read_write" or "read_only".');
  }

  /** @type {Record<string, number | boolean>} */
  const engineConfig = { readOnly: access === "read_only" };
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

  return { store, storage: chooseStorage(given.storage), access, engineConfig };
}

/**
 * @param {unknown} storage the `storage` option
 * @returns {MemoryStorage}
 */
function chooseStorage(storage) {
  if (storage === undefined) {
    return typeof globalThis.indexedDB === "object" && globalThis.indexedDB !== null
      ? new IndexedDbStorage()
      : new InMemoryStorage();
  }
  if (storage === "indexeddb") return new IndexedDbStorage();
  if (storage === "memory") return new InMemoryStorage();
  if (typeof storage === "object" && storage !== null && typeof (/** @type {any} */ (storage).open) === "function") {
    return /** @type {MemoryStorage} */ (storage);
  }
  throw invalidOptions(
    '`storage` must be "indexeddb", "memory" or a storage object with an `open(store)` method.',
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
  return crypto.getRandomValues(new Uint8Array(16));
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
