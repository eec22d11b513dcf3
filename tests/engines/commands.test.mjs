// The package in Chromium, Firefox and WebKit over each engine's real IndexedDB: the six tool
// commands give Chromium's texts byte for byte (from src/js/index.js and from the one-file
// bundle), names are normalised alike in every engine (the characters engines normalise
// differently are refused with one text, docs/TOOL.md#names-every-browser-normalises-alike),
// a reload finds the store as it was, export/import and exportBlob carry it, an image
// comes back as an image block, and a big import (its bundle in parts, its writes in slices of
// one transaction) imports all of it, with the calls made after it running after it.
//
// Run: node --test --test-concurrency=1 tests/engines/commands.test.mjs   (ENGINES=webkit …)

import assert from "node:assert/strict";
import { test } from "node:test";
import { eachEngine, problemsOf, sameAsChromium, waitReady } from "./lib.mjs";

/** The commands, in order, and what each gives (run in the page). */
const SCRIPT = [
  { command: "view", path: "/memories" },
  { command: "create", path: "/memories/notes/todo.md", file_text: "# To do\n- milk\n- bread\n" },
  { command: "create", path: "/memories/notes/todo.md", file_text: "again" },
  { command: "view", path: "/memories/notes/todo.md" },
  { command: "view", path: "/memories/notes/todo.md", view_range: [2, 3] },
  { command: "str_replace", path: "/memories/notes/todo.md", old_str: "- milk", new_str: "- oat milk" },
  { command: "str_replace", path: "/memories/notes/todo.md", old_str: "- eggs", new_str: "x" },
  { command: "str_replace", path: "/memories/notes/todo.md", old_str: "\n", new_str: "x" },
  { command: "insert", path: "/memories/notes/todo.md", insert_line: 1, insert_text: "(this week)" },
  { command: "insert", path: "/memories/notes/todo.md", insert_line: 99, insert_text: "x" },
  { command: "create", path: "/memories/cafe\u0301.md", file_text: "NFD name" },
  { command: "view", path: "/memories/caf\u00e9.md" },
  { command: "create", path: "/memories/a\u{10EFD}\u0334.md", file_text: "a Unicode 15.0 mark, reordered" },
  { command: "view", path: "/memories/a\u0334\u{10EFD}.md" },
  // A Todhri letter (Unicode 16.0) and its dot above: U+105C9 in Chromium and Firefox, left as
  // it is by WebKit's Unicode 15.0. Refused everywhere, with one text.
  { command: "create", path: "/memories/\u{105D2}\u0307.md", file_text: "Todhri" },
  { command: "view", path: "/memories/\u{105C9}.md" },
  { command: "create", path: "/memories/\u{1FAE9}.md", file_text: "a Unicode 16.0 emoji" },
  { command: "rename", old_path: "/memories/notes", new_path: "/memories/archive/notes" },
  { command: "rename", old_path: "/memories/missing.md", new_path: "/memories/x.md" },
  { command: "view", path: "/memories" },
  { command: "delete", path: "/memories/caf\u00e9.md" },
  { command: "delete", path: "/memories/caf\u00e9.md" },
  { command: "view", path: "/memories/../etc" },
  { command: "view", path: "/memories/archive/notes/todo.md" },
  { command: "view", path: "/memories" },
];

