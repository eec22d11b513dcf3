// The streamed export (docs/TOOL.md#bundles): a store's bundle written as it is read, into a
// Blob. A first read-only transaction takes the list of records (and versions); the contents
// then come in chunks of about CHUNK_BYTES, each chunk its own read-only transaction, and the
// core formats each memory and version between them (its `bundleMemory`/`bundleVersion`), with
// a yield to the page after each chunk: the wasm memory holds one entry at a time, time stays
// linear, and the main thread is never held for the whole store. The snapshot is consistent:
// every chunk checks the store's newest version id (every change of a memory writes a version)
// and the export starts again, up to RETRIES times, if the store changed under it.

import { MemoryToolError, toStorageError } from "./errors.js";
import { bundleHead, bundleMemory, bundleVersion } from "../../pkg/memory_tool_wasm.js";

/** @typedef {import("./index.js").StoreHandle} StoreHandle */
/** @typedef {import("./index.js").StorageTx} StorageTx */

/** Bytes of content read (and then formatted) per chunk: ~20 ms of work in Chromium. */
const CHUNK_BYTES = 384 * 1024;
/** Entries per chunk at most, whatever their size. */
const CHUNK_ITEMS = 400;
/** Text gathered before it is handed to a Blob part (and leaves the JS heap's strings). */
const CHUNK_CHARS = 1 << 20;
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

/** Lets the page run (input, rendering) between chunks. */
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

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
  const listed = await read(handle, (tx, done) => {
    /** @type {any[]} */
    let records = [];
    /** @type {any[]} */
    let versions = [];
    tx.getNewestVersionId((stamp) => {
      tx.getSubtree("", (found) => {
        records = found;
        if (!includeVersions) done({ stamp, records, versions });
      });
      if (includeVersions) {
        tx.getVersionsBelow(ALL_VERSIONS, (found) => {
          versions = found;
          done({ stamp, records, versions });
        });
      }
    });
  });
  const { stamp, records, versions } = /** @type {{ stamp: string | null, records: any[], versions: any[] }} */ (listed);
  /** @type {Array<{ kind: "memory" | "version", item: any, key: string | null }>} */
  const entries = [
    ...records.map((item) => ({ kind: /** @type {const} */ ("memory"), item, key: String(item.content ?? item.id) })),
    ...versions.map((item) => ({
      kind: /** @type {const} */ ("version"),
      item,
      key: typeof item.content === "string" && item.redactedAt == null ? item.content : null,
    })),
  ];
  const total = entries.length;
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
  let text = bundleHead();
  /** @param {string} piece */
  const write = (piece) => {
    text += piece;
    if (text.length >= CHUNK_CHARS) {
      parts.push(new Blob([text]));
      text = "";
    }
  };
  /** @type {Array<Record<string, string>>} */
  const skipped = [];
  let firstMemory = true;
  let firstVersion = true;
  let inVersions = false;

  let next = 0;
  while (next < entries.length) {
    // The next chunk: by the sizes the records and versions state, at least one entry.
    /** @type {typeof entries} */
    const chunk = [];
    let bytes = 0;
    while (next < entries.length && chunk.length < CHUNK_ITEMS && (chunk.length === 0 || bytes < CHUNK_BYTES)) {
      const entry = entries[next++];
      chunk.push(entry);
      const size = Number(entry.item.size);
      bytes += Number.isFinite(size) && size > 0 ? size : 0;
    }
    const read_ = await read(handle, (tx, done) => {
      tx.getNewestVersionId((now) => {
        if (now !== stamp) {
          done(null);
          return;
        }
        /** @type {Array<Uint8Array | undefined>} */
        const contents = new Array(chunk.length);
        // Entries without content (a deletion, a redacted version) need no read.
        let left = chunk.filter((entry) => entry.key !== null).length;
        if (left === 0) done(contents);
        chunk.forEach((entry, i) => {
          if (entry.key === null) return;
          tx.getContent(entry.key, (value) => {
            contents[i] = value;
            if (--left === 0) done(contents);
          });
        });
      });
    });
    if (read_ === null) return null;
    const contents = /** @type {Array<Uint8Array | undefined>} */ (read_);
    chunk.forEach((entry, i) => {
      const value = contents[i];
      if (entry.kind === "memory") {
        const path = String(entry.item.path);
        if (value === undefined) {
          skipped.push({ path, reason: "its content is missing" });
          return;
        }
        const json = bundleMemory(JSON.stringify(entry.item), value, includeVersions);
        if (json === undefined) {
          skipped.push({ path, reason: "its record cannot be read" });
          return;
        }
        write(firstMemory ? json : `,${json}`);
        firstMemory = false;
        return;
      }
      if (!inVersions) {
        write('],"versions":[');
        inVersions = true;
      }
      const id = String(entry.item.id);
      if (entry.key !== null && value === undefined) {
        skipped.push({ version_id: id, reason: "its content is missing" });
        return;
      }
      const json = bundleVersion(JSON.stringify(entry.item), entry.key === null ? undefined : value);
      if (json === undefined) {
        skipped.push({ version_id: id, reason: "its record cannot be read" });
        return;
      }
      write(firstVersion ? json : `,${json}`);
      firstVersion = false;
    });
    progress(next);
    await yieldToPage();
  }
  if (!inVersions) write(includeVersions ? '],"versions":[' : "]");
  if (includeVersions) write("]");
  if (skipped.length > 0) write(`,"skipped":${JSON.stringify(skipped)}`);
  write("}");
  parts.push(new Blob([text]));
  return new Blob(parts, { type: "application/json" });
}
