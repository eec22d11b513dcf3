// A first download (no baseline, nothing here) at the API's minimum (docs/SYNC.md#a-pass): the
// `view=full` pages are the whole listing, as many requests as the SDK's own engine
// (SessionMemoryStores) sends against the same emulator; each page is written in one local
// transaction (`memories.createMany`), and the next page is already asked for while one is
// written. A page that cannot be written whole is written one memory at a time, with the same
// nothing-lost rules: a text is written only if it is the one its sha names, a file made here
// meanwhile is never overwritten.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { SessionMemoryStores } from "@anthropic-ai/sdk/tools/agent-toolset/node";
import { startEmulator } from "../hosted/emulator.mjs";
import { device, localFiles, sdkClient } from "../hosted/devices.mjs";

const HOST_CALL_AS = Symbol.for("memory-tool-wasm.hostCallAs");
const LIST = "/v1/memory_stores/:store/memories";

/** @type {import("../hosted/emulator.mjs").Emulator} */
let emu;
/** @type {any} */
let client;
before(async () => {
  emu = await startEmulator();
  client = sdkClient(emu);
});
after(() => emu.close());

/** `n` memories of about 1 KB. @param {number} n */
const filesOf = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`/notes/${String(i).padStart(5, "0")}.md`, `${i} ${"x".repeat(1000)}`]));

/** A hosted store holding `files`, filled without requests. @param {Record<string, string>} files */
async function seeded(files, name = "first") {
  const store = await client.beta.memoryStores.create({ name });
  emu.seed(store.id, files);
  return store.id;
}

/**
 * Counts the sync's local host calls on `memory` and, before each `createMany`, runs
 * `before(k)` (k counts them from 0).
 * @param {any} memory @param {(k: number) => Promise<void> | void} [before]
 */
function spy(memory, before) {
  /** @type {string[]} */
  const calls = [];
  const real = memory[HOST_CALL_AS];
  let k = 0;
  Object.defineProperty(memory, HOST_CALL_AS, {
    value: async function (/** @type {string} */ call, /** @type {any} */ options, /** @type {any} */ extra) {
      calls.push(call);
      if (call === "memories.createMany" && before) await before(k++);
      return real.call(this, call, options, extra);
    },
  });
  return calls;
}

/** Resolves once `ready()` holds; fails after `turns` turns of the event loop. */
async function until(/** @type {() => boolean} */ ready, /** @type {string} */ what, turns = 20_000) {
  for (let i = 0; i < turns; i++) {
    if (ready()) return;
    await new Promise((r) => setImmediate(r));
  }
  assert.fail(`never happened: ${what}`);
}

test("a first download of 1,000 memories sends the SDK engine's requests, 50 full pages, each written in one transaction while the next is fetched", async () => {
  const files = filesOf(1000);
  const ours = await seeded(files, "ours");
  const theirs = await seeded(files, "theirs");

  // The SDK's engine, on a folder, against the same emulator.
  const dir = await mkdtemp(path.join(tmpdir(), "first-download-"));
  const engine = new SessionMemoryStores(client, { workdir: dir });
  emu.clearLog();
  try {
    await engine.download(/** @type {any} */ ({
      resources: [{ type: "memory_store", memory_store_id: theirs, access: "read_write", mount_path: path.join(dir, "mnt"), name: "t" }],
    }));
  } finally {
    await engine.dispose();
    await rm(dir, { recursive: true, force: true });
  }
  const sdkRequests = emu.log.length;
  assert.equal(sdkRequests, 50, "the SDK's engine: 1,000 / 20 full pages");

  const a = await device(emu, ours, { firstPass: false });
  const pageRequests = () => emu.log.filter((r) => r.route === LIST).length;
  // Page k is written only once page k + 1 has been asked for: the fetch is not held back by
  // the write (a writer that fetched after writing would never get here).
  const calls = spy(a.memory, (k) => until(() => pageRequests() >= Math.min(k + 2, 50), `page ${k + 2} asked for while page ${k + 1} is written`));
  emu.clearLog();
  const r = await a.sync.now();
  assert.equal(r.ok, true, String(r.error));
  assert.equal(r.pulled.length, 1000);
  assert.equal(r.requests, sdkRequests, "as many requests as the SDK's engine");
  assert.deepEqual(
    [...new Set(emu.log.map((q) => `${q.method} ${q.route} view=${q.query.view} limit=${q.query.limit}`))],
    [`GET ${LIST} view=full limit=20`],
    "no basic listing, no store check: only the full pages",
  );
  assert.deepEqual(calls, Array(50).fill("memories.createMany"), "one local transaction per page, none per memory");
  assert.deepEqual(await localFiles(a.memory), files);
  const progress = a.events.filter((e) => e.type === "progress");
  assert.equal(progress.length, 50);
  assert.deepEqual(progress.at(-1), { type: "progress", phase: "pull", done: 1000, total: 1000 });
  // The next pass: the basic listing, nothing moved.
  emu.clearLog();
  const again = await a.sync.now();
  assert.deepEqual([again.pulled.length, again.requests, emu.mutations().length], [0, 10, 0]);
  await a.sync.stop();
  a.memory.close();
});

