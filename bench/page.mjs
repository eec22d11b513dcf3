// The in-page half of the Chromium bench: runs the package over the page's IndexedDB and, beside
// each command, the floor (bench/baseline.mjs: the same IndexedDB requests by hand, no wasm),
// and times both with performance.now(), so nothing of the driver (CDP round trips) is in the
// numbers. bench/browser-suite.mjs loads this page and calls window.bench.*; each call returns
// rows.
//
// Stores: `prepare` builds a store's records once with the core over in-memory storage (so they
// are exactly what the package writes), then puts them by hand into two databases with the
// package's schema: the package's own (`memory-tool-wasm:<name>`) and the floor's
// (`bench-floor:<name>`). Each command then runs on its own copy, ours and the floor's
// alternating run by run (ours first on even runs, the floor first on odd ones), so a
// disturbance of the machine hits both alike.

import { InMemoryStorage, IndexedDbStorage, MemoryTool } from "../src/js/index.js";
import init from "../pkg/memory_tool_wasm.js";
import * as floor from "./baseline.mjs";
import { alternatives } from "./alternatives/page-cases.mjs";
import { openIdbMemory } from "./alternatives/idb.mjs";
import { summarize } from "./stats.mjs";
import { layoutCases } from "./layouts.mjs";
import { KB, MARKER_A, MARKER_B, SCALE_FILES, caseName, checked, kb, noteName, scaleCases, textOfSize } from "./workload.mjs";

const OURS_PREFIX = "memory-tool-wasm:";
const FLOOR_PREFIX = "bench-floor:";
/** Room for the files `create` adds, and for `insert` to grow a 100 KB file. */
const LIMITS = { maxFileBytes: 1 << 20, maxFiles: 1_000_000 };
const INSERTED = "an inserted line of text";
/** `insert` puts its file back every this many runs. */
const RESET_EVERY = 10;
const encoder = new TextEncoder();

