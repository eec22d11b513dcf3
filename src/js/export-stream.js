// The streamed export (docs/TOOL.md#bundles): a store's bundle written as it is read, into a
// Blob. Every rule is the core's `ExportCursor` (src/commands/bundle/export.rs, its calling
// contract there): what each page reads, what each entry is, what is left out and why, the
// bundle's envelope, whether the store changed under it, how many times to try, and what the
// progress says. This module only carries the cursor's steps out: it runs each page, a
// read-only core Task (`cursor.page()`), with the driver (`perform`, as every command), the next
// page read while the last is formatted; it gives the page a turn before each call that
// formats; and it gathers the bytes into Blob parts.

import { MemoryToolError, toStorageError } from "./errors.js";
import { perform } from "./driver.js";
import { ExportCursor } from "../../pkg/memory_tool_wasm.js";

/** @typedef {import("./index.js").StoreHandle} StoreHandle */

/** Bytes gathered before they are handed to a Blob part (and leave the JS heap). */
const PART_BYTES = 1 << 20;

/**
 * Lets the page run (input, rendering, timers) between calls of the core: a message to itself,
 * which, unlike `setTimeout(0)` (4 ms at least once nested), costs no wait; `setTimeout` where
 * there is no MessageChannel.
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

/** The bundle's bytes so far, as Blob parts. */
class Parts {
  /** @type {Blob[]} */
  blobs = [];
  /** @type {Uint8Array<ArrayBuffer>[]} */
  pending = [];
  bytes = 0;

  /** @param {Uint8Array<ArrayBuffer>} piece */
  add(piece) {
    if (piece.length === 0) return;
    this.pending.push(piece);
    this.bytes += piece.length;
    if (this.bytes >= PART_BYTES) {
      this.blobs.push(new Blob(this.pending));
      this.pending = [];
      this.bytes = 0;
    }
  }

  /** @returns {Blob} */
  blob() {
    return new Blob([...this.blobs, new Blob(this.pending)], { type: "application/json" });
  }
}

/**
 * The bundle of the store behind `handle`, as a Blob of JSON (the same text `export` gives,
 * with `skipped` listing what could not be read).
 * @param {StoreHandle} handle
 * @param {{ includeVersions: boolean, onProgress?: (progress: { done: number, total: number }) => void }} options
 * @returns {Promise<Blob>}
 */
export async function exportBlob(handle, { includeVersions, onProgress }) {
  const cursor = new ExportCursor(includeVersions);
  /** The page under way, settled (its failure kept for when it is awaited). @type {Promise<{ error: unknown } | null> | null} */
  let reading = null;
  const report = () => {
    const due = cursor.progress();
    if (!onProgress || due === undefined) return;
    try {
      onProgress({ done: due[0], total: due[1] });
    } catch {
      // A progress display failing must not stop the export.
    }
  };
  try {
    let parts = new Parts();
    for (;;) {
      const step = cursor.step();
      if (step === "read") {
        reading = perform([handle], cursor.page()).then(
          () => null,
          (error) => ({ error }),
        );
      } else if (step === "format") {
        // A yield first: a page may just have arrived in the storage's callback, which has
        // taken its records in; the call gets a task of its own.
        await yieldToPage();
        parts.add(/** @type {Uint8Array<ArrayBuffer>} */ (cursor.format()));
      } else if (step === "wait") {
        const failed = await reading;
        reading = null;
        if (failed) throw failed.error;
      } else if (step === "restart") {
        parts = new Parts();
      } else if (step === "failed") {
        throw new MemoryToolError("STORAGE_FAILED", cursor.failure());
      } else {
        parts.add(/** @type {Uint8Array<ArrayBuffer>} */ (cursor.finish()));
        report();
        return parts.blob();
      }
      report();
    }
  } catch (error) {
    throw error instanceof MemoryToolError ? error : toStorageError(error);
  } finally {
    // A page still under way when this ends (a failure): it must not touch a freed cursor.
    if (reading) await reading;
    cursor.free();
  }
}
