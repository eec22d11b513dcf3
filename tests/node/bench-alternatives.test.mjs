// The bench's hand-written alternatives (bench/alternatives/idb.mjs and dexie.mjs) answer the
// same texts as the package for the same inputs, so the side-by-side table compares commands
// that do the same visible work. Each input is run on the package and on both alternatives,
// over fake-indexeddb, one after the other; the results must be equal, error flag included.

import "fake-indexeddb/auto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryTool, InMemoryStorage } from "memory-tool-wasm";
import { openIdbMemory } from "../../bench/alternatives/idb.mjs";
import { openDexieMemory } from "../../bench/alternatives/dexie.mjs";
import { textOfSize, MARKER_A, MARKER_B } from "../../bench/workload.mjs";

const long = textOfSize(100 * 1024, MARKER_A);
const oneLongLine = "x".repeat(20_000);

/** The inputs, in order, with the state they leave for the next. */
const inputs = [
  { command: "view", path: "/memories" },
  { command: "create", path: "/memories/notes.md", file_text: "alpha\nbeta\ngamma\n" },
  { command: "create", path: "/memories/notes.md", file_text: "again" },
  { command: "create", path: "/memories/notes.md/below.md", file_text: "x" },
  { command: "create", path: "/memories/dir/", file_text: "x" },
  { command: "create", path: "/memories/a/b/c/deep.md", file_text: "deep\n" },
  { command: "create", path: "/memories/a/x.md", file_text: "x".repeat(1300) },
  { command: "create", path: "/memories/a/.hidden", file_text: "h" },
  { command: "create", path: "/memories/node_modules/m.js", file_text: "m" },
  { command: "create", path: "/memories/a-b.md", file_text: "ab" },
  { command: "create", path: "/memories/B.md", file_text: "" },
  { command: "create", path: "/memories/long.md", file_text: long },
  { command: "create", path: "/memories/line.md", file_text: oneLongLine },
  { command: "create", path: "/memories/café.md", file_text: "é😀\n" },
  { command: "create", path: "/memories/a", file_text: "dir" },
  { command: "view", path: "/memories" },
  { command: "view", path: "/memories/" },
  { command: "view", path: "/memories/a" },
  { command: "view", path: "/memories/notes.md" },
  { command: "view", path: "/memories/long.md" },
  { command: "view", path: "/memories/line.md" },
  { command: "view", path: "/memories/B.md" },
  { command: "view", path: "/memories/café.md" },
  { command: "view", path: "/memories/missing.md" },
  { command: "str_replace", path: "/memories/notes.md", old_str: "beta", new_str: "BETA\nmore" },
  { command: "str_replace", path: "/memories/notes.md", old_str: "nothing", new_str: "x" },
  { command: "str_replace", path: "/memories/notes.md", old_str: "a", new_str: "x" },
  { command: "str_replace", path: "/memories/missing.md", old_str: "a", new_str: "x" },
  { command: "str_replace", path: "/memories/a", old_str: "a", new_str: "x" },
  { command: "str_replace", path: "/memories/long.md", old_str: MARKER_A, new_str: MARKER_B },
  { command: "str_replace", path: "/memories/notes.md", old_str: "gamma\n" },
  { command: "view", path: "/memories/notes.md" },
  { command: "insert", path: "/memories/notes.md", insert_line: 0, insert_text: "top\n" },
  { command: "insert", path: "/memories/notes.md", insert_line: 2, insert_text: "two" },
  { command: "insert", path: "/memories/notes.md", insert_line: 99, insert_text: "x" },
  { command: "insert", path: "/memories/long.md", insert_line: 10, insert_text: "an inserted line of text" },
  { command: "insert", path: "/memories/missing.md", insert_line: 0, insert_text: "x" },
  { command: "view", path: "/memories/notes.md" },
  { command: "rename", old_path: "/memories/notes.md", new_path: "/memories/moved/notes.md" },
  { command: "rename", old_path: "/memories/a", new_path: "/memories/z" },
  { command: "rename", old_path: "/memories/z", new_path: "/memories/z/inner" },
  { command: "rename", old_path: "/memories/z", new_path: "/memories/B.md" },
  { command: "rename", old_path: "/memories/z", new_path: "/memories/B.md/x" },
  { command: "rename", old_path: "/memories/nothing", new_path: "/memories/else" },
  { command: "rename", old_path: "/memories", new_path: "/memories/else" },
  { command: "rename", old_path: "/memories/z", new_path: "/memories/z" },
  { command: "view", path: "/memories" },
  { command: "delete", path: "/memories" },
  { command: "delete", path: "/memories/nothing" },
  { command: "delete", path: "/memories/moved/notes.md" },
  { command: "delete", path: "/memories/z" },
  { command: "view", path: "/memories/z" },
  { command: "view", path: "/memories" },
];

test("the idb and Dexie alternatives answer the package's texts", async () => {
  const pkg = await MemoryTool.open({ storage: new InMemoryStorage(), store: "texts", limits: { maxFileBytes: 1 << 20 } });
  const idb = await openIdbMemory("alt-idb-texts");
  const dexie = await openDexieMemory("alt-dexie-texts");
  try {
    for (const input of inputs) {
      const expected = await pkg.execute(input);
      const want = { content: expected.content, isError: expected.isError };
      assert.deepEqual(await idb.execute(input), want, `idb: ${JSON.stringify(input).slice(0, 200)}`);
      assert.deepEqual(await dexie.execute(input), want, `Dexie: ${JSON.stringify(input).slice(0, 200)}`);
    }
  } finally {
    pkg.close();
    await idb.destroy();
    await dexie.destroy();
  }
});