/** Ids for the floor's records: the package's lengths, and sorting after its ids. */
let floorCounter = 0;
function floorVersionId() {
  const n = floorCounter++;
  return `memver_${Date.now().toString(36).padStart(9, "0")}${(n % 36 ** 4).toString(36).padStart(4, "0")}flrbench`;
}
function floorMemoryId() {
  return `mem_flr${(floorCounter++).toString(36).padStart(21, "0")}`;
}

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
   * Runs `commands` tool commands (view, create, str_replace, insert, view of a directory,
   * delete, on 1 KB files) through the package over in-memory storage, untimed: V8 optimizes
   * code after it has run many times, and a page's first hundreds of commands run slower than
   * later ones (a 1 KB view over in-memory storage: ~120 µs in the first 100, ~18 µs after
   * 10,000). The IndexedDB layer is warmed by each case's own warm-up runs.
   * @param {{ commands: number }} options
   */
  async warmUp({ commands }) {
    const tool = await MemoryTool.open({ storage: "memory", limits: LIMITS });
    const text = textOfSize(KB, MARKER_A);
    const file = (/** @type {number} */ n) => `/memories/w/${n}.md`;
    /** @type {Array<(n: number) => Record<string, unknown>>} */
    const cycle = [
      (n) => ({ command: "create", path: file(n), file_text: text }),
      (n) => ({ command: "view", path: file(n) }),
      (n) => ({ command: "str_replace", path: file(n), old_str: MARKER_A, new_str: MARKER_B }),
      (n) => ({ command: "insert", path: file(n), insert_line: 1, insert_text: "x" }),
      () => ({ command: "view", path: "/memories" }),
      (n) => ({ command: "delete", path: file(n) }),
    ];
    try {
      for (let i = 0; i < commands; i++) {
        const step = /** @type {(n: number) => Record<string, unknown>} */ (cycle[i % cycle.length]);
        const result = await tool.execute(step(Math.floor(i / cycle.length)));
        if (result.isError) throw new Error(`warm-up: ${String(result.content)}`);
      }
    } finally {
      tool.close();
    }
  },

  /**
   * Builds store `name`: `files` files of `fileBytes` in /memories/dir and a document per size
   * of `docs` (`/memories/doc-10KB.md`, with MARKER_A halfway), written by the core into
   * in-memory storage, then put by hand into the package's database and (with `withFloor`)
   * the floor's.
   * @param {{ name: string, files: number, fileBytes: number, docs?: number[], withFloor?: boolean }} options
   */
  async prepare({ name, files, fileBytes, docs = [], withFloor = true }) {
    const t0 = performance.now();
    const snapshot = await buildSnapshot(files, fileBytes, docs);
    const built = performance.now() - t0;
    const t1 = performance.now();
    await writeSnapshot(OURS_PREFIX, name, snapshot);
    if (withFloor) await writeSnapshot(FLOOR_PREFIX, name, snapshot);
    return { buildMs: built, writeMs: performance.now() - t1, records: snapshot.files.length };
  },

  /**
   * view file / create / str_replace / insert on the documents of store `name`, ours beside the
   * floor.
   * @param {{ name: string, sizes: number[], runs: number, warmup: number }} options
   */
  async fileCases({ name, sizes, runs, warmup }) {
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    const env = { db: await floor.openDatabase(FLOOR_PREFIX + name) };
    const oursEnv = { db: await floor.openDatabase(OURS_PREFIX + name) };
    const rows = [];
    try {
      for (const size of sizes) {
        const storePath = `/doc-${kb(size).replace(" ", "")}.md`;
        const toolPath = `/memories${storePath}`;
        const common = { file_bytes: size, store_files: await countFiles(env) };
        const exec = (/** @type {unknown} */ input) => tool.execute(input).then(checked);

        // view file
        rows.push({
          case: caseName("view file", size),
          command: "view",
          ...common,
          ...(await pair({
            runs,
            warmup,
            ours: () => exec({ command: "view", path: toolPath }),
            floor: () => floor.viewFile(env, storePath),
          })),
        });

        // create: a fresh path each run
        const text = textOfSize(size, "");
        const bytes = encoder.encode(text);
        let made = 0;
        await exec({ command: "create", path: `/memories/new/ours-${size}-${made++}.md`, file_text: text });
        const template = await templatesOf(oursEnv, `/new/ours-${size}-0.md`);
        let floorMade = 0;
        rows.push({
          case: caseName("create", size),
          command: "create",
          ...common,
          ...(await pair({
            runs,
            warmup,
            ours: () => exec({ command: "create", path: `/memories/new/ours-${size}-${made++}.md`, file_text: text }),
            prepareFloor: () => {
              const id = floorVersionId();
              const memoryId = floorMemoryId();
              const path = `/new/floor-${size}-${floorMade++}.md`;
              const now = Date.now();
              return {
                record: { ...template.record, path, id: memoryId, version: id, content: id, createdAt: now, updatedAt: now },
                version: { ...template.version, id, memoryId, path, content: id, createdAt: now },
                bytes,
              };
            },
            floor: (write) => floor.create(env, write),
          })),
        });

        // str_replace: MARKER_A and MARKER_B swapped back and forth
        const texts = [textOfSize(size, MARKER_B), textOfSize(size, MARKER_A)].map((t) => encoder.encode(t));
        const swap = (/** @type {number} */ i) =>
          i % 2 === 0
            ? { command: "str_replace", path: toolPath, old_str: MARKER_A, new_str: MARKER_B }
            : { command: "str_replace", path: toolPath, old_str: MARKER_B, new_str: MARKER_A };
        let oursSwaps = 0;
        await exec(swap(oursSwaps++));
        const editTemplate = await templatesOf(oursEnv, storePath);
        let [current] = await floor.read(env, ({ files }) => [files.get(storePath)]);
        let floorSwaps = 0;
        const edited = (/** @type {Uint8Array} */ newBytes) => {
          const id = floorVersionId();
          const now = Date.now();
          current = { ...current, size: newBytes.length, updatedAt: now, version: id, content: id };
          return {
            record: current,
            version: { ...editTemplate.version, id, memoryId: current.id, path: storePath, size: newBytes.length, content: id, createdAt: now },
            bytes: newBytes,
          };
        };
        rows.push({
          case: caseName("str_replace", size),
          command: "str_replace",
          ...common,
          ...(await pair({
            runs,
            warmup,
            ours: () => exec(swap(oursSwaps++)),
            prepareFloor: () => edited(texts[floorSwaps++ % 2]),
            floor: (write) => floor.edit(env, write),
          })),
        });

        // insert: a line after line 10, every run; every RESET_EVERY runs the file is put back
        // as it was (off the clock), so it stays within 250 bytes of its size
        const insertInput = { command: "insert", path: toolPath, insert_line: 10, insert_text: INSERTED };
        const original = textOfSize(size, MARKER_A);
        await exec(insertInput);
        const insertTemplate = await templatesOf(oursEnv, storePath);
        await tool.writeFile(toolPath, original);
        let floorText = original;
        let oursInserts = 0;
        let floorInserts = 0;
        rows.push({
          case: caseName("insert", size),
          command: "insert",
          ...common,
          ...(await pair({
            runs,
            warmup,
            ours: () => exec(insertInput),
            afterOurs: async () => {
              if (++oursInserts % RESET_EVERY === 0) await tool.writeFile(toolPath, original);
            },
            afterFloor: async () => {
              if (++floorInserts % RESET_EVERY === 0) {
                floorText = original;
                await floor.edit(env, edited(encoder.encode(original)));
              }
            },
            prepareFloor: () => {
              const lines = floorText.split("\n");
              lines.splice(10, 0, INSERTED);
              floorText = lines.join("\n");
              const write = edited(encoder.encode(floorText));
              write.version = { ...insertTemplate.version, ...pick(write.version, ["id", "memoryId", "path", "size", "content", "createdAt"]) };
              return write;
            },
            floor: (write) => floor.edit(env, write),
          })),
        });
      }
    } finally {
      tool.close();
      env.db.close();
      oursEnv.db.close();
    }
    return rows;
  },

  /**
   * view /memories, rename /memories/dir (to /memories/moved and back), delete /memories/dir
   * (put back by hand, off the clock, after each run), ours beside the floor.
   * @param {{ name: string, files: number, viewRuns: number, renameRuns: number, deleteRuns: number, dirWarmup: number }} options
   */
  async dirCases({ name, files, viewRuns, renameRuns, deleteRuns, dirWarmup }) {
    const warmup = dirWarmup;
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    const env = { db: await floor.openDatabase(FLOOR_PREFIX + name) };
    const oursEnv = { db: await floor.openDatabase(OURS_PREFIX + name) };
    const exec = (/** @type {unknown} */ input) => tool.execute(input).then(checked);
    const common = { file_bytes: undefined, store_files: files };
    const rows = [];
    try {
      const [sample] = await floor.read(env, ({ files: f }) => [f.getAll(below("/dir"), 1)]);
      common.file_bytes = sample[0].size;

      // view /memories
      const listing = await exec({ command: "view", path: "/memories" });
      const text = String(listing.content);
      // A listing longer than the view limit is cut, with a note of how many entries it has
      // (docs/TOOL.md#result-shape): the directory and its files.
      const cut = `of ${(files + 1).toLocaleString("en-US")} entries.`;
      if (!(text.includes(noteName(files)) || text.includes(cut)) || !text.includes(noteName(1))) {
        throw new Error(`view /memories does not list the ${files} files: ${text.slice(0, 300)}`);
      }
      rows.push({
        case: caseName("view /memories", 0, files),
        command: "view",
        ...common,
        ...(await pair({
          runs: viewRuns,
          warmup: 3,
          ours: () => exec({ command: "view", path: "/memories" }),
          floor: () => floor.viewDirectory(env, ""),
        })),
      });

      // rename: /memories/dir to /memories/moved and back
      let oursAt = "dir";
      const renameOurs = async () => {
        const to = oursAt === "dir" ? "moved" : "dir";
        const result = await exec({ command: "rename", old_path: `/memories/${oursAt}`, new_path: `/memories/${to}` });
        oursAt = to;
        return result;
      };
      await renameOurs();
      const renameTemplate = await floor.newestVersion(oursEnv);
      let floorAt = "dir";
      let [records] = await floor.read(env, ({ files: f }) => [f.getAll(below("/dir"))]);
      rows.push({
        case: caseName("rename dir", 0, files),
        command: "rename",
        ...common,
        ...(await pair({
          runs: renameRuns,
          warmup,
          ours: renameOurs,
          prepareFloor: () => {
            const to = floorAt === "dir" ? "moved" : "dir";
            const now = Date.now();
            const moves = records.map((/** @type {any} */ r) => {
              const id = floorVersionId();
              const path = `/${to}${r.path.slice(floorAt.length + 1)}`;
              return {
                from: r.path,
                record: { ...r, path, updatedAt: now, version: id },
                version: { ...renameTemplate, id, memoryId: r.id, path, size: r.size, sha256: r.sha256, content: r.content, createdAt: now },
              };
            });
            return { from: `/${floorAt}`, to: `/${to}`, moves };
          },
          floor: async ({ from, to, moves }) => {
            await floor.renameDirectory(env, from, to, moves);
            floorAt = to.slice(1);
            records = moves.map((/** @type {any} */ m) => m.record);
          },
        })),
      });
      if (oursAt !== "dir") await renameOurs();
      if (floorAt !== "dir") {
        await floor.renameDirectory(env, `/${floorAt}`, "/dir", records.map((/** @type {any} */ r) => ({
          from: r.path,
          record: { ...r, path: `/dir${r.path.slice(floorAt.length + 1)}` },
          version: { ...renameTemplate, id: floorVersionId(), memoryId: r.id },
        })));
        [records] = await floor.read(env, ({ files: f }) => [f.getAll(below("/dir"))]);
      }

      // delete: every run deletes /memories/dir; both are put back by hand off the clock
      const [oursRecords] = await floor.read(oursEnv, ({ files: f }) => [f.getAll(below("/dir"))]);
      await exec({ command: "delete", path: "/memories/dir" });
      const deleteTemplate = await floor.newestVersion(oursEnv);
      await floor.putAll(oursEnv, { files: oursRecords });
      rows.push({
        case: caseName("delete dir", 0, files),
        command: "delete",
        ...common,
        ...(await pair({
          runs: deleteRuns,
          warmup,
          ours: () => exec({ command: "delete", path: "/memories/dir" }),
          afterOurs: () => floor.putAll(oursEnv, { files: oursRecords }),
          prepareFloor: () => {
            const now = Date.now();
            return records.map((/** @type {any} */ r) => ({
              path: r.path,
              size: r.size,
              version: { ...deleteTemplate, id: floorVersionId(), memoryId: r.id, path: r.path, createdAt: now },
            }));
          },
          floor: (deletes) => floor.deleteDirectory(env, "/dir", deletes),
          afterFloor: () => floor.putAll(env, { files: records }),
        })),
      });
    } finally {
      tool.close();
      env.db.close();
      oursEnv.db.close();
    }
    return rows;
  },

  /**
   * The host API at scale over IndexedDB (bench/workload.mjs's `scaleCases`): `export()`,
   * `memories.list()` and `import(bundle)` on stores of 1 KB files cut from one snapshot of
   * the biggest (made once in memory with the core, put by hand into a database of their own:
   * `memory-tool-wasm:scale-<n>`); each import goes into a fresh empty database;
   * `versions.list(NO_MATCH)` over one file written 300 and 3,000 times. Every store is
   * deleted after its rows. Opening a store and its retention prune are off the clock (a cheap
   * call after the open waits for the prune). Progress goes to the console (`bench-scale: `).
   * @param {{ runs: number, budgetMs?: number }} options
   */
  async scaleCases({ runs, budgetMs }) {
    const open = async (/** @type {string} */ name) => {
      const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
      await tool.versions.list({ limit: 1 });
      return {
        tool,
        release: async () => {
          tool.close();
          await new IndexedDbStorage({ dbPrefix: OURS_PREFIX }).destroy(name);
        },
      };
    };
    const snapshot = await buildSnapshot(SCALE_FILES.biggest, KB, []);
    let imports = 0;
    const rows = await scaleCases({
      runs,
      budgetMs,
      log: (line) => console.log(`bench-scale: ${line}`),
      filled: async (n) => {
        const records = snapshot.files.slice(0, n);
        if (records.length !== n || records[n - 1].path !== `/dir/${noteName(n)}`) throw new Error(`scale: no store of ${n} files`);
        const ids = new Set(records.map((r) => r.id));
        const keys = new Set(records.map((r) => r.content));
        await writeSnapshot(OURS_PREFIX, `scale-${n}`, {
          files: records,
          versions: snapshot.versions.filter((v) => ids.has(v.memoryId)),
          contents: snapshot.contents.filter(([key]) => keys.has(key)),
        });
        return open(`scale-${n}`);
      },
      empty: () => open(`scale-import-${imports++}`),
      history: async (v) => {
        await writeSnapshot(OURS_PREFIX, `scale-versions-${v}`, await buildHistory(v));
        return open(`scale-versions-${v}`);
      },
    });
    return rows.map((row) => ({ suite: "chromium-scale", ...row }));
  },

  /**
   * Builds the store the streaming rows read: `files` files of `fileBytes` (made once by the
   * core, put by hand into `memory-tool-wasm:stream-<files>`). Returns its name.
   * @param {{ files: number, fileBytes: number }} options
   */
  async streamPrepare({ files, fileBytes }) {
    const name = `stream-${files}-${fileBytes}`;
    const t0 = performance.now();
    await writeSnapshot(OURS_PREFIX, name, await buildSnapshot(files, fileBytes, []));
    console.log(`bench-stream: ${files} files of ${fileBytes} B written in ${Math.round(performance.now() - t0)} ms`);
    return name;
  },

  /**
   * `exportBlob()` of store `name` (from `streamPrepare`), `runs` times after one untimed run,
   * beside `export()` of the same store: the time, the longest main-thread stall while it ran
   * (the biggest gap of a 4 ms `setInterval` probe, and the longest long task the observer
   * saw), the wasm memory before and after (it only grows: after is the high-water mark), and
   * whether the Blob's JSON equals `export()` (checked after the runs, so the wasm memory read
   * is exportBlob's alone). Progress goes to the console (`bench-stream: `).
   * @param {{ name: string, label: string, runs: number, compare?: boolean }} options
   */
  async streamCases({ name, label, runs, compare = true }) {
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    wasmLoaded = true;
    try {
      await tool.versions.list({ limit: 1 });
      /** @type {number[]} */
      const samples = [];
      let stall = 0;
      let longTask = 0;
      const wasmBefore = await this.wasmMemory();
      let size = 0;
      /** @type {Blob | undefined} */
      let last;
      // The first run (the first formatting calls of this page: V8 has not optimized them yet).
      let first = { ms: 0, stall: 0, longTask: 0 };
      for (let i = 0; i <= runs; i++) {
        const probe = stallProbe();
        const started = performance.now();
        const blob = await tool.exportBlob();
        const took = performance.now() - started;
        const seen = await probe.stop();
        size = blob.size;
        last = blob;
        console.log(`bench-stream: exportBlob ${label} run ${i}${i === 0 ? " (first, untimed)" : ""}: ${Math.round(took)} ms, longest stall ${Math.round(seen.gap)} ms, longest long task ${Math.round(seen.longTask)} ms`);
        if (i === 0) {
          first = { ms: took, stall: seen.gap, longTask: seen.longTask };
          continue;
        }
        samples.push(took);
        stall = Math.max(stall, seen.gap);
        longTask = Math.max(longTask, seen.longTask);
      }
      // Read before export() runs, which grows the wasm memory by the whole store.
      const wasmAfter = await this.wasmMemory();
      // With the history too (its versions are listed in the first transaction).
      const withVersions = { samples: /** @type {number[]} */ ([]), stall: 0, longTask: 0 };
      for (let i = 0; i < (compare ? Math.min(runs, 3) : 0); i++) {
        const probe = stallProbe();
        const started = performance.now();
        await tool.exportBlob({ include_versions: true });
        const took = performance.now() - started;
        const seen = await probe.stop();
        console.log(`bench-stream: exportBlob with versions ${label} run ${i + 1}: ${Math.round(took)} ms, longest stall ${Math.round(seen.gap)} ms, longest long task ${Math.round(seen.longTask)} ms`);
        withVersions.samples.push(took);
        withVersions.stall = Math.max(withVersions.stall, seen.gap);
        withVersions.longTask = Math.max(withVersions.longTask, seen.longTask);
      }
      if (compare && last) {
        const whole = await tool.export();
        if (JSON.stringify(JSON.parse(await last.text())) !== JSON.stringify(whole)) {
          throw new Error(`exportBlob of ${label}: not the bundle export() gives`);
        }
      }
      const exportSamples = [];
      for (let i = 0; i < (compare ? Math.min(runs, 3) : 0); i++) {
        const started = performance.now();
        await tool.export();
        exportSamples.push(performance.now() - started);
      }
      const imported = compare ? await importCases(await tool.export(), label, Math.min(runs, 3)) : [];
      return [
        ...imported,
        {
          suite: "chromium-stream",
          case: `exportBlob, ${label}`,
          ...summarize(samples),
          max_stall_ms: Math.round(stall * 10) / 10,
          longest_long_task_ms: Math.round(longTask * 10) / 10,
          first_run_ms: Math.round(first.ms * 10) / 10,
          first_run_stall_ms: Math.round(first.stall * 10) / 10,
          first_run_long_task_ms: Math.round(first.longTask * 10) / 10,
          wasm_memory_before: wasmBefore,
          wasm_memory_after: wasmAfter,
          bundle_bytes: size,
          export_median_ms: exportSamples.length > 0 ? summarize(exportSamples).median_ms : undefined,
        },
        ...(withVersions.samples.length > 0
          ? [
              {
                suite: "chromium-stream",
                case: `exportBlob with versions, ${label}`,
                ...summarize(withVersions.samples),
                max_stall_ms: Math.round(withVersions.stall * 10) / 10,
                longest_long_task_ms: Math.round(withVersions.longTask * 10) / 10,
              },
            ]
          : []),
      ];
    } finally {
      tool.close();
    }
  },

  /**
   * Opens store `name` `runs` + 1 times (the first, which also instantiates the wasm in a fresh
   * page, is reported apart) and closes it again.
   * @param {{ name: string, runs: number }} options
   */
  async openStore({ name, runs }) {
    const samples = [];
    let first = 0;
    for (let i = 0; i <= runs; i++) {
      const t0 = performance.now();
      const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
      const took = performance.now() - t0;
      tool.close();
      if (i === 0) first = took;
      else samples.push(took);
    }
    return { first_open_ms: Math.round(first * 1000) / 1000, ...summarize(samples) };
  },

  /**
   * The floor of an open: `indexedDB.open` of the same database and `close`, `runs` + 1 times
   * (the first left out, as for `openStore`).
   * @param {{ name: string, runs: number }} options
   */
  async openFloor({ name, runs }) {
    const samples = [];
    for (let i = 0; i <= runs; i++) {
      const t0 = performance.now();
      const db = await floor.openDatabase(OURS_PREFIX + name);
      const took = performance.now() - t0;
      db.close();
      if (i > 0) samples.push(took);
    }
    return summarize(samples);
  },

  /**
   * Opens store `name` and keeps it open (for the memory measurement), or views /memories on the
   * tool kept open.
   * @param {{ name: string }} options
   */
  async keepOpen({ name }) {
    const t0 = performance.now();
    kept = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    return { open_ms: performance.now() - t0 };
  },
  /**
   * `view /memories` on the tool kept open, `runs` times: the first time apart, then the rest's
   * median and p95.
   * @param {{ runs?: number }} [options]
   */
  async viewKept({ runs = 1 } = {}) {
    if (!kept) throw new Error("no store kept open");
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      checked(await kept.execute({ command: "view", path: "/memories" }));
      samples.push(performance.now() - t0);
    }
    const rest = samples.length > 1 ? summarize(samples.slice(1)) : undefined;
    return { first_ms: Math.round(samples[0] * 1000) / 1000, median_ms: rest?.median_ms, p95_ms: rest?.p95_ms };
  },
  closeKept() {
    kept?.close();
    kept = undefined;
  },

  /** The wasm module's linear memory, in bytes (it only grows), or 0 before it is loaded. */
  async wasmMemory() {
    if (!wasmLoaded) return 0;
    const exports = await init();
    return exports.memory.buffer.byteLength;
  },
  /** Loads the wasm (through an in-memory tool), so its memory can be read. */
  async loadWasm() {
    const tool = await MemoryTool.open({ storage: new InMemoryStorage() });
    tool.close();
    wasmLoaded = true;
    return this.wasmMemory();
  },

  /**
   * Deletes the bench's databases of store `name`: both, or only the floor's.
   * @param {{ name: string, floorOnly?: boolean }} options
   */
  async drop({ name, floorOnly = false }) {
    for (const prefix of floorOnly ? [FLOOR_PREFIX] : [OURS_PREFIX, FLOOR_PREFIX]) {
      await new IndexedDbStorage({ dbPrefix: prefix }).destroy(name);
    }
  },
};

