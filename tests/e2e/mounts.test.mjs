// End to end: named stores and mounts (docs/TOOL.md#mounts) in headless Chromium over REAL IndexedDB. The
// harness page (tests/e2e/fixtures/harness.html) imports the package as an app would; the test
// drives `MemoryStores` and `MemoryTool.open({ mounts })` through page.evaluate:
// a session with one read_write and one read_only mount running a scripted sequence of tool
// calls that reads both and writes only where allowed (exact texts, and the read-only store's
// database unchanged byte for byte), the system-prompt text, the registry surviving a reload,
// the open errors, and deleting a store dropping its IndexedDB database.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test --test-concurrency=1 tests/e2e/mounts.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { harnessSession } from "./browser-env.mjs";

/** The database of a store (storage-indexeddb.js: `dbPrefix + store`, default prefix). */
const DB_PREFIX = "memory-tool-wasm:";
const TEST_TIMEOUT = 30_000;

const LISTING_HEAD = (/** @type {string} */ p) =>
  `Here're the files and directories up to 2 levels deep in ${p}, excluding hidden items and node_modules:`;
const FILE_HEAD = (/** @type {string} */ p) => `Here's the content of ${p} with line numbers:`;
const READ_ONLY = (/** @type {string} */ verb, /** @type {string} */ p) =>
  `Error: Cannot ${verb} ${p}: this memory is read-only`;

/** @typedef {import("playwright-core").Page} Page */

const session = harnessSession("mounts");
const { openHarness, waitHarness, pageProblems } = session;
before(session.start);
after(session.stop);

/**
 * Creates stores in the page's registry (IndexedDB); resolves to their records.
 * @param {Page} page
 * @param {Array<{ name: string, description?: string }>} specs
 */
function createStores(page, specs) {
  return page.evaluate(async (list) => {
    const stores = await harness.pkg.MemoryStores.open({ storage: "indexeddb" });
    try {
      const out = [];
      for (const spec of list) out.push(await stores.create(spec));
      return out;
    } finally {
      stores.close();
    }
  }, specs);
}

/**
 * A MemoryStores method in the page, by name, with its arguments: its value, or the error as data.
 * @param {Page} page
 * @param {string} method
 * @param {unknown[]} args
 */
function storesCall(page, method, ...args) {
  return page.evaluate(
    async ([m, a]) => {
      const stores = await harness.pkg.MemoryStores.open({ storage: "indexeddb" });
      try {
        return await stores[m](...a);
      } catch (error) {
        return harness.describeError(error);
      } finally {
        stores.close();
      }
    },
    /** @type {const} */ ([method, args]),
  );
}

/** MemoryTool.open(options) in the page under `key`: what it says about itself, or the error. */
function open(/** @type {Page} */ page, /** @type {string} */ key, /** @type {object} */ options) {
  return page.evaluate(
    async ([k, o]) => {
      try {
        const tool = await harness.pkg.MemoryTool.open(o);
        harness.tools.set(k, tool);
        return { mounts: tool.mounts, sessionId: tool.sessionId, prompt: tool.systemPrompt() };
      } catch (error) {
        return harness.describeError(error);
      }
    },
    /** @type {const} */ ([key, options]),
  );
}

/** memory.run(tool_use) in the page. */
function run(/** @type {Page} */ page, /** @type {string} */ key, /** @type {string} */ id, /** @type {unknown} */ input) {
  return page.evaluate(
    ([k, i, inp]) => harness.tool(k).run({ type: "tool_use", id: i, name: "memory", input: inp }),
    /** @type {const} */ ([key, id, input]),
  );
}

/** The names of the origin's IndexedDB databases. */
function databases(/** @type {Page} */ page) {
  return page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort());
}

