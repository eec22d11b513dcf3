// The transaction driver: runs one core Task inside one storage transaction, answering the
// rounds of reads it asks for, then issuing its writes there, and resolves with its outcome
// once the transaction committed (docs/ARCHITECTURE.md, "The wasm boundary"). It never awaits
// anything but the transaction's own requests. It does not load the wasm: the Task comes in.

import { MemoryToolError, messageOf, toStorageError } from "./errors.js";
import { decide, textOrBytes } from "./policy.js";

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
 */
/**
 * One write of an outcome, in the order storage must carry them out.
 * @typedef {{ op: "putFile", record: import("./index.js").FileRecord }
 *   | { op: "deleteFile", path: string }
 *   | { op: "putContent", id: string, bytes: number }
 *   | { op: "deleteContent", id: string }
 *   | { op: "putVersion", record: import("./index.js").VersionRecord }
 *   | { op: "deleteVersion", id: string }} Write
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
 * The outcome of a finished task (`task.done()` or `task.resume()` said so). A text result
 * crosses on its own (`task.text()`), not inside the JSON: no escaping in the core, no
 * JSON.parse of it here.
 * @param {Task} task
 * @returns {Outcome}
 */
export function outcomeOf(task) {
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
export async function perform(handle, task, progress, beforeWrite) {
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
export async function performAcross(handles, task, beforeWrite) {
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
