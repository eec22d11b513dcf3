// import(bundle) over IndexedDbStorage (fake-indexeddb): what it costs and what it leaves,
// counted, never timed. A store filled by an import answers a view in one round, as one filled
// by commands does; the writes go out in slices, each slice's requests issued from the last
// one's answer, so the page runs between them; the progress is told as slices complete.

import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { MemoryTool, IndexedDbStorage, InMemoryStorage } from "../../src/js/index-node.js";
import { BundleParts, Engine, Task } from "../../pkg/memory_tool_wasm.js";
import { createHash } from "node:crypto";
import { countRequests } from "./fixtures/count-requests.mjs";
import { importBlock } from "../consumers/doc-blocks.mjs";

const storage = () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange });

/** A bundle of `n` memories (two edits each when `edited`), with their versions. */
async function bundleOf(n, { edited = false } = {}) {
  const source = await MemoryTool.open({ storage: storage(), store: "source", limits: { maxFiles: 100_000 } });
  for (let i = 0; i < n; i++) {
    await source.execute({ command: "create", path: `/memories/d${i % 7}/n${i}.md`, file_text: `note ${i}\nline\n` });
    if (edited) await source.execute({ command: "str_replace", path: `/memories/d${i % 7}/n${i}.md`, old_str: "line", new_str: "edited" });
  }
  const bundle = await source.export({ include_versions: true });
  source.close();
  return bundle;
}

for (const edited of [false, true]) {
  test(`a view after an import with versions${edited ? " (memories edited before the export)" : ""} is one round, as after a create`, async () => {
    const bundle = await bundleOf(3, { edited });
    const memory = await MemoryTool.open({ storage: storage(), store: "target" });
    await memory.import(bundle);
    for (const m of bundle.memories) {
      const path = `/memories/${m.path.replace(/^\//, "")}`;
      let result;
      const counts = await countRequests(async () => (result = await memory.execute({ command: "view", path })), { rounds: true });
      assert.match(result.content, edited ? /edited/ : /line/);
      assert.equal(counts.rounds, 1, `${path}: ${JSON.stringify(counts)}`);
    }
    memory.close();
  });
}

/**
 * `inner` behind a storage that counts, per transaction, the write requests issued between two
 * answers of reads (a burst: what one turn of the page issues), and the most in one burst.
 */
function bursts(inner) {
  const seen = { most: 0, bursts: 0, writes: 0 };
  const WRITES = new Set(["putFile", "deleteFile", "putContent", "deleteContent", "putVersion", "deleteVersion", "putClock"]);
  const wrap = (tx) => {
    let burst = 0;
    const answered = () => {
      if (burst > 0) seen.bursts += 1;
      burst = 0;
    };
    return new Proxy(tx, {
      get(target, name) {
        const value = target[name];
        if (typeof value !== "function") return value;
        return (...args) => {
          if (WRITES.has(String(name))) {
            burst += 1;
            seen.writes += 1;
            seen.most = Math.max(seen.most, burst);
          }
          const wrapped = args.map((a) => (typeof a === "function" ? (...r) => (answered(), a(...r)) : a));
          return value.apply(target, wrapped);
        };
      },
    });
  };
  const handle = (inner) =>
    new Proxy(inner, {
      get: (t, n) =>
        n === "transaction"
          ? (mode, body, options) => t.transaction(mode, (tx) => body(wrap(tx)), options)
          : typeof t[n] === "function"
            ? t[n].bind(t)
            : t[n],
    });
  const storage = new Proxy(inner, {
    get: (t, n) => (n === "open" ? async (store) => handle(await t.open(store)) : typeof t[n] === "function" ? t[n].bind(t) : t[n]),
  });
  return { storage, seen };
}

