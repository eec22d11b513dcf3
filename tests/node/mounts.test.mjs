// Through the package's JS API: `MemoryTool.open({ mounts })` over named
// stores of the registry. One mount is /memories itself; several are /memories/<slug>/ each;
// the view of /memories lists them; writes outside a mount and moves between stores are
// refused; a read_only mount refuses writes with the text of docs/TOOL.md#read-only-access before touching storage; the
// open errors (TOO_MANY_MOUNTS, SLUG_CONFLICT naming both stores, ARCHIVED, NOT_FOUND,
// instructions over 4,096 characters); the system-prompt text; the host API with { store };
// events of every mount; versions recording the mount and session that wrote them.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** mounts.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every mounts test. ***\n",
  );
}
const { MemoryTool, MemoryStores, MemoryToolError, InMemoryStorage, IndexedDbStorage } = built
  ? await import("memory-tool-wasm")
  : {};
const suite = built ? describe : describe.skip;

const isCode = (code, message) => (error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, code, error.message);
  if (message !== undefined) assert.equal(error.message, message);
  return true;
};
const LISTING_HEAD = (p) =>
  `Here're the files and directories up to 2 levels deep in ${p}, excluding hidden items and node_modules:`;
const FILE_HEAD = (p) => `Here's the content of ${p} with line numbers:`;
const SESSION_ID = /^session_[0-9a-hjkmnp-tv-z]{24}$/;
const PROMPT_END =
  "\n\nView your memory before you start a task, and keep what you learn there, in the store it belongs to.";

const tool = (m, id, input) => m.run({ type: "tool_use", id, name: "memory", input });

/**
 * A storage that records every transaction (store and mode) it runs, and counts the handles
 * open, over InMemoryStorage.
 * @returns {{ storage: object, log: Array<[string, string]>, open: () => number }}
 */
function spyStorage() {
  const inner = new InMemoryStorage();
  /** @type {Array<[string, string]>} */
  const log = [];
  let open = 0;
  const storage = {
    async open(name) {
      const handle = await inner.open(name);
      open++;
      let closed = false;
      return {
        eventScope: handle.eventScope,
        transaction(mode, body) {
          log.push([name, mode]);
          return handle.transaction(mode, body);
        },
        close: () => {
          if (!closed) open--;
          closed = true;
          handle.close();
        },
      };
    },
    destroy: (name) => inner.destroy(name),
  };
  return { storage, log, open: () => open };
}

/**
 * A registry with "Demo Memory" (empty) and "Team Handbook" (holding /style.md, written by its
 * owners through a read_write mount of its own).
 */
async function twoStores(storage = new InMemoryStorage()) {
  const stores = await MemoryStores.open({ storage });
  const demo = await stores.create({ name: "Demo Memory", description: "What the demo keeps." });
  const team = await stores.create({ name: "Team Handbook", description: "The team's conventions." });
  const owner = await MemoryTool.open({ storage, mounts: [{ store: team.id }] });
  await owner.execute({ command: "create", path: "/memories/style.md", file_text: "Use tabs." });
  owner.close();
  return { storage, stores, demo, team };
}

/** Everything in store `name`, read beneath the API: paths and texts. */
async function rawTexts(storage, name) {
  const handle = await storage.open(name);
  const out = {};
  await handle.transaction("readonly", (tx) => {
    tx.getSubtree("", (records) => {
      for (const record of records) {
        tx.getContent(record.content ?? record.id, (bytes) => {
          out[record.path] = new TextDecoder().decode(bytes);
        });
      }
    });
  });
  handle.close();
  return out;
}

