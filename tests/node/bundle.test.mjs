// The one-file browser entry (dist/memory-tool-wasm.js, written by scripts/build.sh through
// scripts/bundle.mjs; docs/ARCHITECTURE.md#cold-start): one module that imports nothing, with
// the same exports as the source entry, naming the .wasm in pkg/ from where it lies, and
// working (here in Node, which reads that .wasm from disk); package.json ships it as the main
// entry's browser file and as the `memory-tool-wasm/bundle` entry. Beside the source modules a subpath entry (sync, ai-sdk,
// anthropic) imports, it is a second copy of the package in the page, so the two must know
// each other's errors and sync's key.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import * as source from "../../src/js/index.js";
import { HOST_CALL_AS } from "../../src/js/host-call-as.js";

const DIST = new URL("../../dist/memory-tool-wasm.js", import.meta.url);

test("dist/memory-tool-wasm.js: one module, the source entry's exports, the .wasm named from dist/", async () => {
  const text = await readFile(DIST, "utf8");
  assert.doesNotMatch(text, /\bfrom\s*["']|\bimport\s*\(\s*["']/, "it imports no other module");
  const urls = text.match(/new URL\([^)]*\)/g) ?? [];
  const named = urls.filter((url) => url.includes(".wasm"));
  assert.ok(named.length > 0, "it names the .wasm");
  for (const url of named) assert.equal(url, 'new URL("../pkg/memory_tool_wasm_bg.wasm",import.meta.url)');
  const bundle = await import(DIST.href);
  assert.deepEqual(Object.keys(bundle).sort(), Object.keys(source).sort());
});

test("dist/memory-tool-wasm.js works, and shares errors and sync's key with the source modules", async () => {
  const bundle = await import(DIST.href);
  const tool = await bundle.MemoryTool.open({ storage: new bundle.InMemoryStorage() });
  const created = await tool.execute({ command: "create", path: "/memories/a.md", file_text: "a\n" });
  assert.equal(created.isError, false, String(created.content));
  const view = await tool.execute({ command: "view", path: "/memories/a.md" });
  assert.match(String(view.content), /a/);
  // An error of one copy is an instance of the other's class, both ways.
  const error = await tool.memories.getByPath("/nope.md").then(
    () => null,
    (e) => e,
  );
  const thrown = error ?? (await tool.memories.get("mem_nope").catch((e) => e));
  assert.ok(thrown instanceof bundle.MemoryToolError, String(thrown));
  assert.ok(thrown instanceof source.MemoryToolError, "the source modules' class knows the bundle's error");
  assert.ok(new source.MemoryToolError("X", "x") instanceof bundle.MemoryToolError);
  assert.equal(new Error("x") instanceof source.MemoryToolError, false);
  // The sync entry (source modules) writes through a bundle's MemoryTool by this key.
  assert.equal(typeof tool[HOST_CALL_AS], "function");
  tool.close();
});

test("package.json: the one-file build is the main entry's browser file and the ./bundle entry, with the main entry's types, and it is shipped", async () => {
  const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
  assert.deepEqual(pkg.exports["./bundle"], { types: "./src/js/index.d.ts", default: "./dist/memory-tool-wasm.js" });
  // And the main entry's browser file (a browser or a bundler: the `default` condition); Node
  // keeps its own entry.
  assert.deepEqual(pkg.exports["."], {
    types: "./src/js/index.d.ts",
    node: "./src/js/index-node.js",
    default: "./dist/memory-tool-wasm.js",
  });
  assert.ok(pkg.files.includes("dist/memory-tool-wasm.js"));
  assert.ok(pkg.files.includes("src/js/"), "the source modules stay in the package");
  // The self-reference resolves to it.
  const bundle = await import("memory-tool-wasm/bundle");
  assert.equal(typeof bundle.MemoryTool.open, "function");
});
