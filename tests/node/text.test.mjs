// The core's own words for hosts: `slugOf` (the folder a store's name mounts at) and
// `formatSize` (a size as listings write it). They need the core, so they refuse to run before
// anything opened it; after, they give what the core gives the records and the model.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) console.error("\n*** text.test.mjs: pkg/ is missing — run `npm run build`. SKIPPING. ***\n");
const { MemoryTool, MemoryStores, MemoryToolError, InMemoryStorage, slugOf, formatSize } = built
  ? await import("memory-tool-wasm")
  : {};
const suite = built ? describe : describe.skip;

suite("slugOf and formatSize", () => {
  test("refuse before the core is loaded, then agree with the core", async () => {
    assert.throws(() => slugOf("Demo"), (e) => e instanceof MemoryToolError && e.code === "NOT_READY");
    assert.throws(() => formatSize(1), (e) => e instanceof MemoryToolError && e.code === "NOT_READY");

    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    for (const name of ["Demo Memory", "Café Ideas", "メモ", "笔记 2026", "  Team -- Handbook!! 2026 "]) {
      const store = await stores.create({ name });
      assert.equal(slugOf(name), store.slug, name);
    }
    assert.equal(slugOf("***"), "");
    assert.throws(() => slugOf(/** @type {any} */ (5)), TypeError);

    const m = await MemoryTool.open({ storage });
    for (const size of [0, 44, 1023, 1024, 1536, 1024 * 1024 * 3 + 5]) {
      await m.execute({ command: "create", path: `/memories/s${size}.bin`, file_text: "x".repeat(Math.min(size, 4)) });
    }
    // The listing's size column and formatSize write sizes the same way.
    const view = await m.execute({ command: "view", path: "/memories" });
    assert.match(view.content, new RegExp(`^${formatSize(20)}\\t/memories$`, "m"));
    assert.deepEqual(
      [0, 44, 1023, 1024, 1536, 3 * 1024 * 1024 + 5].map(formatSize),
      ["0B", "44B", "1023B", "1.0K", "1.5K", "3.0M"],
    );
    assert.throws(() => formatSize(-1), TypeError);
    m.close();
  });
});