test("a big import's writes go out in slices of at most SLICE_WRITES, each from an answer; progress from 0 to the total", async () => {
  const { SLICE_WRITES } = await import("../../src/js/driver.js");
  const bundle = await bundleOf(800);
  for (const [name, make] of [
    ["IndexedDbStorage", storage],
    ["InMemoryStorage", () => new InMemoryStorage()],
  ]) {
    const counted = bursts(make());
    const memory = await MemoryTool.open({ storage: counted.storage, store: "sliced" });
    const told = [];
    const before = counted.seen.writes;
    const result = await memory.import(bundle, { onProgress: (p) => told.push(p) });
    assert.equal(result.imported, 800, name);
    const writes = counted.seen.writes - before;
    assert.ok(writes > 2 * SLICE_WRITES, `${name}: ${writes} writes`);
    assert.ok(counted.seen.most <= SLICE_WRITES, `${name}: ${counted.seen.most} writes in one burst`);
    assert.ok(counted.seen.bursts >= Math.ceil(writes / SLICE_WRITES), `${name}: ${JSON.stringify(counted.seen)}`);
    assert.deepEqual(told[0], { done: 0, total: told.at(-1).total }, name);
    assert.equal(told.at(-1).done, told.at(-1).total, name);
    for (let i = 1; i < told.length; i++) assert.ok(told[i].done > told[i - 1].done, `${name}: progress goes forward`);
    assert.ok(told.length >= 50, `${name}: ${told.length} progress calls`);
    assert.equal((await memory.memories.list()).length, 800, name);
    memory.close();
  }
});

test("a big import's writes cross from the core a slice at a time, never as one list", async () => {
  const { SLICE_WRITES } = await import("../../src/js/driver.js");
  const bundle = await bundleOf(800);
  const memory = await MemoryTool.open({ storage: storage(), store: "crossing" });
  const writes = Task.prototype.writes;
  const heads = Task.prototype.outcomeHead;
  const lists = [];
  let total = 0;
  let counted = 0;
  Task.prototype.writes = function (...args) {
    const text = writes.apply(this, args);
    lists.push(JSON.parse(text).length);
    return text;
  };
  Task.prototype.outcomeHead = function () {
    const text = heads.call(this);
    const { writeCount } = JSON.parse(text);
    total = Math.max(total, writeCount);
    counted += writeCount;
    return text;
  };
  try {
    await memory.import(bundle);
  } finally {
    Task.prototype.writes = writes;
    Task.prototype.outcomeHead = heads;
  }
  assert.ok(total > 4 * SLICE_WRITES, `${total} writes`);
  assert.ok(Math.max(...lists) <= SLICE_WRITES, `lists of ${Math.max(...lists)} writes`);
  // Every task's writes (the import's, and any housekeeping's), each crossed once.
  assert.equal(lists.reduce((a, b) => a + b, 0), counted);
  assert.equal((await memory.memories.list()).length, 800);
  memory.close();
});

test("a big import, in many slices, writes the store's figures once, as a small one does", async () => {
  const { SLICE_WRITES } = await import("../../src/js/driver.js");
  for (const n of [2, 800]) {
    const bundle = await bundleOf(n);
    const memory = await MemoryTool.open({ storage: storage(), store: `figures-${n}` });
    await memory.execute({ command: "view", path: "/memories" });
    const counts = await countRequests(() => memory.import(bundle));
    if (n === 800) assert.ok(counts["files.put"] + counts["versions.put"] > 4 * SLICE_WRITES, JSON.stringify(counts));
    // A slice whose last change was done before the next slice began would write them again.
    assert.equal(counts["meta.put"], 1, `${n} memories: ${JSON.stringify(counts)}`);
    assert.equal((await memory.usage()).files, n);
    memory.close();
  }
});

test("KeyValueStorage over the doc's IndexedDB backend: an import of memories a slice each keeps the store's figures, and the file limit holds", async () => {
  const { KeyValueStorage } = await import("../../src/js/index-node.js");
  const { IndexedDbBackend } = await importBlock("docs/STORAGE.md", "indexeddb-backend.js");
  const limits = { maxFiles: 4, maxFileBytes: 400_000 };
  const maker = await MemoryTool.open({ storage: new InMemoryStorage(), store: "maker", limits });
  for (let i = 0; i < 3; i++) await maker.writeFile(`/memories/big/n${i}.md`, `${i}`.padEnd(300_000, "x"));
  const bundle = await maker.export();
  maker.close();
  // A new store: its figures are not written yet, so the first change counts them, while the
  // next slice (each 300 KB text is one) is already on its way.
  const memory = await MemoryTool.open({ storage: new KeyValueStorage(new IndexedDbBackend({ indexedDB: new IDBFactory(), IDBKeyRange })), store: "figures", limits });
  await memory.import(bundle);
  const usage = await memory.usage();
  assert.deepEqual([usage.files, usage.bytes], [3, 900_000]);
  assert.equal((await memory.execute({ command: "create", path: "/memories/d.md", file_text: "4\n" })).isError, false);
  const over = await memory.execute({ command: "create", path: "/memories/e.md", file_text: "5\n" });
  assert.equal(over.isError, true, "a fifth file in a store of at most four");
  assert.equal((await memory.memories.list()).length, 4);
  memory.close();
});

