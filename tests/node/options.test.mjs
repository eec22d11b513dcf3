// The values of MemoryTool.open's options are checked once, by the core, and its messages name
// each option as the host wrote it — for a single store and through mounts alike. Values JSON
// cannot carry (NaN, Infinity, functions, bigints) are refused, not dropped.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error("\n*** options.test.mjs: pkg/ is missing — run `npm run build`. SKIPPING. ***\n");
}
const { MemoryTool, MemoryStores, MemoryToolError, InMemoryStorage } = built
  ? await import("memory-tool-wasm")
  : {};
const suite = built ? describe : describe.skip;

const isOptions = (message) => (error) => {
  assert.ok(error instanceof MemoryToolError, `expected a MemoryToolError, got ${error}`);
  assert.equal(error.code, "INVALID_OPTIONS", error.message);
  assert.equal(error.message, `MemoryTool.open: ${message}`);
  return true;
};

const BAD = [
  [{ limits: { maxFileBytes: -1 } }, "`limits.maxFileBytes` must be a whole number, 0 or more."],
  [{ limits: { maxFiles: 1.5 } }, "`limits.maxFiles` must be a whole number, 0 or more."],
  [{ limits: { maxFiles: NaN } }, "`limits.maxFiles` must be a whole number, 0 or more."],
  [{ limits: { maxFileBytes: "100" } }, "`limits.maxFileBytes` must be a whole number, 0 or more."],
  [{ limits: { maxFileBytes: 10n } }, "`limits.maxFileBytes` must be a whole number, 0 or more."],
  [{ maxViewChars: 5 }, "`maxViewChars` must be a whole number of at least 100."],
  [{ maxViewChars: "16000" }, "`maxViewChars` must be a whole number of at least 100."],
  [{ maxViewChars: () => 16000 }, "`maxViewChars` must be a whole number of at least 100."],
  [{ createOverwrites: "yes" }, "`createOverwrites` must be a boolean."],
  [{ secretFilter: 1 }, "`secretFilter` must be a boolean."],
  [{ retentionDays: -1 }, "`retentionDays` must be a number of days, 0 or more."],
  [{ retentionDays: "30" }, "`retentionDays` must be a number of days, 0 or more."],
  [{ retentionDays: Infinity }, "`retentionDays` must be a number of days, 0 or more."],
  [{ retentionDays: 1e15 }, "`retentionDays` must be a number of days, 0 or more."],
];

suite("options are checked once, by the core", () => {
  test("a single store", async () => {
    for (const [options, message] of BAD) {
      await assert.rejects(
        MemoryTool.open({ storage: new InMemoryStorage(), ...options }),
        isOptions(message),
        String(Object.keys(options)),
      );
    }
  });

  test("through mounts, with the same words", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const demo = await stores.create({ name: "Demo" });
    for (const [options, message] of BAD) {
      await assert.rejects(
        MemoryTool.open({ storage, mounts: [{ store: demo.id }], ...options }),
        isOptions(message),
        String(Object.keys(options)),
      );
    }
  });

  test("good values are taken", async () => {
    const m = await MemoryTool.open({
      storage: new InMemoryStorage(),
      limits: { maxFileBytes: 10, maxFiles: 1 },
      maxViewChars: 100,
      retentionDays: 0.5,
      createOverwrites: true,
      secretFilter: true,
    });
    const big = await m.execute({ command: "create", path: "/memories/a.md", file_text: "x".repeat(11) });
    assert.equal(big.content, "Error: Cannot write /memories/a.md: 11 bytes is over the limit of 10 bytes per file");
    m.close();
  });

  test("host-call flags are booleans, checked by the core", async () => {
    const m = await MemoryTool.open({ storage: new InMemoryStorage() });
    await assert.rejects(m.export({ include_versions: "yes" }), (error) => {
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /`include_versions` must be a boolean/);
      return true;
    });
    m.close();
  });
});

suite("host calls refuse arguments they do not take", () => {
  test("memories.update with a misspelt field changes nothing", async () => {
    const m = await MemoryTool.open({ storage: new InMemoryStorage() });
    const created = await m.memories.create({ path: "/a.md", content: "old" });
    await assert.rejects(
      m.memories.update(created.id, /** @type {any} */ ({ contnet: "new", path: "/b.md" })),
      (error) => {
        assert.equal(error.code, "INVALID_INPUT");
        assert.equal(
          error.message,
          "memories.update: unknown option `contnet`; the options are path, content, precondition, content_sha256, keep_version_id and store.",
        );
        return true;
      },
    );
    const after = await m.memories.get(created.id);
    assert.equal(after.path, "/a.md");
    assert.equal(after.content, "old");
    m.close();
  });
});