suite("one mount is /memories itself", () => {
  test("paths, listing, versions (session, no mount path), the system prompt", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const notes = await stores.create({ name: "Notes", description: "Everything I learn." });
    const m = await MemoryTool.open({ storage, mounts: [{ store: notes.id, instructions: "Keep it short." }] });
    assert.equal(m.store, notes.id);
    assert.equal(m.access, "read_write");
    assert.match(m.sessionId, SESSION_ID);
    assert.deepEqual(m.mounts, [
      {
        store: notes.id,
        name: "Notes",
        slug: "notes",
        path: "/memories/",
        access: "read_write",
        description: "Everything I learn.",
        instructions: "Keep it short.",
        archived: false,
      },
    ]);
    assert.deepEqual(await tool(m, "toolu_1", { command: "create", path: "/memories/a.md", file_text: "hi" }), {
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: "File created successfully at: /memories/a.md",
    });
    assert.deepEqual(await m.execute({ command: "view", path: "/memories" }), {
      content: `${LISTING_HEAD("/memories")}\n2B\t/memories\n2B\t/memories/a.md`,
      isError: false,
    });
    const [version] = (await m.versions.list()).data;
    assert.deepEqual(version.created_by, { type: "tool", tool_use_id: "toolu_1", session_id: m.sessionId });
    assert.deepEqual(Object.keys(await rawTexts(storage, notes.id)), ["/a.md"]);
    assert.equal(
      m.systemPrompt(),
      "You have persistent memory through the `memory` tool. Its files live under /memories, in this memory store:\n" +
        '\n- /memories/ — "Notes" (read and write)\n  Description: Everything I learn.\n  Instructions: Keep it short.' +
        PROMPT_END,
    );
    m.close();
    stores.close();
  });

  test("a tool opened with `store` describes that store; versions keep the plain actors", async () => {
    const m = await MemoryTool.open({ storage: "memory", store: "user-42", access: "read_only" });
    assert.equal(
      m.systemPrompt(),
      "You have persistent memory through the `memory` tool. Its files live under /memories, in this memory store:\n" +
        '\n- /memories/ — "user-42" (read only: you can view it but not change it)' +
        PROMPT_END,
    );
    assert.deepEqual(m.mounts, [
      {
        store: "user-42",
        name: "user-42",
        slug: "",
        path: "/memories/",
        access: "read_only",
        description: "",
        instructions: "",
        archived: false,
      },
    ]);
    m.close();
    const w = await MemoryTool.open({ storage: "memory" });
    await w.writeFile("/memories/x.md", "x");
    assert.deepEqual((await w.versions.list()).data[0].created_by, { type: "api" });
    // The store's name works as `store` of host calls, as it is the only one.
    assert.equal((await w.memories.list({ store: "memories" })).length, 1);
    await assert.rejects(w.memories.list({ store: "other" }), isCode("INVALID_INPUT"));
    w.close();
  });
});

