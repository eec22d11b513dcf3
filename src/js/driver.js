// The transaction driver: runs one core Task in storage transactions (one, for a task of one
// mount), answering the rounds of reads it asks for and issuing its writes in the same
// transaction, and resolves with its outcome once storage committed (docs/ARCHITECTURE.md,
// "The wasm boundary"). It never awaits anything but the transactions' own requests. It does
// not load the wasm: the caller's Engine made the Task, so any build of the core works.

import { MemoryToolError, messageOf, toStorageError } from "./errors.js";
import { decide, textOrBytes } from "./policy.js";
import { entropy } from "./ids.js";

/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").StorageTx} StorageTx */
/** @typedef {import("./index.js").ToolResultContent} ToolResultContent */
/** @typedef {import("./index.js").MemoryToolErrorCode} MemoryToolErrorCode */
/** @typedef {import("./index.js").BeforeWrite} BeforeWrite */
/** @typedef {import("../../pkg/memory_tool_wasm.js").Task} Task */

/**
 * What the core decided, read by `outcomeOf` (docs/ARCHITECTURE.md).
 * @typedef {object} Outcome
 * @property {ToolResultContent} content
 * @property {boolean} isError
 * @property {MemoryToolErrorCode} [code]
 * @property {Write[]} writes
 * @property {unknown} [value]
 * @property {string[]} [touched] store keys of memories a view used whose last use is a day
 *   old or more (the tool records them later, see `memories.touch`)
 */
/**
 * One write of an outcome, in the order storage must carry them out.
 * @typedef {{ op: "putFile", record: import("./index.js").FileRecord, previousSize: number | null }
 *   | { op: "deleteFile", path: string, size: number, tree?: string }
 *   | { op: "putContent", id: string, bytes: number }
 *   | { op: "deleteContent", id: string }
 *   | { op: "putVersion", record: import("./index.js").VersionRecord }
 *   | { op: "keepVersion", record: import("./index.js").VersionRecord }
 *   | { op: "deleteVersion", id: string }
 *   | { op: "putClock", clock: { seen: number, acting: number } }} Write
 */

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
export const BIG_TEXT = 2048;
/** The encoder of those texts (inputs of the `…Utf8` start calls, big answers). */
export const utf8 = new TextEncoder();

/**
 * Starts a task of `engine` through the core's one start binding: `kind` "tool" (the model's
 * input as JSON), "host" (a host call's JSON, on `mount`) or "write" (a host write: the tool
 * path as JSON, its bytes in `content`); a big JSON goes as UTF-8 bytes. `compact`: the form
 * that puts nothing (docs/TOOL.md#delete-at-full-quota). `bundle`: an import's bundle, read
 * into the core in parts (import-parts.js), used up by the call.
 * @param {import("../../pkg/memory_tool_wasm.js").Engine} engine
 * @param {"tool" | "host" | "write"} kind
 * @param {string} json
 * @param {{ actor: string, mount?: number, compact?: boolean, content?: Uint8Array, bundle?: import("../../pkg/memory_tool_wasm.js").BundleParts }} options
 * @returns {Task}
 */
export function startTask(engine, kind, json, { actor, mount = 0, compact = false, content, bundle }) {
  const big = json.length > BIG_TEXT;
  return engine.start(kind, big ? "" : json, big ? utf8.encode(json) : undefined, content, Date.now(), entropy(), actor, mount, compact, bundle);
}

/**
 * Starts host call `call` with `args` on mount number `mount` of `engine`, as `actorJson`:
 * the one way every caller (the public methods, sync's calls as another actor, the store
 * registry) turns a call into a task. `compact`: the form that puts nothing
 * (docs/TOOL.md#delete-at-full-quota). Throws `INVALID_INPUT` when the arguments have no JSON
 * form.
 * @param {import("../../pkg/memory_tool_wasm.js").Engine} engine
 * @param {string} call
 * @param {Record<string, unknown>} args
 * @param {string} actorJson
 * @param {number} mount
 * @param {boolean} [compact]
 * @param {import("../../pkg/memory_tool_wasm.js").BundleParts} [bundle] an import's bundle read
 *   in parts, in place of its `bundle` argument
 * @returns {Task}
 */