/** @type {MemoryTool | undefined} */
let kept;
/** @typedef {{ files: any[], versions: any[], contents: Array<[string, Uint8Array]> }} Snapshot */
let wasmLoaded = false;

/**
 * Times ours and the floor alternately, `warmup` + `runs` times each; returns ours' summary and
 * the floor's median and p95 beside it.
 * @template F
 * @param {{ runs: number, warmup: number, ours: () => Promise<unknown>, floor: (input: F) => Promise<unknown>,
 *   prepareFloor?: () => F, afterOurs?: () => Promise<unknown>, afterFloor?: () => Promise<unknown> }} options
 */
async function pair({ runs, warmup, ours, floor: floorRun, prepareFloor, afterOurs, afterFloor }) {
  const oursSamples = [];
  const floorSamples = [];
  const runOurs = async () => {
    const t0 = performance.now();
    await ours();
    const took = performance.now() - t0;
    if (afterOurs) await afterOurs();
    return took;
  };
  const runFloor = async () => {
    const input = /** @type {F} */ (prepareFloor ? prepareFloor() : undefined);
    const t0 = performance.now();
    await floorRun(input);
    const took = performance.now() - t0;
    if (afterFloor) await afterFloor();
    return took;
  };
  for (let i = 0; i < warmup + runs; i++) {
    let a;
    let b;
    if (i % 2 === 0) {
      a = await runOurs();
      b = await runFloor();
    } else {
      b = await runFloor();
      a = await runOurs();
    }
    if (i >= warmup) {
      oursSamples.push(a);
      floorSamples.push(b);
    }
  }
  const mine = summarize(oursSamples);
  const base = summarize(floorSamples);
  return {
    ...mine,
    baseline_median_ms: base.median_ms,
    baseline_p95_ms: base.p95_ms,
    baseline_min_ms: base.min_ms,
    ratio: Math.round((mine.median_ms / base.median_ms) * 1000) / 1000,
  };
}

