// MemoryTool end to end over the built package (`import "memory-tool-wasm"`, wasm from pkg/):
// options, toolParam, execute, run, runAll, writeFile, memories.list, access, limits, storage
// failures. Behaviour texts are the core's; the few exact strings here come from docs/TOOL.md.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** memory-tool.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every MemoryTool test. ***\n",
  );
}
const { MemoryTool, MemoryToolError, InMemoryStorage, IndexedDbStorage } = built
  ? await import("memory-tool-wasm")
  : {};
const { IDBFactory, IDBKeyRange } = await import("fake-indexeddb");

const suite = built ? describe : describe.skip;

const isCode = (code) => (error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, code, error.message);
  return true;
};

const open = (options = {}) => MemoryTool.open({ storage: "memory", ...options });
const view = (m, path) => m.execute({ command: "view", path });
const create = (m, path, file_text) => m.execute({ command: "create", path, file_text });
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const QUOTA_TEXT =
  "Error: The memory could not be saved: the browser's storage quota is full. Nothing was changed.";
const STORAGE_TEXT = "Error: The memory store could not be reached. Nothing was changed.";

/** Every method of the StorageTx interface (docs/ARCHITECTURE.md). */
const TX_METHODS = [
  "getFile", "getSubtree", "hasChildren", "countFiles", "getContent", "getFileById", "getVersion",
  "getVersionsDesc", "getVersionsBelow", "getVersionIdsWithContent", "getNewestVersionId",
  "getVersionIds", "putFile", "deleteFile", "putContent", "deleteContent", "putVersion", "deleteVersion",
];

/**
 * A custom storage over InMemoryStorage (no eventScope of its own) whose transactions can be
 * made to fail.
 */
function faultyStorage() {
  const inner = new InMemoryStorage();
  const faults = { putContent: null, transaction: null, records: null };
  return {
    faults,
    async open(store) {
      const handle = await inner.open(store);
      return {
        close: () => handle.close(),
        transaction(mode, body) {
          if (faults.transaction) return Promise.reject(faults.transaction);
          return handle.transaction(mode, (tx) => {
            const wrapped = Object.fromEntries(TX_METHODS.map((name) => [name, (...args) => tx[name](...args)]));
            wrapped.getFile = (p, cb) => tx.getFile(p, (r) => cb(faults.records && r ? faults.records(r) : r));
            wrapped.putContent = (id, bytes) => {
              if (faults.putContent) throw faults.putContent;
              tx.putContent(id, bytes);
            };
            body(wrapped);
          });
        },
      };
    },
  };
}

/** What a tool call gets from a closed MemoryTool. */
const CLOSED_RESULT = {
  content: "Error: The memory store could not be reached. Nothing was changed.",
  isError: true,
  code: "STORAGE_FAILED",
};