export function startHostCall(engine, call, args, actorJson, mount, compact = false, bundle = undefined) {
  let json;
  try {
    json = JSON.stringify({ ...args, call });
  } catch (error) {
    // Not handed to the core: its parts go now, not when the garbage collector finds them.
    bundle?.free();
    throw new MemoryToolError("INVALID_INPUT", `${call}: the arguments have no JSON form (${messageOf(error)}).`);
  }
  return startTask(engine, "host", json, { actor: actorJson, mount, compact, bundle });
}

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
 * The outcome of a finished task (`task.done()` or `task.resume()` said so), with every write.
 * A text result crosses on its own (`task.text()`), not inside the JSON: no escaping in the
 * core, no JSON.parse of it here.
 * @param {Task} task
 * @returns {Outcome}
 */
export function outcomeOf(task) {
  const { outcome, total } = headOf(task);
  if (total > 0) outcome.writes = JSON.parse(task.writes(0, total, ALL));
  return outcome;
}

/** No limit, as a count the core takes (a 32-bit `usize` in wasm). */
const ALL = 2 ** 32 - 1;

/**
 * The outcome of a finished task without its writes (`writes` empty), and how many it has:
 * the writes are then taken from the core a slice at a time (`task.writes`), so no one call
 * turns them all to JSON and back.
 * @param {Task} task
 * @returns {{ outcome: Outcome, total: number }}
 */
function headOf(task) {
  const { writeCount, ...head } = /** @type {Omit<Outcome, "writes"> & { writeCount: number }} */ (
    JSON.parse(task.outcomeHead())
  );
  const outcome = /** @type {Outcome} */ ({ ...head, writes: [] });
  if (outcome.content === null) outcome.content = task.text();
  return { outcome, total: writeCount };
}

/**
 * Where a read was issued: the mount and the transaction of its store.
 * @typedef {{ mount: number, tx: StorageTx }} Site
 */

/**
 * Options of `perform`.
 * @typedef {object} PerformOptions
 * @property {(done: number, total: number) => void} [progress] hears how many of the
 *   outcome's writes storage has carried out: (0, total) before the first, then as they complete
 * @property {BeforeWrite} [beforeWrite] the host's write policy, asked about `policy` reads
 * @property {boolean} [putNothing] the task only deletes and its transaction must put no record
 *   (a compact delete at full quota, docs/TOOL.md#delete-at-full-quota): told to `tx.finish`
 */

/**
 * Runs one core task and resolves with its outcome once every transaction it used has
 * committed. A task of one mount (`task.mount()` ≥ 0) runs inside one transaction of that
 * mount's store: every round of reads, then the writes. The view of `/memories` over several
 * mounts (`task.mount()` is -1) names the mount of each read; a round's reads of the mount
 * whose answer ended the last round go on that transaction, the others on one new transaction
 * per mount (a transaction is active only inside its own callbacks). Such a task only reads.
 * Storage failures reject with a storage MemoryToolError; errors of the core itself (bugs)
 * reject as they were thrown. Always frees the task.
 * @param {ReadonlyArray<StoreHandle>} handles the stores of the Engine's mounts, in mount
 *   order (one for a single store)
 * @param {Task} task
 * @param {PerformOptions} [options]
 * @returns {Promise<Outcome>}
 */