eachEngine("the package over IndexedDB", (env) => {
  for (const entry of ["src", "bundle"]) {
    test(`the six commands give Chromium's texts (${entry === "src" ? "src/js/index.js" : "dist/memory-tool-wasm.js"}); a reload finds the store`, async () => {
      const tab = await env.open(`?entry=${entry}`);
      const store = `commands-${entry}`;
      const results = await tab.run(
        async ({ store, script }) => {
          const { MemoryTool, IndexedDbStorage } = /** @type {any} */ (window).pkg;
          await new IndexedDbStorage().destroy(store);
          const memory = await MemoryTool.open({ store });
          const out = [];
          for (const input of script) out.push(await memory.execute(input));
          memory.close();
          return out;
        },
        { store, script: SCRIPT },
      );
      sameAsChromium(env.engine, `commands ${entry}`, results);
      // What every engine must say (so Chromium's own answers are checked too).
      const text = (/** @type {number} */ i) => results[i].content;
      assert.equal(text(1), "File created successfully at: /memories/notes/todo.md");
      assert.ok(text(11).endsWith("\n     1\tNFD name"), text(11));
      assert.ok(text(13).endsWith("\n     1\ta Unicode 15.0 mark, reordered"), text(13));
      assert.deepEqual(
        [results[14], results[15]],
        [
          { content: "Error: Invalid path /memories/\u{105D2}\u0307.md: characters that browsers may normalise differently are not allowed", isError: true, code: "INVALID_PATH" },
          { content: "Error: Invalid path /memories/\u{105C9}.md: characters that browsers may normalise differently are not allowed", isError: true, code: "INVALID_PATH" },
        ],
      );
      assert.equal(text(16), "File created successfully at: /memories/\u{1FAE9}.md");

      // A reload: the same store, as it was.
      await tab.reload();
      await waitReady(tab);
      const after = await tab.run(async (store) => {
        const memory = await /** @type {any} */ (window).pkg.MemoryTool.open({ store });
        const out = [await memory.execute({ command: "view", path: "/memories" }), await memory.execute({ command: "view", path: "/memories/archive/notes/todo.md" })];
        memory.close();
        return out;
      }, store);
      assert.deepEqual(after, [results[24], results[23]]);
      assert.deepEqual(await problemsOf(tab), []);
      await tab.close();
    });
  }

  test("export and import, exportBlob, and an image view", async () => {
    const tab = await env.open();
    const got = await tab.run(async () => {
      const { MemoryTool, IndexedDbStorage } = /** @type {any} */ (window).pkg;
      const storage = new IndexedDbStorage();
      await storage.destroy("bundle-from");
      await storage.destroy("bundle-to");
      const from = await MemoryTool.open({ store: "bundle-from" });
      await from.execute({ command: "create", path: "/memories/a.md", file_text: "alpha\n" });
      await from.execute({ command: "create", path: "/memories/d/b.md", file_text: "beta ünïcödé\n" });
      await from.execute({ command: "str_replace", path: "/memories/a.md", old_str: "alpha", new_str: "alpha two" });
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
      await from.writeFile("/memories/pic.png", png);
      const image = await from.execute({ command: "view", path: "/memories/pic.png" });
      const bundle = await from.export({ include_versions: true });
      const blob = await from.exportBlob({ include_versions: true });
      const blobBundle = JSON.parse(await blob.text());
      const to = await MemoryTool.open({ store: "bundle-to" });
      const imported = await to.import(bundle);
      const views = [];
      for (const path of ["/memories", "/memories/a.md", "/memories/d/b.md"]) views.push(await to.execute({ command: "view", path }));
      const versions = (await to.versions.list()).data.length;
      from.close();
      to.close();
      const shape = (/** @type {any} */ b) => ({
        memories: b.memories.map((/** @type {any} */ m) => [m.path, m.content_sha256 ?? null]).sort(),
        versions: (b.versions ?? []).length,
      });
      return { image, imported, views, versions, sameBlob: JSON.stringify(shape(bundle)) === JSON.stringify(shape(blobBundle)), shape: shape(bundle) };
    });
    assert.equal(got.sameBlob, true, "exportBlob and export hold the same memories and versions");
    assert.deepEqual(got.image, {
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" } }],
      isError: false,
    });
    assert.ok(got.views[1].content.includes("\n     1\talpha two\n"), got.views[1].content);
    // Timestamps and ids differ between runs; the rest is compared with Chromium.
    sameAsChromium(env.engine, "bundle", { imported: got.imported, views: got.views.map((/** @type {any} */ v) => v.content.replace(/\d+(\.\d+)?[KM]?B\t/g, "SIZE\t")), versions: got.versions, memories: got.shape.memories.length });
    assert.deepEqual(await problemsOf(tab), []);
    await tab.close();
  });

  test("a big import: its bundle in parts, its writes in slices of one transaction, the calls after it run after it", async () => {
    const tab = await env.open();
    const got = await tab.run(async () => {
      const { MemoryTool, IndexedDbStorage, InMemoryStorage } = /** @type {any} */ (window).pkg;
      const storage = new IndexedDbStorage();
      await storage.destroy("big-import");
      const limits = { maxFiles: 10_000 };
      // 2,500 memories with their history: three parts of memories, three of versions, and
      // some 7,500 writes, about thirty slices.
      const maker = await MemoryTool.open({ storage: new InMemoryStorage(), store: "maker", limits });
      for (let i = 0; i < 2500; i++) await maker.writeFile(`/memories/d${i % 7}/n${i}.md`, `note ${i}\n`);
      const bundle = await maker.export({ include_versions: true });
      maker.close();
      const to = await MemoryTool.open({ store: "big-import", limits });
      /** @type {Array<[number, number]>} */
      const progress = [];
      const imported = to.import(bundle, { onProgress: (/** @type {any} */ p) => progress.push([p.done, p.total]) });
      const after = to.execute({ command: "create", path: "/memories/d0/n2499.md", file_text: "mine\n" });
      const result = await imported;
      const create = await after;
      const view = await to.execute({ command: "view", path: "/memories/d0/n2499.md" });
      const usage = await to.usage();
      const listed = (await to.memories.list()).filter((/** @type {any} */ m) => m.type === "memory").length;
      const versions = (await to.versions.list({ memory_id: (await to.memories.getByPath("/d0/n2499.md")).id })).data.length;
      to.close();
      return { result, create, view: view.content, files: usage.files, listed, versions, first: progress[0], last: progress.at(-1), reports: progress.length };
    });
    assert.deepEqual(got.result, { imported: 2500, overwritten: 0, skipped: 0, unchanged: 0, versions: 2500 });
    // The create was called after the import: it found the imported file.
    assert.equal(got.create.isError, true, got.create.content);
    assert.match(got.view, /\n     1\tnote 2499\n/);
    assert.deepEqual([got.files, got.listed, got.versions], [2500, 2500, 1]);
    assert.equal(got.first[0], 0);
    assert.equal(got.last[0], got.last[1]);
    assert.ok(got.last[1] >= 7500 && got.reports >= 50, JSON.stringify([got.last, got.reports]));
    assert.deepEqual(await problemsOf(tab), []);
    await tab.close();
  });
});