/**
 * The records the core writes for `files` files of `fileBytes` in /memories/dir and the
 * documents: file records, version records and contents, read back from in-memory storage.
 * @param {number} files
 * @param {number} fileBytes
 * @param {number[]} docs
 */
/**
 * `import(bundle)` into a fresh empty IndexedDB store, `runs` times (alternately with the idb
 * version's bulk put of the same memories, bench/alternatives/idb.mjs `fill`: one record
 * `{ path, content, size, updatedAt }` each into one object store in one transaction), with the longest
 * main-thread stall while each ran.
 * @param {any} bundle
 * @param {string} label
 * @param {number} runs
 */
async function importCases(bundle, label, runs) {
  const samples = [];
  const bulk = [];
  let stall = 0;
  let longTask = 0;
  let bulkStall = 0;
  for (let i = 0; i < runs; i++) {
    const store = `stream-import-${i}`;
    const tool = await MemoryTool.open({ store, storage: "indexeddb", limits: LIMITS });
    let probe = stallProbe();
    let started = performance.now();
    await tool.import(bundle);
    samples.push(performance.now() - started);
    let seen = await probe.stop();
    stall = Math.max(stall, seen.gap);
    longTask = Math.max(longTask, seen.longTask);
    tool.close();
    console.log(`bench-stream: import ${label} run ${i + 1}: ${Math.round(samples.at(-1) ?? 0)} ms, longest stall ${Math.round(seen.gap)} ms, longest long task ${Math.round(seen.longTask)} ms`);
    await new IndexedDbStorage({ dbPrefix: OURS_PREFIX }).destroy(store);

    const idb = await openIdbMemory(`bench-stream-bulk-${i}`);
    probe = stallProbe();
    started = performance.now();
    await idb.fill(bundle.memories);
    bulk.push(performance.now() - started);
    seen = await probe.stop();
    bulkStall = Math.max(bulkStall, seen.gap);
    await idb.destroy();
  }
  const median = summarize(samples).median_ms;
  const bulkMedian = summarize(bulk).median_ms;
  return [
    {
      suite: "chromium-stream",
      case: `import into an empty store, ${label}`,
      ...summarize(samples),
      max_stall_ms: Math.round(stall * 10) / 10,
      longest_long_task_ms: Math.round(longTask * 10) / 10,
      bulk_put_median_ms: bulkMedian,
      bulk_put_max_stall_ms: Math.round(bulkStall * 10) / 10,
      ratio_bulk_put: Math.round((median / bulkMedian) * 100) / 100,
    },
  ];
}