export async function perform(handles, task, options = {}) {
  const { progress, beforeWrite, putNothing } = options;
  const finishing = putNothing ? { putNothing: true } : undefined;
  /** The mount whose store the task reads and writes; -1: each read names its mount. */
  const home = task.mount();
  if (home >= 0 && !handles[home]) {
    task.free();
    throw new Error(`memory-tool-wasm: the core sent a command to mount ${home}, which does not exist`);
  }
  /** @type {Outcome | undefined} */
  let outcome;
  /** The core's first failure wins over the abort it causes. */
  const calls = new CoreCalls();
  const core = calls.run;
  /** Set once the task settled: a late callback from a faulty storage is ignored. */
  let settled = false;
  /** Whether `task.prepare()` is still to be called (once, for a task that may write). */
  let prepare = false;
  /** @type {import("./index.js").TransactionMode} */
  let mode = "readonly";
  /** The kinds of read the task can ever ask for, when the core says (a view's). @type {string[] | null} */
  let scope = null;
  /** The transactions the task started, each settling without rejecting (see `failure`). */
  /** @type {Promise<void>[]} */
  const transactions = [];
  /** The first failure of a transaction. @type {{ error: unknown } | null} */
  let failure = null;
  /**
   * The transaction whose body or request callback is running: reads of its mount go there.
   * @type {Site | null}
   */
  let current = null;

  /**
   * Starts a transaction on the store of `mount`, with `body` inside it.
   * @param {number} mount
   * @param {() => void} body
   */
  const begin = (mount, body) => {
    let started;
    try {
      const run = (/** @type {StorageTx} */ tx) => {
        current = { mount, tx };
        body();
      };
      started = scope ? handles[mount].transaction(mode, run, { reads: scope }) : handles[mount].transaction(mode, run);
    } catch (error) {
      started = Promise.reject(error);
    }
    transactions.push(
      Promise.resolve(started).catch((error) => {
        failure ??= { error };
      }),
    );
  };

  /**
   * A round's reads by the mount whose store answers them, mounts in the order they appear.
   * @param {Array<{ mount?: unknown }>} reads
   * @returns {Map<number, number[]>}
   */
  const byMount = (reads) => {
    /** @type {Map<number, number[]>} */
    const groups = new Map();
    reads.forEach((read, index) => {
      const mount = home >= 0 ? home : read.mount;
      if (typeof mount !== "number" || !handles[mount]) {
        core(() => {
          throw new Error(`memory-tool-wasm: a read across mounts names no mount: ${JSON.stringify(read)}`);
        });
      }
      const list = groups.get(/** @type {number} */ (mount)) ?? [];
      list.push(index);
      groups.set(/** @type {number} */ (mount), list);
    });
    return groups;
  };

  const round = () => {
    const reads = core(() => JSON.parse(task.reads()));
    let pending = reads.length;
    if (pending === 0) {
      next();
      return;
    }
    /** @type {boolean[]} */
    const answered = [];
    /** @type {Site[]} */
    const sites = [];
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
      // This callback is its transaction's: the next round may issue reads on it.
      current = sites[index];
      // A synchronous storage answers inside the loop below; `pending` was set first.
      if (--pending === 0) next();
    };
    /**
     * @param {number} mount
     * @param {number[]} indexes
     */
    const issue = (mount, indexes) => {
      const tx = /** @type {Site} */ (current).tx;
      for (const index of indexes) {
        sites[index] = { mount, tx };
        issueRead(tx, reads[index], index, task, answer, core, beforeWrite);
      }
    };
    const here = current;
    for (const [mount, indexes] of byMount(reads)) {
      if (here !== null && here.mount === mount) {
        current = here;
        issue(mount, indexes);
      } else {
        begin(mount, () => issue(mount, indexes));
      }
    }
    // While storage answers the first round of a write: the core's work that needs no read.
    if (prepare && pending > 0) core(() => task.prepare());
    prepare = false;
  };
  const next = () => {
    if (core(() => task.resume())) finish();
    else round();
  };
  const finish = () => {
    const head = core(() => headOf(task));
    outcome = head.outcome;
    const { total } = head;
    const writes = outcome.writes;
    if (home < 0) {
      // Reading every mount, the task has no one store its writes could go to.
      if (total > 0) {
        core(() => {
          throw new Error("memory-tool-wasm: a command that reads every mount asked to write");
        });
      }
      return;
    }
    const tx = /** @type {Site} */ (current).tx;
    const told = !progress || outcome.isError ? undefined : progress;
    // Every 1% of the writes, a cheap read: a transaction carries out its requests in order,
    // so it answers once the writes before it are done (progress without asking storage for
    // more than the interface has).
    const step = Math.max(1, Math.floor(total / 100));
    if (told) notify(told, 0, total);
    let next = 0;
    /**
     * Issues the writes from `next` on, a slice at a time (SLICE_WRITES requests or
     * SLICE_BYTES of content, one write at least: the core cuts them), each write's bytes
     * taken from the core as it goes out. Halfway through a slice, a cheap read: its answer
     * (after the writes before it are done) issues the next slice while the rest of this one
     * is still carried out. So a big import leaves the page free between slices, storage is
     * never left idle, the writes and bytes the core hands out at once are a slice's, and a
     * storage that writes its figures when its last change is done (IndexedDbStorage,
     * KeyValueStorage) writes them once, at the end, not once per slice. A failure of the
     * core throws inside the body or a request's callback, which aborts the transaction:
     * nothing is written.
     */
    const issueSlices = () => {
      for (;;) {
        const slice = /** @type {Write[]} */ (core(() => JSON.parse(task.writes(next, SLICE_WRITES, SLICE_BYTES))));
        if (slice.length === 0) {
          core(() => {
            throw new Error(`memory-tool-wasm: the core has ${total} writes but gave none from ${next}`);
          });
        }
        const end = next + slice.length;
        const last = end >= total;
        const handover = last ? -1 : next + Math.floor(slice.length / 2);
        // A storage that answers at once (inside the call) continues this loop instead of
        // the read's callback, so the stack does not grow.
        let inside = true;
        let answeredInside = false;
        for (let i = next; i < end; i++) {
          if (i === handover) {
            tx.getFile("", () => {
              if (settled) return;
              if (inside) answeredInside = true;
              else issueSlices();
            });
          }
          const write = slice[i - next];
          writes.push(write);
          const bytes = write.op === "putContent" ? core(() => task.writeBytes(write.bytes)) : undefined;
          issueWrite(tx, write, /** @type {Uint8Array} */ (bytes), core);
          const done = i + 1;
          if (told && (done % step === 0 || done === total)) {
            tx.getFile("", () => {
              if (!settled) notify(told, done, total);
            });
          }
        }
        next = end;
        if (last) {
          tx.finish?.(finishing);
          return;
        }
        inside = false;
        if (!answeredInside) return;
      }
    };
    if (total > 0) issueSlices();
  };

  try {
    // Refused by the input or path checks: the outcome is known without touching storage.
    if (task.done()) return outcomeOf(task);
    mode = core(() => /** @type {"readonly" | "readwrite"} */ (task.mode()));
    // The kinds of read a view can ask for: a storage may open only what they need (a
    // read-only task's; a write's transaction spans every store anyway).
    const kinds = mode === "readonly" ? core(() => task.readScope()) : "";
    scope = kinds ? kinds.split(",") : null;
    prepare = mode === "readwrite";
    // A task of one mount: its transaction first, so its writes have one even after a round
    // with no reads. The view over several mounts: its first round starts each mount's.
    if (home >= 0) begin(home, round);
    else round();
    // A transaction is only started from the task's start or from a callback of one still
    // running, so once the last of the list settled, no other is to come.
    for (let i = 0; i < transactions.length; i++) await transactions[i];
    // Set by the transactions' rejection handlers (out of this function's sight for tsc).
    const failed = /** @type {{ error: unknown } | null} */ (failure);
    if (failed) throw failed.error;
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

/** At most this many write requests in one slice of a command's writes (see `perform`). */
export const SLICE_WRITES = 256;
/** At most about this many bytes of content in one slice (a slice holds one write at least). */
export const SLICE_BYTES = 1 << 18;

/**
 * Issues one read of the core's round on `tx`; its answer goes back through `answer`.
 * @param {StorageTx} tx
 * @param {{ kind: string, path?: string, id?: string, ids?: string[], memoryId?: string, below?: string, after?: string, limit?: number, source?: string, operation?: string, oldPath?: string, hasContent?: boolean }} read
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
    case "filesAfter": {
      const after = typeof read.after === "string" ? read.after : null;
      const limit = /** @type {number} */ (read.limit);
      if (typeof tx.getFilesAfter === "function") tx.getFilesAfter(after, limit, (records) => json(records));
      else {
        // Key order is UTF-16 code unit order, which `<` on strings is.
        tx.getSubtree("", (records) => json(records.filter((r) => after === null || r.path > after).slice(0, limit)));
      }
      return;
    }
    case "archived":
      if (typeof tx.isArchived === "function") tx.isArchived((yes) => json(Boolean(yes)));
      else json(false);
      return;
    case "count":
      tx.countFiles((n) => json(n));
      return;
    case "content":
      tx.getContent(id, (bytes) => answer(index, () => task.supplyBytes(index, bytes ?? undefined)));
      return;
    case "contents": {
      // Several contents in one answer: one request where the storage can (getContents).
      const ids = /** @type {string[]} */ (read.ids);
      /** @param {ReadonlyArray<unknown>} values */
      const contents = (values) =>
        answer(index, () => {
          const lengths = new Uint32Array(ids.length);
          const present = new Uint8Array(ids.length);
          const found = ids.map((_, n) => bytesOf(values[n]));
          let total = 0;
          found.forEach((bytes, n) => {
            if (bytes === undefined) return;
            lengths[n] = bytes.length;
            present[n] = 1;
            total += bytes.length;
          });
          const joined = new Uint8Array(total);
          let offset = 0;
          for (const bytes of found) {
            if (bytes === undefined) continue;
            joined.set(bytes, offset);
            offset += bytes.length;
          }
          task.supplyContents(index, joined, lengths, present);
        });
      if (typeof tx.getContents === "function") tx.getContents(ids, contents);
      else if (ids.length === 0) contents([]);
      else {
        /** @type {unknown[]} */
        const values = new Array(ids.length);
        let left = ids.length;
        ids.forEach((key, n) =>
          tx.getContent(key, (bytes) => {
            values[n] = bytes;
            if (--left === 0) contents(values);
          }),
        );
      }
      return;
    }
    case "headContent":
      // A storage without it answers none: the core then reads the key the record names.
      if (typeof tx.getHeadContent === "function") {
        tx.getHeadContent(path, (key, bytes) =>
          answer(index, () =>
            bytes === undefined || typeof key !== "string"
              ? task.supplyHead(index, undefined, undefined)
              : task.supplyHead(index, key, bytes),
          ),
        );
      } else answer(index, () => task.supplyHead(index, undefined, undefined));
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
    case "versionsAfter": {
      const after = typeof read.after === "string" ? read.after : null;
      const limit = /** @type {number} */ (read.limit);
      if (typeof tx.getVersionsAfter === "function") tx.getVersionsAfter(after, limit, (records) => json(records));
      else {
        // Every version, newest first, then the page of them (ids sort as strings).
        tx.getVersionsDesc(null, null, Number.MAX_SAFE_INTEGER, (records) =>
          json([...records].reverse().filter((v) => after === null || String(v.id) > after).slice(0, limit)),
        );
      }
      return;
    }
    case "history": {
      const memoryId = /** @type {string} */ (read.memoryId);
      if (typeof tx.getHistory === "function") tx.getHistory(memoryId, (records) => json(records));
      else tx.getVersionsDesc(memoryId, null, Number.MAX_SAFE_INTEGER, (records) => json([...records].reverse()));
      return;
    }
    case "versionsWithContent":
      tx.getVersionIdsWithContent(id, (ids) => json(ids));
      return;
    case "newestVersionId":
      tx.getNewestVersionId((newest) => json(newest ?? null));
      return;
    case "clock":
      // A storage that keeps no clock answers none: each open then acts as a store's first.
      if (typeof tx.getClock === "function") tx.getClock((clock) => json(clock ?? null));
      else json(null);
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
        // A rename or delete has no content to show.
        const content = read.hasContent ? textOrBytes(core(() => task.readBytes(index))) : null;
        const source = /** @type {import("./index.js").WriteSource} */ (String(read.source));
        const operation = /** @type {import("./index.js").WriteOperation} */ (String(read.operation));
        /** @type {import("./index.js").PendingWrite} */
        const write = { path, content, source, operation };
        if (typeof read.oldPath === "string") write.oldPath = read.oldPath;
        const decision = decide(policy, write);
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
 * Stored content as bytes: a Uint8Array as it is, another view's bytes, anything else none.
 * @param {unknown} value
 * @returns {Uint8Array | undefined}
 */
function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
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
      tx.putFile(write.record, write.previousSize);
      return;
    case "deleteFile":
      if (write.tree === undefined) tx.deleteFile(write.path, write.size);
      else tx.deleteFile(write.path, write.size, write.tree);
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
    case "keepVersion":
      // A stored version marked kept (docs/TOOL.md#retention): put again, not a new one.
      tx.putVersion(write.record);
      return;
    case "deleteVersion":
      tx.deleteVersion(write.id);
      return;
    case "putClock":
      if (typeof tx.putClock === "function") tx.putClock(write.clock);
      return;
    default:
      core(() => {
        throw new Error(`memory-tool-wasm: the core asked for an unknown write: ${JSON.stringify(write)}`);
      });
  }
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
