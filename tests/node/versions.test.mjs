// Versions, history, bundles and events (docs/TOOL.md#versions) through the package's JS API, over InMemoryStorage and IndexedDbStorage
// (fake-indexeddb) alike: memory records and ids, a version per change with who made it,
// the host memory API (list rules, get, create, update with preconditions, delete), the
// history API (list filters and paging, get, redact, restore, retention), export and import
// (round trips, conflict policies, sha checks, progress), limits and read-only access, and
// the upgrade of a version 1 IndexedDB database.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { buildV1Database } from "./fixtures/v1-database.mjs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** versions.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every versions test. ***\n",
  );
}
const { MemoryTool, MemoryToolError, InMemoryStorage, IndexedDbStorage } = built
  ? await import("memory-tool-wasm")
  : {};
const suite = built ? describe : describe.skip;

const STORE = "versions-test";
const DAY = 24 * 60 * 60 * 1000;
const sha = (text) => createHash("sha256").update(text).digest("hex");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const isCode = (code, check) => (error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, code, error.message);
  check?.(error);
  return true;
};
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The two shipped storages. `storage()` gives a storage over the same data each time (a new
 * IndexedDbStorage over one factory, as separate page loads would); `raw()` a StoreHandle
 * on that data for looking beneath the API.
 */
const backends = {
  InMemoryStorage() {
    const storage = new InMemoryStorage();
    return { storage: () => storage, raw: () => storage.open(STORE) };
  },
  IndexedDbStorage() {
    const indexedDB = new IDBFactory();
    const make = () => new IndexedDbStorage({ indexedDB, IDBKeyRange });
    return { storage: make, raw: () => make().open(STORE) };
  },
};

/** Runs one read-only transaction on a raw handle; resolves to what `body` passes to done. */
async function rawRead(backend, body) {
  const handle = await backend.raw();
  let value;
  await handle.transaction("readonly", (tx) => body(tx, (v) => (value = v)));
  handle.close();
  return value;
}
const rawContent = (backend, key) => rawRead(backend, (tx, done) => tx.getContent(key, (b) => done(b && new TextDecoder().decode(b))));
const rawVersionIds = (backend) => rawRead(backend, (tx, done) => tx.getVersionIds(done));
const rawContentKeysOf = async (backend) => {
  // Every content key a version or a file names, with whether its bytes are stored.
  const versions = await rawRead(backend, (tx, done) => tx.getVersionsBelow("memver_~", done));
  const files = await rawRead(backend, (tx, done) => tx.getSubtree("", done));
  return { versions, files };
};

/** Crockford base32, as the core writes version ids. */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
/** A version id as the core would have written it at `ms` (`seq` orders ids within a ms). */
function versionIdAt(ms, seq = 0) {
  let stamp = (BigInt(ms) << 20n) + BigInt(seq);
  let digits = "";
  for (let i = 0; i < 13; i++) {
    digits = CROCKFORD[Number(stamp & 31n)] + digits;
    stamp >>= 5n;
  }
  return `memver_${digits}test${String(seq).padStart(4, "0")}`;
}
const iso = (ms) => new Date(ms).toISOString();

/** A bundle memory for `content` (text). */
function bundleMemory(id, path, content, { at = Date.now(), head } = {}) {
  const memory = {
    id,
    path,
    content,
    content_sha256: sha(content),
    content_size_bytes: Buffer.byteLength(content),
    created_at: iso(at),
    updated_at: iso(at),
  };
  if (head !== undefined) memory.memory_version_id = head;
  return memory;
}

/** A bundle version (content null for a deletion). */
function bundleVersion(id, memoryId, operation, path, content, at, createdBy = { type: "api" }) {
  return {
    id,
    memory_id: memoryId,
    operation,
    path,
    content,
    content_sha256: content === null ? null : sha(content),
    content_size_bytes: content === null ? null : Buffer.byteLength(content),
    created_at: iso(at),
    created_by: createdBy,
    redacted_at: null,
  };
}
const bundleOf = (memories, versions) => ({
  format: "memory-tool-wasm/bundle",
  format_version: 1,
  memories,
  ...(versions ? { versions } : {}),
});

const tool = (m, id, input) => m.run({ type: "tool_use", id, name: "memory", input });
/** Every version of the store, newest first (all pages). */
async function allVersions(m, filters = {}) {
  const out = [];
  let page;
  do {
    const result = await m.versions.list({ ...filters, limit: 100, ...(page ? { page } : {}) });
    out.push(...result.data);
    page = result.next_page;
  } while (page);
  return out;
}

