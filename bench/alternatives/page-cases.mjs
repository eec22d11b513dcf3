// The in-page half of the bench's `alternatives` part: the package, the idb version and the
// Dexie version (bench/alternatives/idb.mjs, dexie.mjs) of the same commands, interleaved run
// by run in one page over real IndexedDB (the order rotates each run, so a disturbance of the
// machine hits all three alike), timed with performance.now(). bench/browser-suite.mjs's
// `runAlternatives` calls these through window.bench; each returns rows of three medians.
//
// Stores: the package's is built by bench/page.mjs's `prepare` (the core's own records, put by
// hand); the alternatives get the same paths and texts through their own `fill`.

import { MemoryTool, IndexedDbStorage } from "../../src/js/index.js";
import { openIdbMemory } from "./idb.mjs";
import { openDexieMemory } from "./dexie.mjs";
import * as floor from "../baseline.mjs";
import { summarize } from "../stats.mjs";
import { KB, MARKER_A, MARKER_B, caseName, checked, kb, noteName, textOfSize } from "../workload.mjs";

const OURS_PREFIX = "memory-tool-wasm:";
const LIMITS = { maxFileBytes: 1 << 20, maxFiles: 1_000_000 };
const INSERTED = "an inserted line of text";
const RESET_EVERY = 10;
/** The three, in their table order. */
export const IMPLS = /** @type {const} */ (["package", "idb", "dexie"]);

/** @typedef {{ execute: (input: any) => Promise<{ content: unknown, isError: boolean }>, fill: (files: Array<{ path: string, content: string }>) => Promise<void>, records: (path: string) => Promise<any[]>, deleteBelow: (path: string) => Promise<unknown>, close: () => void, destroy: () => Promise<void> }} Alternative */

/**
 * The files of a store as `prepare` makes them: `files` of 1 KB in /memories/dir, and a
 * document per size of `docs`.
 * @param {number} files
 * @param {number[]} docs
 */
function storeFiles(files, docs = []) {
  const out = [];
  for (let i = 1; i <= files; i++) out.push({ path: `/memories/dir/${noteName(i)}`, content: textOfSize(KB, `note ${i}`) });
  for (const size of docs) out.push({ path: `/memories/doc-${kb(size).replace(" ", "")}.md`, content: textOfSize(size, MARKER_A) });
  return out;
}

/**
 * Opens the three over store `name` (the package's built already by `prepare`; the
 * alternatives' made anew and filled with the same files).
 * @param {string} name
 * @param {Array<{ path: string, content: string }>} files
 */
async function openAll(name, files) {
  const pkg = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
  const idb = await openIdbMemory(`bench-alt-idb:${name}`);
  const dexie = await openDexieMemory(`bench-alt-dexie:${name}`);
  for (const alt of [idb, dexie]) {
    await alt.deleteBelow("/memories");
    for (let i = 0; i < files.length; i += 5_000) await alt.fill(files.slice(i, i + 5_000));
  }
  return { pkg, idb, dexie };
}

/**
 * Times the three alternately, `warmup` + `runs` times each, the order rotating every run;
 * `run(impl, i)` is the timed call, `after(impl, i)` untimed work after it. Returns the three
 * medians and p95s and the ratios package ÷ idb and package ÷ Dexie.
 * @param {{ runs: number, warmup: number, run: (impl: string, i: number) => Promise<unknown>, after?: (impl: string, i: number) => Promise<unknown> }} options
 */
export async function trio({ runs, warmup, run, after }) {
  /** @type {Record<string, number[]>} */
  const samples = { package: [], idb: [], dexie: [] };
  for (let i = 0; i < warmup + runs; i++) {
    for (let k = 0; k < IMPLS.length; k++) {
      const impl = IMPLS[(i + k) % IMPLS.length];
      const t0 = performance.now();
      await run(impl, i);
      const took = performance.now() - t0;
      if (after) await after(impl, i);
      if (i >= warmup) samples[impl].push(took);
    }
  }
  const [p, i, d] = IMPLS.map((impl) => summarize(samples[impl]));
  const round = (/** @type {number} */ x) => Math.round(x * 1000) / 1000;
  return {
    runs,
    median_ms: p.median_ms,
    p95_ms: p.p95_ms,
    idb_median_ms: i.median_ms,
    idb_p95_ms: i.p95_ms,
    dexie_median_ms: d.median_ms,
    dexie_p95_ms: d.p95_ms,
    ratio_idb: round(p.median_ms / i.median_ms),
    ratio_dexie: round(p.median_ms / d.median_ms),
  };
}