suite("several mounts", () => {
  test("a session with a read_write and a read_only mount: reads both, writes only where allowed", async () => {
    const { storage, stores, demo, team } = await twoStores();
    const m = await MemoryTool.open({
      storage,
      mounts: [
        { store: demo.id, access: "read_write", instructions: "Keep notes short." },
        { store: team.id, access: "read_only" },
      ],
    });
    const READ_ONLY = (verb, path) => `Error: Cannot ${verb} ${path}: this memory is read-only`;
    /** @type {Array<[object, string, boolean, string?]>} input, text, isError, code */
    const steps = [
      [{ command: "view", path: "/memories" },
        `${LISTING_HEAD("/memories")}\n9B\t/memories\n0B\t/memories/demo-memory/\n9B\t/memories/team-handbook/\n9B\t/memories/team-handbook/style.md`, false],
      [{ command: "view", path: "/memories/team-handbook/style.md" },
        `${FILE_HEAD("/memories/team-handbook/style.md")}\n     1\tUse tabs.`, false],
      [{ command: "create", path: "/memories/demo-memory/notes/a.md", file_text: "learned" },
        "File created successfully at: /memories/demo-memory/notes/a.md", false],
      [{ command: "view", path: "/memories/demo-memory" },
        `${LISTING_HEAD("/memories/demo-memory")}\n7B\t/memories/demo-memory\n7B\t/memories/demo-memory/notes/\n7B\t/memories/demo-memory/notes/a.md`, false],
      [{ command: "str_replace", path: "/memories/team-handbook/style.md", old_str: "tabs", new_str: "spaces" },
        READ_ONLY("str_replace", "/memories/team-handbook/style.md"), true, "READ_ONLY"],
      [{ command: "insert", path: "/memories/team-handbook/style.md", insert_line: 0, insert_text: "x" },
        READ_ONLY("insert", "/memories/team-handbook/style.md"), true, "READ_ONLY"],
      [{ command: "create", path: "/memories/team-handbook/x.md", file_text: "x" },
        READ_ONLY("create", "/memories/team-handbook/x.md"), true, "READ_ONLY"],
      [{ command: "delete", path: "/memories/team-handbook/style.md" },
        READ_ONLY("delete", "/memories/team-handbook/style.md"), true, "READ_ONLY"],
      [{ command: "rename", old_path: "/memories/team-handbook/style.md", new_path: "/memories/team-handbook/s.md" },
        READ_ONLY("rename", "/memories/team-handbook/style.md"), true, "READ_ONLY"],
      [{ command: "create", path: "/memories/loose.md", file_text: "x" },
        "Error: Cannot create /memories/loose.md: /memories holds only the memory stores /memories/demo-memory/, /memories/team-handbook/; use a path inside one of them", true, "PATH_CONFLICT"],
      [{ command: "rename", old_path: "/memories/demo-memory/notes/a.md", new_path: "/memories/team-handbook/a.md" },
        "Error: Cannot move /memories/demo-memory/notes/a.md to /memories/team-handbook/a.md: they are in different memory stores; create the file in the other store and delete this one", true, "PATH_CONFLICT"],
      [{ command: "rename", old_path: "/memories/demo-memory/notes/a.md", new_path: "/memories/a.md" },
        "Error: Cannot rename to /memories/a.md: /memories holds only the memory stores /memories/demo-memory/, /memories/team-handbook/; use a path inside one of them", true, "PATH_CONFLICT"],
      [{ command: "rename", old_path: "/memories/demo-memory/notes", new_path: "/memories/demo-memory/kept" },
        "Successfully renamed /memories/demo-memory/notes to /memories/demo-memory/kept", false],
      [{ command: "str_replace", path: "/memories/demo-memory/kept/a.md", old_str: "learned", new_str: "learned twice" },
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tlearned twice", false],
      [{ command: "delete", path: "/memories/demo-memory" },
        "Error: Cannot delete the mount /memories/demo-memory itself", true],
      [{ command: "delete", path: "/memories" }, "Error: Cannot delete the /memories directory itself", true],
      [{ command: "view", path: "/memories/nowhere" },
        "The path /memories/nowhere does not exist. Please provide a valid path.", true, "NOT_FOUND"],
      [{ command: "create", path: "/memories/demo-memory", file_text: "x" },
        "Error: File /memories/demo-memory already exists", true],
      [{ command: "view", path: "/memories" },
        // Two levels deep below /memories: kept/a.md is a third.
        `${LISTING_HEAD("/memories")}\n22B\t/memories\n13B\t/memories/demo-memory/\n13B\t/memories/demo-memory/kept/\n9B\t/memories/team-handbook/\n9B\t/memories/team-handbook/style.md`, false],
    ];
    let n = 0;
    for (const [input, text, isError, code] of steps) {
      const result = await tool(m, `toolu_${++n}`, input);
      assert.equal(result.content, text, JSON.stringify(input));
      assert.equal(result.is_error === true, isError, JSON.stringify(input));
      if (code) assert.equal((await m.execute(input)).code, code, JSON.stringify(input));
    }
    // Only the read_write store changed.
    assert.deepEqual(await rawTexts(storage, team.id), { "/style.md": "Use tabs." });
    assert.deepEqual(await rawTexts(storage, demo.id), { "/kept/a.md": "learned twice" });
    // Versions say which tool call, session and mount wrote them.
    const versions = (await m.versions.list({ store: demo.id })).data;
    assert.deepEqual(
      versions.map((v) => [v.operation, v.path, v.created_by]),
      [
        ["modified", "/kept/a.md", { type: "tool", tool_use_id: "toolu_14", session_id: m.sessionId, mount_path: "/memories/demo-memory/" }],
        ["modified", "/kept/a.md", { type: "tool", tool_use_id: "toolu_13", session_id: m.sessionId, mount_path: "/memories/demo-memory/" }],
        ["created", "/notes/a.md", { type: "tool", tool_use_id: "toolu_3", session_id: m.sessionId, mount_path: "/memories/demo-memory/" }],
      ],
    );
    m.close();
    stores.close();
  });

  test("a read_only mount refuses every write before touching storage", async () => {
    const { storage, log } = spyStorage();
    const { stores, demo, team } = await twoStores(storage);
    const m = await MemoryTool.open({
      storage,
      mounts: [{ store: demo.id }, { store: team.id, access: "read_only" }],
    });
    log.length = 0;
    for (const input of [
      { command: "create", path: "/memories/team-handbook/x.md", file_text: "x" },
      { command: "str_replace", path: "/memories/team-handbook/style.md", old_str: "tabs", new_str: "spaces" },
      { command: "insert", path: "/memories/team-handbook/style.md", insert_line: 1, insert_text: "x" },
      { command: "delete", path: "/memories/team-handbook/style.md" },
      { command: "rename", old_path: "/memories/team-handbook/style.md", new_path: "/memories/team-handbook/y.md" },
      { command: "create", path: "/memories/loose.md", file_text: "x" },
      { command: "rename", old_path: "/memories/demo-memory/a", new_path: "/memories/team-handbook/a" },
    ]) {
      const result = await m.execute(input);
      assert.equal(result.isError, true, JSON.stringify(input));
    }
    await assert.rejects(m.writeFile("/memories/team-handbook/w.md", "x"), isCode("READ_ONLY", "Cannot write /memories/team-handbook/w.md: this memory is read-only"));
    await assert.rejects(m.writeFile("/memories/w.md", "x"), isCode("PATH_CONFLICT"));
    assert.deepEqual(log, [], "no transaction at all");
    // Reads go to the store they name, the view of /memories to each store.
    await m.execute({ command: "view", path: "/memories/team-handbook/style.md" });
    await m.execute({ command: "view", path: "/memories" });
    assert.deepEqual(log, [
      [team.id, "readonly"],
      [demo.id, "readonly"],
      [team.id, "readonly"],
    ]);
    m.close();
    stores.close();
  });

  test("the system-prompt text: the core's, with each mount's name, path, access, description, instructions", async () => {
    const { storage, stores, demo, team } = await twoStores();
    const m = await MemoryTool.open({
      storage,
      mounts: [
        { store: demo.id, access: "read_write", instructions: "Keep notes short." },
        { store: team.id, access: "read_only" },
      ],
    });
    assert.equal(
      m.systemPrompt(),
      "You have persistent memory through the `memory` tool. Its files live under /memories, in these memory stores:\n" +
        '\n- /memories/demo-memory/ — "Demo Memory" (read and write)\n  Description: What the demo keeps.\n  Instructions: Keep notes short.' +
        '\n- /memories/team-handbook/ — "Team Handbook" (read only: you can view it but not change it)\n  Description: The team\'s conventions.' +
        PROMPT_END,
    );
    assert.deepEqual(
      m.mounts.map((x) => [x.store, x.slug, x.path, x.access]),
      [
        [demo.id, "demo-memory", "/memories/demo-memory/", "read_write"],
        [team.id, "team-handbook", "/memories/team-handbook/", "read_only"],
      ],
    );
    assert.equal(m.store, demo.id);
    assert.equal(m.access, "read_write");
    assert.ok(Object.isFrozen(m.mounts) && Object.isFrozen(m.mounts[0]));
    m.close();
    stores.close();
  });

  test("up to 8 mounts; 9 is TOO_MANY_MOUNTS (before any store is looked up)", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const ids = [];
    for (let i = 0; i < 9; i++) ids.push((await stores.create({ name: `Store ${i}` })).id);
    const eight = await MemoryTool.open({ storage, mounts: ids.slice(0, 8).map((store) => ({ store })) });
    assert.equal(eight.mounts.length, 8);
    assert.equal(eight.mounts[7].path, "/memories/store-7/");
    eight.close();
    await assert.rejects(
      MemoryTool.open({ storage, mounts: ids.map((store) => ({ store })) }),
      isCode("TOO_MANY_MOUNTS", "A session mounts at most 8 memory stores; 9 were given"),
    );
    await assert.rejects(
      MemoryTool.open({ storage, mounts: Array.from({ length: 9 }, (_, i) => ({ store: `memstore_none${i}` })) }),
      isCode("TOO_MANY_MOUNTS"),
    );
    stores.close();
  });

  test("instructions: at most 4,096 characters", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const demo = await stores.create({ name: "Demo Memory" });
    (await MemoryTool.open({ storage, mounts: [{ store: demo.id, instructions: "é".repeat(4096) }] })).close();
    await assert.rejects(
      MemoryTool.open({ storage, mounts: [{ store: demo.id, instructions: "x".repeat(4097) }] }),
      isCode(
        "INVALID_OPTIONS",
        'The instructions for memory store "Demo Memory" are 4,097 characters long; at most 4,096 are allowed',
      ),
    );
    await assert.rejects(MemoryTool.open({ storage, mounts: [{ store: demo.id, instructions: 5 }] }), isCode("INVALID_OPTIONS"));
    stores.close();
  });

  test("two stores whose slugs collide are SLUG_CONFLICT, naming both; so is one store mounted twice", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const demo = await stores.create({ name: "Demo Memory" });
    const twin = await stores.create({ name: "demo  memory!" });
    await assert.rejects(
      MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: twin.id, access: "read_only" }] }),
      isCode(
        "SLUG_CONFLICT",
        `Memory stores "Demo Memory" (${demo.id}) and "demo  memory!" (${twin.id}) would both mount at /memories/demo-memory/; rename one of them`,
      ),
    );
    await assert.rejects(
      MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: demo.id, access: "read_only" }] }),
      isCode("SLUG_CONFLICT", `Memory store "Demo Memory" (${demo.id}) is mounted twice`),
    );
    // Renaming one of them resolves it.
    await stores.update(twin.id, { name: "Demo Twin" });
    const m = await MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: twin.id }] });
    assert.deepEqual(m.mounts.map((x) => x.path), ["/memories/demo-memory/", "/memories/demo-twin/"]);
    m.close();
    stores.close();
  });

  test("archived stores: read_only only, and read-only for good through the host API too", async () => {
    const { storage, stores, demo, team } = await twoStores();
    await stores.archive(team.id);
    await assert.rejects(
      MemoryTool.open({ storage, mounts: [{ store: team.id }] }),
      isCode("ARCHIVED", `Memory store "Team Handbook" (${team.id}) is archived: it can only be mounted read_only`),
    );
    await assert.rejects(
      MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: team.id, access: "read_write" }] }),
      isCode("ARCHIVED"),
    );
    const m = await MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: team.id, access: "read_only" }] });
    assert.equal(m.mounts[1].archived, true);
    assert.equal((await m.execute({ command: "view", path: "/memories/team-handbook/style.md" })).isError, false);
    // Mounted read_only, it refuses the host's writes too (the core's READ_ONLY).
    const [style] = await m.memories.list({ store: "team-handbook" });
    await assert.rejects(
      m.memories.create({ path: "/n.md", content: "x", store: team.id }),
      isCode("READ_ONLY", "Cannot create /n.md: this memory is read-only"),
    );
    await assert.rejects(m.memories.update(style.id, { content: "x", store: team.id }), isCode("READ_ONLY"));
    await assert.rejects(m.memories.delete(style.id, { store: team.id }), isCode("READ_ONLY"));
    await assert.rejects(m.import({ format: "memory-tool-wasm/bundle", format_version: 1, memories: [] }, { store: team.id }), isCode("READ_ONLY"));
    const [version] = (await m.versions.list({ store: team.id })).data;
    await assert.rejects(m.versions.restore(version.id, { store: team.id }), isCode("READ_ONLY"));
    await assert.rejects(m.writeFile("/memories/team-handbook/w.md", "x"), isCode("READ_ONLY"));
    assert.deepEqual(await rawTexts(storage, team.id), { "/style.md": "Use tabs." });
    m.close();
    stores.close();
  });

  test("a mount whose store is not in the registry is NOT_FOUND, naming it; nothing stays open", async () => {
    const spy = spyStorage();
    const storage = spy.storage;
    const { stores, demo } = await twoStores(storage);
    const before = spy.open();
    await assert.rejects(
      MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: "memstore_gone" }] }),
      isCode("NOT_FOUND", "No memory store has the id memstore_gone"),
    );
    await stores.delete(demo.id);
    await assert.rejects(MemoryTool.open({ storage, mounts: [{ store: demo.id }] }), isCode("NOT_FOUND", `No memory store has the id ${demo.id}`));
    // Another storage has another registry.
    await assert.rejects(MemoryTool.open({ storage: new InMemoryStorage(), mounts: [{ store: demo.id }] }), isCode("NOT_FOUND"));
    assert.equal(spy.open(), before, "every handle the failed opens took is closed");
    stores.close();
    assert.equal(spy.open(), 0);
  });

  test("options: mounts and store or access are exclusive; each mount is checked", async () => {
    const { storage, stores, demo } = await twoStores();
    const bad = [
      { mounts: [{ store: demo.id }], store: "x" },
      { mounts: [{ store: demo.id }], access: "read_only" },
      { mounts: {} },
      { mounts: "x" },
      { mounts: [] },
      { mounts: [null] },
      { mounts: [{}] },
      { mounts: [{ store: "" }] },
      { mounts: [{ store: 5 }] },
      { mounts: [{ store: demo.id, access: "write" }] },
      { mounts: [{ store: demo.id, access: 5 }] },
      { mounts: [{ store: demo.id, path: "/x" }] },
      { mounts: [{ store: demo.id }], maxViewChars: 5 },
    ];
    for (const options of bad) {
      await assert.rejects(MemoryTool.open({ storage, ...options }), isCode("INVALID_OPTIONS"), JSON.stringify(options));
    }
    await assert.rejects(
      MemoryTool.open({ storage, store: "x", mounts: [{ store: demo.id }] }),
      isCode("INVALID_OPTIONS", "MemoryTool.open: `store` and `mounts` cannot both be given: mount the store instead."),
    );
    await assert.rejects(
      MemoryTool.open({ storage, access: "read_only", mounts: [{ store: demo.id }] }),
      isCode("INVALID_OPTIONS", "MemoryTool.open: With `mounts`, access is per mount: give each mount its own `access`."),
    );
    stores.close();
  });

  test("limits: a store's own win over the tool's, which win over the defaults", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const small = await stores.create({ name: "Small", limits: { max_files: 1 } });
    const big = await stores.create({ name: "Big" });
    const m = await MemoryTool.open({ storage, mounts: [{ store: small.id }, { store: big.id }], limits: { maxFiles: 2, maxFileBytes: 10 } });
    const create = (path, file_text) => m.execute({ command: "create", path, file_text });
    assert.equal((await create("/memories/small/a", "a")).isError, false);
    assert.deepEqual(await create("/memories/small/b", "b"), {
      content: "Error: Cannot create /memories/small/b: the store already holds 1 files, its limit",
      isError: true,
      code: "LIMIT_EXCEEDED",
    });
    assert.equal((await create("/memories/big/a", "a")).isError, false);
    assert.equal((await create("/memories/big/b", "b")).isError, false);
    assert.equal((await create("/memories/big/c", "c")).code, "LIMIT_EXCEEDED");
    assert.deepEqual(await create("/memories/small/x", "x".repeat(11)), {
      content: "Error: Cannot write /memories/small/x: 11 bytes is over the limit of 10 bytes per file",
      isError: true,
      code: "LIMIT_EXCEEDED",
    });
    m.close();
    stores.close();
  });
});