suite("MemoryTool.open", () => {
  test("defaults: store 'memories', read_write, in-memory storage where there is no indexedDB", async () => {
    assert.equal(globalThis.indexedDB, undefined);
    const m = await MemoryTool.open();
    assert.equal(m.store, "memories");
    assert.equal(m.access, "read_write");
    assert.equal((await create(m, "/memories/a.md", "x")).isError, false);
    m.close();
  });

  test("bad options reject with INVALID_OPTIONS", async () => {
    const bad = [
      "memory",
      null,
      [],
      { access: "write" },
      { access: "read-only" },
      { store: "" },
      { store: 42 },
      { storage: "localStorage" },
      { storage: {} },
      { storage: "indexeddb" }, // Node has no indexedDB
      { limits: { maxFileBytes: -1 } },
      { limits: { maxFiles: -5 } },
      { limits: { maxFiles: 1.5 } },
      { limits: { maxFileBytes: "100" } },
      { limits: { maxFileBytes: NaN } },
      { limits: { maxFileSize: 100 } },
      { limits: 5 },
      { maxViewChars: 5 }, // the core's minimum is 100
      { maxViewChars: "16000" },
      { createOverwrites: "yes" },
      { retentionDays: -1 },
      { retentionDays: "30" },
      { retentionDays: NaN },
      { retentionDays: Infinity },
      { retentionDays: 1e15 },
      { stores: "typo" },
    ];
    for (const options of bad) {
      await assert.rejects(MemoryTool.open(options), isCode("INVALID_OPTIONS"), JSON.stringify(options));
    }
  });

  test("good options are taken", async () => {
    const m = await MemoryTool.open({
      store: "user-42",
      storage: new InMemoryStorage(),
      access: "read_only",
      limits: { maxFileBytes: 0, maxFiles: 0 },
      maxViewChars: 100,
      createOverwrites: true,
      retentionDays: 0.5,
    });
    assert.equal(m.store, "user-42");
    assert.equal(m.access, "read_only");
    m.close();
  });

  test("a storage that cannot open rejects with STORAGE_FAILED", async () => {
    const storage = { open: () => Promise.reject(new DOMException("gone", "UnknownError")) };
    await assert.rejects(MemoryTool.open({ storage }), isCode("STORAGE_FAILED"));
    const broken = { open: async () => ({}) };
    await assert.rejects(MemoryTool.open({ storage: broken }), isCode("INVALID_OPTIONS"));
  });

  test("the constructor is not public", () => {
    assert.throws(() => new MemoryTool(), TypeError);
  });

  test("read_write open prunes once; a failing prune does not fail open; read_only does not prune", async () => {
    const inner = new InMemoryStorage();
    const calls = [];
    let failWrites = false;
    const storage = {
      async open(store) {
        const handle = await inner.open(store);
        return {
          close: () => handle.close(),
          transaction(mode, body) {
            calls.push(mode);
            if (failWrites && mode === "readwrite") return Promise.reject(new DOMException("disk", "UnknownError"));
            return handle.transaction(mode, body);
          },
        };
      },
    };
    const m = await MemoryTool.open({ storage });
    assert.deepEqual(calls, ["readwrite"]); // the prune
    await create(m, "/memories/a.md", "x");
    calls.length = 0;
    failWrites = true;
    const again = await MemoryTool.open({ storage });
    assert.deepEqual(calls, ["readwrite"]);
    assert.match((await view(again, "/memories/a.md")).content, /1\tx$/);
    calls.length = 0;
    await MemoryTool.open({ storage, access: "read_only" });
    assert.deepEqual(calls, []);
  });
});

suite("toolParam", () => {
  test("is the memory_20250818 tool, a fresh object each time", async () => {
    const m = await open();
    assert.deepEqual(m.toolParam, { type: "memory_20250818", name: "memory" });
    assert.notEqual(m.toolParam, m.toolParam);
    m.toolParam.cache_control = { type: "ephemeral" }; // a host may mark it; no harm done
    assert.deepEqual(m.toolParam, { type: "memory_20250818", name: "memory" });
  });
});

