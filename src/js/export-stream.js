// The streamed export (docs/TOOL.md#bundles): a store's bundle written as it is read, into a
// Blob. A first read-only transaction takes the list of records (and versions); the contents
// then come in chunks of about CHUNK_BYTES, each chunk its own read-only transaction (the next
// one asked for while the last is formatted), and the core formats each chunk in batches of
// about BATCH_BYTES, one call per batch (its `bundleEntries`: the batch's records as JSON
// lines, its contents as one byte array, the entries back as UTF-8 bytes that go into the Blob
// as they are), with a yield to the page before each batch: the wasm memory
// holds one batch (or one entry bigger than a batch) at a time, time stays linear, and the main
// thread is never held for long. The snapshot is consistent: every chunk checks the store's
// newest version id (every change of a memory writes a version) and the export starts again,
// up to RETRIES times, if the store changed under it.

import { MemoryToolError, toStorageError } from "./errors.js";
import { bundleEntries, bundleHead } from "../../pkg/memory_tool_wasm.js";

/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").StorageTx} StorageTx */

/**
 * Bytes of content read per chunk (one read-only transaction): a transaction costs a round
 * trip to the storage, so fewer and bigger chunks are faster; but a page of records is read
 * and handed over in one callback (the browser takes the page's records in, all in one task,
 * before the callback runs), so its size is also how long the page may wait. For 10,000 × 1 KB
 * in Chromium (`node bench/run.mjs --only stream`, docs/BENCHMARKS.md#streamed-export): 1 MiB,
 * stalls of 27–73 ms; 512 KiB, 11–77 ms on a loaded machine, the gaps that held no formatting
 * lying just before a page arrived; 256 KiB halves that task for ~15% more time (~450 ms).
 */
const CHUNK_BYTES = 256 * 1024;
/** Entries per chunk at most, whatever their size. */
const CHUNK_ITEMS = 1000;
/**
 * Records in the first page of a paged list. Later pages hold about CHUNK_BYTES by the sizes
 * the last page's records stated: IndexedDB's records carry a copy of their head's bytes, so
 * a page is a chunk's contents too (no further request), and a page of big files stays small.
 */
const FIRST_PAGE_ITEMS = 32;
/**
 * Bytes of content per call of the core, a yield before each: 192 KiB took 5–10 ms in
 * Chromium, so ~96 KiB keeps a call to a few ms on a busy machine too.
 */
const BATCH_BYTES = 96 * 1024;
/** Entries per call of the core at most. */
const BATCH_ITEMS = 200;
/** Bytes gathered before they are handed to a Blob part (and leave the JS heap). */
const PART_BYTES = 1 << 20;
/** `bundleEntries`'s length of a version with no content. */
const NO_CONTENT = 0xffffffff;
/** How many times the export starts again when the store changes under it. */
const RETRIES = 3;
/** An id above every version id: the whole history. */
const ALL_VERSIONS = "memver_~";

/**
 * One transaction of `handle`, as a promise of what `body` hands to `done`.
 * @template T
 * @param {StoreHandle} handle
 * @param {(tx: StorageTx, done: (value: T) => void) => void} body
 * @returns {Promise<T>}
 */
async function read(handle, body) {
  /** @type {{ value: T } | null} */
  let result = null;
  await handle.transaction("readonly", (tx) => body(tx, (value) => (result = { value })));
  if (result === null) throw new MemoryToolError("STORAGE_FAILED", "The storage ended a read before answering it.");
  return /** @type {{ value: T }} */ (result).value;
}

/**
 * Lets the page run (input, rendering, timers) between batches: a message to itself, which,
 * unlike `setTimeout(0)` (4 ms at least once nested), costs no wait; `setTimeout` where there
 * is no MessageChannel.
 * @returns {Promise<void>}
 */
function yieldToPage() {
  if (typeof MessageChannel !== "function") return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve(undefined);
    };
    channel.port2.postMessage(null);
  });
}

/**
 * The bundle of the store behind `handle`, as a Blob of JSON (the same text `export` gives,
 * with `skipped` listing what could not be read).
 * @param {StoreHandle} handle
 * @param {{ includeVersions: boolean, onProgress?: (progress: { done: number, total: number }) => void }} options
 * @returns {Promise<Blob>}
 */
export async function exportBlob(handle, options) {
  for (let attempt = 0; ; attempt++) {
    try {
      const blob = await attemptExport(handle, options);
      if (blob) return blob;
    } catch (error) {
      throw error instanceof MemoryToolError ? error : toStorageError(error);
    }
    if (attempt + 1 >= RETRIES) {
      throw new MemoryToolError(
        "STORAGE_FAILED",
        `The store kept changing during the export (${RETRIES} tries); export it when it is quiet.`,
      );
    }
  }
}

