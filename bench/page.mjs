// The in-page half of the Chromium bench: runs the package over the page's IndexedDB and times
// it with performance.now(), so nothing of the driver (CDP round trips) is in the numbers.
// bench/browser-suite.mjs loads this page and calls window.bench.*; each call returns rows.

import { InMemoryStorage, MemoryTool } from "../src/js/index.js";
import { summarize } from "./stats.mjs";
import { KB, checked, commandCases, noteName, textOfSize, timeRuns } from "./workload.mjs";

/** The IndexedDB layout of src/js/storage-indexeddb.js (database per store, two object stores). */
const DB_PREFIX = "memory-tool-wasm:";
const FILES = "files";
const CONTENTS = "contents";

const bench = {
  /** What the page runs in: the clock's resolution depends on cross-origin isolation. */
  info() {
    return {
      userAgent: navigator.userAgent,
      crossOriginIsolated: globalThis.crossOriginIsolated === true,
      timerResolutionMs: timerResolution(),
      hardwareConcurrency: navigator.hardwareConcurrency,
    };
  },

  /**
   * create / view / str_replace on a 10 KB file, over a fresh IndexedDB store.
   * @param {{ runs: number, warmup: number, store?: string, fileBytes?: number }} options
   */
  async commands({ runs, warmup, store = `bench-commands-${Date.now()}`, fileBytes = 10 * KB }) {
    const tool = await MemoryTool.open({ store, storage: "indexeddb" });
    try {
      return await commandCases(tool, { runs, warmup, fileBytes });
    } finally {
      tool.close();
    }
  },

  /**
   * A store of `files` files of `fileBytes` each, flat in /memories: time to open it (wasm
   * already loaded) and `view /memories` over it.
   * @param {{ files: number, fileBytes: number, runs: number, warmup: number, openRuns?: number, store?: string }} options
   */
  async largeStore({ files, fileBytes, runs, warmup, openRuns = 10, store = `bench-large-${Date.now()}` }) {
    const populateMs = await populate(store, files, fileBytes);
    const rows = [];

    const openSamples = [];
    for (let i = 0; i < openRuns + 1; i++) {
      const t0 = performance.now();
      const tool = await MemoryTool.open({ store, storage: "indexeddb" });
      const took = performance.now() - t0;
      tool.close();
      if (i > 0) openSamples.push(took); // the first open is the warm-up
    }
    rows.push({
      case: `MemoryTool.open, ${files.toLocaleString("en-US")} files`,
      command: "open",
      store_files: files,
      file_bytes: fileBytes,
      ...summarize(openSamples),
    });

    const tool = await MemoryTool.open({ store, storage: "indexeddb" });
    try {
      const input = { command: "view", path: "/memories" };
      const listing = checked(await tool.execute(input));
      const text = String(listing.content);
      if (!text.includes(noteName(files)) || !text.includes(noteName(1))) {
        throw new Error(`view /memories does not list the ${files} files: ${text.slice(0, 300)}`);
      }
      rows.push({
        case: `view /memories, ${files.toLocaleString("en-US")} files`,
        command: "view",
        store_files: files,
        file_bytes: fileBytes,
        populate_ms: Math.round(populateMs),
        ...(await timeRuns(() => input, (x) => tool.execute(x), { runs, warmup })),
      });
    } finally {
      tool.close();
    }
    return rows;
  },
};

/**
 * Fills IndexedDB store `store` with `files` files fast: the core makes the records and
 * contents (writeFile into in-memory storage, so they are exactly what the tool would write),
 * then one raw IndexedDB transaction copies them into the database that MemoryTool.open made.
 * @returns {Promise<number>} milliseconds taken
 */
async function populate(store, files, fileBytes) {
  const t0 = performance.now();
  const memory = new InMemoryStorage();
  const maker = await MemoryTool.open({ store, storage: memory });
  for (let i = 1; i <= files; i++) {
    await maker.writeFile(`/memories/${noteName(i)}`, textOfSize(fileBytes, `note ${i}`));
  }
  maker.close();
  /** @type {Array<{ id: string }>} */
  let records = [];
  /** @type {Map<string, Uint8Array>} */
  const contents = new Map();
  const handle = await memory.open(store);
  await handle.transaction("readonly", (tx) => {
    tx.getSubtree("", (all) => {
      records = all;
      for (const record of all) {
        tx.getContent(record.id, (bytes) => {
          if (bytes) contents.set(record.id, bytes);
        });
      }
    });
  });
  handle.close();
  if (records.length !== files || contents.size !== files) {
    throw new Error(`populate: made ${records.length} records and ${contents.size} contents, not ${files}`);
  }

  // The database and its schema come from the package itself.
  const tool = await MemoryTool.open({ store, storage: "indexeddb" });
  checked(await tool.execute({ command: "view", path: "/memories" }));
  tool.close();

  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_PREFIX + store);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onupgradeneeded = () => reject(new Error("populate: the store's database was not there"));
  });
  try {
    await new Promise((resolve, reject) => {
      const tx = db.transaction([FILES, CONTENTS], "readwrite", { durability: "relaxed" });
      const fileStore = tx.objectStore(FILES);
      const contentStore = tx.objectStore(CONTENTS);
      for (const record of records) {
        fileStore.put(record);
        contentStore.put(contents.get(record.id), record.id);
      }
      tx.oncomplete = () => resolve(undefined);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
  return performance.now() - t0;
}

/** The smallest step of performance.now() seen, in ms. */
function timerResolution() {
  let best = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return Math.round(best * 1e6) / 1e6;
}

Object.assign(globalThis, { bench });
const status = document.getElementById("status");
if (status) status.textContent = "ready";