// One wording for an option a method does not take, from the core's one table of the host
// API's methods (docs/TOOL.md#host-api-messages): the list is what that method takes as the
// caller passes it, `store` and the adapter's own options included, never the core's
// internal arguments.
suite("every method refuses an option it does not take, in one wording", () => {
  test("the options named are the method's own", async () => {
    const m = await MemoryTool.open({ storage: new InMemoryStorage() });
    const created = await m.memories.create({ path: "/a.md", content: "a" });
    const refusals = [
      [() => m.memories.get(created.id, { nope: 1 }), "memories.get: unknown option `nope`; the only option is store."],
      [() => m.memories.list({ prefix: "/" }), "memories.list: unknown option `prefix`; the options are path_prefix, depth and store."],
      [() => m.memories.delete(created.id, { id: created.id }), "memories.delete: unknown option `id`; the options are expected_content_sha256 and store."],
      [() => m.memories.expire({ dry_run: true }), "memories.expire: unknown option `dry_run`; the options are olderThanDays, dryRun and store."],
      [() => m.versions.list({ memoryId: created.id }), "versions.list: unknown option `memoryId`; the options are memory_id, operation, created_at_gte, created_at_lte, path_prefix, limit, page and store."],
      [() => m.versions.prune({ all: true }), "versions.prune: unknown option `all`; the only option is store."],
      [() => m.export({ includeVersions: true }), "export: unknown option `includeVersions`; the options are include_versions and store."],
      [() => m.exportBlob({ includeVersions: true }), "exportBlob: unknown option `includeVersions`; the options are include_versions, onProgress and store."],
      [() => m.import("{}", { on_conflict: "skip" }), "import: unknown option `on_conflict`; the options are onConflict, onProgress and store."],
      [() => m.usage({ x: 1 }), "usage: unknown option `x`; the only option is store."],
      [() => m.check({ after: "/" }), "check: unknown option `after`; the only option is store."],
      [() => m.repair({ after: "/" }), "repair: unknown option `after`; the only option is store."],
      [() => m.state.get("k", { x: 1 }), "state.get: unknown option `x`; the only option is store."],
    ];
    for (const [call, message] of refusals) {
      await assert.rejects(call, (error) => {
        assert.equal(error.code, "INVALID_INPUT");
        assert.equal(error.message, message);
        return true;
      });
    }
    // Nothing was written by any of them.
    assert.equal((await m.memories.list()).length, 1);
    m.close();
    const stores = await MemoryStores.open({ storage: new InMemoryStorage() });
    await assert.rejects(stores.list({ include_archived: true }), {
      code: "INVALID_INPUT",
      message: "stores.list: unknown option `include_archived`; the only option is includeArchived.",
    });
    // A store's fields are the core's to check: the positional id is not one of update's.
    await assert.rejects(stores.create({ name: "A", descripton: "typo" }), {
      code: "INVALID_INPUT",
      message: "stores.create: unknown option `descripton`; the options are name, description and limits.",
    });
    const store = await stores.create({ name: "A" });
    await assert.rejects(stores.update(store.id, { nmae: "B" }), {
      code: "INVALID_INPUT",
      message: "stores.update: unknown option `nmae`; the options are name, description and limits.",
    });
    stores.close();
  });

  test("writeFile's refusals are the core's, in the host's words", async () => {
    const m = await MemoryTool.open({ storage: new InMemoryStorage() });
    await assert.rejects(m.writeFile("/etc/passwd", "x"), {
      code: "INVALID_PATH",
      message: "Path must be /memories or start with /memories/, got: /etc/passwd",
    });
    await assert.rejects(m.writeFile(/** @type {any} */ (42), "x"), {
      code: "INVALID_INPUT",
      message: "writeFile(path, content): `path` must be a string.",
    });
    await assert.rejects(m.writeFile("/memories/a\ud800.md", "x"), (error) => {
      assert.equal(error.code, "INVALID_PATH");
      assert.doesNotMatch(error.message, /^Error: /);
      return true;
    });
    assert.equal((await m.memories.list()).length, 0);
    m.close();
  });
});