export const alternatives = {
  /**
   * view file / create / str_replace / insert on documents of `sizes` in a store of 100 files
   * (`bench.prepare({ name, files: 100, fileBytes: KB, docs: sizes, withFloor: false })` first).
   * @param {{ name: string, sizes: number[], runs: number, warmup: number }} options
   */
  async altFileCases({ name, sizes, runs, warmup }) {
    const { pkg, idb, dexie } = await openAll(name, storeFiles(100, sizes));
    /** @type {Record<string, (input: any) => Promise<unknown>>} */
    const exec = {
      package: (input) => pkg.execute(input).then(checked),
      idb: (input) => idb.execute(input).then(checked),
      dexie: (input) => dexie.execute(input).then(checked),
    };
    const rows = [];
    try {
      for (const size of sizes) {
        const path = `/memories/doc-${kb(size).replace(" ", "")}.md`;
        const common = { file_bytes: size, store_files: 100 + sizes.length };
        rows.push({
          case: caseName("view file", size),
          command: "view",
          ...common,
          ...(await trio({ runs, warmup, run: (impl) => exec[impl]({ command: "view", path }) })),
        });

        const text = textOfSize(size, "");
        rows.push({
          case: caseName("create", size),
          command: "create",
          ...common,
          ...(await trio({ runs, warmup, run: (impl, i) => exec[impl]({ command: "create", path: `/memories/new/${impl}-${size}-${i}.md`, file_text: text }) })),
        });

        const swap = (/** @type {number} */ i) =>
          i % 2 === 0
            ? { command: "str_replace", path, old_str: MARKER_A, new_str: MARKER_B }
            : { command: "str_replace", path, old_str: MARKER_B, new_str: MARKER_A };
        rows.push({
          case: caseName("str_replace", size),
          command: "str_replace",
          ...common,
          ...(await trio({ runs: runs - (runs % 2), warmup: warmup + (warmup % 2), run: (impl, i) => exec[impl](swap(i)) })),
        });

        const original = textOfSize(size, MARKER_A);
        /** @type {Record<string, () => Promise<unknown>>} */
        const putBack = {
          package: () => pkg.writeFile(path, original),
          idb: () => idb.fill([{ path, content: original }]),
          dexie: () => dexie.fill([{ path, content: original }]),
        };
        rows.push({
          case: caseName("insert", size),
          command: "insert",
          ...common,
          ...(await trio({
            runs,
            warmup,
            run: (impl) => exec[impl]({ command: "insert", path, insert_line: 10, insert_text: INSERTED }),
            after: async (impl, i) => {
              if ((i + 1) % RESET_EVERY === 0) await putBack[impl]();
            },
          })),
        });
      }
    } finally {
      pkg.close();
      await idb.destroy();
      await dexie.destroy();
    }
    return rows;
  },

  /**
   * view /memories of a store of `files` files of 1 KB, and (with `dirRuns`) rename and delete
   * of /memories/dir (put back off the clock after each delete).
   * @param {{ name: string, files: number, viewRuns: number, dirRuns?: number, warmup: number }} options
   */
  async altDirCases({ name, files, viewRuns, dirRuns = 0, warmup }) {
    const all = storeFiles(files);
    const { pkg, idb, dexie } = await openAll(name, all);
    /** @type {Record<string, (input: any) => Promise<unknown>>} */
    const exec = {
      package: (input) => pkg.execute(input).then(checked),
      idb: (input) => idb.execute(input).then(checked),
      dexie: (input) => dexie.execute(input).then(checked),
    };
    const common = { file_bytes: KB, store_files: files };
    const rows = [];
    try {
      const texts = await Promise.all(IMPLS.map((impl) => exec[impl]({ command: "view", path: "/memories" })));
      const [a, b, c] = texts.map((r) => String(/** @type {any} */ (r).content));
      if (a !== b || a !== c) throw new Error(`view /memories of ${files} files: the three listings differ`);
      rows.push({
        case: caseName("view /memories", 0, files),
        command: "view",
        ...common,
        ...(await trio({ runs: viewRuns, warmup, run: (impl) => exec[impl]({ command: "view", path: "/memories" }) })),
      });
      if (dirRuns > 0) {
        /** @type {Record<string, string>} */
        const at = { package: "dir", idb: "dir", dexie: "dir" };
        rows.push({
          case: caseName("rename dir", 0, files),
          command: "rename",
          ...common,
          ...(await trio({
            runs: dirRuns,
            warmup: 1,
            run: async (impl) => {
              const to = at[impl] === "dir" ? "moved" : "dir";
              await exec[impl]({ command: "rename", old_path: `/memories/${at[impl]}`, new_path: `/memories/${to}` });
              at[impl] = to;
            },
          })),
        });
        for (const impl of IMPLS) {
          if (at[impl] !== "dir") await exec[impl]({ command: "rename", old_path: `/memories/${at[impl]}`, new_path: "/memories/dir" });
        }
        const db = await floor.openDatabase(OURS_PREFIX + name);
        const [records] = await floor.read({ db }, ({ files: f }) => [f.getAll(floor.below("/dir"))]);
        /** @type {Record<string, () => Promise<unknown>>} */
        const putBack = {
          package: () => floor.putAll({ db }, { files: records }),
          idb: () => idb.fill(all),
          dexie: () => dexie.fill(all),
        };
        try {
          rows.push({
            case: caseName("delete dir", 0, files),
            command: "delete",
            ...common,
            ...(await trio({
              runs: dirRuns,
              warmup: 1,
              run: (impl) => exec[impl]({ command: "delete", path: "/memories/dir" }),
              after: (impl) => putBack[impl](),
            })),
          });
        } finally {
          db.close();
        }
      }
    } finally {
      pkg.close();
      await idb.destroy();
      await dexie.destroy();
    }
    return rows;
  },

  /**
   * Scaling in store size: one store of each of the three grown to each of `sizes` files of
   * 1 KB in turn (the package's from one snapshot of the biggest, put in by parts; its
   * metadata counted anew), and at each size (plus the few files the creates before added) `create` of a 1 KB file at a fresh path, `view` of one 1 KB file,
   * and opening the store (MemoryTool.open against openDB and Dexie's open). Progress goes to
   * the console (`bench-alt: `).
   * @param {{ sizes: number[], runs: number, warmup: number, snapshot: { files: any[], versions: any[], contents: Array<[string, Uint8Array]> },
   *   writeSnapshot: (prefix: string, name: string, snapshot: any) => Promise<void>, budgetMs?: number }} options
   */
  async altScaleCases({ sizes, runs, warmup, snapshot, writeSnapshot, budgetMs = 15_000 }) {
    const name = "alt-scale";
    /** @type {{ export?: { n: number, ms: number }, import?: { n: number, ms: number } }} */
    const last = {};
    const rows = [];
    const biggest = Math.max(...sizes);
    const all = storeFiles(biggest);
    const idb = await openIdbMemory(`bench-alt-idb:${name}`);
    const dexie = await openDexieMemory(`bench-alt-dexie:${name}`);
    await idb.deleteBelow("/memories");
    await dexie.deleteBelow("/memories");
    let filled = 0;
    try {
      for (const n of sizes) {
        const t0 = performance.now();
        // The package's store: the snapshot's records from the last size up to n, put by hand
        // (its metadata counted anew), into a database made at the first size.
        const records = snapshot.files.slice(filled, n);
        const ids = new Set(records.map((r) => r.id));
        const keys = new Set(records.map((r) => r.content));
        const part = {
          files: records,
          versions: snapshot.versions.filter((v) => ids.has(v.memoryId)),
          contents: snapshot.contents.filter(([key]) => keys.has(key)),
        };
        if (filled === 0) {
          await writeSnapshot(OURS_PREFIX, name, part);
        } else {
          const db = await floor.openDatabase(OURS_PREFIX + name);
          try {
            await floor.putAll({ db }, part);
          } finally {
            db.close();
          }
        }
        const t1 = performance.now();
        for (let i = filled; i < n; i += 5_000) {
          const slice = all.slice(i, Math.min(n, i + 5_000));
          await idb.fill(slice);
          await dexie.fill(slice);
        }
        filled = n;
        console.log(
          `bench-alt: ${n.toLocaleString("en-US")} files: the package's written in ${Math.round(t1 - t0)} ms, ` +
            `idb's and Dexie's in ${Math.round(performance.now() - t1)} ms`,
        );
        const pkg = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
        /** @type {Record<string, (input: any) => Promise<unknown>>} */
        const exec = {
          package: (input) => pkg.execute(input).then(checked),
          idb: (input) => idb.execute(input).then(checked),
          dexie: (input) => dexie.execute(input).then(checked),
        };
        const common = { file_bytes: KB, store_files: n };
        const text = textOfSize(KB, "");
        try {
          rows.push({
            case: `create, 1 KB, store of ${n.toLocaleString("en-US")} files`,
            command: "create",
            ...common,
            ...(await trio({ runs, warmup, run: (impl, i) => exec[impl]({ command: "create", path: `/memories/new-${n}/${impl}-${i}.md`, file_text: text }) })),
          });
          const path = `/memories/dir/${noteName(Math.ceil(n / 2))}`;
          rows.push({
            case: `view file, 1 KB, store of ${n.toLocaleString("en-US")} files`,
            command: "view",
            ...common,
            ...(await trio({ runs, warmup, run: (impl) => exec[impl]({ command: "view", path }) })),
          });
        } finally {
          pkg.close();
        }
        const opens = Math.max(5, Math.round(runs / 4));
        rows.push({
          case: `open, store of ${n.toLocaleString("en-US")} files`,
          command: "open",
          ...common,
          ...(await trio({
            runs: opens,
            warmup: 1,
            run: async (impl) => {
              if (impl === "package") (await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS })).close();
              else if (impl === "idb") (await openIdbMemory(`bench-alt-idb:${name}`)).close();
              else (await openDexieMemory(`bench-alt-dexie:${name}`)).close();
            },
          })),
        });
        // export and import, once each (they grow with the store): the package's export() and
        // import(bundle) into a fresh empty store, beside reading every record (getAll /
        // toArray) and putting them into a fresh database. Each is skipped at a size where its
        // time at the last size, grown linearly, would pass `budgetMs` (the package's export
        // and import are not yet linear: docs/BENCHMARKS.md).
        const projected = (/** @type {{ n: number, ms: number } | undefined} */ last) => (last ? (last.ms * n) / last.n : 0);
        const skip = { export: projected(last.export) > budgetMs, import: projected(last.import) > budgetMs };
        const measured = await exportImport(name, n, idb, dexie, common, skip);
        for (const what of /** @type {const} */ (["export", "import"])) {
          if (skip[what]) {
            const s = `${what}: the last size's time grown linearly, ${Math.round(projected(last[what]) / 1000)} s, passes the budget of ${budgetMs / 1000} s`;
            rows.push({ case: `${what}, store of ${n.toLocaleString("en-US")} files`, command: what, ...common, skipped: s });
            console.log(`bench-alt: ${n} files: ${s}`);
          } else {
            rows.push({ ...common, ...measured[what] });
            last[what] = { n, ms: /** @type {number} */ (measured[what].median_ms) };
          }
        }
        console.log(`bench-alt: ${n} files measured`);
      }
    } finally {
      await idb.destroy();
      await dexie.destroy();
      await new IndexedDbStorage({ dbPrefix: OURS_PREFIX }).destroy(name);
    }
    return rows;
  },
};