test("a listing longer than the view limit is cut alike", async () => {
  const pkg = await MemoryTool.open({ storage: new InMemoryStorage(), store: "cut" });
  const idb = await openIdbMemory("alt-idb-cut");
  const dexie = await openDexieMemory("alt-dexie-cut");
  try {
    const files = Array.from({ length: 1200 }, (_, i) => ({ path: `/memories/dir/note-${String(i).padStart(5, "0")}.md`, content: `note ${i}\n` }));
    for (const f of files) await pkg.writeFile(f.path, f.content);
    await idb.fill(files);
    await dexie.fill(files);
    for (const path of ["/memories", "/memories/dir"]) {
      const { content, isError } = await pkg.execute({ command: "view", path });
      assert.match(String(content), /\[Truncated: showing [\d,]+ of 1,20[01] entries/);
      assert.deepEqual(await idb.execute({ command: "view", path }), { content, isError });
      assert.deepEqual(await dexie.execute({ command: "view", path }), { content, isError });
    }
    // A directory delete and rename of many files.
    for (const input of [
      { command: "rename", old_path: "/memories/dir", new_path: "/memories/moved" },
      { command: "delete", path: "/memories/moved" },
      { command: "view", path: "/memories" },
    ]) {
      const { content, isError } = await pkg.execute(input);
      assert.deepEqual(await idb.execute(input), { content, isError });
      assert.deepEqual(await dexie.execute(input), { content, isError });
    }
  } finally {
    pkg.close();
    await idb.destroy();
    await dexie.destroy();
  }
});

test("the floor issues the package's requests, round by round (schema 5)", async () => {
  const floor = await import("../../bench/baseline.mjs");
  const { traceRounds } = await import("../../bench/request-trace.mjs");
  const { MemoryTool: Tool } = await import("memory-tool-wasm");
  const tool = await Tool.open({ storage: "indexeddb", store: "floor-trace", limits: { maxFiles: 1_000_000 } });
  for (let i = 0; i < 5; i++) await tool.writeFile(`/memories/dir/f${i}.md`, `file ${i}\n`);
  await tool.writeFile("/memories/doc.md", "alpha\nbeta\n");
  const env = { db: await floor.openDatabase("memory-tool-wasm:floor-trace") };
  const sorted = (/** @type {string[][]} */ rounds) => rounds.map((round) => [...round].sort());
  const ok = (/** @type {any} */ r) => assert.equal(r.isError, false, r.content);
  try {
    const read = async (/** @type {string} */ path) => (await floor.read(env, ({ files }) => [files.get(path)]))[0];
    const newest = () => floor.newestVersion(env);

    const pkgView = await traceRounds(async () => ok(await tool.execute({ command: "view", path: "/memories/doc.md" })));
    assert.deepEqual(sorted(await traceRounds(() => floor.viewFile(env, "/doc.md"))), sorted(pkgView));

    const pkgCreate = await traceRounds(async () => ok(await tool.execute({ command: "create", path: "/memories/new/a.md", file_text: "x\n" })));
    const record = await read("/new/a.md");
    const version = await newest();
    const write = {
      record: { ...record, path: "/new/b.md", id: "mem_b", version: "memver_zz1", content: "/new/b.md\u0000memver_zz1" },
      version: { ...version, id: "memver_zz1", memoryId: "mem_b", path: "/new/b.md", content: "/new/b.md\u0000memver_zz1" },
      bytes: new TextEncoder().encode("x\n"),
    };
    assert.deepEqual(sorted(await traceRounds(() => floor.create(env, write))), sorted(pkgCreate));

    const pkgEdit = await traceRounds(async () => ok(await tool.execute({ command: "str_replace", path: "/memories/doc.md", old_str: "beta", new_str: "gamma" })));
    const doc = await read("/doc.md");
    const edited = { record: { ...doc, size: doc.size + 1, version: "memver_zz2", content: "/doc.md\u0000memver_zz2" }, version: { ...(await newest()), id: "memver_zz2" }, bytes: new Uint8Array(doc.size + 1) };
    assert.deepEqual(sorted(await traceRounds(() => floor.edit(env, edited))), sorted(pkgEdit));

    const pkgRename = await traceRounds(async () => ok(await tool.execute({ command: "rename", old_path: "/memories/dir", new_path: "/memories/moved" })));
    const moved = (await floor.read(env, ({ files }) => [files.getAll(floor.below("/moved"))]))[0];
    const template = await newest();
    const moves = moved.map((/** @type {any} */ r, /** @type {number} */ i) => ({
      from: r.path,
      record: { ...r, path: `/back${r.path.slice("/moved".length)}` },
      version: { ...template, id: `memver_zz3${i}`, memoryId: r.id },
    }));
    assert.deepEqual(sorted(await traceRounds(() => floor.renameDirectory(env, "/moved", "/back", moves))), sorted(pkgRename));

    const pkgDelete = await traceRounds(async () => ok(await tool.execute({ command: "delete", path: "/memories/back" })));
    await floor.putAll(env, { files: moves.map((/** @type {any} */ m) => m.record) });
    const deletes = moves.map((/** @type {any} */ m, /** @type {number} */ i) => ({ path: m.record.path, size: m.record.size, version: { ...template, id: `memver_zz4${i}`, memoryId: m.record.id } }));
    assert.deepEqual(sorted(await traceRounds(() => floor.deleteDirectory(env, "/back", deletes))), sorted(pkgDelete));
  } finally {
    env.db.close();
    tool.close();
  }
});