describe("named stores and mounts in Chromium over real IndexedDB", () => {
  it("a session with a read_write and a read_only mount reads both and writes only where allowed", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness();
    const [demo, team] = await createStores(page, [
      { name: "Demo Memory", description: "What the demo keeps." },
      { name: "Team Handbook", description: "The team's conventions." },
    ]);
    // The handbook's owners fill it through a read_write mount of their own.
    const owner = await open(page, "owner", { storage: "indexeddb", mounts: [{ store: team.id }] });
    assert.equal(owner.mounts[0].path, "/memories/");
    assert.deepEqual(await run(page, "owner", "toolu_owner", { command: "create", path: "/memories/style.md", file_text: "Use tabs.\nWrap at 100.\n" }), {
      type: "tool_result",
      tool_use_id: "toolu_owner",
      content: "File created successfully at: /memories/style.md",
    });
    await page.evaluate(() => harness.tool("owner").close());
    const handbookBefore = await page.evaluate((s) => harness.dump(s), team.id);

    const session = await open(page, "s", {
      storage: "indexeddb",
      mounts: [
        { store: demo.id, access: "read_write", instructions: "Keep notes short." },
        { store: team.id, access: "read_only" },
      ],
    });
    assert.ok(!("thrown" in session), JSON.stringify(session));
    assert.equal(
      session.prompt,
      "You have persistent memory through the `memory` tool. Its files live under /memories, in these memory stores:\n" +
        '\n- /memories/demo-memory/ — "Demo Memory" (read and write)\n  Description: What the demo keeps.\n  Instructions: Keep notes short.' +
        '\n- /memories/team-handbook/ — "Team Handbook" (read only: you can view it but not change it)\n  Description: The team\'s conventions.' +
        "\n\nView your memory before you start a task, and keep what you learn there, in the store it belongs to.",
    );

    /** @type {Array<[object, string, boolean]>} input, text, is_error */
    const steps = [
      [{ command: "view", path: "/memories" },
        `${LISTING_HEAD("/memories")}\n23B\t/memories\n0B\t/memories/demo-memory/\n23B\t/memories/team-handbook/\n23B\t/memories/team-handbook/style.md`, false],
      [{ command: "view", path: "/memories/team-handbook/style.md" },
        `${FILE_HEAD("/memories/team-handbook/style.md")}\n     1\tUse tabs.\n     2\tWrap at 100.\n     3\t`, false],
      [{ command: "create", path: "/memories/demo-memory/notes.md", file_text: "The team uses tabs.\n" },
        "File created successfully at: /memories/demo-memory/notes.md", false],
      [{ command: "str_replace", path: "/memories/team-handbook/style.md", old_str: "tabs", new_str: "spaces" },
        READ_ONLY("str_replace", "/memories/team-handbook/style.md"), true],
      [{ command: "insert", path: "/memories/team-handbook/style.md", insert_line: 0, insert_text: "# Style\n" },
        READ_ONLY("insert", "/memories/team-handbook/style.md"), true],
      [{ command: "create", path: "/memories/team-handbook/new.md", file_text: "x" },
        READ_ONLY("create", "/memories/team-handbook/new.md"), true],
      [{ command: "delete", path: "/memories/team-handbook/style.md" },
        READ_ONLY("delete", "/memories/team-handbook/style.md"), true],
      [{ command: "rename", old_path: "/memories/demo-memory/notes.md", new_path: "/memories/team-handbook/notes.md" },
        "Error: Cannot move /memories/demo-memory/notes.md to /memories/team-handbook/notes.md: they are in different memory stores; create the file in the other store and delete this one", true],
      [{ command: "create", path: "/memories/loose.md", file_text: "x" },
        "Error: Cannot create /memories/loose.md: /memories holds only the memory stores /memories/demo-memory/, /memories/team-handbook/; use a path inside one of them", true],
      [{ command: "str_replace", path: "/memories/demo-memory/notes.md", old_str: "tabs", new_str: "tabs (see /memories/team-handbook/style.md)" },
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tThe team uses tabs (see /memories/team-handbook/style.md).\n     2\t", false],
      [{ command: "rename", old_path: "/memories/demo-memory/notes.md", new_path: "/memories/demo-memory/team/notes.md" },
        "Successfully renamed /memories/demo-memory/notes.md to /memories/demo-memory/team/notes.md", false],
      [{ command: "view", path: "/memories" },
        `${LISTING_HEAD("/memories")}\n82B\t/memories\n59B\t/memories/demo-memory/\n59B\t/memories/demo-memory/team/\n23B\t/memories/team-handbook/\n23B\t/memories/team-handbook/style.md`, false],
      [{ command: "view", path: "/memories/demo-memory/team/notes.md" },
        `${FILE_HEAD("/memories/demo-memory/team/notes.md")}\n     1\tThe team uses tabs (see /memories/team-handbook/style.md).\n     2\t`, false],
    ];
    let n = 0;
    for (const [input, text, isError] of steps) {
      const id = `toolu_${++n}`;
      const expected = { type: "tool_result", tool_use_id: id, content: text };
      if (isError) Object.assign(expected, { is_error: true });
      assert.deepEqual(await run(page, "s", id, input), expected, JSON.stringify(input));
    }

    // The read-only store's database is byte for byte what it was.
    assert.equal(await page.evaluate((s) => harness.dump(s), team.id), handbookBefore);
    // The writable store holds the one note, its versions say who wrote them.
    const versions = await page.evaluate(
      async (s) => (await harness.tool("s").versions.list({ store: s })).data.map((v) => [v.operation, v.path, v.created_by]),
      demo.id,
    );
    const by = (/** @type {string} */ id) => ({ type: "tool", tool_use_id: id, session_id: session.sessionId, mount_path: "/memories/demo-memory/" });
    assert.deepEqual(versions, [
      ["modified", "/team/notes.md", by("toolu_11")],
      ["modified", "/notes.md", by("toolu_10")],
      ["created", "/notes.md", by("toolu_3")],
    ]);
    assert.deepEqual(await databases(page), [DB_PREFIX + demo.id, DB_PREFIX + team.id, `${DB_PREFIX}__stores__`].sort());
    await page.evaluate(() => harness.tool("s").close());
    await page.close();
  });

  it("the registry survives a reload; the open errors hold in the browser too", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness();
    const [a, b, twin] = await createStores(page, [{ name: "Alpha Notes" }, { name: "Beta" }, { name: "alpha  notes!" }]);
    await page.reload();
    await waitHarness(page);
    const listed = /** @type {any[]} */ (await storesCall(page, "list"));
    for (const store of [a, b, twin]) assert.ok(listed.some((s) => s.id === store.id && s.name === store.name), store.name);

    assert.deepEqual(await open(page, "x", { storage: "indexeddb", mounts: [{ store: a.id }, { store: twin.id }] }), {
      thrown: true,
      name: "MemoryToolError",
      code: "SLUG_CONFLICT",
      message: `Memory stores "Alpha Notes" (${a.id}) and "alpha  notes!" (${twin.id}) would both mount at /memories/alpha-notes/; rename one of them`,
      isMemoryToolError: true,
    });
    const nine = Array.from({ length: 9 }, () => ({ store: a.id }));
    assert.equal(/** @type {any} */ (await open(page, "x", { storage: "indexeddb", mounts: nine })).code, "TOO_MANY_MOUNTS");
    assert.equal(
      /** @type {any} */ (await open(page, "x", { storage: "indexeddb", mounts: [{ store: a.id, instructions: "x".repeat(4097) }] })).code,
      "INVALID_OPTIONS",
    );
    assert.deepEqual(
      await open(page, "x", { storage: "indexeddb", mounts: [{ store: "memstore_missing" }] }),
      { thrown: true, name: "MemoryToolError", code: "NOT_FOUND", message: "No memory store has the id memstore_missing", isMemoryToolError: true },
    );
    await storesCall(page, "archive", b.id);
    assert.equal(/** @type {any} */ (await open(page, "x", { storage: "indexeddb", mounts: [{ store: b.id }] })).code, "ARCHIVED");
    assert.equal(/** @type {any} */ (await storesCall(page, "update", b.id, { name: "B2" })).code, "ARCHIVED");
    const readOnly = /** @type {any} */ (await open(page, "ro", { storage: "indexeddb", mounts: [{ store: b.id, access: "read_only" }] }));
    assert.deepEqual(readOnly.mounts[0].archived, true);
    assert.deepEqual(await run(page, "ro", "toolu_ro", { command: "create", path: "/memories/a.md", file_text: "x" }), {
      type: "tool_result",
      tool_use_id: "toolu_ro",
      content: READ_ONLY("create", "/memories/a.md"),
      is_error: true,
    });
    await page.evaluate(() => harness.tool("ro").close());
    assert.equal(/** @type {any} */ (await open(page, "x", { storage: "indexeddb", store: "__stores__" })).code, "INVALID_OPTIONS");
    await page.close();
  });

  it("deleting a store drops its IndexedDB database; a tool that had it open does not bring it back", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness();
    const other = await openHarness();
    const [doomed, kept] = await createStores(page, [{ name: "Doomed" }, { name: "Kept" }]);
    await open(page, "d", { storage: "indexeddb", mounts: [{ store: doomed.id }, { store: kept.id }] });
    assert.equal((await run(page, "d", "toolu_d1", { command: "create", path: "/memories/doomed/a.md", file_text: "bye" })).is_error, undefined);
    assert.equal((await run(page, "d", "toolu_d2", { command: "create", path: "/memories/kept/b.md", file_text: "stay" })).is_error, undefined);
    // Another tab has the doomed store open too: it steps aside on versionchange.
    await open(other, "o", { storage: "indexeddb", mounts: [{ store: doomed.id }] });
    assert.equal((await run(other, "o", "toolu_o1", { command: "view", path: "/memories/a.md" })).is_error, undefined);
    assert.ok((await databases(page)).includes(DB_PREFIX + doomed.id));

    assert.deepEqual(await storesCall(page, "delete", doomed.id), { type: "memory_store_deleted", id: doomed.id });
    assert.ok(!(await databases(page)).includes(DB_PREFIX + doomed.id), "the database is gone");
    assert.ok((await databases(page)).includes(DB_PREFIX + kept.id));
    assert.equal(/** @type {any} */ (await storesCall(page, "get", doomed.id)).code, "NOT_FOUND");
    // This tab's tool fails on the deleted store, and the store does not come back.
    assert.deepEqual(await run(page, "d", "toolu_d3", { command: "view", path: "/memories/doomed/a.md" }), {
      type: "tool_result",
      tool_use_id: "toolu_d3",
      content: "Error: The memory store could not be reached. Nothing was changed.",
      is_error: true,
    });
    assert.deepEqual(await run(page, "d", "toolu_d4", { command: "view", path: "/memories/kept/b.md" }), {
      type: "tool_result",
      tool_use_id: "toolu_d4",
      content: `${FILE_HEAD("/memories/kept/b.md")}\n     1\tstay`,
    });
    assert.ok(!(await databases(page)).includes(DB_PREFIX + doomed.id), "not recreated");
    assert.equal(/** @type {any} */ (await open(page, "again", { storage: "indexeddb", mounts: [{ store: doomed.id }] })).code, "NOT_FOUND");
    await page.evaluate(() => harness.tool("d").close());
    await other.evaluate(() => harness.tool("o").close());
    await page.close();
    await other.close();
    assert.deepEqual(pageProblems, []);
  });
});