/**
 * export and import of store `name` (n files), once each for the three: the package's
 * `export()` and `import(bundle)` into a fresh empty store; the alternatives' read of every
 * record and its put into a fresh database. The import needs the export's bundle: a skipped
 * export is still run when the import is not, off the table.
 * @param {string} name
 * @param {number} n
 * @param {Alternative} idb
 * @param {Alternative} dexie
 * @param {Record<string, unknown>} common
 * @param {{ export: boolean, import: boolean }} skip
 */
async function exportImport(name, n, idb, dexie, common, skip) {
  const time = async (/** @type {() => Promise<any>} */ body) => {
    const t0 = performance.now();
    const out = await body();
    return { ms: performance.now() - t0, out };
  };
  /** @type {{ export?: Record<string, unknown>, import?: Record<string, unknown> }} */
  const out = {};
  if (skip.export && skip.import) return out;
  const pkg = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
  let exported;
  try {
    exported = await time(() => pkg.export());
  } finally {
    pkg.close();
  }
  const idbExport = await time(() => idb.records("/memories"));
  const dexieExport = await time(() => dexie.records("/memories"));
  const row = (/** @type {string} */ what, /** @type {number} */ p, /** @type {number} */ i, /** @type {number} */ d) => ({
    ...common,
    case: `${what}, store of ${n.toLocaleString("en-US")} files`,
    command: what,
    runs: 1,
    median_ms: p,
    idb_median_ms: i,
    dexie_median_ms: d,
    ratio_idb: Math.round((p / i) * 1000) / 1000,
    ratio_dexie: Math.round((p / d) * 1000) / 1000,
  });
  out.export = row("export", exported.ms, idbExport.ms, dexieExport.ms);
  if (skip.import) return out;
  const target = await MemoryTool.open({ store: `${name}-import`, storage: "indexeddb", limits: LIMITS });
  let imported;
  try {
    imported = await time(() => target.import(exported.out));
  } finally {
    target.close();
    await new IndexedDbStorage({ dbPrefix: OURS_PREFIX }).destroy(`${name}-import`);
  }
  const files = idbExport.out.map((/** @type {any} */ r) => ({ path: r.path, content: r.content }));
  const intoFresh = async (/** @type {(name: string) => Promise<Alternative>} */ open, /** @type {string} */ db) => {
    const fresh = await open(db);
    try {
      return (await time(() => fresh.fill(files))).ms;
    } finally {
      await fresh.destroy();
    }
  };
  const idbImport = await intoFresh(openIdbMemory, `bench-alt-idb:${name}-import`);
  const dexieImport = await intoFresh(openDexieMemory, `bench-alt-dexie:${name}-import`);
  out.import = row("import", imported.ms, idbImport, dexieImport);
  return out;
}
