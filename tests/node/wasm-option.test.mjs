// The `wasm` option of MemoryTool.open and MemoryStores.open: every kind of source it takes
// loads the core, and anything else is refused up front. The core loads once per process, so
// each source is tried in a process of its own.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const WASM = new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url);
const run = existsSync(WASM) ? test : test.skip;

/** Runs `body` (an ES module's code, with `MemoryTool`, `MemoryStores` and `bytes` in scope) in a fresh Node. */
function inFreshNode(body) {
  const code = `
    import { MemoryTool, MemoryStores } from "memory-tool-wasm";
    import { readFileSync } from "node:fs";
    const url = new URL(${JSON.stringify(WASM.href)});
    const bytes = readFileSync(url);
    ${body}
  `;
  return execFileSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: new URL("../..", import.meta.url),
    encoding: "utf8",
  }).trim();
}

const SOURCES = {
  "a file: URL": "url",
  "a file: URL as a string": "url.href",
  "a Uint8Array": "new Uint8Array(bytes)",
  "an ArrayBuffer": "bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)",
  "a Response": 'new Response(bytes, { headers: { "content-type": "application/wasm" } })',
  "a promise of a Response": 'Promise.resolve(new Response(bytes, { headers: { "content-type": "application/wasm" } }))',
  "a WebAssembly.Module": "await WebAssembly.compile(bytes)",
};

for (const [name, source] of Object.entries(SOURCES)) {
  run(`MemoryTool.open({ wasm }) loads the core from ${name}`, () => {
    const out = inFreshNode(`
      const memory = await MemoryTool.open({ storage: "memory", wasm: ${source} });
      await memory.execute({ command: "create", path: "/memories/a.md", file_text: "x" });
      console.log(JSON.stringify(await memory.execute({ command: "view", path: "/etc" })));
    `);
    assert.deepEqual(JSON.parse(out), {
      content: "Error: Path must be /memories or start with /memories/, got: /etc",
      isError: true,
      code: "INVALID_PATH",
    });
  });
}

run("MemoryStores.open({ wasm }) loads the core from bytes", () => {
  const out = inFreshNode(`
    const stores = await MemoryStores.open({ storage: "memory", wasm: new Uint8Array(bytes) });
    console.log((await stores.create({ name: "Notes" })).name);
  `);
  assert.equal(out, "Notes");
});

run("bytes that are not the core reject, and a later open without `wasm` still loads it", () => {
  const out = inFreshNode(`
    const failed = await MemoryTool.open({ storage: "memory", wasm: new Uint8Array([0, 97, 115, 109]) }).then(() => "opened", (e) => e.constructor.name);
    const memory = await MemoryTool.open({ storage: "memory" });
    console.log(failed, typeof memory.execute);
  `);
  assert.equal(out, "CompileError function");
});

test("anything else is refused with INVALID_OPTIONS, naming the call", async () => {
  const { MemoryTool, MemoryStores } = await import("memory-tool-wasm");
  const text = "must be a URL, a string, a Response, bytes (ArrayBuffer or a typed array) or a WebAssembly.Module.";
  for (const wasm of [42, null, {}, true]) {
    await assert.rejects(MemoryTool.open({ storage: "memory", wasm }), {
      code: "INVALID_OPTIONS",
      message: `MemoryTool.open: \`wasm\` ${text}`,
    });
    await assert.rejects(MemoryStores.open({ storage: "memory", wasm }), {
      code: "INVALID_OPTIONS",
      message: `MemoryStores.open: \`wasm\` ${text}`,
    });
  }
});

run("the browser entry (index.js, no Node import) still loads the core in Node, through Node's builtins", () => {
  const code = `
    const browser = await import(${JSON.stringify(new URL("../../src/js/index.js", import.meta.url).href)});
    const memory = await browser.MemoryTool.open({ storage: "memory" });
    console.log(JSON.stringify(await memory.execute({ command: "view", path: "/memories" })));
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  assert.match(JSON.parse(out).content, /^Here're the files and directories up to 2 levels deep in \/memories/);
});

// MemoryTool.preload (docs/BUNDLERS.md#a-fast-first-command): it loads the core ahead of open,
// from the same sources; a failed load resolves and is not kept, so open reports it (as it would
// without the preload) and a later load can still succeed; bad options are refused.
run("MemoryTool.preload({ wasm }) loads the core before open, which then reads no `wasm`", () => {
  const out = inFreshNode(`
    const before = await MemoryTool.preload({ wasm: new Uint8Array(bytes) });
    // The first load won: this open's source is not read.
    const memory = await MemoryTool.open({ storage: "memory", wasm: new Uint8Array([0, 97, 115, 109]) });
    console.log(String(before), (await memory.execute({ command: "view", path: "/memories" })).isError);
  `);
  assert.equal(out, "undefined false");
});

run("a failed preload resolves, and open rejects as it would without it, then loads on a later try", () => {
  const out = inFreshNode(`
    const bad = new Uint8Array([0, 97, 115, 109]);
    const preloaded = await MemoryTool.preload({ wasm: bad }).then((v) => "resolved " + v, (e) => "rejected " + e);
    const failed = await MemoryTool.open({ storage: "memory", wasm: bad }).then(() => "opened", (e) => e.constructor.name);
    const memory = await MemoryTool.open({ storage: "memory" });
    console.log(preloaded, failed, typeof memory.execute);
  `);
  assert.equal(out, "resolved undefined CompileError function");
});

test("MemoryTool.preload refuses bad options with INVALID_OPTIONS", async () => {
  const { MemoryTool } = await import("memory-tool-wasm");
  await assert.rejects(MemoryTool.preload({ wasm: 42 }), {
    code: "INVALID_OPTIONS",
    message: "MemoryTool.preload: `wasm` must be a URL, a string, a Response, bytes (ArrayBuffer or a typed array) or a WebAssembly.Module.",
  });
  await assert.rejects(MemoryTool.preload({ store: "x" }), {
    code: "INVALID_OPTIONS",
    message: "MemoryTool.preload: unknown option `store`; the one option is wasm.",
  });
  await assert.rejects(MemoryTool.preload(/** @type {any} */ ("x")), { code: "INVALID_OPTIONS" });
});