/**
 * Watches the main thread until `stop()`: the biggest gap between ticks of a 4 ms interval
 * (what a page's input or animation would have waited) and the longest long task reported.
 */
function stallProbe() {
  let last = performance.now();
  let gap = 0;
  let longTask = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 4);
  /** @type {PerformanceObserver | undefined} */
  let observer;
  try {
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTask = Math.max(longTask, entry.duration);
    });
    observer.observe({ type: "longtask", buffered: false });
  } catch {
    observer = undefined;
  }
  return {
    async stop() {
      // The gap up to the end, and long tasks reported after it.
      gap = Math.max(gap, performance.now() - last);
      await new Promise((resolve) => setTimeout(resolve, 20));
      clearInterval(timer);
      observer?.disconnect();
      return { gap, longTask };
    },
  };
}

export async function buildSnapshot(files, fileBytes, docs) {
  const storage = new InMemoryStorage();
  const maker = await MemoryTool.open({ store: "snapshot", storage, limits: LIMITS });
  try {
    for (let i = 1; i <= files; i++) {
      await maker.writeFile(`/memories/dir/${noteName(i)}`, textOfSize(fileBytes, `note ${i}`));
    }
    for (const size of docs) {
      await maker.writeFile(`/memories/doc-${kb(size).replace(" ", "")}.md`, textOfSize(size, MARKER_A));
    }
  } finally {
    maker.close();
  }
  const handle = await storage.open("snapshot");
  /** @type {{ files: any[], versions: any[], contents: Array<[string, Uint8Array]> }} */
  const snapshot = { files: [], versions: [], contents: [] };
  await handle.transaction("readonly", (tx) => {
    tx.getSubtree("", (records) => {
      snapshot.files = records;
      for (const record of records) {
        tx.getContent(record.content, (bytes) => {
          snapshot.contents.push([record.content, /** @type {Uint8Array} */ (bytes)]);
        });
      }
    });
    tx.getVersionsBelow("\uffff", (records) => {
      snapshot.versions = records;
    });
  });
  handle.close();
  return snapshot;
}

