// In-page probes behind docs/BENCHMARKS.md's findings: where the time of a
// command goes, part by part, and what a schema or protocol change would save, measured on the
// floor (bench/baseline.mjs) so no source change is needed. bench/profile.mjs loads this module
// into the bench page and calls window.probe.*. Not part of `npm run bench`.

import { IndexedDbStorage, MemoryTool } from "../src/js/index.js";
import { loadEngine } from "../src/js/wasm.js";
import { Task } from "../pkg/memory_tool_wasm.js";
import * as floor from "./baseline.mjs";
import { buildSnapshot, writeSnapshot } from "./page.mjs";
import { summarize } from "./stats.mjs";
import { KB, textOfSize } from "./workload.mjs";

const OURS_PREFIX = "memory-tool-wasm:";
const LIMITS = { maxFileBytes: 1 << 20, maxFiles: 1_000_000 };
const ACTOR = JSON.stringify({ type: "tool", tool_use_id: null });
const encoder = new TextEncoder();

/**
 * @param {Record<string, number[]>} samples
 * @returns {Record<string, number>} medians in ms
 */
function medians(samples) {
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v).median_ms]));
}

/** @param {Record<string, number[]>} samples @param {string} key @param {number} ms */
function add(samples, key, ms) {
  (samples[key] ??= []).push(ms);
}