suite("execute", () => {
  test("big inputs (sent to the core as UTF-8 bytes) behave as small ones (sent as strings)", async () => {
    const m = await open();
    const pad = "x".repeat(5000);
    /** @type {string[]} */
    const refusals = [];
    for (const [tail, label] of [["", "small"], [pad, "big"]]) {
      // A lone surrogate in file_text is kept as U+FFFD; in a path it is refused.
      assert.deepEqual(await create(m, `/memories/${label}.md`, `a\ud800b€😀${tail}`), {
        content: `File created successfully at: /memories/${label}.md`,
        isError: false,
      });
      const shown = await view(m, `/memories/${label}.md`);
      assert.equal(shown.content.split("\t")[1].slice(0, 6), "a\ufffdb€😀");
      const refused = await create(m, "/memories/bad\udc00.md", `text${tail}`);
      assert.equal(refused.code, "INVALID_PATH");
      refusals.push(refused.content);
      // An edit whose strings are big.
      const edited = await m.execute({
        command: "str_replace",
        path: `/memories/${label}.md`,
        old_str: `b€😀${tail}`,
        new_str: `B${tail}${tail}`,
      });
      assert.equal(edited.isError, false, edited.content);
      const after = await m.memories.getByPath(`/${label}.md`);
      assert.equal(after.content, `a\ufffdB${tail}${tail}`);
    }
    assert.equal(refusals[0], refusals[1]);
  });

  test("success is { content, isError: false }, errors carry the core's code", async () => {
    const m = await open();
    assert.deepEqual(await create(m, "/memories/notes.md", "hello\n"), {
      content: "File created successfully at: /memories/notes.md",
      isError: false,
    });
    assert.deepEqual(await create(m, "/memories/notes.md", "again"), {
      content: "Error: File /memories/notes.md already exists",
      isError: true,
      code: "ALREADY_EXISTS",
    });
    assert.deepEqual(await view(m, "/memories/notes.md"), {
      content: "Here's the content of /memories/notes.md with line numbers:\n     1\thello\n     2\t",
      isError: false,
    });
    const missing = await m.execute({ command: "delete", path: "/memories/none.md" });
    assert.deepEqual(missing, { content: "Error: The path /memories/none.md does not exist", isError: true, code: "NOT_FOUND" });
  });

  test("never throws for what the model sends", async () => {
    const m = await open();
    const cyclic = { command: "view" };
    cyclic.self = cyclic;
    for (const input of [undefined, null, 5, "view", [], { command: 1n }, cyclic, () => {}]) {
      const result = await m.execute(input);
      assert.equal(result.isError, true);
      assert.equal(result.content, "Error: Tool input must be a JSON object");
      assert.equal(result.code, "INVALID_INPUT");
    }
    assert.deepEqual(await m.execute({ command: "toString" }), {
      content:
        "Error: Unknown command `toString`. Valid commands are: view, create, str_replace, insert, delete, rename",
      isError: true,
      code: "UNKNOWN_COMMAND",
    });
    const escape = await view(m, "/memories/../etc/passwd");
    assert.equal(escape.content, "Error: Path /memories/../etc/passwd would escape /memories directory");
    assert.equal(escape.code, "INVALID_PATH");
  });

  test("a failed command changes nothing", async () => {
    const m = await open({ limits: { maxFileBytes: 10 } });
    await create(m, "/memories/a.md", "0123456789");
    const before = await view(m, "/memories");
    const over = await m.execute({ command: "insert", path: "/memories/a.md", insert_line: 0, insert_text: "x" });
    assert.equal(over.isError, true);
    assert.equal(over.code, "LIMIT_EXCEEDED");
    assert.deepEqual(await view(m, "/memories"), before);
  });

  test("concurrent commands on one tool are serialized: no edit is lost", async () => {
    for (const storage of ["memory", new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange })]) {
      const m = await MemoryTool.open({ storage });
      await create(m, "/memories/log.md", "start");
      const N = 20;
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          m.execute({ command: "insert", path: "/memories/log.md", insert_line: 1, insert_text: `line ${i}` }),
        ),
      );
      assert.ok(results.every((r) => !r.isError));
      const text = (await view(m, "/memories/log.md")).content;
      assert.equal(text.split("\n").length, 1 + 1 + N);
      for (let i = 0; i < N; i++) assert.match(text, new RegExp(`\\tline ${i}\\n|\\tline ${i}$`));
      m.close();
    }
  });
});