suite("the host API on several mounts", () => {
  test("memories.*, versions.*, export and import take { store } (id or slug), default the first mount", async () => {
    const { storage, stores, demo, team } = await twoStores();
    const m = await MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: team.id }] });
    // Default: the first mount.
    const created = await m.memories.create({ path: "/notes/a.md", content: "first" });
    assert.equal(created.path, "/notes/a.md");
    assert.deepEqual(Object.keys(await rawTexts(storage, demo.id)), ["/notes/a.md"]);
    // By slug or id.
    assert.deepEqual((await m.memories.list({ store: "team-handbook" })).map((x) => x.path), ["/style.md"]);
    assert.deepEqual((await m.memories.list({ store: team.id })).map((x) => x.path), ["/style.md"]);
    assert.deepEqual((await m.memories.list()).map((x) => x.path), ["/notes/a.md"]);
    assert.deepEqual((await m.memories.list({ store: "demo-memory", depth: 1 })).map((x) => [x.type, x.path]), [["memory_prefix", "/notes/"]]);
    const [style] = await m.memories.list({ store: "team-handbook" });
    assert.equal((await m.memories.get(style.id, { store: "team-handbook" })).content, "Use tabs.");
    await assert.rejects(m.memories.get(style.id), isCode("NOT_FOUND"), "not in the first mount");
    assert.equal((await m.memories.getByPath("/style.md", { store: team.id })).id, style.id);
    const hostNote = await m.memories.create({ path: "/host.md", content: "by the host", store: "team-handbook" });
    const updated = await m.memories.update(hostNote.id, { content: "changed", store: "team-handbook" });
    assert.equal(updated.content, "changed");
    await m.memories.delete(hostNote.id, { store: "team-handbook" });
    const teamVersions = (await m.versions.list({ store: "team-handbook" })).data;
    assert.deepEqual(teamVersions.map((v) => [v.operation, v.path]), [
      ["deleted", "/host.md"],
      ["modified", "/host.md"],
      ["created", "/host.md"],
      ["created", "/style.md"],
    ]);
    assert.deepEqual(teamVersions[0].created_by, { type: "api", session_id: m.sessionId, mount_path: "/memories/team-handbook/" });
    const restored = await m.versions.restore(teamVersions[1].id, { store: "team-handbook" });
    assert.equal(restored.path, "/host.md");
    assert.equal((await m.versions.get(teamVersions[2].id, { store: team.id })).content, "by the host");
    const redacted = await m.versions.redact(teamVersions[2].id, { store: team.id });
    assert.notEqual(redacted.redacted_at, null);
    assert.deepEqual(await m.versions.prune({ store: team.id }), { pruned_versions: 0, freed_contents: 0 });
    // Export from one store, import into another.
    const bundle = await m.export({ store: "team-handbook" });
    assert.deepEqual(bundle.memories.map((x) => x.path).sort(), ["/host.md", "/style.md"]);
    const result = await m.import(bundle, { store: "demo-memory" });
    assert.deepEqual(result, { imported: 2, overwritten: 0, skipped: 0, unchanged: 0, versions: 0 });
    assert.deepEqual(Object.keys(await rawTexts(storage, demo.id)).sort(), ["/host.md", "/notes/a.md", "/style.md"]);
    const imported = (await m.versions.list({ store: demo.id, limit: 1 })).data[0];
    assert.deepEqual(imported.created_by, { type: "import", session_id: m.sessionId, mount_path: "/memories/demo-memory/" });
    // writeFile goes by its tool path.
    await m.writeFile("/memories/demo-memory/img/x.bin", new Uint8Array([0, 1, 2]));
    assert.equal((await m.memories.getByPath("/img/x.bin", { store: demo.id })).content_size_bytes, 3);
    // Naming a store this tool does not mount.
    for (const store of ["nope", 5, "", "memories"]) {
      await assert.rejects(m.memories.list({ store }), isCode("INVALID_INPUT"), String(store));
    }
    await assert.rejects(
      m.versions.list({ store: "nope" }),
      isCode(
        "INVALID_INPUT",
        `versions.list: \`store\` must name a store of this tool by id or slug: ${demo.id} (demo-memory), ${team.id} (team-handbook); not "nope".`,
      ),
    );
    await assert.rejects(m.export({ store: "nope" }), isCode("INVALID_INPUT"));
    await assert.rejects(m.import(bundle, { store: "nope" }), isCode("INVALID_INPUT"));
    m.close();
    stores.close();
  });

  test("subscribe hears every mounted store; events name the store by id", async () => {
    const { storage, stores, demo, team } = await twoStores();
    const m = await MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: team.id }] });
    const owner = await MemoryTool.open({ storage, mounts: [{ store: team.id }] });
    const heard = [];
    const unsubscribe = m.subscribe((event) => heard.push([event.store, event.operation, event.path, event.origin]));
    await tool(m, "toolu_a", { command: "create", path: "/memories/demo-memory/a.md", file_text: "a" });
    await owner.execute({ command: "create", path: "/memories/news.md", file_text: "n" });
    await m.memories.create({ path: "/b.md", content: "b", store: team.id });
    assert.deepEqual(heard, [
      [demo.id, "created", "/a.md", "local"],
      [team.id, "created", "/news.md", "local"],
      [team.id, "created", "/b.md", "local"],
    ]);
    unsubscribe();
    await m.memories.create({ path: "/c.md", content: "c" });
    assert.equal(heard.length, 3);
    owner.close();
    m.close();
    stores.close();
  });

  test("over IndexedDB (fake-indexeddb): one database per store; the registry in its own", async () => {
    const factory = new IDBFactory();
    const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
    const { stores, demo, team } = await twoStores(storage);
    const m = await MemoryTool.open({ storage, mounts: [{ store: demo.id }, { store: team.id, access: "read_only" }] });
    await m.execute({ command: "create", path: "/memories/demo-memory/a.md", file_text: "a" });
    assert.deepEqual(await m.execute({ command: "view", path: "/memories" }), {
      content: `${LISTING_HEAD("/memories")}\n10B\t/memories\n1B\t/memories/demo-memory/\n1B\t/memories/demo-memory/a.md\n9B\t/memories/team-handbook/\n9B\t/memories/team-handbook/style.md`,
      isError: false,
    });
    const names = (await factory.databases()).map((d) => d.name).sort();
    assert.deepEqual(names, [`memory-tool-wasm:${demo.id}`, `memory-tool-wasm:${team.id}`, "memory-tool-wasm:__stores__"].sort());
    m.close();
    stores.close();
  });
});