for (const [name, make] of [
  ["IndexedDbStorage", storage],
  ["InMemoryStorage", () => new InMemoryStorage()],
]) {
  test(`${name}: a failure of the core in a later slice of an import aborts its transaction: nothing is imported`, async () => {
    const { SLICE_WRITES } = await import("../../src/js/driver.js");
    const bundle = await bundleOf(800);
    const memory = await MemoryTool.open({ storage: make(), store: "failing" });
    const writeBytes = Task.prototype.writeBytes;
    let calls = 0;
    Task.prototype.writeBytes = function (index) {
      // Past the first slice: its writes are already issued when this throws.
      if (++calls > SLICE_WRITES / 2) throw new Error("a broken core");
      return writeBytes.call(this, index);
    };
    try {
      await assert.rejects(memory.import(bundle), /a broken core/);
    } finally {
      Task.prototype.writeBytes = writeBytes;
    }
    assert.ok(calls > SLICE_WRITES / 2);
    assert.deepEqual(await memory.memories.list(), []);
    const usage = await memory.usage();
    assert.deepEqual([usage.files, usage.bytes], [0, 0]);
    memory.close();
  });
}

/** A bundle of `n` memories of `size` bytes each, without history, its hashes true. */
function syntheticBundle(n, size = 16) {
  const memories = [];
  for (let i = 0; i < n; i++) {
    const content = `${String(i).padEnd(size - 1, ".")}\n`;
    memories.push({
      id: `mem_${i}`,
      path: `/d${i % 9}/n${i}.md`,
      content,
      content_sha256: createHash("sha256").update(content).digest("hex"),
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
    });
  }
  return { format: "memory-tool-wasm/bundle", format_version: 1, memories };
}

test("a big bundle goes into the core in parts, the page running between them, and never as one text", async () => {
  const { PART_BYTES } = await import("../../src/js/import-parts.js");
  const bundle = syntheticBundle(1000, 1024);
  const memory = await MemoryTool.open({ storage: storage(), store: "parts", limits: { maxFiles: 10_000 } });
  const add = BundleParts.prototype.memories;
  const start = Engine.prototype.start;
  const parts = [];
  let ranBetween = 0;
  let biggestStart = 0;
  BundleParts.prototype.memories = function (list) {
    const i = parts.length;
    parts.push(list.length);
    if (i > 0 && parts.ran === i - 1) ranBetween += 1;
    setTimeout(() => (parts.ran = i), 0);
    return add.call(this, list);
  };
  Engine.prototype.start = function (kind, json, utf8, ...rest) {
    biggestStart = Math.max(biggestStart, json.length, utf8?.length ?? 0);
    return start.call(this, kind, json, utf8, ...rest);
  };
  let result;
  try {
    result = await memory.import(bundle);
  } finally {
    BundleParts.prototype.memories = add;
    Engine.prototype.start = start;
  }
  assert.equal(result.imported, 1000);
  assert.ok(parts.length >= Math.floor((1000 * 1024) / PART_BYTES), `${parts.length} parts`);
  assert.ok(Math.max(...parts) < 2 * PART_BYTES + 4096, `a part of ${Math.max(...parts)} bytes`);
  assert.equal(ranBetween, parts.length - 1, "the page ran between every two parts");
  assert.ok(biggestStart < 1000, `a start call of ${biggestStart} characters`);
  const view = await memory.execute({ command: "view", path: "/memories/d3/n993.md" });
  assert.match(view.content, /993\.\.\./);
  memory.close();
});

for (const [name, make] of [
  ["IndexedDbStorage", storage],
  ["InMemoryStorage", () => new InMemoryStorage()],
]) {
  test(`${name}: calls made after an import, while its bundle goes into the core in parts, run after it, in the order they were called`, async () => {
    const bundle = syntheticBundle(3000);
    const memory = await MemoryTool.open({ storage: make(), store: "order", limits: { maxFiles: 10_000 } });
    const path = `/memories${bundle.memories[2999].path}`;
    const imported = memory.import(bundle);
    const created = memory.execute({ command: "create", path, file_text: "mine\n" });
    const listed = memory.memories.list({ path_prefix: "/d0/" });
    const second = memory.import(syntheticBundle(5), { onConflict: "skip" });
    const viewed = memory.execute({ command: "view", path });
    assert.equal((await imported).imported, 3000);
    // The create came after the import: the file is there, the bundle's.
    const create = await created;
    assert.equal(create.isError, true, String(create.content));
    assert.ok((await listed).length > 0);
    // The second import came after the first: its five memories were there already.
    const again = await second;
    assert.equal(again.imported, 0, JSON.stringify(again));
    assert.match(String((await viewed).content), new RegExp(bundle.memories[2999].content.trim().replace(/\./g, "\\.")));
    memory.close();
  });
}

