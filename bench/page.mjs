// The in-page half of the Chromium bench: runs the package over the page's IndexedDB and times
// it with performance.now(), so nothing of the driver (CDP round trips) is in the numbers.
// bench/browser-suite.mjs loads this page and calls window.bench.*; each call returns rows.

import { InMemoryStorage, MemoryTool } from "../src/js/index.js";
import { summarize } from "./stats.mjs";
import { KB, checked, commandCases, noteName, textOfSize, timeRuns } from "./workload.mjs";

/** The IndexedDB layout of src/js/storage-indexeddb.js (database per store, two object stores). */

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
    const { totalMs: populateMs, importMs } = await populate(store, files, fileBytes);
    const rows = [];
    const sized = { store_files: files, file_bytes: fileBytes };
    rows.push({
      case: `import a bundle of ${files.toLocaleString("en-US")} files (one transaction)`,
      command: "import",
      ...sized,
      ...summarize([importMs]),
    });

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
      const exportSamples = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const bundle = await tool.export();
        exportSamples.push(performance.now() - t0);
        if (bundle.memories.length !== files) throw new Error(`export gave ${bundle.memories.length} memories`);
      }
      rows.push({
        case: `export a bundle of ${files.toLocaleString("en-US")} files`,
        command: "export",
        ...sized,
        ...summarize(exportSamples),
      });
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
 * Fills IndexedDB store `store` with `files` files fast: the core writes them into in-memory
 * storage, then the package's own import copies them into IndexedDB in one transaction (so the
 * records, contents and versions are exactly what the tool writes, whatever the schema).
 * @returns {Promise<{ totalMs: number, importMs: number }>} milliseconds taken, in all and by
 *   the import into IndexedDB alone
 */
async function populate(store, files, fileBytes) {
  const t0 = performance.now();
  const maker = await MemoryTool.open({ store, storage: new InMemoryStorage(), limits: { maxFiles: files } });
  for (let i = 1; i <= files; i++) {
    await maker.writeFile(`/memories/${noteName(i)}`, textOfSize(fileBytes, `note ${i}`));
  }
  const bundle = await maker.export();
  maker.close();
  const tool = await MemoryTool.open({ store, storage: "indexeddb", limits: { maxFiles: files } });
  let importMs;
  try {
    const t1 = performance.now();
    const result = await tool.import(bundle);
    importMs = performance.now() - t1;
    if (result.imported !== files) {
      throw new Error(`populate: imported ${result.imported} files, not ${files}`);
    }
  } finally {
    tool.close();
  }
  return { totalMs: performance.now() - t0, importMs };
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