/**
 * A history of `versions` versions of one file (`/memories/edited.md` created, then written
 * `versions - 1` more times), made by the core in memory: its file record, every version and
 * every version's content.
 * @param {number} versions
 * @returns {Promise<Snapshot>}
 */
export async function buildHistory(versions) {
  const storage = new InMemoryStorage();
  // The history budget (100 versions a memory by default) would prune it: raised to hold them.
  const maker = await MemoryTool.open({ store: "history", storage, limits: { ...LIMITS, maxVersionsPerMemory: versions } });
  try {
    for (let i = 0; i < versions; i++) await maker.writeFile("/memories/edited.md", `take ${i}\n`);
  } finally {
    maker.close();
  }
  const handle = await storage.open("history");
  /** @type {Snapshot} */
  const snapshot = { files: [], versions: [], contents: [] };
  await handle.transaction("readonly", (tx) => {
    tx.getSubtree("", (records) => {
      snapshot.files = records;
    });
    tx.getVersionsBelow("\uffff", (records) => {
      snapshot.versions = records;
      for (const key of new Set(records.map((r) => r.content).filter((k) => k !== undefined))) {
        tx.getContent(/** @type {string} */ (key), (bytes) => {
          snapshot.contents.push([/** @type {string} */ (key), /** @type {Uint8Array} */ (bytes)]);
        });
      }
    });
  });
  handle.close();
  if (snapshot.versions.length !== versions) throw new Error(`history: ${snapshot.versions.length} versions, not ${versions}`);
  return snapshot;
}

