// The write policy through the package's JS API (docs/TOOL.md#write-policy, JS side):
// `MemoryTool.open({ beforeWrite, secretFilter })`. The hook is asked about every write of
// content (tool, host API, writeFile, import) with the tool path, the content (text when
// UTF-8, else bytes) and the source, and decides synchronously: allow, refuse (POLICY_REFUSED,
// "Error: Cannot write <path>: <reason>"), or rewrite. A promise or a throw refuses, saying
// why. `secretFilter: true` refuses likely credentials.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** policy.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every write policy test. ***\n",
  );
}
const { MemoryTool, MemoryStores, MemoryToolError, InMemoryStorage } = built ? await import("memory-tool-wasm") : {};
const suite = built ? describe : describe.skip;

const isCode = (code, message) => (error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, code, error.message);
  if (message !== undefined) assert.equal(error.message, message);
  return true;
};
const KEY = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const create = (m, path, file_text) => m.execute({ command: "create", path, file_text });
const refused = (path, reason) => ({
  content: `Error: Cannot write ${path}: ${reason}`,
  isError: true,
  code: "POLICY_REFUSED",
});

/** A tool over a fresh InMemoryStorage whose hook answers with `decide(write)`; `asked` logs the writes. */
async function withHook(decide, options = {}) {
  const storage = new InMemoryStorage();
  const asked = [];
  const m = await MemoryTool.open({
    storage,
    ...options,
    beforeWrite: (write) => {
      asked.push(write);
      return decide(write);
    },
  });
  return { m, asked, storage };
}

/** Every stored path and text of store "memories", read beneath the API. */
async function stored(storage) {
  const handle = await storage.open("memories");
  const out = {};
  await handle.transaction("readonly", (tx) =>
    tx.getSubtree("", (records) => {
      for (const r of records) tx.getContent(r.content ?? r.id, (b) => (out[r.path] = new TextDecoder().decode(b)));
    }),
  );
  handle.close();
  return out;
}