for (const [name, makeBackend] of Object.entries(backends)) {
  suite(`${name}: memory records`, () => {
    test("a memory keeps its id across tool renames (file and directory) and host path updates", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await tool(m, "t1", { command: "create", path: "/memories/notes/todo.md", file_text: "buy milk" });
      const [first] = await m.memories.list();
      assert.equal(first.type, "memory");
      assert.match(first.id, /^mem_[0-9a-z]{24}$/);
      assert.match(first.memory_version_id, /^memver_/);
      assert.equal(first.path, "/notes/todo.md");
      assert.equal(first.content_sha256, sha("buy milk"));
      assert.equal(first.content_size_bytes, 8);
      assert.match(first.created_at, RFC3339);
      assert.equal(first.created_at, first.updated_at);

      await sleep(2);
      await tool(m, "t2", { command: "rename", old_path: "/memories/notes/todo.md", new_path: "/memories/todo.md" });
      await tool(m, "t3", { command: "rename", old_path: "/memories/todo.md", new_path: "/memories/a/todo.md" });
      await tool(m, "t4", { command: "rename", old_path: "/memories/a", new_path: "/memories/b" });
      const moved = await m.memories.update(first.id, { path: "/c/d/todo.md" });
      assert.equal(moved.id, first.id);
      assert.equal(moved.path, "/c/d/todo.md");
      assert.equal(moved.content, "buy milk");
      assert.equal(moved.created_at, first.created_at);
      assert.ok(moved.updated_at > first.updated_at);
      assert.notEqual(moved.memory_version_id, first.memory_version_id);
      const got = await m.memories.get(first.id);
      assert.deepEqual(got, moved);
      assert.deepEqual(await m.memories.getByPath("/c/d/todo.md"), moved);
      assert.match((await m.execute({ command: "view", path: "/memories/c/d/todo.md" })).content, /1\tbuy milk$/);
      // One version per change, all of one memory, newest first.
      const versions = await allVersions(m, { memory_id: first.id });
      assert.deepEqual(
        versions.map((v) => [v.operation, v.path]),
        [
          ["modified", "/c/d/todo.md"],
          ["modified", "/b/todo.md"],
          ["modified", "/a/todo.md"],
          ["modified", "/todo.md"],
          ["created", "/notes/todo.md"],
        ],
      );
      assert.equal(versions[0].id, moved.memory_version_id);
      // A rename shares the bytes: every version of this memory names one content sha.
      assert.ok(versions.every((v) => v.content_sha256 === sha("buy milk")));
      m.close();
    });

    test("every change is one version, created_by says who: tool (with tool_use_id), api, import", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await tool(m, "toolu_01", { command: "create", path: "/memories/a.md", file_text: "one\n" });
      await m.execute({ command: "str_replace", path: "/memories/a.md", old_str: "one", new_str: "two" });
      await tool(m, "toolu_02", { command: "insert", path: "/memories/a.md", insert_line: 0, insert_text: "zero" });
      await m.writeFile("/memories/b.md", "bee");
      const { id: cId } = await m.memories.create({ path: "/c.md", content: "sea" });
      await m.import(bundleOf([bundleMemory("mem_imported", "/d.md", "dee")]));
      await tool(m, "toolu_03", { command: "delete", path: "/memories/b.md" });
      await m.memories.delete(cId);
      // Refused commands and reads write nothing.
      await tool(m, "toolu_04", { command: "create", path: "/memories/a.md", file_text: "again" });
      await m.execute({ command: "view", path: "/memories" });
      await m.memories.list();

      const versions = (await allVersions(m)).reverse();
      assert.deepEqual(
        versions.map((v) => [v.operation, v.path, v.created_by]),
        [
          ["created", "/a.md", { type: "tool", tool_use_id: "toolu_01" }],
          ["modified", "/a.md", { type: "tool", tool_use_id: null }],
          ["modified", "/a.md", { type: "tool", tool_use_id: "toolu_02" }],
          ["created", "/b.md", { type: "api" }],
          ["created", "/c.md", { type: "api" }],
          ["created", "/d.md", { type: "import" }],
          ["deleted", "/b.md", { type: "tool", tool_use_id: "toolu_03" }],
          ["deleted", "/c.md", { type: "api" }],
        ],
      );
      for (const v of versions) {
        assert.equal(v.type, "memory_version");
        assert.match(v.id, /^memver_/);
        assert.match(v.created_at, RFC3339);
        assert.equal(v.redacted_at, null);
      }
      // Ids sort in the order the versions were written.
      assert.deepEqual(versions.map((v) => v.id), versions.map((v) => v.id).sort());
      // A deletion holds no content; the others their content's sha and size.
      assert.equal(versions[6].content_sha256, null);
      assert.equal(versions[6].content_size_bytes, null);
      assert.equal(versions[2].content_sha256, sha("zero\ntwo\n"));
      assert.equal(versions[2].content_size_bytes, 9);
      m.close();
    });

    test("a directory delete or rename writes one version per memory it touches, in one transaction", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      for (const path of ["/memories/dir/a.md", "/memories/dir/sub/b.md", "/memories/dir/sub/c.md", "/memories/other.md"]) {
        await m.execute({ command: "create", path, file_text: path });
      }
      const before = (await allVersions(m)).length;
      await m.execute({ command: "rename", old_path: "/memories/dir", new_path: "/memories/moved" });
      const renamed = (await allVersions(m)).slice(0, -before);
      assert.deepEqual(renamed.map((v) => [v.operation, v.path]).sort(), [
        ["modified", "/moved/a.md"],
        ["modified", "/moved/sub/b.md"],
        ["modified", "/moved/sub/c.md"],
      ]);
      await m.execute({ command: "delete", path: "/memories/moved/sub" });
      const deleted = (await allVersions(m)).slice(0, 2);
      assert.deepEqual(deleted.map((v) => [v.operation, v.path]).sort(), [
        ["deleted", "/moved/sub/b.md"],
        ["deleted", "/moved/sub/c.md"],
      ]);
      assert.deepEqual((await m.memories.list()).map((x) => x.path), ["/moved/a.md", "/other.md"]);
      m.close();
    });

    test("versions outlive their memory; get returns a version with its content (text or base64)", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const created = await m.memories.create({ path: "/gone.md", content: "keep me" });
      await m.memories.delete(created.id);
      await assert.rejects(m.memories.get(created.id), isCode("NOT_FOUND"));
      const version = await m.versions.get(created.memory_version_id);
      assert.deepEqual(version, {
        type: "memory_version",
        id: created.memory_version_id,
        memory_id: created.id,
        operation: "created",
        path: "/gone.md",
        content_sha256: sha("keep me"),
        content_size_bytes: 7,
        created_at: created.created_at,
        created_by: { type: "api" },
        redacted_at: null,
        content: "keep me",
      });
      await m.writeFile("/memories/bin.dat", new Uint8Array([0xff, 0, 1]));
      const [bin] = await m.memories.list();
      const binVersion = await m.versions.get(bin.memory_version_id);
      assert.equal(binVersion.content, null);
      assert.equal(binVersion.content_base64, "/wAB");
      const binMemory = await m.memories.get(bin.id);
      assert.equal(binMemory.content, null);
      assert.equal(binMemory.content_base64, "/wAB");
      await assert.rejects(m.versions.get("memver_nope"), isCode("NOT_FOUND"));
      // The deletion's own version has no content.
      const [deletion] = await allVersions(m, { memory_id: created.id, operation: "deleted" });
      const got = await m.versions.get(deletion.id);
      assert.equal(got.content_sha256, null);
      assert.equal("content" in got && got.content !== null, false);
      m.close();
    });
  });

  suite(`${name}: memories API`, () => {
    test("list: path_prefix must end in / and matches whole segments; depth 0 or 1 only; depth 1 rolls up", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      for (const path of ["/notes/todo.md", "/notes/deep/x.md", "/notes/deep/er/y.md", "/notes-archive/todo.md", "/top.md"]) {
        await m.memories.create({ path, content: path });
      }
      const paths = (list) => list.map((item) => `${item.type === "memory_prefix" ? "prefix" : "memory"} ${item.path}`);
      assert.deepEqual(paths(await m.memories.list()), [
        "memory /notes-archive/todo.md",
        "memory /notes/deep/er/y.md",
        "memory /notes/deep/x.md",
        "memory /notes/todo.md",
        "memory /top.md",
      ]);
      assert.deepEqual(paths(await m.memories.list({ path_prefix: "/notes/" })), [
        "memory /notes/deep/er/y.md",
        "memory /notes/deep/x.md",
        "memory /notes/todo.md",
      ]);
      assert.deepEqual(paths(await m.memories.list({ path_prefix: "/notes/", depth: 1 })), [
        "prefix /notes/deep/",
        "memory /notes/todo.md",
      ]);
      assert.deepEqual(paths(await m.memories.list({ depth: 1 })), [
        "prefix /notes-archive/",
        "prefix /notes/",
        "memory /top.md",
      ]);
      assert.deepEqual(await m.memories.list({ depth: 0 }), await m.memories.list());
      assert.deepEqual(await m.memories.list({ path_prefix: "/nothing/" }), []);
      // No content in listings.
      assert.ok((await m.memories.list()).every((item) => !("content" in item)));
      await assert.rejects(m.memories.list({ path_prefix: "/notes" }), isCode("INVALID_PATH"));
      await assert.rejects(m.memories.list({ path_prefix: "notes/" }), isCode("INVALID_PATH"));
      await assert.rejects(m.memories.list({ path_prefix: "/../" }), isCode("INVALID_PATH"));
      for (const depth of [2, -1, 0.5, "1"]) {
        await assert.rejects(m.memories.list({ depth }), isCode("INVALID_INPUT"), String(depth));
      }
      await assert.rejects(m.memories.list("x"), isCode("INVALID_INPUT"));
      m.close();
    });

    test("create never overwrites: PATH_CONFLICT names the memory (or path) in the way", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const a = await m.memories.create({ path: "/a.md", content: "a" });
      assert.equal(a.content, "a");
      await m.memories.create({ path: "/dir/b.md", content: "b" });
      await assert.rejects(
        m.memories.create({ path: "/a.md", content: "other" }),
        isCode("PATH_CONFLICT", (e) => {
          assert.equal(e.conflicting_memory_id, a.id);
          assert.equal(e.conflicting_path, "/a.md");
          assert.deepEqual(e.detail, { conflicting_memory_id: a.id, conflicting_path: "/a.md" });
        }),
      );
      await assert.rejects(
        m.memories.create({ path: "/a.md/under.md", content: "x" }),
        isCode("PATH_CONFLICT", (e) => assert.equal(e.conflicting_memory_id, a.id)),
      );
      await assert.rejects(
        m.memories.create({ path: "/dir", content: "x" }),
        isCode("PATH_CONFLICT", (e) => assert.equal(e.conflicting_path, "/dir")),
      );
      await assert.rejects(m.memories.create({ path: "relative.md", content: "x" }), isCode("INVALID_PATH"));
      await assert.rejects(m.memories.create({ path: "/x/../y.md", content: "x" }), isCode("INVALID_PATH"));
      await assert.rejects(m.memories.create({ path: "/dir/", content: "x" }), isCode("INVALID_PATH"));
      await assert.rejects(m.memories.create({ path: "/n.md", content: 5 }), isCode("INVALID_INPUT"));
      await assert.rejects(m.memories.create({ path: "/n.md" }), isCode("INVALID_INPUT"));
      await assert.rejects(m.memories.create(), isCode("INVALID_INPUT"));
      assert.equal((await m.memories.get(a.id)).content, "a");
      assert.equal((await allVersions(m)).length, 2);
      m.close();
    });

    // JSON keeps "\ud800" apart from U+FFFD (the core's JSON reader flags it), and host
    // calls refuse it as tool paths do.
    test("a store path with half a surrogate pair is INVALID_PATH", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await assert.rejects(m.memories.create({ path: "/a\ud800.md", content: "x" }), isCode("INVALID_PATH"));
      assert.deepEqual(await m.memories.list(), []);
      m.close();
    });

    test("get and getByPath: NOT_FOUND for unknown ids and paths", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await assert.rejects(m.memories.get("mem_unknown"), isCode("NOT_FOUND"));
      await assert.rejects(m.memories.getByPath("/none.md"), isCode("NOT_FOUND"));
      await assert.rejects(m.memories.getByPath("none.md"), isCode("INVALID_PATH"));
      await assert.rejects(m.memories.get(), isCode("INVALID_INPUT"));
      m.close();
    });

    test("update with a precondition: mismatch fails with the current sha and writes nothing; a retry already applied succeeds", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const memory = await m.memories.create({ path: "/p.md", content: "v1" });
      const precondition = (content) => ({ type: "content_sha256", content_sha256: sha(content) });
      const v2 = await m.memories.update(memory.id, { content: "v2", precondition: precondition("v1") });
      assert.equal(v2.content, "v2");
      assert.equal(v2.content_sha256, sha("v2"));
      const versionsBefore = await allVersions(m);

      // Stale: expects v1, the memory holds v2, the request asks for v3.
      await assert.rejects(
        m.memories.update(memory.id, { content: "v3", precondition: precondition("v1") }),
        isCode("PRECONDITION_FAILED", (e) => {
          assert.equal(e.current_content_sha256, sha("v2"));
          assert.equal(e.expected_content_sha256, sha("v1"));
          assert.equal(e.detail.current_content_sha256, sha("v2"));
        }),
      );
      await assert.rejects(
        m.memories.update(memory.id, { path: "/q.md", precondition: precondition("v1") }),
        isCode("PRECONDITION_FAILED"),
      );
      assert.deepEqual(await allVersions(m), versionsBefore);
      assert.deepEqual(await m.memories.get(memory.id), v2);

      // The same request again (its first try applied, the answer was lost): success, no write.
      const again = await m.memories.update(memory.id, { content: "v2", precondition: precondition("v1") });
      assert.deepEqual(again, v2);
      assert.deepEqual(await allVersions(m), versionsBefore);
      // A path-and-content update already applied likewise.
      const moved = await m.memories.update(memory.id, { path: "/q.md", content: "v3", precondition: precondition("v2") });
      const retried = await m.memories.update(memory.id, { path: "/q.md", content: "v3", precondition: precondition("v2") });
      assert.deepEqual(retried, moved);
      // An update to the same state without a precondition writes no version either.
      const count = (await allVersions(m)).length;
      await m.memories.update(memory.id, { content: "v3" });
      assert.equal((await allVersions(m)).length, count);

      await assert.rejects(
        m.memories.update(memory.id, { content: "x", precondition: { type: "etag", content_sha256: "0" } }),
        isCode("INVALID_INPUT"),
      );
      await assert.rejects(m.memories.update(memory.id, {}), isCode("INVALID_INPUT"));
      await assert.rejects(m.memories.update("mem_none", { content: "x" }), isCode("NOT_FOUND"));
      await assert.rejects(m.memories.update(memory.id), isCode("INVALID_INPUT"));
      m.close();
    });

    test("update to a taken path is PATH_CONFLICT naming the memory there", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const a = await m.memories.create({ path: "/a.md", content: "a" });
      const b = await m.memories.create({ path: "/b.md", content: "b" });
      await assert.rejects(
        m.memories.update(a.id, { path: "/b.md" }),
        isCode("PATH_CONFLICT", (e) => assert.equal(e.conflicting_memory_id, b.id)),
      );
      // Moving below itself or onto a directory of others is a conflict too.
      await m.memories.create({ path: "/d/x.md", content: "x" });
      await assert.rejects(m.memories.update(a.id, { path: "/d" }), isCode("PATH_CONFLICT"));
      assert.equal((await m.memories.get(a.id)).path, "/a.md");
      m.close();
    });

    test("delete with expected_content_sha256: mismatch fails with the current sha; match deletes", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const memory = await m.memories.create({ path: "/d.md", content: "now" });
      await assert.rejects(
        m.memories.delete(memory.id, { expected_content_sha256: sha("then") }),
        isCode("PRECONDITION_FAILED", (e) => assert.equal(e.current_content_sha256, sha("now"))),
      );
      assert.equal((await m.memories.get(memory.id)).content, "now");
      assert.deepEqual(await m.memories.delete(memory.id, { expected_content_sha256: sha("now") }), {
        type: "memory_deleted",
        id: memory.id,
      });
      await assert.rejects(m.memories.delete(memory.id), isCode("NOT_FOUND"));
      assert.deepEqual(await m.memories.list(), []);
      m.close();
    });

    test("limits apply to host calls: bytes per file, files per store", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE, limits: { maxFileBytes: 4, maxFiles: 2 } });
      await assert.rejects(m.memories.create({ path: "/big.md", content: "12345" }), isCode("LIMIT_EXCEEDED"));
      const a = await m.memories.create({ path: "/a.md", content: "1234" });
      await m.memories.create({ path: "/b.md", content: "" });
      await assert.rejects(m.memories.create({ path: "/c.md", content: "" }), isCode("LIMIT_EXCEEDED"));
      await assert.rejects(m.memories.update(a.id, { content: "12345" }), isCode("LIMIT_EXCEEDED"));
      await assert.rejects(
        m.import(bundleOf([bundleMemory("mem_x", "/x.md", "x")])),
        isCode("LIMIT_EXCEEDED"),
      );
      await assert.rejects(
        m.import(bundleOf([bundleMemory("mem_y", "/y.md", "12345")])),
        isCode("LIMIT_EXCEEDED"),
      );
      // Restoring a deleted memory adds a file: the count limit holds there too.
      await m.memories.delete(a.id);
      await m.memories.create({ path: "/c.md", content: "c" });
      await assert.rejects(m.versions.restore(a.memory_version_id), isCode("LIMIT_EXCEEDED"));
      assert.equal((await m.memories.list()).length, 2);
      m.close();
    });

    test("read_only: reads work; every host write is READ_ONLY and writes nothing", async () => {
      const backend = makeBackend();
      const writer = await MemoryTool.open({ storage: backend.storage(), store: STORE });
      const memory = await writer.memories.create({ path: "/a.md", content: "a" });
      await writer.memories.update(memory.id, { content: "b" });
      const [head, old] = await allVersions(writer);
      const reader = await MemoryTool.open({ storage: backend.storage(), store: STORE, access: "read_only" });
      assert.equal((await reader.memories.get(memory.id)).content, "b");
      assert.equal((await reader.memories.list()).length, 1);
      assert.equal((await reader.versions.list()).data.length, 2);
      assert.equal((await reader.versions.get(old.id)).content, "a");
      const bundle = await reader.export({ include_versions: true });
      const refused = [
        () => reader.memories.create({ path: "/b.md", content: "b" }),
        () => reader.memories.update(memory.id, { content: "c" }),
        () => reader.memories.delete(memory.id),
        () => reader.versions.redact(old.id),
        () => reader.versions.restore(old.id),
        () => reader.versions.prune(),
        () => reader.import(bundleOf([bundleMemory("mem_z", "/z.md", "z")])),
        () => reader.writeFile("/memories/z.md", "z"),
      ];
      for (const call of refused) await assert.rejects(call(), isCode("READ_ONLY"));
      assert.deepEqual(await writer.export({ include_versions: true }), bundle);
      assert.equal(head.id, (await reader.memories.get(memory.id)).memory_version_id);
      writer.close();
      reader.close();
    });
  });

  suite(`${name}: versions API`, () => {
    test("list: newest first, filters (memory_id, operation, time range as Date or text, path_prefix), pages", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const a = await m.memories.create({ path: "/notes/a.md", content: "a1" });
      await sleep(3);
      const b = await m.memories.create({ path: "/notes-archive/b.md", content: "b1" });
      await sleep(3);
      const middle = Date.now();
      await sleep(3);
      await m.memories.update(a.id, { content: "a2" });
      await m.memories.update(b.id, { content: "b2" });
      await m.memories.update(a.id, { path: "/notes/sub/a.md" });
      await sleep(3);
      const late = Date.now();
      await sleep(3);
      await m.memories.delete(b.id);

      const all = await allVersions(m);
      assert.equal(all.length, 6);
      assert.deepEqual(all.map((v) => v.id), all.map((v) => v.id).sort().reverse());
      // Default limit 20; the one page has no next page.
      const first = await m.versions.list();
      assert.deepEqual(first, { data: all, next_page: null });

      const ofA = await m.versions.list({ memory_id: a.id });
      assert.deepEqual(ofA.data.map((v) => [v.operation, v.path]), [
        ["modified", "/notes/sub/a.md"],
        ["modified", "/notes/a.md"],
        ["created", "/notes/a.md"],
      ]);
      assert.deepEqual((await m.versions.list({ operation: "created" })).data.map((v) => v.memory_id), [b.id, a.id]);
      assert.deepEqual((await m.versions.list({ operation: "deleted" })).data.map((v) => v.path), ["/notes-archive/b.md"]);
      assert.deepEqual((await m.versions.list({ memory_id: b.id, operation: "modified" })).data.length, 1);
      // Time range: Dates and RFC 3339 texts alike, both bounds inclusive.
      const after = await m.versions.list({ created_at_gte: new Date(middle) });
      assert.equal(after.data.length, 4);
      const between = await m.versions.list({ created_at_gte: new Date(middle), created_at_lte: iso(late) });
      assert.deepEqual(between.data.map((v) => v.operation), ["modified", "modified", "modified"]);
      const exact = all[2];
      assert.deepEqual(
        (await m.versions.list({ created_at_gte: exact.created_at, created_at_lte: exact.created_at })).data.map((v) => v.created_at),
        all.filter((v) => v.created_at === exact.created_at).map((v) => v.created_at),
      );
      assert.equal((await m.versions.list({ created_at_lte: new Date(middle) })).data.length, 2);
      // path_prefix matches whole segments.
      assert.deepEqual(
        (await m.versions.list({ path_prefix: "/notes/" })).data.map((v) => v.path),
        ["/notes/sub/a.md", "/notes/a.md", "/notes/a.md"],
      );
      assert.equal((await m.versions.list({ path_prefix: "/notes/sub/" })).data.length, 1);
      assert.equal((await m.versions.list({ path_prefix: "/notes-archive/" })).data.length, 3);
      // Paging: limit and next_page walk the same list.
      const pages = [];
      let page = null;
      do {
        const result = await m.versions.list({ limit: 4, ...(page ? { page } : {}) });
        assert.ok(result.data.length <= 4);
        pages.push(result.data.map((v) => v.id));
        page = result.next_page;
      } while (page);
      assert.deepEqual(pages.flat(), all.map((v) => v.id));
      assert.equal(pages[0].length, 4);
      const filteredPages = [];
      page = null;
      do {
        const result = await m.versions.list({ memory_id: a.id, limit: 1, ...(page ? { page } : {}) });
        filteredPages.push(...result.data.map((v) => v.id));
        page = result.next_page;
      } while (page);
      assert.deepEqual(filteredPages, ofA.data.map((v) => v.id));

      for (const bad of [{ limit: 0 }, { limit: 101 }, { limit: 1.5 }, { operation: "renamed" }, { created_at_gte: "yesterday" }, { memory_id: 5 }]) {
        await assert.rejects(m.versions.list(bad), isCode("INVALID_INPUT"), JSON.stringify(bad));
      }
      await assert.rejects(m.versions.list({ created_at_gte: new Date(NaN) }), isCode("INVALID_INPUT"));
      await assert.rejects(m.versions.list({ path_prefix: "/notes" }), isCode("INVALID_PATH"));
      m.close();
    });

    test("redact clears content, path, sha and size; REDACT_HEAD for a live head; bytes go only when no version holds them", async () => {
      const backend = makeBackend();
      const m = await MemoryTool.open({ storage: backend.storage(), store: STORE });
      await m.execute({ command: "create", path: "/memories/r.md", file_text: "secret" });
      await m.execute({ command: "rename", old_path: "/memories/r.md", new_path: "/memories/s.md" });
      await m.execute({ command: "str_replace", path: "/memories/s.md", old_str: "secret", new_str: "public" });
      const [head, renamed, created] = await allVersions(m);
      assert.deepEqual([created.operation, renamed.operation, head.operation], ["created", "modified", "modified"]);
      const memoryId = head.memory_id;

      await assert.rejects(
        m.versions.redact(head.id),
        isCode("REDACT_HEAD", (e) => assert.equal(e.memory_id, memoryId)),
      );
      // The rename shares the created version's bytes (stored under its path and id).
      const createdKey = `/r.md\u0000${created.id}`;
      const headKey = `/s.md\u0000${head.id}`;
      assert.equal(await rawContent(backend, createdKey), "secret");
      const redacted = await m.versions.redact(created.id);
      assert.equal(redacted.id, created.id);
      assert.equal(redacted.path, null);
      assert.equal(redacted.content_sha256, null);
      assert.equal(redacted.content_size_bytes, null);
      assert.match(redacted.redacted_at, RFC3339);
      assert.equal(redacted.operation, "created");
      assert.deepEqual(redacted.created_by, created.created_by);
      // Still held by the rename's version: the bytes stay.
      assert.equal(await rawContent(backend, createdKey), "secret");
      assert.equal((await m.versions.get(renamed.id)).content, "secret");
      const got = await m.versions.get(created.id);
      assert.equal(got.path, null);
      assert.ok(got.content === undefined || got.content === null);
      // Redacting again changes nothing.
      assert.deepEqual(await m.versions.redact(created.id), redacted);
      // Now no version holds them: redacting the rename frees the bytes.
      await m.versions.redact(renamed.id);
      assert.equal(await rawContent(backend, createdKey), undefined);
      assert.equal(await rawContent(backend, headKey), "public");
      assert.equal((await m.memories.get(memoryId)).content, "public");
      // Restoring a redacted version is refused.
      await assert.rejects(m.versions.restore(created.id), isCode("REDACTED"));
      await assert.rejects(m.versions.redact("memver_nope"), isCode("NOT_FOUND"));
      // Once the memory is deleted, its last head may be redacted.
      await m.memories.delete(memoryId);
      await m.versions.redact(head.id);
      assert.equal(await rawContent(backend, headKey), undefined);
      m.close();
    });

    test("restore: a live memory gets the old content as a new version; a deleted one comes back at a free path", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const memory = await m.memories.create({ path: "/r.md", content: "first" });
      await m.memories.update(memory.id, { content: "second", path: "/moved.md" });
      const restored = await m.versions.restore(memory.memory_version_id);
      assert.equal(restored.id, memory.id);
      assert.equal(restored.path, "/moved.md"); // a live memory keeps its path
      assert.equal(restored.content_sha256, sha("first"));
      const [newest] = await allVersions(m);
      assert.equal(newest.id, restored.memory_version_id);
      assert.equal(newest.operation, "modified");
      assert.deepEqual(newest.created_by, { type: "api", restored_from: memory.memory_version_id });
      assert.equal((await m.memories.get(memory.id)).content, "first");

      // Deleted, its path free: it comes back there with its id.
      await m.memories.delete(memory.id);
      const back = await m.versions.restore(memory.memory_version_id);
      assert.equal(back.id, memory.id);
      assert.equal(back.path, "/r.md");
      assert.equal((await m.memories.getByPath("/r.md")).content, "first");
      assert.equal((await allVersions(m))[0].operation, "created");

      // Deleted, its path taken: PATH_CONFLICT naming what is there; nothing written.
      await m.memories.delete(memory.id);
      const squatter = await m.memories.create({ path: "/r.md", content: "squatter" });
      const count = (await allVersions(m)).length;
      await assert.rejects(
        m.versions.restore(memory.memory_version_id),
        isCode("PATH_CONFLICT", (e) => {
          assert.equal(e.conflicting_memory_id, squatter.id);
          assert.equal(e.conflicting_path, "/r.md");
        }),
      );
      assert.equal((await allVersions(m)).length, count);
      // A deletion's version holds nothing to restore.
      const [deletion] = await allVersions(m, { memory_id: memory.id, operation: "deleted" });
      await assert.rejects(m.versions.restore(deletion.id), isCode("INVALID_INPUT"));
      await assert.rejects(m.versions.restore("memver_nope"), isCode("NOT_FOUND"));
      m.close();
    });

    test("retention: old versions are pruned on open and on demand, never a live memory's head; their bytes go", async () => {
      const backend = makeBackend();
      const now = Date.now();
      const at = (days) => now - days * DAY;
      const V = {
        a1: versionIdAt(at(60), 1),
        a2: versionIdAt(at(50), 2),
        b1: versionIdAt(at(45), 3),
        b2: versionIdAt(at(10), 4),
        c1: versionIdAt(at(40), 5),
      };
      const bundle = bundleOf(
        [
          bundleMemory("mem_a", "/a.md", "a2", { at: at(50), head: V.a2 }),
          bundleMemory("mem_b", "/b.md", "b2", { at: at(10), head: V.b2 }),
          bundleMemory("mem_c", "/c.md", "c1", { at: at(40), head: V.c1 }),
        ],
        [
          bundleVersion(V.a1, "mem_a", "created", "/a.md", "a1", at(60)),
          bundleVersion(V.a2, "mem_a", "modified", "/a.md", "a2", at(50)),
          bundleVersion(V.b1, "mem_b", "created", "/b.md", "b1", at(45)),
          bundleVersion(V.c1, "mem_c", "created", "/c.md", "c1", at(40)),
          bundleVersion(V.b2, "mem_b", "modified", "/b.md", "b2", at(10)),
        ],
      );
      // Kept 100 days: nothing is old enough to prune when it opens.
      const m = await MemoryTool.open({ storage: backend.storage(), store: STORE, retentionDays: 100 });
      assert.deepEqual(await m.import(bundle), { imported: 3, overwritten: 0, skipped: 0, unchanged: 0, versions: 5 });
      assert.deepEqual(await m.versions.prune(), { pruned_versions: 0, freed_contents: 0 });
      assert.deepEqual((await rawVersionIds(backend)).sort(), Object.values(V).sort());
      // An imported version's bytes are under the key its head would have: `{path}\0{id}`.
      assert.equal(await rawContent(backend, `/a.md\u0000${V.a1}`), "a1");

      // Opening with the default 30 days prunes a1, replaced 50 days ago, and frees its bytes;
      // b1 was written 45 days ago but replaced only 10 days ago, so it stays restorable
      // (docs/TOOL.md#retention counts from when a text stopped being live).
      const pruning = await MemoryTool.open({ storage: backend.storage(), store: STORE });
      await pruning.memories.list(); // after the prune of the open
      assert.deepEqual((await rawVersionIds(backend)).sort(), [V.a2, V.b1, V.b2, V.c1].sort());
      assert.equal(await rawContent(backend, `/a.md\u0000${V.a1}`), undefined);
      assert.equal(await rawContent(backend, `/b.md\u0000${V.b1}`), "b1");
      assert.equal(await rawContent(backend, `/a.md\u0000${V.a2}`), "a2");
      assert.deepEqual((await pruning.memories.list()).map((x) => x.path), ["/a.md", "/b.md", "/c.md"]);
      assert.equal((await pruning.memories.get("mem_a")).content, "a2");

      // With a shorter period, the open prunes b1, replaced 10 days ago; c's text, written 40
      // days ago but deleted just now, stays restorable for the period from its deletion, so
      // a prune on demand then takes nothing.
      const short = await MemoryTool.open({ storage: backend.storage(), store: STORE, retentionDays: 5 });
      await short.memories.delete("mem_c");
      const result = await short.versions.prune();
      assert.deepEqual(result, { pruned_versions: 0, freed_contents: 0 });
      assert.equal(await rawContent(backend, `/b.md\u0000${V.b1}`), undefined);
      assert.equal(await rawContent(backend, `/c.md\u0000${V.c1}`), "c1");
      assert.equal((await allVersions(short, { memory_id: "mem_c" })).length, 2);
      assert.equal((await short.memories.get("mem_b")).content, "b2");
      assert.equal((await short.versions.restore(V.c1)).path, "/c.md");
      await short.memories.delete("mem_c");

      // A tiny period prunes every version but the live heads.
      const tiny = await MemoryTool.open({ storage: backend.storage(), store: STORE, retentionDays: 1 / DAY });
      await tiny.memories.update("mem_b", { content: "b3" });
      await sleep(5);
      await tiny.versions.prune();
      const left = await allVersions(tiny);
      const heads = (await tiny.memories.list()).map((x) => x.memory_version_id).sort();
      assert.deepEqual(left.map((v) => v.id).sort(), heads);
      for (const tool of [m, pruning, short, tiny]) tool.close();
    });
  });

  suite(`${name}: export and import`, () => {
    /** A store with history: renames, edits, a binary file, a deletion, a redaction. */
    async function populated(storage, store = STORE) {
      const m = await MemoryTool.open({ storage, store });
      await tool(m, "t1", { command: "create", path: "/memories/notes/todo.md", file_text: "one\n" });
      await tool(m, "t2", { command: "str_replace", path: "/memories/notes/todo.md", old_str: "one", new_str: "two" });
      await m.writeFile("/memories/img/logo.bin", new Uint8Array([0x89, 0x50, 0xff, 0x00]));
      const c = await m.memories.create({ path: "/c.md", content: "see" });
      await tool(m, "t3", { command: "rename", old_path: "/memories/notes", new_path: "/memories/archive" });
      await m.memories.update(c.id, { content: "sea" });
      await m.versions.redact(c.memory_version_id);
      return m;
    }

    test("export → import into a new store → export gives the same bundle (without versions)", async () => {
      const source = await populated(makeBackend().storage());
      const bundle = await source.export();
      assert.equal(bundle.format, "memory-tool-wasm/bundle");
      assert.equal(bundle.format_version, 1);
      assert.equal(bundle.versions, undefined);
      assert.deepEqual(bundle.memories.map((x) => x.path), ["/archive/todo.md", "/c.md", "/img/logo.bin"]);
      const logo = bundle.memories[2];
      assert.equal(logo.content, null);
      assert.equal(logo.content_base64, Buffer.from([0x89, 0x50, 0xff, 0x00]).toString("base64"));
      assert.equal(bundle.memories[0].content, "two\n");
      assert.deepEqual(await source.export({}), bundle);

      const target = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const result = await target.import(bundle);
      assert.deepEqual(result, { imported: 3, overwritten: 0, skipped: 0, unchanged: 0, versions: 0 });
      assert.deepEqual(await target.export(), bundle);
      // Ids, hashes, sizes and times are the bundle's; each memory has one new version, by import.
      const listed = await target.memories.list();
      const sourceListed = await source.memories.list();
      const strip = (x) => ({ ...x, memory_version_id: undefined });
      assert.deepEqual(listed.map(strip), sourceListed.map(strip));
      assert.deepEqual((await allVersions(target)).map((v) => [v.operation, v.created_by.type]), [
        ["created", "import"],
        ["created", "import"],
        ["created", "import"],
      ]);
      // The same bundle again: all unchanged, nothing written.
      assert.deepEqual(await target.import(bundle), { imported: 0, overwritten: 0, skipped: 0, unchanged: 3, versions: 0 });
      assert.equal((await allVersions(target)).length, 3);
      // A JSON text is taken too.
      const third = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await third.import(JSON.stringify(bundle));
      assert.deepEqual(await third.export(), bundle);
    });

    test("export → import into a new store → export gives the same bundle (with versions)", async () => {
      const source = await populated(makeBackend().storage());
      const bundle = await source.export({ include_versions: true });
      assert.ok(Array.isArray(bundle.versions));
      assert.deepEqual(bundle.versions.map((v) => v.id), bundle.versions.map((v) => v.id).sort());
      assert.ok(bundle.memories.every((x) => typeof x.memory_version_id === "string"));
      const redacted = bundle.versions.filter((v) => v.redacted_at !== null);
      assert.equal(redacted.length, 1);
      assert.equal(redacted[0].content, null);

      const target = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const result = await target.import(bundle);
      assert.deepEqual(result, { imported: 3, overwritten: 0, skipped: 0, unchanged: 0, versions: bundle.versions.length });
      assert.deepEqual(await target.export({ include_versions: true }), bundle);
      assert.deepEqual(await target.memories.list(), await source.memories.list());
      assert.deepEqual(await allVersions(target), await allVersions(source));
      const [head] = await allVersions(target, { memory_id: bundle.memories[0].id });
      assert.equal((await target.versions.get(head.id)).content, "two\n");
    });

    // Versions outlive their memory (docs/TOOL.md#versions), so a bundle with versions holds the history of
    // deleted memories, and an import keeps it.
    test("export → import → export with versions keeps the history of deleted memories", async () => {
      const source = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await source.memories.create({ path: "/kept.md", content: "kept" });
      const gone = await source.memories.create({ path: "/gone.md", content: "gone" });
      await source.memories.delete(gone.id);
      const bundle = await source.export({ include_versions: true });
      assert.equal(bundle.versions.length, 3);
      const target = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await target.import(bundle);
      assert.deepEqual(await target.export({ include_versions: true }), bundle);
    });

    test("import conflicts: fail (default) imports nothing; skip leaves the store's; overwrite replaces", async () => {
      const backend = makeBackend();
      const m = await MemoryTool.open({ storage: backend.storage(), store: STORE });
      const mine = await m.memories.create({ path: "/same-path.md", content: "mine" });
      const bundle = bundleOf([
        bundleMemory("mem_theirs", "/same-path.md", "theirs"),
        bundleMemory("mem_new", "/new.md", "new"),
      ]);
      const before = await m.export({ include_versions: true });
      for (const options of [undefined, {}, { onConflict: "fail" }]) {
        await assert.rejects(
          m.import(bundle, options),
          isCode("PATH_CONFLICT", (e) => {
            assert.equal(e.conflicting_memory_id, mine.id);
            assert.equal(e.conflicting_path, "/same-path.md");
          }),
        );
      }
      assert.deepEqual(await m.export({ include_versions: true }), before);

      assert.deepEqual(await m.import(bundle, { onConflict: "skip" }), {
        imported: 1, overwritten: 0, skipped: 1, unchanged: 0, versions: 0,
      });
      assert.equal((await m.memories.getByPath("/same-path.md")).content, "mine");
      assert.equal((await m.memories.get("mem_new")).content, "new");

      const theirs = bundleOf([bundleMemory("mem_theirs", "/same-path.md", "theirs")]);
      assert.deepEqual(await m.import(theirs, { onConflict: "overwrite" }), {
        imported: 0, overwritten: 1, skipped: 0, unchanged: 0, versions: 0,
      });
      const now = await m.memories.getByPath("/same-path.md");
      assert.equal(now.id, "mem_theirs");
      assert.equal(now.content, "theirs");
      await assert.rejects(m.memories.get(mine.id), isCode("NOT_FOUND"));
      const [placed, displaced] = await allVersions(m);
      assert.deepEqual([placed.operation, placed.memory_id], ["created", "mem_theirs"]);
      assert.deepEqual([displaced.operation, displaced.memory_id], ["deleted", mine.id]);

      // The same id at another path: overwrite moves the memory there.
      const moved = bundleOf([bundleMemory("mem_theirs", "/elsewhere.md", "moved")]);
      await assert.rejects(m.import(moved), isCode("PATH_CONFLICT"));
      await m.import(moved, { onConflict: "overwrite" });
      assert.equal((await m.memories.get("mem_theirs")).path, "/elsewhere.md");
      await assert.rejects(m.memories.getByPath("/same-path.md"), isCode("NOT_FOUND"));

      await assert.rejects(m.import(bundle, { onConflict: "merge" }), isCode("INVALID_INPUT"));
      await assert.rejects(m.import(bundle, { onconflict: "skip" }), isCode("INVALID_INPUT"));
      await assert.rejects(m.import(bundle, { onProgress: 5 }), isCode("INVALID_INPUT"));
      m.close();
    });

    test("a bad bundle (a wrong sha, a size, a path, a duplicate) is INVALID_BUNDLE and nothing is written", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      await m.memories.create({ path: "/keep.md", content: "keep" });
      const before = await m.export({ include_versions: true });
      const good = bundleMemory("mem_good", "/good.md", "good");
      const bad = [
        bundleOf([good, { ...bundleMemory("mem_bad", "/bad.md", "bad"), content_sha256: sha("other") }]),
        bundleOf([good, { ...bundleMemory("mem_bad", "/bad.md", "bad"), content_size_bytes: 99 }]),
        bundleOf([good, bundleMemory("mem_bad", "bad.md", "bad")]),
        bundleOf([good, bundleMemory("mem_good", "/other.md", "good")]),
        bundleOf([good, bundleMemory("mem_under", "/good.md/under.md", "x")]),
        bundleOf([good], [bundleVersion("memver_x", "mem_good", "created", "/good.md", "good", Date.now(), null)].map((v) => ({ ...v, content_sha256: sha("nope") }))),
        { ...bundleOf([good]), format: "something-else" },
        { ...bundleOf([good]), format_version: 2 },
        { format: "memory-tool-wasm/bundle", format_version: 1 },
        "{not json",
        42,
        null,
      ];
      for (const bundle of bad) {
        await assert.rejects(m.import(bundle), isCode("INVALID_BUNDLE"), JSON.stringify(bundle)?.slice(0, 200));
      }
      assert.deepEqual(await m.export({ include_versions: true }), before);
      m.close();
    });

    test("import progress: once at 0 before writing, then as writes complete (about every 1%), ending at the total", async () => {
      const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const bundle = bundleOf(
        Array.from({ length: 300 }, (_, i) => bundleMemory(`mem_${String(i).padStart(4, "0")}`, `/bulk/${i}.md`, `file ${i}\n`)),
      );
      const calls = [];
      const result = await m.import(bundle, { onProgress: (progress) => calls.push(progress) });
      assert.equal(result.imported, 300);
      const total = calls[0].total;
      assert.deepEqual(calls[0], { done: 0, total });
      assert.ok(total >= 300, `total ${total}`);
      assert.deepEqual(calls.at(-1), { done: total, total });
      assert.ok(calls.every((c) => c.total === total));
      for (let i = 1; i < calls.length; i++) assert.ok(calls[i].done > calls[i - 1].done);
      assert.ok(calls.length >= 50 && calls.length <= 102, `${calls.length} calls`);
      // A progress callback that throws does not stop the import.
      const other = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
      const imported = await other.import(bundle, {
        onProgress: () => {
          throw new Error("display broke");
        },
      });
      assert.equal(imported.imported, 300);
      assert.equal((await other.memories.list()).length, 300);
      // An import that fails (a conflict) reports nothing, and writes nothing.
      const failing = [];
      const clash = bundleOf(bundle.memories.map((x) => ({ ...x, id: `${x.id}_other` })));
      const before = (await allVersions(other)).length;
      await assert.rejects(other.import(clash, { onProgress: (p) => failing.push(p) }), isCode("PATH_CONFLICT"));
      assert.deepEqual(failing, []);
      assert.equal((await allVersions(other)).length, before);
      m.close();
      other.close();
    });
  });

  suite(`${name}: the version log`, () => {
    test("replaying the version log from empty gives the current store exactly (random histories)", async () => {
      let seed = 7;
      const random = (n) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      for (let round = 0; round < 3; round++) {
        const m = await MemoryTool.open({ storage: makeBackend().storage(), store: STORE });
        const names = ["/a.md", "/b.md", "/d/c.md", "/d/e/f.md", "/g.md"];
        for (let step = 0; step < 40; step++) {
          const path = names[random(names.length)];
          const live = await m.memories.list();
          const here = live.find((x) => x.path === path);
          const choice = random(6);
          try {
            if (choice === 0) await m.execute({ command: "create", path: `/memories${path}`, file_text: `t${step}` });
            else if (choice === 1 && here) await m.memories.update(here.id, { content: `u${step}` });
            else if (choice === 2) await m.execute({ command: "rename", old_path: `/memories${path}`, new_path: `/memories${names[random(names.length)]}` });
            else if (choice === 3) await m.execute({ command: "delete", path: `/memories/${path.split("/")[1]}` });
            else if (choice === 4) await m.writeFile(`/memories${path}`, `w${step}`);
            else if (choice === 5 && here) {
              const versions = await allVersions(m, { memory_id: here.id });
              if (versions.length > 1) await m.versions.restore(versions.at(-1).id);
            }
          } catch (error) {
            assert.ok(error instanceof MemoryToolError, String(error));
          }
        }
        // Replay: the latest version of each memory says where it is and what it holds.
        const replayed = new Map();
        for (const v of (await allVersions(m)).reverse()) {
          if (v.operation === "deleted") replayed.delete(v.memory_id);
          else replayed.set(v.memory_id, { id: v.memory_id, path: v.path, sha: v.content_sha256, head: v.id });
        }
        const current = (await m.memories.list()).map((x) => ({ id: x.id, path: x.path, sha: x.content_sha256, head: x.memory_version_id }));
        const byPath = (a, b) => (a.path < b.path ? -1 : 1);
        assert.deepEqual([...replayed.values()].sort(byPath), current.sort(byPath));
        for (const memory of current) {
          assert.equal((await m.versions.get(memory.head)).content, (await m.memories.get(memory.id)).content);
        }
        m.close();
      }
    });
  });
}