test("an import refused for arguments with no JSON form frees its bundle's parts at once", async () => {
  const memory = await MemoryTool.open({ storage: new InMemoryStorage(), store: "no-json" });
  const free = BundleParts.prototype.free;
  let freed = 0;
  BundleParts.prototype.free = function () {
    freed += 1;
    return free.call(this);
  };
  try {
    const error = await memory.import(syntheticBundle(10), { onConflict: /** @type {any} */ (10n) }).then(() => null, (e) => e);
    assert.equal(error?.code, "INVALID_INPUT", String(error));
    assert.equal(freed, 1);
  } finally {
    BundleParts.prototype.free = free;
  }
  assert.deepEqual(await memory.memories.list(), []);
  memory.close();
});

test("an import takes the bundle's lists as they are when it is called", async () => {
  const bundle = syntheticBundle(3000);
  const memory = await MemoryTool.open({ storage: storage(), store: "lists", limits: { maxFiles: 10_000 } });
  const imported = memory.import(bundle);
  bundle.memories.length = 1500;
  bundle.memories.push({ ...bundle.memories[0], path: "/elsewhere.md" });
  assert.equal((await imported).imported, 3000);
  assert.equal((await memory.memories.list()).filter((m) => m.type === "memory").length, 3000);
  memory.close();
});

test("a part nested too deep is refused as the bundle whole is: at the same depth, in the same words, before any other fault", async () => {
  const memory = await MemoryTool.open({ storage: storage(), store: "deep", limits: { maxFiles: 10_000 } });
  const outcome = async (b) => memory.import(b).then((r) => `imported ${r.imported}`, (e) => `${e.constructor.name} ${e.code}: ${e.message}`);
  for (const depth of [250, 252, 253, 300]) {
    const bundle = syntheticBundle(3000);
    let deep = /** @type {unknown} */ (1);
    for (let i = 0; i < depth; i++) deep = [deep];
    // In the second part (1,024 memories a part); a fault in the first part as well.
    bundle.memories[1500].extra = deep;
    bundle.memories[10].content_sha256 = "0".repeat(64);
    const whole = await outcome(JSON.stringify(bundle));
    assert.equal(await outcome(bundle), whole, `depth ${depth}`);
    assert.match(whole, depth >= 253 ? /^MemoryToolError INVALID_INPUT: a host call must be a JSON object$/ : /^MemoryToolError INVALID_BUNDLE: memory 10 /);
  }
  assert.deepEqual(await memory.memories.list(), []);
  memory.close();
});

test("a bundle read in parts is refused for the fault a whole one is refused for, in its words", async () => {
  const bundle = syntheticBundle(3000);
  bundle.memories[2500].content_sha256 = "0".repeat(64);
  bundle.memories[2900].path = bundle.memories[10].path;
  const memory = await MemoryTool.open({ storage: storage(), store: "faults", limits: { maxFiles: 10_000 } });
  const refusal = async (b) => {
    const error = await memory.import(b).then(() => null, (e) => e);
    assert.ok(error, "refused");
    return `${error.code}: ${error.message}`;
  };
  const parted = await refusal(bundle);
  assert.equal(parted, "INVALID_BUNDLE: memory 2500 (/d7/n2500.md): content_sha256 does not match its content");
  // `versions` that is not a list sends the bundle whole; its memories' fault still comes first.
  assert.equal(await refusal({ ...bundle, versions: "none" }), parted);
  assert.equal(await refusal(JSON.stringify(bundle)), parted);
  bundle.memories[2500].content_sha256 = createHash("sha256").update(bundle.memories[2500].content).digest("hex");
  assert.match(await refusal(bundle), /^INVALID_BUNDLE: memory 2900 \(\/d1\/n10\.md\): its id or path appears twice$/);
  assert.match(await refusal({ ...bundle, versions: "none" }), /memory 2900 .*appears twice/);
  assert.deepEqual(await memory.memories.list(), []);
  memory.close();
});