test("a page that cannot be written whole is written memory by memory: a lying text, a text too big here, a file made here meanwhile", async () => {
  const files = Object.fromEntries(Object.keys(filesOf(60)).map((p, i) => [p, `note ${i}`]));
  const big = "/notes/00005.md";
  files[big] = "y".repeat(1500);
  const id = await seeded(files);
  const a = await device(emu, id, { firstPass: false, tool: { limits: { maxFileBytes: 1000 } } });
  // One memory of page 1 is over this store's limit; page 2 holds a text that is not its
  // sha; before page 3 is written, the model creates a file there.
  const lying = "/notes/00025.md";
  const mine = "/notes/00045.md";
  emu.inject({
    match: (q) => q.route === LIST,
    rewrite: (/** @type {any} */ p) => ({ ...p, data: p.data.map((/** @type {any} */ m) => (m.path === lying ? { ...m, content: "not this" } : m)) }),
    times: 3,
  });
  const calls = spy(a.memory, async (k) => {
    if (k === 2) await a.memory.execute({ command: "create", path: `/memories${mine}`, file_text: "made here\n" });
  });
  const r = await a.sync.now();
  assert.equal(r.ok, true, String(r.error));
  assert.deepEqual(calls.filter((c) => c === "memories.createMany").length, 3);
  assert.deepEqual(r.refused.map((x) => [x.side, x.path]), [["local", big]]);
  assert.ok(r.failed.some((f) => f.path === lying), "the lying text is that memory's failure");
  const local = await localFiles(a.memory);
  assert.equal(local[big], undefined);
  assert.notEqual(local[lying], "not this", "never written");
  // The file made here: the hosted text is the head, the local one stays in its history.
  assert.equal(local[mine], emu.files(id)[mine]);
  assert.deepEqual(r.conflicts.map((c) => c.path), [mine]);
  const kept = await a.memory.versions.get(r.conflicts[0].local_version_id);
  assert.equal(kept.content, "made here\n");
  // Everything else arrived.
  for (const p of Object.keys(files)) if (p !== big && p !== lying) assert.equal(local[p], emu.files(id)[p], p);
  // The lying text is fetched again on the next pass, by itself, and written then.
  const again = await a.sync.now();
  assert.deepEqual(again.pulled, [lying]);
  assert.equal((await localFiles(a.memory))[lying], emu.files(id)[lying]);
  await a.sync.stop();
  a.memory.close();
});

test("a listing that breaks off after two pages keeps what was written; the next pass goes on from the baselines", async () => {
  const files = filesOf(70);
  const id = await seeded(files);
  const a = await device(emu, id, { firstPass: false, sync: { retry: { attempts: 2, baseMs: 1, maxMs: 2 } } });
  let pages = 0;
  emu.inject({ match: (q) => q.route === LIST && ++pages >= 3, status: 500, times: 2 });
  const r = await a.sync.now();
  assert.equal(r.ok, false);
  assert.equal(r.pulled.length, 40, "two pages written");
  assert.equal(Object.keys(await localFiles(a.memory)).length, 40);
  emu.clearFaults();
  emu.clearLog();
  const next = await a.sync.now();
  assert.equal(next.ok, true, String(next.error));
  assert.equal(next.pulled.length, 30);
  assert.deepEqual(await localFiles(a.memory), files);
  assert.equal(emu.mutations().length, 0, "nothing pushed or deleted");
  await a.sync.stop();
  a.memory.close();
});