suite("run and runAll", () => {
  test("run answers a tool_use with its tool_result; is_error only on errors", async () => {
    const m = await open();
    const ok = await m.run({ type: "tool_use", id: "toolu_1", name: "memory", input: { command: "view", path: "/memories" } });
    assert.deepEqual(Object.keys(ok), ["type", "tool_use_id", "content"]);
    assert.equal(ok.type, "tool_result");
    assert.equal(ok.tool_use_id, "toolu_1");
    assert.match(ok.content, /^Here're the files and directories up to 2 levels deep in \/memories/);
    const bad = await m.run({ type: "tool_use", id: "toolu_2", name: "memory", input: { command: "view", path: "/nope" } });
    assert.deepEqual(bad, {
      type: "tool_result",
      tool_use_id: "toolu_2",
      content: "Error: Path must be /memories or start with /memories/, got: /nope",
      is_error: true,
    });
    const noInput = await m.run({ type: "tool_use", id: "toolu_3", name: "memory" });
    assert.equal(noInput.is_error, true);
    assert.equal(noInput.content, "Error: Tool input must be a JSON object");
  });

  test("run refuses what is not a memory tool_use block", async () => {
    const m = await open();
    const bad = [
      undefined,
      null,
      "tool_use",
      [],
      { type: "text", text: "hi" },
      { type: "tool_use", name: "memory", input: {} },
      { type: "tool_use", id: "", name: "memory", input: {} },
      { type: "tool_use", id: 7, name: "memory", input: {} },
      { type: "tool_use", id: "toolu_1", name: "str_replace_based_edit_tool", input: {} },
      { type: "server_tool_use", id: "toolu_1", name: "memory", input: {} },
    ];
    for (const block of bad) await assert.rejects(m.run(block), isCode("INVALID_TOOL_USE"));
  });

  test("runAll runs every memory tool_use in order and returns the results in order", async () => {
    const m = await open();
    const message = {
      role: "assistant",
      content: [
        { type: "text", text: "Let me check my memory." },
        { type: "tool_use", id: "t1", name: "memory", input: { command: "create", path: "/memories/a.md", file_text: "one" } },
        { type: "tool_use", id: "w1", name: "web_search", input: { query: "x" } },
        { type: "tool_use", id: "t2", name: "memory", input: { command: "str_replace", path: "/memories/a.md", old_str: "one", new_str: "two" } },
        { type: "tool_use", id: "t3", name: "memory", input: { command: "view", path: "/memories/a.md" } },
        { type: "tool_use", id: "t4", name: "memory", input: { command: "view", path: "/memories/zz.md" } },
      ],
    };
    const results = await m.runAll(message);
    assert.deepEqual(results.map((r) => r.tool_use_id), ["t1", "t2", "t3", "t4"]);
    assert.deepEqual(results.map((r) => r.type), ["tool_result", "tool_result", "tool_result", "tool_result"]);
    assert.equal(results[0].content, "File created successfully at: /memories/a.md");
    assert.equal(results[2].content, "Here's the content of /memories/a.md with line numbers:\n     1\ttwo");
    assert.equal(results[3].is_error, true);
    assert.equal(results.slice(0, 3).some((r) => "is_error" in r), false);
  });

  test("runAll takes an array of blocks; text-only messages give no results", async () => {
    const m = await open();
    const results = await m.runAll([
      { type: "tool_use", id: "a", name: "memory", input: { command: "create", path: "/memories/x", file_text: "" } },
      { type: "tool_use", id: "b", name: "memory", input: { command: "delete", path: "/memories/x" } },
    ]);
    assert.deepEqual(results.map((r) => [r.tool_use_id, r.content]), [
      ["a", "File created successfully at: /memories/x"],
      ["b", "Successfully deleted /memories/x"],
    ]);
    assert.deepEqual(await m.runAll({ role: "assistant", content: "Just text." }), []);
    assert.deepEqual(await m.runAll({ role: "assistant", content: [] }), []);
    // A message's content on its own, as LangChain's `ai.content` may be: a string has no tool use.
    assert.deepEqual(await m.runAll("Just text."), []);
  });

  test("runAll checks every memory block before running any", async () => {
    const m = await open();
    const message = {
      role: "assistant",
      content: [
        { type: "tool_use", id: "ok", name: "memory", input: { command: "create", path: "/memories/a.md", file_text: "x" } },
        { type: "tool_use", name: "memory", input: { command: "view", path: "/memories" } },
      ],
    };
    await assert.rejects(m.runAll(message), isCode("INVALID_TOOL_USE"));
    assert.equal((await view(m, "/memories/a.md")).isError, true);
    for (const bad of [undefined, 5, null, { role: "assistant" }]) {
      await assert.rejects(m.runAll(bad), isCode("INVALID_TOOL_USE"));
    }
  });
});

suite("writeFile", () => {
  test("writes text (creating or overwriting) and resolves to undefined", async () => {
    const m = await open();
    assert.equal(await m.writeFile("/memories/prefs/theme.md", "dark\n"), undefined);
    assert.equal(
      (await view(m, "/memories/prefs/theme.md")).content,
      "Here's the content of /memories/prefs/theme.md with line numbers:\n     1\tdark\n     2\t",
    );
    await m.writeFile("/memories/prefs/theme.md", "light");
    assert.match((await view(m, "/memories/prefs/theme.md")).content, /1\tlight$/);
  });

  test("a PNG written as bytes is viewed as an image block", async () => {
    const m = await open();
    await m.writeFile("/memories/images/logo.png", PNG);
    const result = await view(m, "/memories/images/logo.png");
    assert.deepEqual(result, {
      content: [
        { type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from(PNG).toString("base64") } },
      ],
      isError: false,
    });
    const asToolResult = await m.run({ type: "tool_use", id: "i", name: "memory", input: { command: "view", path: "/memories/images/logo.png" } });
    assert.deepEqual(asToolResult.content, result.content);
    // ArrayBuffer and other views of bytes are taken too.
    await m.writeFile("/memories/images/copy.png", PNG.slice().buffer);
    assert.deepEqual((await view(m, "/memories/images/copy.png")).content, result.content);
  });

  test("obeys paths, limits and access, throwing the core's codes", async () => {
    const m = await open({ limits: { maxFileBytes: 8, maxFiles: 1 } });
    await assert.rejects(m.writeFile("/etc/passwd", "x"), (error) => {
      isCode("INVALID_PATH")(error);
      assert.equal(error.message, "Path must be /memories or start with /memories/, got: /etc/passwd");
      return true;
    });
    await assert.rejects(m.writeFile("/memories/big.md", "123456789"), isCode("LIMIT_EXCEEDED"));
    await m.writeFile("/memories/one.md", "1");
    await assert.rejects(m.writeFile("/memories/two.md", "2"), isCode("LIMIT_EXCEEDED"));
    await m.writeFile("/memories/one.md", "12345678"); // overwriting needs no new file
    await assert.rejects(m.writeFile("/memories/one.md/x", "2"), isCode("PATH_CONFLICT"));
    await assert.rejects(m.writeFile(42, "x"), isCode("INVALID_INPUT"));
    await assert.rejects(m.writeFile("/memories/n.md", 42), isCode("INVALID_INPUT"));

    const storage = new InMemoryStorage();
    await (await MemoryTool.open({ storage })).writeFile("/memories/a.md", "a");
    const reader = await MemoryTool.open({ storage, access: "read_only" });
    await assert.rejects(reader.writeFile("/memories/a.md", "b"), isCode("READ_ONLY"));
    assert.match((await view(reader, "/memories/a.md")).content, /1\ta$/);
  });
  test("a path with half a surrogate pair is refused, not stored as U+FFFD", async () => {
    const m = await open();
    for (const path of ["/memories/a\ud800.md", "/memories/\udc00x.md"]) {
      await assert.rejects(m.writeFile(path, "x"), (error) => {
        isCode("INVALID_PATH")(error);
        assert.match(error.message, /control characters are not allowed$/);
        return true;
      });
    }
    assert.deepEqual(await m.memories.list(), []);
    await m.writeFile("/memories/\u{1F600}.md", "a whole pair is fine");
    assert.equal((await m.memories.list())[0].path, "/\u{1F600}.md");
  });
});