const probe = {
  /**
   * `Task.prepare` (the core hashes a create's text while IndexedDB answers the first reads)
   * on and off, alternately: creates of `bytes` through the package on store `name`.
   * @param {{ name: string, runs: number, bytes: number }} options
   */
  async prepareAB({ name, runs, bytes }) {
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    const text = textOfSize(bytes, "");
    const prepare = Task.prototype.prepare;
    /** @type {Record<string, number[]>} */
    const samples = {};
    try {
      for (let i = 0; i < runs * 2 + 20; i++) {
        const on = i % 2 === 0;
        Task.prototype.prepare = on ? prepare : function () {};
        const t0 = performance.now();
        const result = await tool.execute({ command: "create", path: `/memories/ab-${bytes}/${i}.md`, file_text: text });
        if (i >= 20) add(samples, on ? "create with prepare" : "create without prepare", performance.now() - t0);
        if (result.isError) throw new Error(String(result.content));
      }
    } finally {
      Task.prototype.prepare = prepare;
      tool.close();
    }
    return { bytes, runs, medians_ms: medians(samples) };
  },

  /**
   * Where a small command's time goes beyond the floor: the package's `view` of a file, the
   * same requests through the package's IndexedDB layer alone (IndexedDbStorage's
   * transaction and StorageTx, no core, no driver), and the floor, alternately.
   * @param {{ name: string, path: string, runs: number }} options store path, as `/doc-1KB.md`
   */
  async viewSplit({ name, path, runs }) {
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    const handle = await new IndexedDbStorage().open(name);
    const env = { db: await floor.openDatabase(OURS_PREFIX + name) };
    /** @type {Record<string, number[]>} */
    const samples = {};
    const cases = {
      "package: tool.execute(view)": () => tool.execute({ command: "view", path: `/memories${path}` }),
      "IndexedDbStorage alone, same requests": () =>
        handle.transaction(
          "readonly",
          (tx) => {
            tx.getFile(path, () => {});
            tx.getHeadContent?.(path, () => {});
          },
          { reads: ["file", "headContent", "content", "listing"] },
        ),
      "floor": () => floor.viewFile(env, path),
    };
    const memory = await MemoryTool.open({ storage: "memory", limits: LIMITS });
    await memory.execute({ command: "create", path: `/memories${path}`, file_text: textOfSize(KB, "") });
    /** @type {Record<string, () => Promise<unknown>>} */ (cases)["package over in-memory storage"] = () =>
      memory.execute({ command: "view", path: `/memories${path}` });
    const names = Object.keys(cases);
    for (let i = 0; i < runs + 20; i++) {
      for (let k = 0; k < names.length; k++) {
        const label = names[(i + k) % names.length];
        const t0 = performance.now();
        await cases[/** @type {keyof typeof cases} */ (label)]();
        if (i >= 20) add(samples, label, performance.now() - t0);
      }
    }
    tool.close();
    memory.close();
    handle.close();
    env.db.close();
    return { runs, medians_ms: medians(samples) };
  },

  /**
   * Builds store `name` (the package's database only): `files` files of `fileBytes` in
   * /memories/dir.
   * @param {{ name: string, files: number, fileBytes?: number }} options
   */
  async prepare({ name, files, fileBytes = KB }) {
    const snapshot = await buildSnapshot(files, fileBytes, []);
    await writeSnapshot(OURS_PREFIX, name, snapshot);
    return { files: snapshot.files.length };
  },

  /**
   * Runs `inputs` (in turn) `runs` times on store `name` through the package: the workload
   * bench/profile.mjs records a CPU profile of.
   * @param {{ name: string, inputs: unknown[], runs: number }} options
   */
  async repeat({ name, inputs, runs }) {
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    const samples = [];
    try {
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const result = await tool.execute(inputs[i % inputs.length]);
        samples.push(performance.now() - t0);
        if (result.isError) throw new Error(String(result.content));
      }
    } finally {
      tool.close();
    }
    return summarize(samples);
  },

  /**
   * Lead (a): `view /memories` part by part, driving the core by hand as the adapter does
   * (src/js/driver.js `perform`): the IndexedDB getAllKeys of the listing store (schema
   * version 3: one `{path}\0{size}` key per file); joining the keys; TextEncoder and
   * `task.supplyUtf8` (into wasm and the core's parse); `resume` (the listing);
   * `outcomeHead()` and `text()` (out of wasm) and JSON.parse of the outcome. Beside it, the whole `tool.execute`, and what version 2 read
   * instead: getAll of every file record.
   * @param {{ name: string, runs: number }} options
   */
  async viewBreakdown({ name, runs }) {
    const Engine = await loadEngine();
    const engine = new Engine(JSON.stringify(LIMITS));
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    const env = { db: await floor.openDatabase(OURS_PREFIX + name) };
    /** @type {Record<string, number[]>} */
    const samples = {};
    const input = JSON.stringify({ command: "view", path: "/memories" });
    let outputChars = 0;
    let answerChars = 0;
    let files = 0;
    for (let i = 0; i < runs + 2; i++) {
      const keep = i >= 2;
      const t = () => performance.now();
      let t0 = t();
      const result = await tool.execute({ command: "view", path: "/memories" });
      if (keep) add(samples, "whole tool.execute", t() - t0);
      outputChars = String(result.content).length;

      t0 = t();
      const task = engine.start("tool", input, undefined, undefined, Date.now(), crypto.getRandomValues(new Uint8Array(16)), ACTOR, 0, false);
      const reads = JSON.parse(task.reads());
      if (keep) add(samples, "engine.start + reads()", t() - t0);
      if (reads.length !== 1 || reads[0].kind !== "listing") throw new Error(`unexpected reads ${JSON.stringify(reads)}`);
      t0 = t();
      const [keys] = await floor.read(env, ({ listing }) => [listing.getAllKeys(floor.below(reads[0].path))]);
      if (keep) add(samples, "IndexedDB listing getAllKeys (own transaction)", t() - t0);
      files = keys.length;
      t0 = t();
      const text = keys.join("\n");
      if (keep) add(samples, "keys.join", t() - t0);
      answerChars = text.length;
      t0 = t();
      task.supplyUtf8(0, new TextEncoder().encode(text));
      if (keep) add(samples, "TextEncoder + task.supplyUtf8 (copy into wasm + parse)", t() - t0);
      t0 = t();
      if (!task.resume()) throw new Error("view wanted a second round");
      if (keep) add(samples, "task.resume (listing)", t() - t0);
      t0 = t();
      const out = task.outcomeHead();
      const listing = task.text();
      if (keep) add(samples, "task.outcomeHead() + text() (out of wasm)", t() - t0);
      t0 = t();
      JSON.parse(out);
      if (keep) add(samples, "JSON.parse(outcome)", t() - t0);
      outputChars = listing.length;
      task.free();

      t0 = t();
      await floor.read(env, ({ files: f }) => [f.getAll(floor.below(""))]);
      if (keep) add(samples, "before (schema 2): getAll of every file record", t() - t0);
    }
    tool.close();
    env.db.close();
    engine.free();
    return { files, answer_chars: answerChars, output_chars: outputChars, medians_ms: medians(samples) };
  },

  /**
   * Lead (b): the newest-version read every write makes (`openKeyCursor(null, "prev")` on
   * `versions`): the floor's create and str_replace with and without it, alternately, on store
   * `name`, and the read alone in a readonly transaction.
   * @param {{ name: string, runs: number }} options
   */
  async newestCost({ name, runs }) {
    const env = { db: await floor.openDatabase(OURS_PREFIX + name) };
    const [template] = await floor.read(env, ({ files }) => [files.getAll(floor.below("/dir"), 1)]);
    const base = template[0];
    const [versionTemplate] = await floor.read(env, ({ versions }) => [versions.get(base.version)]);
    const bytes = encoder.encode(textOfSize(KB, ""));
    /** @type {Record<string, number[]>} */
    const samples = {};
    let n = 0;
    const write = (/** @type {string} */ path) => {
      const id = `memver_zz${String(n++).padStart(19, "0")}`;
      return {
        record: { ...base, path, id: `mem_probe${String(n).padStart(19, "0")}`, version: id, content: id },
        version: { ...versionTemplate, id, path, content: id },
        bytes,
      };
    };
    for (let i = 0; i < runs + 5; i++) {
      const keep = i >= 5;
      for (const skipNewest of i % 2 ? [true, false] : [false, true]) {
        const label = skipNewest ? "without" : "with";
        let t0 = performance.now();
        await floor.create(env, write(`/probe/new-${n}.md`), { skipNewest });
        if (keep) add(samples, `create 1 KB, ${label} the newest-version read`, performance.now() - t0);
        t0 = performance.now();
        await floor.edit(env, write(base.path), { skipNewest });
        if (keep) add(samples, `edit 1 KB, ${label} the newest-version read`, performance.now() - t0);
      }
      const t0 = performance.now();
      await floor.read(env, ({ versions }) => [floor.newestVersionId(versions)]);
      if (keep) add(samples, "newest-version read alone (readonly transaction)", performance.now() - t0);
      const t1 = performance.now();
      await floor.read(env, ({ files }) => [files.get(base.path)]);
      if (keep) add(samples, "files.get alone (readonly transaction)", performance.now() - t1);
      const t2 = performance.now();
      await floor.read(env, ({ files, versions }) => [files.get(base.path), floor.newestVersionId(versions)]);
      if (keep) add(samples, "files.get + newest-version read (readonly transaction)", performance.now() - t2);
    }
    const [versionCount] = await floor.read(env, ({ versions }) => [versions.count()]);
    env.db.close();
    return { versions_in_store: versionCount, medians_ms: medians(samples) };
  },

  /**
   * Lead (c): what the `content` index of `versions` costs: two scratch databases with the
   * package's schema, one without that index, filled with the same `files` records; the floor's
   * create, str_replace and rename of a directory of `dirFiles` files on each, alternately.
   * @param {{ files: number, dirFiles: number, runs: number }} options
   */
  async contentIndexCost({ files, dirFiles, runs }) {
    const snapshot = await buildSnapshot(files, KB, []);
    /** @type {Record<string, { db: IDBDatabase }>} */
    const envs = {};
    for (const label of ["with", "without"]) {
      const withContent = label === "with";
      const name = `probe-index-${label}`;
      await drop(name);
      const db = await scratch(name, (d) => {
        const f = d.createObjectStore("files", { keyPath: "path" });
        f.createIndex("id", "id", { unique: true });
        d.createObjectStore("contents");
        const v = d.createObjectStore("versions", { keyPath: "id" });
        v.createIndex("memory", ["memoryId", "id"]);
        if (withContent) v.createIndex("content", "content");
      });
      envs[label] = { db };
      await floor.putAll(envs[label], snapshot);
    }
    // The edited file is the last one: the renames move the first `dirFiles`.
    const base = snapshot.files[snapshot.files.length - 1];
    const versionTemplate = snapshot.versions[0];
    const bytes = encoder.encode(textOfSize(KB, ""));
    let n = 0;
    const nextId = () => `memver_zz${String(n++).padStart(19, "0")}`;
    /** @type {Record<string, number[]>} */
    const samples = {};
    /** @type {Record<string, any[]>} the dir's records, per database */
    const dirs = {};
    /** @type {Record<string, string>} */
    const at = {};
    for (const label of ["with", "without"]) {
      const [records] = await floor.read(envs[label], ({ files: f }) => [f.getAll(floor.below("/dir"), dirFiles)]);
      dirs[label] = records;
      at[label] = "/dir";
    }
    for (let i = 0; i < runs + 3; i++) {
      const keep = i >= 3;
      for (const label of i % 2 ? ["without", "with"] : ["with", "without"]) {
        const env = envs[label];
        let id = nextId();
        let t0 = performance.now();
        await floor.create(env, {
          record: { ...base, path: `/probe/new-${n}.md`, id: `mem_probe${String(n).padStart(19, "0")}`, version: id, content: id },
          version: { ...versionTemplate, id, path: `/probe/new-${n}.md`, content: id },
          bytes,
        });
        if (keep) add(samples, `create 1 KB, ${label} the content index`, performance.now() - t0);
        id = nextId();
        t0 = performance.now();
        await floor.edit(env, {
          record: { ...base, version: id, content: id },
          version: { ...versionTemplate, id, memoryId: base.id, content: id },
          bytes,
        });
        if (keep) add(samples, `str_replace 1 KB, ${label} the content index`, performance.now() - t0);
        // A "rename" of dirFiles records to a fresh directory: a version (with content) each.
        const to = `/moved-${n}`;
        const moves = dirs[label].map((r) => {
          const vid = nextId();
          const path = `${to}${r.path.slice(at[label].length)}`;
          return {
            from: r.path,
            record: { ...r, path, version: vid },
            version: { ...versionTemplate, id: vid, memoryId: r.id, path, content: r.content },
          };
        });
        t0 = performance.now();
        await floor.renameDirectory(env, at[label], to, moves);
        if (keep) add(samples, `rename dir of ${dirFiles}, ${label} the content index`, performance.now() - t0);
        dirs[label] = moves.map((m) => m.record);
        at[label] = to;
      }
    }
    for (const label of ["with", "without"]) {
      envs[label].db.close();
      await drop(`probe-index-${label}`);
    }
    return { medians_ms: medians(samples) };
  },

  /**
   * What a command's change events cost: `BroadcastChannel.postMessage` of `count` events like
   * the adapter posts after a commit (src/js/events.js), timed alone.
   * @param {{ count: number, runs: number }} options
   */
  async eventsCost({ count, runs }) {
    const channel = new BroadcastChannel("probe-events");
    const events = Array.from({ length: count }, (_, i) => ({
      type: "change",
      store: "default",
      memory_id: `mem_${String(i).padStart(24, "0")}`,
      path: `/moved/note-${String(i).padStart(5, "0")}.md`,
      operation: "renamed",
      version_id: `memver_${String(i).padStart(21, "0")}`,
      redacted: false,
      created_by: { type: "tool", tool_use_id: null },
    }));
    const samples = [];
    for (let i = 0; i < runs + 2; i++) {
      const t0 = performance.now();
      channel.postMessage({ kind: "memory-tool-wasm/changes", events });
      if (i >= 2) samples.push(performance.now() - t0);
    }
    channel.close();
    return { count, ...summarize(samples) };
  },

  /**
   * The host API at scale, part by part: on a store of `files` files of 1 KB, the package's
   * `export()` beside its floor (bench/baseline.mjs `exportAll`: the same getAll and content
   * reads), `import(bundle)` into a fresh database beside its floor (`importAll`: the same
   * puts of the records the package wrote, made before the clock), the same two calls through
   * the package over in-memory storage in this page (its CPU alone), and the pieces of the
   * import outside the core: `JSON.stringify` of the bundle (what the adapter sends into the
   * wasm) and `structuredClone` of it, and the in-memory import's time in `task.writeBytes`.
   * Ours and the floor alternate run by run.
   * @param {{ files: number, runs: number }} options
   */
  async scaleParts({ files, runs }) {
    const name = "probe-scale";
    await writeSnapshot(OURS_PREFIX, name, await buildSnapshot(files, KB, []));
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    await tool.versions.list({ limit: 1 });
    const env = { db: await floor.openDatabase(OURS_PREFIX + name) };
    /** @type {Record<string, number[]>} */
    const samples = {};
    const time = async (/** @type {string} */ label, /** @type {() => Promise<unknown>} */ fn, /** @type {boolean} */ keep) => {
      const t0 = performance.now();
      const result = await fn();
      if (keep) add(samples, label, performance.now() - t0);
      return result;
    };
    /** @type {any} */
    let bundle;
    for (let i = 0; i < runs + 1; i++) {
      const order = i % 2 ? ["floor", "ours"] : ["ours", "floor"];
      for (const who of order) {
        if (who === "ours") bundle = await time("export: the package (IndexedDB)", () => tool.export(), i > 0);
        else await time("export: floor (getAll + a get per content)", () => floor.exportAll(env), i > 0);
      }
    }
    tool.close();
    env.db.close();
    await new IndexedDbStorage({ dbPrefix: OURS_PREFIX }).destroy(name);
    if (bundle.memories.length !== files) throw new Error(`export gave ${bundle.memories.length} memories`);

    let made = 0;
    const fresh = async () => {
      const store = `probe-import-${made++}`;
      const t = await MemoryTool.open({ store, storage: "indexeddb", limits: LIMITS });
      await t.versions.list({ limit: 1 });
      return { store, tool: t };
    };
    const destroy = (/** @type {string} */ store) => new IndexedDbStorage({ dbPrefix: OURS_PREFIX }).destroy(store);
    // The records the package writes, read back once: the floor writes the same ones.
    const first = await fresh();
    await first.tool.import(bundle);
    first.tool.close();
    const written = { db: await floor.openDatabase(OURS_PREFIX + first.store) };
    const [fileRecords, versionRecords] = await floor.read(written, ({ files: f, versions: v }) => [f.getAll(), v.getAll()]);
    const byMemory = new Map(versionRecords.map((/** @type {any} */ v) => [v.memoryId, v]));
    const contents = await floor.exportAll(written);
    written.db.close();
    await destroy(first.store);
    const records = {
      files: fileRecords,
      versions: fileRecords.map((/** @type {any} */ r) => byMemory.get(r.id)),
      contents: /** @type {Array<[string, Uint8Array]>} */ (contents.files.map((r, k) => [r.content, contents.contents[k]])),
    };
    for (let i = 0; i < runs + 1; i++) {
      const order = i % 2 ? ["floor", "ours"] : ["ours", "floor"];
      for (const who of order) {
        const target = await fresh();
        if (who === "ours") {
          const result = /** @type {any} */ (await time("import: the package (IndexedDB, empty store)", () => target.tool.import(bundle), i > 0));
          if (result.imported !== files) throw new Error(`import: ${JSON.stringify(result)}`);
          target.tool.close();
        } else {
          target.tool.close();
          const db = await floor.openDatabase(OURS_PREFIX + target.store);
          await time("import: floor (the same puts, one transaction)", () => floor.importAll({ db }, records), i > 0);
          db.close();
        }
        await destroy(target.store);
      }
    }

    // The package over in-memory storage, in this page: its CPU with no IndexedDB; and the
    // part of the import spent in `task.writeBytes(i)` (the adapter takes each content write's
    // bytes out of the wasm by its number among the content writes).
    const writeBytes = Task.prototype.writeBytes;
    let inWriteBytes = 0;
    for (let i = 0; i < runs + 1; i++) {
      const memory = await MemoryTool.open({ storage: "memory", limits: LIMITS });
      inWriteBytes = 0;
      Task.prototype.writeBytes = function (/** @type {number} */ index) {
        const t0 = performance.now();
        try {
          return writeBytes.call(this, index);
        } finally {
          inWriteBytes += performance.now() - t0;
        }
      };
      try {
        await time("import: the package (in-memory storage)", () => memory.import(bundle), i > 0);
      } finally {
        Task.prototype.writeBytes = writeBytes;
      }
      if (i > 0) add(samples, "import (in-memory): of which task.writeBytes, all calls", inWriteBytes);
      await time("export: the package (in-memory storage)", () => memory.export(), i > 0);
      memory.close();
      await time("JSON.stringify(bundle)", async () => JSON.stringify(bundle), i > 0);
      await time("structuredClone(bundle)", async () => structuredClone(bundle), i > 0);
    }
    return { files, runs, bundle_json_bytes: JSON.stringify(bundle).length, medians_ms: medians(samples) };
  },

  /**
   * What the import's floor is made of: `files` puts of each kind the import issues (1 KB
   * contents, file records, listing keys, version records; records of the package's shape),
   * each kind alone in one readwrite transaction on a fresh database with the package's
   * schema, and all four together per file (the import floor's writes); medians in ms.
   * @param {{ files: number, runs: number }} options
   */
  async putCost({ files, runs }) {
    const bytes = encoder.encode(textOfSize(KB, ""));
    const sha = "0".repeat(64);
    const records = Array.from({ length: files }, (_, i) => {
      const id = `memver_${String(i).padStart(21, "0")}`;
      const memoryId = `mem_${String(i).padStart(24, "0")}`;
      const path = `/dir/note-${String(i).padStart(5, "0")}.md`;
      return {
        id,
        file: { path, id: memoryId, size: KB, sha256: sha, createdAt: 1, updatedAt: 1, version: id, content: id },
        version: { id, memoryId, operation: "created", path, size: KB, sha256: sha, content: id, createdAt: 1, createdBy: { type: "import" }, redactedAt: null },
      };
    });
    /** @type {Record<string, (stores: Record<string, IDBObjectStore>) => void>} */
    const kinds = {
      [`${files} contents (1 KB)`]: (s) => records.forEach((r) => s.contents.put(bytes, r.id)),
      [`${files} file records`]: (s) => records.forEach((r) => s.files.put(r.file)),
      [`${files} listing keys`]: (s) => records.forEach((r) => s.listing.put(null, floor.listingKey(r.file.path, KB))),
      [`${files} version records`]: (s) => records.forEach((r) => s.versions.put(r.version)),
      [`all four per file (${4 * files} puts)`]: (s) =>
        records.forEach((r) => {
          s.contents.put(bytes, r.id);
          s.files.put(r.file);
          s.listing.put(null, floor.listingKey(r.file.path, KB));
          s.versions.put(r.version);
        }),
    };
    const storage = new IndexedDbStorage({ dbPrefix: OURS_PREFIX });
    /** @type {Record<string, number[]>} */
    const samples = {};
    for (let i = 0; i < runs; i++) {
      for (const [label, puts] of Object.entries(kinds)) {
        const name = "probe-puts";
        await storage.destroy(name);
        (await storage.open(name)).close();
        const db = await floor.openDatabase(OURS_PREFIX + name);
        const t0 = performance.now();
        await floor.transaction({ db }, "readwrite", [(stores) => puts(stores)]);
        add(samples, label, performance.now() - t0);
        db.close();
        await storage.destroy(name);
      }
    }
    return { files, runs, medians_ms: medians(samples) };
  },

  /**
   * One `export()` or `import(bundle)` of store `name` (into a fresh database, deleted after),
   * `runs` times: the workload bench/profile.mjs records a CPU profile of.
   * @param {{ name: string, what: "export" | "import", runs: number }} options
   */
  async scaleRepeat({ name, what, runs }) {
    const tool = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
    await tool.versions.list({ limit: 1 });
    const bundle = await tool.export();
    tool.close();
    const samples = [];
    for (let i = 0; i < runs; i++) {
      if (what === "export") {
        const t = await MemoryTool.open({ store: name, storage: "indexeddb", limits: LIMITS });
        const t0 = performance.now();
        await t.export();
        samples.push(performance.now() - t0);
        t.close();
      } else {
        const store = `probe-repeat-${i}`;
        const t = await MemoryTool.open({ store, storage: "indexeddb", limits: LIMITS });
        await t.versions.list({ limit: 1 });
        const t0 = performance.now();
        await t.import(bundle);
        samples.push(performance.now() - t0);
        t.close();
        await new IndexedDbStorage({ dbPrefix: OURS_PREFIX }).destroy(store);
      }
    }
    return summarize(samples);
  },
};

/**
 * A fresh scratch database with the stores `setup` creates.
 * @param {string} name
 * @param {(db: IDBDatabase) => void} setup
 * @returns {Promise<IDBDatabase>}
 */
async function scratch(name, setup) {
  await drop(name);
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => setup(request.result);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** @param {string} name */
function drop(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve(undefined);
    request.onerror = () => reject(request.error);
  });
}

Object.assign(globalThis, { probe });