suite("beforeWrite", () => {
  test("is asked about every write — content, renames, deletes — with the tool path, the content, the source and the operation", async () => {
    const { m, asked } = await withHook(() => undefined);
    await create(m, "/memories/a.md", "hello");
    await m.execute({ command: "str_replace", path: "/memories/a.md", old_str: "hello", new_str: "hi" });
    await m.execute({ command: "insert", path: "/memories/a.md", insert_line: 1, insert_text: "more" });
    await m.execute({ command: "rename", old_path: "/memories/a.md", new_path: "/memories/b.md" });
    await m.execute({ command: "view", path: "/memories/b.md" });
    await m.execute({ command: "delete", path: "/memories/b.md" });
    await m.writeFile("/memories/img.bin", new Uint8Array([0xff, 0x00, 0x01]));
    const made = await m.memories.create({ path: "/api.md", content: "by api" });
    await m.memories.update(made.id, { content: "changed" });
    const bundle = await m.export();
    const other = await withHook(() => true);
    await other.m.import(bundle);
    assert.deepEqual(asked, [
      { path: "/memories/a.md", content: "hello", source: "tool", operation: "create" },
      { path: "/memories/a.md", content: "hi", source: "tool", operation: "modify" },
      { path: "/memories/a.md", content: "hi\nmore", source: "tool", operation: "modify" },
      { path: "/memories/b.md", content: null, source: "tool", operation: "rename", oldPath: "/memories/a.md" },
      { path: "/memories/b.md", content: null, source: "tool", operation: "delete" },
      { path: "/memories/img.bin", content: new Uint8Array([0xff, 0x00, 0x01]), source: "api", operation: "create" },
      { path: "/memories/api.md", content: "by api", source: "api", operation: "create" },
      { path: "/memories/api.md", content: "changed", source: "api", operation: "modify" },
    ]);
    assert.deepEqual(
      other.asked.map((w) => [w.path, w.source, w.operation]).sort(),
      [["/memories/api.md", "import", "import"], ["/memories/img.bin", "import", "import"]],
    );
    assert.ok(Object.isFrozen(asked[0]));
    m.close();
    other.m.close();
  });

  test("undefined, true and \"allow\" allow", async () => {
    for (const answer of [undefined, true, "allow"]) {
      const { m, storage } = await withHook(() => answer);
      assert.deepEqual(await create(m, "/memories/a.md", "text"), {
        content: "File created successfully at: /memories/a.md",
        isError: false,
      });
      assert.deepEqual(await stored(storage), { "/a.md": "text" });
      m.close();
    }
  });

  test("false and { refuse } refuse, with nothing written; the host API throws POLICY_REFUSED", async () => {
    const { m, storage } = await withHook(({ path }) =>
      path.startsWith("/memories/locked/") ? { refuse: "writes under /memories/locked are not allowed" } : path.endsWith(".tmp") ? false : undefined,
    );
    await create(m, "/memories/ok.md", "ok");
    const before = await m.versions.list();
    assert.deepEqual(await create(m, "/memories/locked/a.md", "x"), refused("/memories/locked/a.md", "writes under /memories/locked are not allowed"));
    assert.deepEqual(await create(m, "/memories/x.tmp", "x"), refused("/memories/x.tmp", "the host's write policy refused it"));
    await assert.rejects(
      m.writeFile("/memories/locked/w.md", "x"),
      isCode("POLICY_REFUSED", "Cannot write /memories/locked/w.md: writes under /memories/locked are not allowed"),
    );
    // The host API shows its own (store) paths in messages; the hook still sees the tool path.
    await assert.rejects(
      m.memories.create({ path: "/locked/h.md", content: "x" }),
      isCode("POLICY_REFUSED", "Cannot write /locked/h.md: writes under /memories/locked are not allowed"),
    );
    assert.deepEqual(await stored(storage), { "/ok.md": "ok" });
    assert.deepEqual(await m.versions.list(), before);
    m.close();
  });

  test("a string or bytes rewrite: what is stored, and what the model reads back", async () => {
    const { m, storage } = await withHook(({ content }) =>
      typeof content === "string" && content.includes("123-45-6789") ? content.replaceAll("123-45-6789", "[redacted]") : undefined,
    );
    assert.deepEqual(await create(m, "/memories/p.md", "line\nSSN 123-45-6789\nend"), {
      content: "File created successfully at: /memories/p.md",
      isError: false,
    });
    assert.deepEqual(await m.execute({ command: "str_replace", path: "/memories/p.md", old_str: "end", new_str: "SSN 123-45-6789 again" }), {
      content:
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" +
        "     1\tline\n     2\tSSN [redacted]\n     3\tSSN [redacted] again",
      isError: false,
    });
    assert.deepEqual(await stored(storage), { "/p.md": "line\nSSN [redacted]\nSSN [redacted] again" });
    const memory = await m.memories.getByPath("/p.md");
    assert.equal(memory.content_size_bytes, "line\nSSN [redacted]\nSSN [redacted] again".length);
    m.close();

    const bytes = await withHook(({ content }) => (content instanceof Uint8Array ? new Uint8Array([0xff, 1, 2]) : undefined));
    await bytes.m.writeFile("/memories/x.bin", new Uint8Array([0xff, 0xfe]));
    const written = await bytes.m.memories.getByPath("/x.bin");
    assert.equal(written.content, null);
    assert.equal(written.content_base64, "/wEC");
    bytes.m.close();
  });

  test("a word that reads as a refusal refuses; { rewrite } stores any text", async () => {
    for (const word of ["deny", "Refuse", " reject ", "block", "no"]) {
      const { m, storage } = await withHook(() => word);
      const result = await create(m, "/memories/a.md", "hello");
      assert.equal(result.isError, true, word);
      assert.equal(result.content, `Error: Cannot write /memories/a.md: beforeWrite returned ${JSON.stringify(word)}; refuse with false or { refuse: reason }`);
      assert.deepEqual(await stored(storage), {}, word);
      m.close();
    }
    const { m, storage } = await withHook(() => ({ rewrite: "deny" }));
    assert.equal((await create(m, "/memories/a.md", "hello")).isError, false);
    assert.deepEqual(await stored(storage), { "/a.md": "deny" });
    m.close();
    const bad = await withHook(() => ({ rewrite: 5 }));
    assert.equal(
      (await create(bad.m, "/memories/a.md", "hello")).content,
      "Error: Cannot write /memories/a.md: beforeWrite returned { rewrite: number 5 }, which is not text or bytes",
    );
    bad.m.close();
  });

  test("a text rewrite with a lone surrogate refuses the write and says where, instead of storing U+FFFD", async () => {
    for (const answer of ["fine \uD83D text", { rewrite: "\uDE00 x" }]) {
      const { m, storage } = await withHook(() => answer);
      const unit = typeof answer === "string" ? "D83D" : "DE00";
      const index = typeof answer === "string" ? 5 : 0;
      assert.deepEqual(await create(m, "/memories/a.md", "hello"), {
        content: `Error: Cannot write /memories/a.md: beforeWrite's rewrite holds a lone surrogate (U+${unit} at index ${index}, half of a UTF-16 surrogate pair), which has no UTF-8 form`,
        isError: true,
        code: "POLICY_REFUSED",
      });
      await assert.rejects(m.writeFile("/memories/b.md", "hello"), isCode("POLICY_REFUSED"));
      assert.deepEqual(await stored(storage), {});
      m.close();
    }
    // A well-formed pair is text like any other.
    const { m, storage } = await withHook(() => "ok \uD83D\uDE00");
    assert.equal((await create(m, "/memories/a.md", "hello")).isError, false);
    assert.deepEqual(await stored(storage), { "/a.md": "ok \u{1F600}" });
    m.close();
  });

  test("an import is never rewritten: a rewrite refuses it whole", async () => {
    const source = await MemoryTool.open({ storage: "memory" });
    await create(source, "/memories/p.md", "SSN 123-45-6789");
    await create(source, "/memories/q.md", "fine");
    const bundle = await source.export();
    const { m, storage } = await withHook(({ content }) => (content.includes("SSN") ? "rewritten" : undefined));
    await assert.rejects(
      m.import(bundle),
      isCode("POLICY_REFUSED", "Cannot import /p.md: the write policy rewrote it; an import keeps content as the bundle states it"),
    );
    assert.deepEqual(await stored(storage), {});
    m.close();
    source.close();
  });

  test("a hook that returns a promise, throws, or answers nonsense refuses the write, saying why", async () => {
    let unhandled = 0;
    const onUnhandled = () => unhandled++;
    process.on("unhandledRejection", onUnhandled);
    try {
      const cases = [
        [async () => undefined, "beforeWrite must decide synchronously"],
        [() => Promise.reject(new Error("late")), "beforeWrite must decide synchronously"],
        [() => { throw new Error("boom"); }, "the write policy failed: boom"],
        [() => { throw "bare"; }, "the write policy failed: bare"],
        [() => 42, "beforeWrite returned number 42, which is not a decision"],
        [() => null, "beforeWrite returned null, which is not a decision"],
        [() => ({ allow: true }), "beforeWrite returned an object, which is not a decision"],
        [() => ({ refuse: "" }), "the host's write policy refused it"],
        [() => ({ refuse: 7 }), "the host's write policy refused it"],
      ];
      for (const [hook, reason] of cases) {
        const storage = new InMemoryStorage();
        const m = await MemoryTool.open({ storage, beforeWrite: hook });
        assert.deepEqual(await create(m, "/memories/a.md", "x"), refused("/memories/a.md", reason), String(hook));
        assert.deepEqual(await stored(storage), {});
        m.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(unhandled, 0, "a rejected promise from the hook is not left unhandled");
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  test("with several mounts the hook sees /memories/<slug>/ paths", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const a = await stores.create({ name: "Work" });
    const b = await stores.create({ name: "Home" });
    const asked = [];
    const m = await MemoryTool.open({
      storage,
      mounts: [{ store: a.id }, { store: b.id }],
      beforeWrite: (write) => {
        asked.push([write.path, write.source]);
        return write.path.startsWith("/memories/home/") ? { refuse: "home is private" } : undefined;
      },
    });
    assert.equal((await create(m, "/memories/work/a.md", "x")).isError, false);
    assert.deepEqual(await create(m, "/memories/home/a.md", "x"), refused("/memories/home/a.md", "home is private"));
    await m.memories.create({ path: "/n.md", content: "x", store: "work" });
    assert.deepEqual(asked, [
      ["/memories/work/a.md", "tool"],
      ["/memories/home/a.md", "tool"],
      ["/memories/work/n.md", "api"],
    ]);
    m.close();
    stores.close();
  });

  test("beforeWrite and secretFilter are checked at open", async () => {
    for (const bad of [{ beforeWrite: "allow" }, { beforeWrite: {} }, { beforeWrite: null }, { secretFilter: "yes" }, { secretFilter: 1 }]) {
      await assert.rejects(MemoryTool.open({ storage: "memory", ...bad }), isCode("INVALID_OPTIONS"), JSON.stringify(bad));
    }
    await assert.rejects(
      MemoryTool.open({ storage: "memory", beforeWrite: true }),
      isCode("INVALID_OPTIONS", "MemoryTool.open: `beforeWrite` must be a function ({ path, content, source }) => decision."),
    );
  });
});

suite("secretFilter", () => {
  test("true refuses likely credentials from the tool, the host API and writeFile", async () => {
    const storage = new InMemoryStorage();
    const m = await MemoryTool.open({ storage, secretFilter: true });
    const why = (path, kind = "an Anthropic API key") =>
      `Cannot write ${path}: the content looks like it holds ${kind}; memories must not store secrets`;
    assert.deepEqual(await create(m, "/memories/k.md", `key ${KEY}`), {
      content: `Error: ${why("/memories/k.md")}`,
      isError: true,
      code: "POLICY_REFUSED",
    });
    assert.deepEqual(await create(m, "/memories/aws.md", "id AKIAZ7Q3K5LMRW2XPN4D here"), {
      content: `Error: ${why("/memories/aws.md", "an AWS access key")}`,
      isError: true,
      code: "POLICY_REFUSED",
    });
    await assert.rejects(m.writeFile("/memories/w.md", KEY), isCode("POLICY_REFUSED", why("/memories/w.md")));
    await assert.rejects(m.memories.create({ path: "/h.md", content: KEY }), isCode("POLICY_REFUSED", why("/h.md")));
    // Ordinary notes pass, and so does AWS's documented example key.
    assert.equal((await create(m, "/memories/ok.md", "AWS keys start with AKIA; never store them.")).isError, false);
    assert.equal((await create(m, "/memories/example.md", "The docs' example key is AKIAIOSFODNN7EXAMPLE.")).isError, false);
    assert.deepEqual(Object.keys(await stored(storage)).sort(), ["/example.md", "/ok.md"]);
    m.close();
  });

  test("off unless asked; it applies after the hook's rewrite", async () => {
    const plain = await MemoryTool.open({ storage: "memory", secretFilter: false });
    assert.equal((await create(plain, "/memories/k.md", KEY)).isError, false);
    plain.close();
    const byDefault = await MemoryTool.open({ storage: "memory" });
    assert.equal((await create(byDefault, "/memories/k.md", KEY)).isError, false);
    byDefault.close();
    // A hook that takes the key out lets the write through the filter.
    const both = await MemoryTool.open({
      storage: "memory",
      secretFilter: true,
      beforeWrite: ({ content }) => (typeof content === "string" ? content.replaceAll(KEY, "[key]") : undefined),
    });
    assert.equal((await create(both, "/memories/k.md", `key ${KEY}`)).isError, false);
    assert.equal((await both.memories.getByPath("/k.md")).content, "key [key]");
    both.close();
  });
});