suite("IndexedDbStorage: a version 1 database", () => {
  test("opens, reads and changes through the API; old memories get versions from their first change", async () => {
    const indexedDB = new IDBFactory();
    // Built with the version 1 schema, records and byte keys as version 1 wrote them.
    const v1 = (path, id, text, at) => {
      const bytes = new TextEncoder().encode(text);
      return { record: { path, id, size: bytes.length, sha256: sha(text), createdAt: at, updatedAt: at }, bytes };
    };
    await buildV1Database(indexedDB, "memory-tool-wasm:legacy", [
      v1("/notes/old.md", "mem_oldone", "from v1\n", 1_700_000_000_000),
      v1("/keep.md", "mem_oldtwo", "kept", 1_700_000_000_001),
    ]);
    const m = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB, IDBKeyRange }), store: "legacy" });
    assert.deepEqual(await indexedDB.databases(), [{ name: "memory-tool-wasm:legacy", version: 5 }]);
    assert.match((await m.execute({ command: "view", path: "/memories/notes/old.md" })).content, /1\tfrom v1\n/);
    const old = await m.memories.get("mem_oldone");
    assert.equal(old.content, "from v1\n");
    assert.equal(old.memory_version_id, null);
    assert.equal(old.created_at, "2023-11-14T22:13:20.000Z");
    assert.deepEqual((await m.versions.list()).data, []);

    await m.run({ type: "tool_use", id: "toolu_v1", name: "memory", input: { command: "str_replace", path: "/memories/notes/old.md", old_str: "v1", new_str: "v2" } });
    await m.memories.update("mem_oldtwo", { path: "/moved.md" });
    const versions = await allVersions(m);
    // Before its first change, an old memory's state is recorded as its first version (no
    // author known), so its old bytes belong to the history and retention frees them.
    assert.deepEqual(versions.map((v) => [v.memory_id, v.operation, v.path, v.created_by]), [
      ["mem_oldtwo", "modified", "/moved.md", { type: "api" }],
      ["mem_oldtwo", "created", "/keep.md", null],
      ["mem_oldone", "modified", "/notes/old.md", { type: "tool", tool_use_id: "toolu_v1" }],
      ["mem_oldone", "created", "/notes/old.md", null],
    ]);
    assert.equal((await m.versions.get(versions[1].id)).content, "kept");
    assert.equal((await m.versions.get(versions[3].id)).content, "from v1\n");
    assert.equal((await m.memories.get("mem_oldone")).content, "from v2\n");
    assert.equal((await m.memories.get("mem_oldtwo")).content, "kept");
    assert.equal((await m.versions.get(versions[0].id)).content, "kept");
    const bundle = await m.export({ include_versions: true });
    assert.deepEqual(bundle.memories.map((x) => [x.path, x.content]), [["/moved.md", "kept"], ["/notes/old.md", "from v2\n"]]);
    m.close();
  });
});