/**
 * One try: the Blob, or null when the store changed under it.
 * @param {StoreHandle} handle
 * @param {{ includeVersions: boolean, onProgress?: (progress: { done: number, total: number }) => void }} options
 * @returns {Promise<Blob | null>}
 */
async function attemptExport(handle, { includeVersions, onProgress }) {
  // The list: the records, or (a storage that reads them a page at a time: IndexedDB) only
  // their count, the records then coming with each chunk, so no one task takes in 10,000
  // records at once; and the versions.
  const listed = await read(handle, (tx, done) => {
    const paged = typeof tx.getFilesAfter === "function";
    tx.getNewestVersionId((stamp) => {
      /** @type {{ stamp: string | null, paged: boolean, records: any[], count: number, versions: any[] }} */
      const list = { stamp, paged, records: [], count: 0, versions: [] };
      let left = includeVersions ? 2 : 1;
      const arrived = () => {
        if (--left === 0) done(list);
      };
      if (paged) {
        tx.countFiles((n) => {
          list.count = n;
          arrived();
        });
      } else {
        tx.getSubtree("", (found) => {
          list.records = found;
          list.count = found.length;
          arrived();
        });
      }
      if (includeVersions) {
        tx.getVersionsBelow(ALL_VERSIONS, (found) => {
          list.versions = found;
          arrived();
        });
      }
    });
  });
  const { stamp, paged, records, count, versions } =
    /** @type {{ stamp: string | null, paged: boolean, records: any[], count: number, versions: any[] }} */ (listed);
  /** @type {Array<{ kind: "memory" | "version", item: any, key: string | null }>} */
  const entries = records.map(memoryEntry);
  const versionEntries = versions.map((item) => ({
    kind: /** @type {const} */ ("version"),
    item,
    key: typeof item.content === "string" && item.redactedAt == null ? /** @type {string} */ (item.content) : null,
  }));
  // The records a paged list has read so far end at `after`; `exhausted` once none are left.
  /** @type {string | null} */
  let after = null;
  let exhausted = !paged;
  let pageItems = FIRST_PAGE_ITEMS;
  let total = count + versions.length;
  const step = Math.max(1, Math.floor(total / 100));
  /** @param {number} done */
  const progress = (done) => {
    if (!onProgress || (done !== 0 && done !== total && done % step !== 0)) return;
    try {
      onProgress({ done, total });
    } catch {
      // A progress display failing must not stop the export.
    }
  };
  progress(0);

  /** @type {Blob[]} */
  const parts = [];
  /** @type {BlobPart[]} */
  let pending = [bundleHead()];
  let pendingBytes = 0;
  /** @param {string | Uint8Array<ArrayBuffer>} piece */
  const write = (piece) => {
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes >= PART_BYTES) {
      parts.push(new Blob(pending));
      pending = [];
      pendingBytes = 0;
    }
  };
  /** @type {Array<Record<string, string>>} */
  const skipped = [];
  /** The memories left out: their versions are too, unless their history ends in a deletion. */
  const leftOut = new Set();
  let firstMemory = true;
  let firstVersion = true;
  let inVersions = false;

  /**
   * Cuts `entries[from, to)` into runs of one kind, each at least one entry and at most
   * `items` entries and about `bytes` bytes (by the sizes the records state).
   * @param {number} from
   * @param {number} to
   * @param {number} items
   * @param {number} bytes
   * @returns {Array<[number, number]>}
   */
  const cut = (from, to, items, bytes) => {
    /** @type {Array<[number, number]>} */
    const runs = [];
    let start = from;
    while (start < to) {
      let end = start;
      let size = 0;
      while (end < to && entries[end].kind === entries[start].kind && end - start < items && (end === start || size < bytes)) {
        const stated = Number(entries[end].item.size);
        size += Number.isFinite(stated) && stated > 0 ? stated : 0;
        end++;
      }
      runs.push([start, end]);
      start = end;
    }
    return runs;
  };

  /**
   * The next chunk from `entries[from]` on, in one read-only transaction: with `page`, the
   * next page of records first when none are left over from the last (`pageItems` of them, after
   * `after`), then the contents of the chunk (undefined where an entry has none or it is
   * missing), where the chunk ends before `end` (else before the records read). Null when the
   * store changed since the list was read; `to === from` when nothing is left.
   * @param {number} from
   * @param {number} end
   * @param {boolean} page
   * @returns {Promise<{ to: number, contents: Array<Uint8Array | undefined> } | null>}
   */
  const readChunk = (from, end, page) =>
    read(handle, (tx, done) => {
      tx.getNewestVersionId((now) => {
        if (now !== stamp) {
          done(null);
          return;
        }
        const contentsThen = () => {
          const run = cut(from, page ? entries.length : end, CHUNK_ITEMS, CHUNK_BYTES)[0];
          if (run === undefined) {
            done({ to: from, contents: [] });
            return;
          }
          readContents(tx, run, (contents) => done({ to: run[1], contents }));
        };
        if (!page || exhausted || entries.length > from) {
          contentsThen();
          return;
        }
        const asked = pageItems;
        /** @type {NonNullable<StorageTx["getFilesAfter"]>} */ (tx.getFilesAfter)(after, asked, (found) => {
          let bytes = 0;
          for (const record of found) {
            entries.push(memoryEntry(record));
            const stated = Number(record.size);
            bytes += Number.isFinite(stated) && stated > 0 ? stated : 0;
          }
          if (found.length > 0) after = String(found[found.length - 1].path);
          if (found.length < asked) exhausted = true;
          // The next page: about one chunk, by this page's mean size.
          const mean = found.length > 0 ? Math.max(1, bytes / found.length) : 1;
          pageItems = Math.max(1, Math.min(CHUNK_ITEMS, Math.floor(CHUNK_BYTES / mean)));
          contentsThen();
        });
      });
    });

  /**
   * The contents of `entries[from, to)` (undefined where an entry has none or it is missing),
   * read in transaction `tx`.
   * @param {StorageTx} tx
   * @param {[number, number]} run
   * @param {(contents: Array<Uint8Array | undefined>) => void} done
   */
  const readContents = (tx, [from, to], done) => {
    /** @type {Array<Uint8Array | undefined>} */
    const contents = new Array(to - from);
    // Entries without content (a deletion, a redacted version) need no read.
    /** @type {number[]} */
    const wanted = [];
    for (let i = from; i < to; i++) if (entries[i].key !== null) wanted.push(i - from);
    const keys = wanted.map((i) => /** @type {string} */ (entries[from + i].key));
    if (wanted.length === 0) done(contents);
    else if (typeof tx.getContents === "function") {
      // All of the chunk's contents in one go (IndexedDB: a range read when they lie together).
      tx.getContents(keys, (values) => {
        wanted.forEach((i, n) => (contents[i] = bytesOf(values[n])));
        done(contents);
      });
    } else {
      let left = wanted.length;
      wanted.forEach((i, n) => {
        tx.getContent(keys[n], (value) => {
          contents[i] = bytesOf(value);
          if (--left === 0) done(contents);
        });
      });
    }
  };

  /**
   * Formats `entries[from, to)` (one kind) in one call of the core, `contents` holding the
   * chunk's contents from `base` on, and writes the entries; what is left out goes to
   * `skipped`, in order.
   * @param {[number, number]} batch
   * @param {Array<Uint8Array | undefined>} contents
   * @param {number} base
   */
  const format = ([from, to], contents, base) => {
    const kind = entries[from].kind;
    if (kind === "version" && !inVersions) {
      write('],"versions":[');
      inVersions = true;
    }
    // What goes to the core: the entries whose content is there (or that need none).
    /** @type {number[]} */
    const sent = [];
    /** @type {Array<Record<string, string> | null>} */
    const missing = [];
    for (let i = from; i < to; i++) {
      const entry = entries[i];
      if (entry.key !== null && contents[i - base] === undefined) {
        if (kind === "memory") leftOut.add(entry.item.id);
        missing.push(
          kind === "memory"
            ? { path: String(entry.item.path), reason: "its content is missing" }
            : { version_id: String(entry.item.id), reason: "its content is missing" },
        );
      } else {
        missing.push(null);
        sent.push(i);
      }
    }
    const lengths = new Uint32Array(sent.length);
    let total = 0;
    sent.forEach((i, n) => {
      const value = contents[i - base];
      lengths[n] = value === undefined ? NO_CONTENT : value.length;
      total += value === undefined ? 0 : value.length;
    });
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const i of sent) {
      const value = contents[i - base];
      if (value === undefined) continue;
      joined.set(value, offset);
      offset += value.length;
    }
    const answer = bundleEntries(kind === "version", recordsJson(sent.map((i) => entries[i].item)), joined, lengths, includeVersions);
    // One flag byte per entry sent (1: it gave no entry), then the entries.
    const unread = answer.subarray(0, sent.length);
    const text = answer.subarray(sent.length);
    if (text.length > 0) {
      const first = kind === "memory" ? firstMemory : firstVersion;
      if (!first) write(",");
      // The core's bytes are a copy of its own (a plain ArrayBuffer of their own).
      write(/** @type {Uint8Array<ArrayBuffer>} */ (text));
      if (kind === "memory") firstMemory = false;
      else firstVersion = false;
    }
    let n = 0;
    for (let i = from; i < to; i++) {
      const gone = missing[i - from];
      if (gone) {
        skipped.push(gone);
        continue;
      }
      const flag = unread[n++];
      if (flag !== 0) {
        const item = entries[i].item;
        if (kind === "memory") leftOut.add(item?.id);
        // 2: a memory whose bytes are not the ones its record names (changed outside).
        const reason = flag === 2 ? "its content does not match its content_sha256" : "its record cannot be read";
        skipped.push(kind === "memory" ? { path: String(item?.path), reason } : { version_id: String(item?.id), reason });
      }
    }
  };

  /**
   * Writes the entries from `entries[from]` on, chunk by chunk (with `page`, as the pages of
   * records come; else up to the end of `entries`), the next chunk read while one is
   * formatted. False when the store changed under it.
   * @param {number} from
   * @param {boolean} page
   * @returns {Promise<boolean>}
   */
  const writeFrom = async (from, page) => {
    const end = entries.length;
    /** @type {ReturnType<typeof readChunk> | null} */
    let reading = readChunk(from, end, page);
    try {
      for (;;) {
        const chunk = await /** @type {ReturnType<typeof readChunk>} */ (reading);
        reading = null;
        if (chunk === null) return false;
        const { to, contents } = chunk;
        if (to === from) return true;
        const more = page ? !exhausted || entries.length > to : to < end;
        if (more) reading = readChunk(to, end, page);
        for (const batch of cut(from, to, BATCH_ITEMS, BATCH_BYTES)) {
          // A yield first: the chunk arrived in the storage's callback, which has just taken
          // its records in; the batch gets a task of its own.
          await yieldToPage();
          format(batch, contents, from);
          progress(batch[1]);
        }
        if (!more) return true;
        from = to;
      }
    } finally {
      // A read still under way when this ends (a change seen, a failure): its outcome is moot.
      /** @type {Promise<unknown> | null} */ (reading)?.catch(() => {});
    }
  };

  if (paged && !(await writeFrom(0, true))) return null;
  const rest = paged ? entries.length : 0;
  // A bundle's history replays to its memories (an import checks it): the versions of a live
  // memory left out are left out too, while a deleted memory's history, which ends in its
  // deletion, comes along (as `export` does).
  /** @type {Map<unknown, string>} */
  const lastOperation = new Map();
  for (const v of versionEntries) lastOperation.set(v.item.memoryId, v.item.operation);
  for (const v of versionEntries) {
    if (leftOut.has(v.item.memoryId) && lastOperation.get(v.item.memoryId) !== "deleted") {
      skipped.push({ version_id: String(v.item.id), reason: "its memory was left out" });
    } else {
      entries.push(v);
    }
  }
  if (entries.length > rest && !(await writeFrom(rest, false))) return null;
  if (entries.length !== total) {
    // The store's count of its files was off (a damaged store): the end is where it ended.
    total = entries.length;
    progress(total);
  }
  if (!inVersions) write(includeVersions ? '],"versions":[' : "]");
  if (includeVersions) write("]");
  if (skipped.length > 0) write(`,"skipped":${JSON.stringify(skipped)}`);
  write("}");
  parts.push(new Blob(pending));
  return new Blob(parts, { type: "application/json" });
}

/**
 * A memory's entry: its record and its content key.
 * @param {any} item
 * @returns {{ kind: "memory", item: any, key: string }}
 */
function memoryEntry(item) {
  return { kind: "memory", item, key: String(item.content ?? item.id) };
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
 * The records as JSON, one a line (JSON text has no raw line break), for one call of the core.
 * A record JSON cannot write (a damaged one: a BigInt, a cycle) becomes `null`, which the core
 * reports as unreadable.
 * @param {unknown[]} records
 * @returns {string}
 */
function recordsJson(records) {
  return records
    .map((record) => {
      try {
        return JSON.stringify(record) ?? "null";
      } catch {
        return "null";
      }
    })
    .join("\n");
}