/**
 * Creates database `prefix + name` with the package's schema (through IndexedDbStorage, so it
 * is the package's own upgrade) and puts the snapshot into it in one transaction.
 * @param {string} prefix
 * @param {string} name
 * @param {{ files: any[], versions: any[], contents: Array<[string, Uint8Array]> }} snapshot
 */
export async function writeSnapshot(prefix, name, snapshot) {
  const storage = new IndexedDbStorage({ dbPrefix: prefix });
  await storage.destroy(name);
  (await storage.open(name)).close();
  const db = await floor.openDatabase(prefix + name);
  try {
    await floor.putAll({ db }, snapshot);
  } finally {
    db.close();
  }
}

/**
 * The file record at `path` and the newest version (the template of the floor's records for
 * the command ours just ran).
 * @param {{ db: IDBDatabase }} env
 * @param {string} path
 */
async function templatesOf(env, path) {
  const [record] = await floor.read(env, ({ files }) => [files.get(path)]);
  const version = await floor.newestVersion(env);
  if (!record || !version) throw new Error(`no record at ${path} to copy`);
  return { record, version };
}

/** @param {{ db: IDBDatabase }} env */
async function countFiles(env) {
  const [n] = await floor.read(env, ({ files }) => [files.count()]);
  return n;
}

/**
 * @param {Record<string, any>} object
 * @param {string[]} keys
 */
function pick(object, keys) {
  return Object.fromEntries(keys.map((k) => [k, object[k]]));
}

/** @param {string} path */
function below(path) {
  return floor.below(path);
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

Object.assign(bench, alternatives, {
  layoutCases,
  /**
   * The alternatives' scaling rows (`altScaleCases`) over stores of `sizes` files, the
   * package's cut from one snapshot of the biggest, made here by the core.
   * @param {{ sizes: number[], runs: number, warmup: number }} options
   */
  async altScale({ sizes, runs, warmup }) {
    const t0 = performance.now();
    const snapshot = await buildSnapshot(Math.max(...sizes), KB, []);
    console.log(`bench-alt: snapshot of ${Math.max(...sizes)} files built in ${Math.round(performance.now() - t0)} ms`);
    return alternatives.altScaleCases({ sizes, runs, warmup, snapshot, writeSnapshot });
  },
});
Object.assign(globalThis, { bench, KB });
const status = document.getElementById("status");
if (status) status.textContent = "ready";
