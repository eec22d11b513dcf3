// Lone surrogates at the JS boundary (docs/TOOL.md#from-javascript): a string with half a
// UTF-16 surrogate pair has no UTF-8 form. The host's content calls (`writeFile`,
// `memories.create`, `memories.update`) refuse it with INVALID_INPUT, naming where it is, and
// write nothing; the model's tool input keeps the memory tool's rule and stores U+FFFD.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** surrogates.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every surrogate test. ***\n",
  );
}
const { MemoryTool, MemoryToolError, InMemoryStorage } = built ? await import("memory-tool-wasm") : {};
const suite = built ? describe : describe.skip;

/** @param {string} message */
const invalidInput = (message) => (/** @type {unknown} */ error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, "INVALID_INPUT");
  assert.equal(error.message, message);
  return true;
};

/** @param {string} call @param {string} unit @param {number} index */
const lone = (call, unit, index) =>
  `${call}: \`content\` holds a lone surrogate (U+${unit} at index ${index}, half of a UTF-16 surrogate pair), which has no UTF-8 form; send well-formed text or bytes.`;

suite("lone surrogates", () => {
  test("host content calls refuse them and write nothing", async () => {
    const storage = new InMemoryStorage();
    const m = await MemoryTool.open({ storage });
    await assert.rejects(m.writeFile("/memories/a.md", "ok \ud800 then"), invalidInput(lone("writeFile(path, content)", "D800", 3)));
    await assert.rejects(m.writeFile("/memories/a.md", "\udc00x"), invalidInput(lone("writeFile(path, content)", "DC00", 0)));
    await assert.rejects(
      m.memories.create({ path: "/b.md", content: "x\udbff" }),
      invalidInput(lone("memories.create", "DBFF", 1)),
    );
    assert.deepEqual(await m.memories.list(), []);
    const made = await m.memories.create({ path: "/c.md", content: "before" });
    await assert.rejects(
      m.memories.update(made.id, { content: "after\udfff" }),
      invalidInput(lone("memories.update", "DFFF", 5)),
    );
    assert.equal((await m.memories.get(made.id)).content, "before");
    assert.equal((await m.versions.list()).data.length, 1);
    m.close();
  });

  test("whole pairs, U+FFFD itself and bytes pass", async () => {
    const m = await MemoryTool.open({ storage: "memory" });
    await m.writeFile("/memories/pair.md", "😀 \ud83d\ude00 \ufffd");
    assert.equal((await m.memories.getByPath("/pair.md")).content, "😀 😀 \ufffd");
    // Bytes are the host's own: stored as given.
    await m.writeFile("/memories/raw.bin", new Uint8Array([0xed, 0xa0, 0x80]));
    assert.equal((await m.memories.getByPath("/raw.bin")).content_size_bytes, 3);
    const made = await m.memories.create({ path: "/d.md", content: "a\ud83d\ude00b" });
    assert.equal((await m.memories.update(made.id, { content: "\ud83d\ude00" })).content, "😀");
    m.close();
  });

  test("the model's tool input keeps the memory tool's rule: content stores U+FFFD", async () => {
    const m = await MemoryTool.open({ storage: "memory" });
    const created = await m.execute({ command: "create", path: "/memories/t.md", file_text: "a\ud800b" });
    assert.deepEqual(created, { content: "File created successfully at: /memories/t.md", isError: false });
    assert.equal((await m.memories.getByPath("/t.md")).content, "a\ufffdb");
    m.close();
  });
});
