// Two path worlds, through the package's JS API (docs/TOOL.md#store-paths): `writeFile` and the
// tool take tool paths (`/memories/notes/x.md`), `memories.*` store paths (`/notes/x.md`). A
// tool path given to `memories.create` or `memories.update` is refused with the store path
// meant (with several mounts, without the store's folder), so the model never meets
// `/memories/memories/…`; what the model itself puts in a folder named `memories`, and what a
// sync pull brings from a hosted store, stay reachable.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) console.error("\n*** store-paths.test.mjs: pkg/ is not built; SKIPPING. ***\n");
const suite = built ? describe : describe.skip;
const { MemoryTool, MemoryStores, MemoryToolError, InMemoryStorage } = built ? await import("memory-tool-wasm") : {};

const isCode = (code, message) => (error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, code, error.message);
  if (message !== undefined) assert.equal(error.message, message);
  return true;
};

suite("store paths and tool paths", () => {
  test("memories.create with a tool path is refused, naming the store path; nothing is written", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    await assert.rejects(
      memory.memories.create({ path: "/memories/notes/x.md", content: "x" }),
      isCode(
        "INVALID_PATH",
        "Invalid path /memories/notes/x.md: a store path leaves out the tool's /memories (the tool's /memories/notes/x.md is the store path /notes/x.md)",
      ),
    );
    assert.deepEqual(await memory.memories.list(), []);
    const view = await memory.execute({ command: "view", path: "/memories" });
    assert.equal(view.content, "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories");

    // The store path meant, and the model sees it where the host meant it.
    const note = await memory.memories.create({ path: "/notes/x.md", content: "x" });
    assert.equal((await memory.execute({ command: "view", path: "/memories/notes/x.md" })).isError, false);
    await assert.rejects(memory.memories.update(note.id, { path: "/memories/notes/y.md" }), isCode("INVALID_PATH"));
    await assert.rejects(
      memory.memories.getByPath("/memories/notes/x.md"),
      isCode(
        "NOT_FOUND",
        "No memory is at /memories/notes/x.md; a store path leaves out the tool's /memories (the tool's /memories/notes/x.md is the store path /notes/x.md)",
      ),
    );
    assert.equal((await memory.memories.getByPath("/notes/x.md")).content, "x");
    memory.close();
  });

  test("with several mounts, the hint leaves out the store's own folder", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const notes = await stores.create({ name: "Demo Memory" });
    const team = await stores.create({ name: "Team" });
    const memory = await MemoryTool.open({ storage, mounts: [{ store: notes.id }, { store: team.id }] });
    await assert.rejects(
      memory.memories.create({ store: "demo-memory", path: "/memories/demo-memory/todo.md", content: "x" }),
      isCode(
        "INVALID_PATH",
        "Invalid path /memories/demo-memory/todo.md: a store path leaves out the tool's /memories/demo-memory (the tool's /memories/demo-memory/todo.md is the store path /todo.md)",
      ),
    );
    await assert.rejects(
      memory.memories.create({ store: "demo-memory", path: "/memories/team/todo.md", content: "x" }),
      isCode("INVALID_PATH", "Invalid path /memories/team/todo.md: a store path leaves out the tool's /memories/demo-memory, this store's folder"),
    );
    await memory.memories.create({ store: "demo-memory", path: "/todo.md", content: "x" });
    assert.equal((await memory.execute({ command: "view", path: "/memories/demo-memory/todo.md" })).isError, false);
    memory.close();
    stores.close();
  });

  test("a folder named memories that the model made, or a sync pull brought, stays reachable", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    await memory.execute({ command: "create", path: "/memories/memories/plan.md", file_text: "from the model" });
    const plan = await memory.memories.getByPath("/memories/plan.md");
    assert.equal(plan.content, "from the model");
    await memory.memories.update(plan.id, { content: "edited by the app" });
    assert.match((await memory.execute({ command: "view", path: "/memories/memories/plan.md" })).content, /edited by the app/);
    // The host makes one on purpose with writeFile, which takes tool paths.
    await memory.writeFile("/memories/memories/by-host.md", "on purpose");
    assert.equal((await memory.memories.getByPath("/memories/by-host.md")).content, "on purpose");

    // The sync engine writes through the package-internal host call that records the hosted
    // store (src/js/host-call-as.js): a hosted memory keeps the hosted store's path.
    const hostCallAs = memory[Symbol.for("memory-tool-wasm.hostCallAs")];
    await hostCallAs.call(memory, "memories.create", { path: "/memories/pulled.md", content: "from the hosted store" }, {
      memory_store_id: "memstore_01hosted",
      memory_version_id: "memver_01hosted",
    });
    assert.equal((await memory.memories.getByPath("/memories/pulled.md")).content, "from the hosted store");
    memory.close();
  });
});