suite("memories.list", () => {
  test("lists memories with ids, hashes, sizes and times; depth 1 rolls up prefixes", async () => {
    const m = await open();
    await m.writeFile("/memories/notes/todo.md", "abc");
    await m.writeFile("/memories/notes/deep/x.md", "");
    await m.writeFile("/memories/top.md", "t");
    const all = await m.memories.list();
    assert.equal(all.length, 3);
    for (const item of all) {
      assert.equal(item.type, "memory");
      assert.match(item.id, /^mem_/);
      assert.match(item.content_sha256, /^[0-9a-f]{64}$/);
      assert.match(item.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const todo = all.find((item) => item.path.endsWith("todo.md"));
    assert.equal(todo.content_size_bytes, 3);
    assert.equal(todo.content_sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const top = await m.memories.list({ depth: 1 });
    assert.deepEqual(top.map((item) => item.type).sort(), ["memory", "memory_prefix"]);
    assert.deepEqual(await m.memories.list({}), all);
  });

  test("bad options throw MemoryToolError with the core's code", async () => {
    const m = await open();
    await assert.rejects(m.memories.list({ depth: 2 }), isCode("INVALID_INPUT"));
    await assert.rejects(m.memories.list({ path_prefix: 5 }), isCode("INVALID_INPUT"));
    await assert.rejects(m.memories.list({ path_prefix: "no-slash" }), (e) => e instanceof MemoryToolError);
  });
});

suite("access, limits and view size", () => {
  test("read_only: views work, every writing command is refused with READ_ONLY", async () => {
    const storage = new InMemoryStorage();
    const writer = await MemoryTool.open({ storage });
    await create(writer, "/memories/a.md", "hello");
    const reader = await MemoryTool.open({ storage, access: "read_only" });
    assert.match((await view(reader, "/memories/a.md")).content, /1\thello$/);
    assert.deepEqual(await create(reader, "/memories/b.md", "x"), {
      content: "Error: Cannot create /memories/b.md: this memory is read-only",
      isError: true,
      code: "READ_ONLY",
    });
    const rename = await reader.execute({ command: "rename", old_path: "/memories/a.md", new_path: "/memories/c.md" });
    assert.equal(rename.content, "Error: Cannot rename /memories/a.md: this memory is read-only");
    assert.match((await view(writer, "/memories")).content, /\/memories\/a\.md$/);
  });

  test("limits: bytes per file and files per store", async () => {
    const m = await open({ limits: { maxFileBytes: 5, maxFiles: 2 } });
    const big = await create(m, "/memories/big.md", "123456");
    assert.deepEqual(big, {
      content: "Error: Cannot write /memories/big.md: 6 bytes is over the limit of 5 bytes per file",
      isError: true,
      code: "LIMIT_EXCEEDED",
    });
    await create(m, "/memories/1.md", "");
    await create(m, "/memories/2.md", "");
    const third = await create(m, "/memories/3.md", "");
    assert.equal(third.code, "LIMIT_EXCEEDED");
    assert.match(third.content, /^Error: Cannot create \/memories\/3\.md: the store already holds 2 files/);
  });

  test("maxViewChars cuts long views with a note", async () => {
    const m = await open({ maxViewChars: 100 });
    const lines = Array.from({ length: 30 }, (_, i) => `line number ${i + 1}`).join("\n");
    await create(m, "/memories/long.md", lines);
    const { content } = await view(m, "/memories/long.md");
    assert.match(content, /\n\[Truncated: showing lines 1-\d+ of 30\. Use view_range \[\d+, -1\] to read on\.\]$/);
  });
});

suite("stores and storages", () => {
  test("a storage without the optional getListing gives the same results", async () => {
    const shared = new InMemoryStorage();
    // The same data seen through a storage whose transactions lack the optional methods.
    const plain = {
      async open(/** @type {string} */ store) {
        const handle = await shared.open(store);
        return {
          transaction: (/** @type {any} */ mode, /** @type {(tx: any) => void} */ body) =>
            handle.transaction(mode, (tx) => {
              const bare = Object.create(tx);
              bare.getListing = undefined;
              for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(tx))) {
                if (name !== "constructor" && typeof tx[name] === "function" && bare[name] !== undefined) {
                  bare[name] = tx[name].bind(tx);
                }
              }
              body(bare);
            }),
          close: () => handle.close(),
        };
      },
    };
    const full = await MemoryTool.open({ storage: shared, store: "s" });
    const bare = await MemoryTool.open({ storage: plain, store: "s" });
    await create(bare, "/memories/a/one.md", "1\n");
    await create(full, "/memories/a/b/two.md", "22\n");
    await create(bare, "/memories/.hidden", "x");
    for (const path of ["/memories", "/memories/a", "/memories/a/b", "/memories/a/one.md", "/memories/none"]) {
      assert.deepEqual(await view(bare, path), await view(full, path), path);
    }
    assert.deepEqual(await bare.execute({ command: "delete", path: "/memories/a/b" }), {
      content: "Successfully deleted /memories/a/b",
      isError: false,
    });
    assert.deepEqual(await view(bare, "/memories"), await view(full, "/memories"));
    assert.match((await view(full, "/memories")).content, /\/memories\/a\/one\.md$/m);
    assert.doesNotMatch((await view(full, "/memories")).content, /two\.md/);
  });

  test("one InMemoryStorage shared by two tools shares the data; store names keep apart", async () => {
    const storage = new InMemoryStorage();
    const a = await MemoryTool.open({ storage, store: "s" });
    const b = await MemoryTool.open({ storage, store: "s" });
    const other = await MemoryTool.open({ storage, store: "t" });
    await create(a, "/memories/shared.md", "x");
    assert.equal((await view(b, "/memories/shared.md")).isError, false);
    assert.equal((await view(other, "/memories/shared.md")).isError, true);
    const fresh = await MemoryTool.open({ storage: "memory", store: "s" });
    assert.equal((await view(fresh, "/memories/shared.md")).isError, true);
  });

  test("IndexedDB (fake-indexeddb): commands commit, and a new tool over the same database sees them", async () => {
    const indexedDB = new IDBFactory();
    const storage = () => new IndexedDbStorage({ indexedDB, IDBKeyRange });
    const m = await MemoryTool.open({ storage: storage(), store: "user-42" });
    const steps = [
      [{ command: "create", path: "/memories/notes/a.md", file_text: "alpha\nbeta" }, "File created successfully at: /memories/notes/a.md"],
      [{ command: "str_replace", path: "/memories/notes/a.md", old_str: "beta", new_str: "gamma" }, null],
      [{ command: "rename", old_path: "/memories/notes", new_path: "/memories/archive" }, "Successfully renamed /memories/notes to /memories/archive"],
      [{ command: "insert", path: "/memories/archive/a.md", insert_line: 0, insert_text: "top\n" }, "The file /memories/archive/a.md has been edited."],
    ];
    for (const [input, text] of steps) {
      const result = await m.execute(input);
      assert.equal(result.isError, false, result.content);
      if (text) assert.equal(result.content, text);
    }
    await m.writeFile("/memories/archive/logo.png", PNG);
    m.close();
    assert.deepEqual(await m.execute({ command: "view", path: "/memories" }), CLOSED_RESULT);

    const again = await MemoryTool.open({ storage: storage(), store: "user-42" });
    assert.equal(
      (await view(again, "/memories/archive/a.md")).content,
      "Here's the content of /memories/archive/a.md with line numbers:\n     1\ttop\n     2\talpha\n     3\tgamma",
    );
    assert.equal((await view(again, "/memories/archive/logo.png")).content[0].type, "image");
    assert.equal((await view(again, "/memories/notes/a.md")).isError, true);
    assert.equal((await again.memories.list()).length, 2);
    again.close();
  });
});

suite("storage failures", () => {
  test("a full quota is an error result for the model, and nothing is changed", async () => {
    const storage = faultyStorage();
    const m = await MemoryTool.open({ storage });
    await create(m, "/memories/keep.md", "keep");
    storage.faults.putContent = new DOMException("The quota has been exceeded.", "QuotaExceededError");
    assert.deepEqual(await create(m, "/memories/new.md", "x"), {
      content: QUOTA_TEXT,
      isError: true,
      code: "QUOTA_EXCEEDED",
    });
    assert.deepEqual(
      await m.run({ type: "tool_use", id: "q", name: "memory", input: { command: "str_replace", path: "/memories/keep.md", old_str: "keep", new_str: "lost" } }),
      { type: "tool_result", tool_use_id: "q", content: QUOTA_TEXT, is_error: true },
    );
    await assert.rejects(m.writeFile("/memories/host.md", "x"), isCode("QUOTA_EXCEEDED"));
    storage.faults.putContent = null;
    assert.match((await view(m, "/memories")).content, /\n4B\t\/memories\/keep\.md$/);
    assert.match((await view(m, "/memories/keep.md")).content, /1\tkeep$/);
  });

  test("an unreachable store is STORAGE_FAILED, naming no database or key", async () => {
    const storage = faultyStorage();
    const m = await MemoryTool.open({ storage });
    storage.faults.transaction = new DOMException("Connection to memory-tool-wasm:memories is closing.", "InvalidStateError");
    assert.deepEqual(await view(m, "/memories"), { content: STORAGE_TEXT, isError: true, code: "STORAGE_FAILED" });
    await assert.rejects(m.memories.list(), isCode("STORAGE_FAILED"));
    storage.faults.transaction = new TypeError("network down"); // a custom backend's own error
    assert.equal((await view(m, "/memories")).code, "STORAGE_FAILED");
  });

  test("a record of the wrong shape from storage is DAMAGED, naming the memory, not a crash", async () => {
    const storage = faultyStorage();
    const m = await MemoryTool.open({ storage });
    await create(m, "/memories/a.md", "x");
    storage.faults.records = (record) => ({ ...record, size: "big" });
    assert.deepEqual(await view(m, "/memories/a.md"), {
      content: "Error: The memory /memories/a.md is damaged: its stored record cannot be read. Nothing was changed; the app can check and repair the store",
      isError: true,
      code: "DAMAGED",
    });
    storage.faults.records = null;
    assert.equal((await view(m, "/memories/a.md")).isError, false);
  });

  test("a closed tool refuses further calls: tool calls with a STORAGE_FAILED result, host calls by throwing", async () => {
    const m = await open();
    m.close();
    m.close(); // twice is fine
    // Tool calls never reject for storage (docs/TOOL.md#from-javascript): an agent loop still
    // gets an answer for the model, with is_error.
    assert.deepEqual(await view(m, "/memories"), CLOSED_RESULT);
    const use = { type: "tool_use", id: "toolu_late", name: "memory", input: { command: "view", path: "/memories" } };
    assert.deepEqual(await m.run(use), { type: "tool_result", tool_use_id: "toolu_late", content: CLOSED_RESULT.content, is_error: true });
    assert.deepEqual(await m.runAll([use, use]), [await m.run(use), await m.run(use)]);
    await assert.rejects(m.writeFile("/memories/a.md", "x"), isCode("STORAGE_FAILED"));
    await assert.rejects(m.memories.list(), isCode("STORAGE_FAILED"));
    await assert.rejects(m.memories.create({ path: "/a.md", content: "x" }), isCode("STORAGE_FAILED"));
    await assert.rejects(m.versions.list(), isCode("STORAGE_FAILED"));
    await assert.rejects(m.export(), isCode("STORAGE_FAILED"));
    await assert.rejects(m.import({ format: "memory-tool-wasm/bundle", format_version: 1, memories: [] }), isCode("STORAGE_FAILED"));
    assert.throws(() => m.subscribe(() => {}), isCode("STORAGE_FAILED"));
  });

  test("the model's texts of a storage failure are the core's and name no database, key or host detail", async () => {
    const storage = faultyStorage();
    const m = await MemoryTool.open({ storage });
    storage.faults.putContent = new DOMException("db memory-tool-wasm:s key mem_1", "QuotaExceededError");
    assert.equal((await create(m, "/memories/a.md", "x")).content, QUOTA_TEXT);
    storage.faults.putContent = new DOMException("db memory-tool-wasm:s", "InvalidStateError");
    assert.equal((await create(m, "/memories/a.md", "x")).content, STORAGE_TEXT);
    storage.faults.putContent = null;
    m.close();
    assert.deepEqual(await create(m, "/memories/a.md", "x"), { content: STORAGE_TEXT, isError: true, code: "STORAGE_FAILED" });
  });

  test("host calls over a full quota throw QUOTA_EXCEEDED and change nothing", async () => {
    const storage = faultyStorage();
    const m = await MemoryTool.open({ storage });
    const kept = await m.memories.create({ path: "/keep.md", content: "keep" });
    storage.faults.putContent = new DOMException("The quota has been exceeded.", "QuotaExceededError");
    await assert.rejects(m.memories.create({ path: "/new.md", content: "x" }), isCode("QUOTA_EXCEEDED"));
    await assert.rejects(m.memories.update(kept.id, { content: "lost" }), isCode("QUOTA_EXCEEDED"));
    storage.faults.putContent = null;
    assert.equal((await m.memories.get(kept.id)).content, "keep");
    assert.equal((await m.versions.list()).data.length, 1);
  });
});
