// Reliability, full disk: the origin's quota lowered through the Chrome
// DevTools Protocol (Storage.overrideQuotaForOrigin, from a CDP session of the page).
//
// Chromium's IndexedDB keeps how much space a storage bucket has left in a cache it refreshes
// only every 30 s or when a transaction would not fit: a quota lowered while the origin has
// been writing takes up to 30 s to bite, whereas a quota set before the bucket's first write
// of a browser session holds at once, and a raised one at once too. So each test sets the
// quota before its first write (a fresh browser on the profile).
//
// 1. Fill-up: with a 1 MB quota, 50 KB files until one does not fit. The failing write is an
//    is_error tool result with the exact text and code QUOTA_EXCEEDED, host calls reject with
//    a MemoryToolError QUOTA_EXCEEDED, 20 writes in flight at once all fail the same way
//    (none hangs), and the raw database is unchanged byte for byte after each. With the
//    quota raised, the same write works.
// 2. A quota of 1 byte: every kind of write but a delete (the writing commands, the host API,
//    imports, restores, redactions) fails clearly and changes nothing; reads still work. With
//    the quota raised, every one of them works.
// 3. Room to recover (docs/TOOL.md#delete-at-full-quota): at a full quota, where Chromium
//    refuses every transaction that puts a record, tool `delete` (a file, a directory) and
//    `memories.delete` succeed in the compact form, which only deletes: the memory goes with
//    its whole history, the rest of the store stays as it was and consistent, and once room
//    is back every write works and the store's metadata is counted again.
// 4. The history budget (docs/TOOL.md#history-budget) in real IndexedDB: 300 edits of a
//    100 KB file keep 40 versions and at most 4 MiB of content, against 300 versions with
//    the budget lifted; the origin's usage is reported for both.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test tests/e2e/reliability-quota.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  assertConsistent,
  WHOLE_HISTORY,
  dump,
  freshProfile,
  launch,
  openFixture,
  openTool,
  removeProfiles,
  startFixtureServer,
} from "./reliability-lib.mjs";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("playwright-core").BrowserContext} BrowserContext */
/** @typedef {import("playwright-core").CDPSession} CDPSession */

const QUOTA_TEXT = "Error: The memory could not be saved: the browser's storage quota is full. Nothing was changed.";
const QUOTA_RESULT = { content: QUOTA_TEXT, isError: true, code: "QUOTA_EXCEEDED" };
const STORE = "rel-quota";

/** @type {Awaited<ReturnType<typeof startFixtureServer>>} */ let fixture;
/** @type {string[]} */ const problems = [];
/** @type {BrowserContext[]} */ const contexts = [];

before(async () => {
  fixture = await startFixtureServer();
});

after(async () => {
  for (const ctx of contexts) await ctx.close().catch(() => {});
  await fixture?.server.close();
  await removeProfiles();
});

/**
 * A browser on `profile` with the fixture open, the origin's quota set to `quota` bytes
 * before anything is written in this session, and the MemoryTool "m" open on the store.
 * @param {string} profile
 * @param {number} quota
 */
async function startWithQuota(profile, quota) {
  const ctx = await launch(profile);
  contexts.push(ctx);
  const page = await openFixture(ctx, fixture.origin, problems);
  const cdp = await ctx.newCDPSession(page);
  await setQuota(cdp, quota);
  await openTool(page, "m", { store: STORE });
  return { ctx, page, cdp };
}

/** Lowers the origin's quota to `quota` bytes; `undefined` lifts the override. */
async function setQuota(/** @type {CDPSession} */ cdp, /** @type {number | undefined} */ quota) {
  await cdp.send("Storage.overrideQuotaForOrigin", quota === undefined ? { origin: fixture.origin } : { origin: fixture.origin, quotaSize: quota });
  const { quota: now, overrideActive } = await cdp.send("Storage.getUsageAndQuota", { origin: fixture.origin });
  assert.equal(overrideActive, quota !== undefined);
  if (quota !== undefined) assert.equal(now, quota);
}

async function usage(/** @type {CDPSession} */ cdp) {
  return (await cdp.send("Storage.getUsageAndQuota", { origin: fixture.origin })).usage;
}

/** memory.execute(input) in the page. */
function exec(/** @type {Page} */ page, /** @type {unknown} */ input) {
  // @ts-ignore: window.rel is the fixture's
  return page.evaluate((i) => rel.withTimeout(rel.tool("m").execute(i), 10_000, "execute"), input);
}

/**
 * A host call on the page's MemoryTool: `{ value }` or `{ error }` (the error as data).
 * `name` is "memories.create", "writeFile", "import", …; an argument `{ __bytes: n }` is
 * passed as a Uint8Array of n bytes.
 */
function host(/** @type {Page} */ page, /** @type {string} */ name, /** @type {unknown[]} */ ...args) {
  return page.evaluate(
    ([n, a]) => {
      // @ts-ignore
      const tool = rel.tool("m");
      const [group, method] = n.includes(".") ? n.split(".") : [null, n];
      const target = group ? tool[group] : tool;
      // `{ __bytes: n }` stands for n bytes (a Uint8Array does not cross page.evaluate).
      const values = a.map((v) => (v && typeof v === "object" && "__bytes" in v ? new Uint8Array(v.__bytes).fill(7) : v));
      // @ts-ignore
      return rel.withTimeout(target[method](...values), 10_000, n).then(
        (/** @type {unknown} */ value) => ({ value: value ?? null }),
        // @ts-ignore
        (/** @type {unknown} */ error) => ({ error: rel.describeError(error) }),
      );
    },
    /** @type {const} */ ([name, args]),
  );
}

/** Asserts a host call failed with QUOTA_EXCEEDED as a MemoryToolError. */
function assertQuotaError(/** @type {any} */ outcome, /** @type {string} */ what) {
  assert.ok(outcome.error, `${what} should have failed: ${JSON.stringify(outcome).slice(0, 200)}`);
  assert.equal(outcome.error.isMemoryToolError, true, what);
  assert.equal(outcome.error.name, "MemoryToolError", what);
  assert.equal(outcome.error.code, "QUOTA_EXCEEDED", `${what}: ${outcome.error.message}`);
  assert.match(outcome.error.message, /^The browser's storage quota is full; nothing was changed \(QuotaExceededError/, what);
}

const fill = (/** @type {number} */ i) => `${`fill ${i} `.repeat(5_000)}`.slice(0, 50_000);

describe("a full disk", () => {
  it("fill-up: the write that does not fit fails clearly (tool and host), changes nothing, never hangs; with more quota it works", { timeout: 60_000 }, async () => {
    const profile = await freshProfile("quota-fill");
    const { ctx, page, cdp } = await startWithQuota(profile, 1_000_000);
    for (const [p, text] of [["/memories/notes/a.md", "alpha"], ["/memories/notes/b.md", "beta"]]) {
      assert.deepEqual(await exec(page, { command: "create", path: p, file_text: text }), { content: `File created successfully at: ${p}`, isError: false });
    }

    // 50 KB files until one does not fit.
    let stored = 0;
    let before = await dump(page, STORE);
    for (;;) {
      assert.ok(stored < 60, "1 MB of quota should not hold 60 files of 50 KB");
      const p = `/memories/fill/f${stored}.md`;
      const result = await exec(page, { command: "create", path: p, file_text: fill(stored) });
      const after = await dump(page, STORE);
      if (!result.isError) {
        assert.deepEqual(result, { content: `File created successfully at: ${p}`, isError: false });
        stored++;
        before = after;
        continue;
      }
      assert.deepEqual(result, QUOTA_RESULT);
      assert.deepEqual(after, before, "the create that did not fit changed nothing");
      break;
    }
    assert.ok(stored >= 3, `some files fit first (${stored})`);
    const usedAtFull = await usage(cdp);

    // The same through every door: run() gives an is_error tool_result; host calls throw.
    // @ts-ignore
    const block = await page.evaluate(() =>
      // @ts-ignore
      rel.tool("m").run({ type: "tool_use", id: "toolu_full", name: "memory", input: { command: "create", path: "/memories/fill/run.md", file_text: "r".repeat(60_000) } }),
    );
    assert.deepEqual(block, { type: "tool_result", tool_use_id: "toolu_full", content: QUOTA_TEXT, is_error: true });
    assertQuotaError(await host(page, "memories.create", { path: "/fill/host.md", content: "h".repeat(60_000) }), "memories.create");
    assertQuotaError(await host(page, "writeFile", "/memories/fill/raw.bin", { __bytes: 60_000 }), "writeFile");
    assert.deepEqual(await dump(page, STORE), before, "unchanged after run, memories.create and writeFile");

    // 20 writes at once at a full quota: each settles (no hang), each QUOTA_EXCEEDED.
    const burst = await page.evaluate(() =>
      // @ts-ignore
      rel.withTimeout(
        Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            // @ts-ignore
            rel.tool("m").execute({ command: "create", path: `/memories/burst/${i}.md`, file_text: `${i % 10}`.repeat(60_000) }),
          ),
        ),
        15_000,
        "20 creates at a full quota",
      ),
    );
    for (const r of burst) assert.deepEqual(r, QUOTA_RESULT);
    assert.deepEqual(await dump(page, STORE), before, "unchanged after 20 concurrent failing creates");
    const views = await exec(page, { command: "view", path: "/memories/notes/a.md" });
    assert.equal(views.isError, false, "reads still work at a full quota");

    // More quota: the write that failed now works, and the store is consistent.
    await setQuota(cdp, undefined);
    const p = `/memories/fill/f${stored}.md`;
    assert.deepEqual(await exec(page, { command: "create", path: p, file_text: fill(stored) }), { content: `File created successfully at: ${p}`, isError: false });
    assert.deepEqual(await host(page, "memories.create", { path: "/fill/host.md", content: "h".repeat(60_000) }).then((r) => Object.keys(r)), ["value"]);
    const after = await dump(page, STORE);
    const counts = assertConsistent(after, "after the quota was raised");
    assert.equal(after.files.length, before.files.length + 2);
    console.log(
      `# quota fill-up: quota 1,000,000 B held ${stored} × 50 KB files (usage ${usedAtFull} B); ` +
        `the next create, run(), memories.create, writeFile and 20 concurrent creates all QUOTA_EXCEEDED, store unchanged; ` +
        `writes work at once after the quota was raised (${counts.files} files, ${counts.versions} versions)`,
    );
    await ctx.close();
  });

  it("at a 1-byte quota every kind of write but a delete fails clearly and changes nothing, reads work; raising the quota restores every one", { timeout: 60_000 }, async () => {
    const profile = await freshProfile("quota-zero");
    // A store with history, written with room to spare.
    let session = await startWithQuota(profile, 10_000_000);
    let { page } = session;
    const setup = [
      { command: "create", path: "/memories/a.md", file_text: "one\ntwo" },
      { command: "create", path: "/memories/dir/x.md", file_text: "x" },
      { command: "create", path: "/memories/dir/y.md", file_text: "y" },
    ];
    for (const input of setup) assert.equal((await exec(page, input)).isError, false, JSON.stringify(input));
    // The bundle holds a.md as first written: importing it with "overwrite" changes a.md.
    const bundle = /** @type {any} */ (await host(page, "export")).value;
    const later = [
      { command: "str_replace", path: "/memories/a.md", old_str: "two", new_str: "2" },
      { command: "create", path: "/memories/gone.md", file_text: "soon gone" },
      { command: "delete", path: "/memories/gone.md" },
    ];
    for (const input of later) assert.equal((await exec(page, input)).isError, false, JSON.stringify(input));
    const a = /** @type {any} */ (await host(page, "memories.getByPath", "/a.md")).value;
    const versions = /** @type {any} */ (await host(page, "versions.list", { memory_id: a.id })).value.data;
    const [, oldA] = versions; // newest first: [modified, created]
    const x = /** @type {any} */ (await host(page, "memories.getByPath", "/dir/x.md")).value;
    await session.ctx.close();

    // A fresh browser whose quota is 1 byte from the start.
    session = await startWithQuota(profile, 1);
    ({ page } = session);
    const before = await dump(page, STORE);
    assertConsistent(before, "before");
    /** @type {Array<[string, () => Promise<any>]>} */
    const writes = [
      ["create", () => exec(page, { command: "create", path: "/memories/new.md", file_text: "new" })],
      ["str_replace", () => exec(page, { command: "str_replace", path: "/memories/a.md", old_str: "one", new_str: "1" })],
      ["insert", () => exec(page, { command: "insert", path: "/memories/a.md", insert_line: 0, insert_text: "zero" })],
      ["rename a file", () => exec(page, { command: "rename", old_path: "/memories/a.md", new_path: "/memories/b.md" })],
      ["rename a directory", () => exec(page, { command: "rename", old_path: "/memories/dir", new_path: "/memories/moved" })],
      ["memories.create", () => host(page, "memories.create", { path: "/host.md", content: "h" })],
      ["memories.update (content)", () => host(page, "memories.update", a.id, { content: "changed" })],
      ["memories.update (path)", () => host(page, "memories.update", a.id, { path: "/renamed.md" })],
      ["writeFile", () => host(page, "writeFile", "/memories/w.md", "w")],
      ["versions.restore", () => host(page, "versions.restore", oldA.id)],
      ["versions.redact", () => host(page, "versions.redact", oldA.id)],
      ["import (overwrite)", () => host(page, "import", bundle, { onConflict: "overwrite" })],
    ];
    for (const [what, write] of writes) {
      const outcome = await write();
      if ("content" in outcome) assert.deepEqual(outcome, QUOTA_RESULT, what);
      else assertQuotaError(outcome, what);
      assert.deepEqual(await dump(page, STORE), before, `${what} changed nothing`);
    }
    // Reads need no space.
    assert.equal((await exec(page, { command: "view", path: "/memories" })).isError, false);
    assert.equal((await exec(page, { command: "view", path: "/memories/a.md" })).isError, false);
    for (const read of [["memories.list"], ["versions.list"], ["export", { include_versions: true }], ["memories.get", a.id]]) {
      const outcome = await host(page, /** @type {string} */ (read[0]), ...read.slice(1));
      assert.ok("value" in outcome, `${read[0]} works at a full quota: ${JSON.stringify(outcome).slice(0, 200)}`);
    }

    // Quota raised: every write works again (each in a state where it applies).
    await setQuota(session.cdp, undefined);
    const again = [
      await exec(page, { command: "create", path: "/memories/new.md", file_text: "new" }),
      await exec(page, { command: "str_replace", path: "/memories/a.md", old_str: "one", new_str: "1" }),
      await exec(page, { command: "insert", path: "/memories/a.md", insert_line: 0, insert_text: "zero" }),
      await exec(page, { command: "rename", old_path: "/memories/dir", new_path: "/memories/moved" }),
      await exec(page, { command: "rename", old_path: "/memories/new.md", new_path: "/memories/new2.md" }),
      await exec(page, { command: "delete", path: "/memories/new2.md" }),
    ];
    for (const r of again) assert.equal(r.isError, false, JSON.stringify(r));
    for (const outcome of [
      await host(page, "memories.create", { path: "/host.md", content: "h" }),
      await host(page, "memories.update", a.id, { content: "changed" }),
      await host(page, "versions.restore", oldA.id),
      await host(page, "versions.redact", oldA.id),
      await host(page, "writeFile", "/memories/w.md", "w"),
      await host(page, "memories.delete", x.id),
      await host(page, "import", bundle, { onConflict: "overwrite" }),
    ]) {
      assert.ok("value" in outcome, JSON.stringify(outcome).slice(0, 300));
    }
    const counts = assertConsistent(await dump(page, STORE), "after the quota was raised");
    console.log(
      `# quota 1 B: ${writes.length} kinds of write all QUOTA_EXCEEDED with the store unchanged, reads fine; ` +
        `all work once the quota is raised (${counts.files} files, ${counts.versions} versions)`,
    );
    await session.ctx.close();
  });

  it("at a full quota, tool delete and memories.delete succeed, taking the memory with its history; the rest stays consistent", { timeout: 90_000 }, async () => {
    const profile = await freshProfile("quota-delete");
    // A store with history, written with room to spare.
    let session = await startWithQuota(profile, 10_000_000);
    let { page } = session;
    for (let i = 0; i < 6; i++) {
      const input = { command: "create", path: `/memories/big/f${i}.md`, file_text: `head ${i}\n${fill(i)}` };
      assert.equal((await exec(page, input)).isError, false);
      // Three versions each.
      for (const n of [1, 2]) {
        const old_str = n === 1 ? `head ${i}\n` : `head ${i}.${n - 1}\n`;
        const edit = await exec(page, { command: "str_replace", path: `/memories/big/f${i}.md`, old_str, new_str: `head ${i}.${n}\n` });
        assert.equal(edit.isError, false, edit.content);
      }
    }
    for (const [p, text] of [["/memories/dir/x.md", "x"], ["/memories/dir/y.md", "y"], ["/memories/keep.md", "keep"]]) {
      assert.equal((await exec(page, { command: "create", path: p, file_text: text })).isError, false);
    }
    const f1 = /** @type {any} */ (await host(page, "memories.getByPath", "/big/f1.md")).value;
    const f0 = /** @type {any} */ (await host(page, "memories.getByPath", "/big/f0.md")).value;
    await session.ctx.close();

    // A fresh browser whose quota is 1 byte from the start: no put fits.
    session = await startWithQuota(profile, 1);
    ({ page } = session);
    const before = await dump(page, STORE);
    const counted = assertConsistent(before, "before");
    assert.equal((await exec(page, { command: "create", path: "/memories/new.md", file_text: "n" })).code, "QUOTA_EXCEEDED", "the origin is full");
    const usedAtFull = await usage(session.cdp);

    assert.deepEqual(await exec(page, { command: "delete", path: "/memories/big/f0.md" }), { content: "Successfully deleted /memories/big/f0.md", isError: false });
    assert.deepEqual(await host(page, "memories.delete", f1.id), { value: { type: "memory_deleted", id: f1.id } });
    assert.deepEqual(await exec(page, { command: "delete", path: "/memories/dir" }), { content: "Successfully deleted /memories/dir", isError: false });
    const after = await dump(page, STORE);
    const left = assertConsistent(after, "after the compact deletes", { metaMayBeMissing: true });
    assert.equal(after.meta ?? null, null, "the metadata record went (a put would not fit)");
    // Exactly the deleted memories and their histories went; every other record is as it was.
    const gone = new Set(before.files.filter(({ value: f }) => f.path.startsWith("/dir/") || f.id === f0.id || f.id === f1.id).map(({ value: f }) => f.id));
    assert.equal(gone.size, 4);
    assert.deepEqual(after.files, before.files.filter(({ value: f }) => !gone.has(f.id)));
    assert.deepEqual(after.versions, before.versions.filter(({ value: v }) => !gone.has(v.memoryId)));
    const heldBefore = new Set(after.versions.map(({ value: v }) => v.content));
    assert.deepEqual(after.contents, before.contents.filter((c) => heldBefore.has(c.key)));
    assert.equal(before.versions.length - after.versions.length, 3 + 3 + 2, "f0's and f1's three versions, x's and y's one");
    // Reads work and see the store as it is.
    const listing = await exec(page, { command: "view", path: "/memories" });
    assert.equal(listing.isError, false);
    assert.doesNotMatch(String(listing.content), /\/f0\.md|\/f1\.md|\/memories\/dir/);
    assert.equal((await host(page, "memories.list")).value.length, counted.files - 4);

    // Does a write fit right after the deletes? Chromium measures usage on its own schedule.
    const small = await exec(page, { command: "create", path: "/memories/small.md", file_text: "s" });
    const usedAfter = await usage(session.cdp);

    // Room again: every write works, and the next write counts the metadata again.
    await setQuota(session.cdp, undefined);
    for (const input of [
      { command: "create", path: "/memories/big/f0.md", file_text: "back" },
      { command: "str_replace", path: "/memories/keep.md", old_str: "keep", new_str: "kept" },
    ]) {
      assert.equal((await exec(page, input)).isError, false, JSON.stringify(input));
    }
    const restored = await dump(page, STORE);
    const final = assertConsistent(restored, "after the quota was raised");
    assert.ok(restored.meta, "the metadata record is back");
    console.log(
      `# delete at full quota (1 B, usage ${usedAtFull} B): tool delete of a file, memories.delete and a directory delete all succeeded, ` +
        `${before.versions.length - after.versions.length} versions and ${before.contents.length - after.contents.length} contents went with their 4 memories, ` +
        `the other ${left.files} files unchanged; a create right after: ${small.isError ? small.code : "ok"} (usage ${usedAfter} B); ` +
        `after the quota was raised: consistent, ${final.files} files, ${final.versions} versions, metadata counted again`,
    );
    await session.ctx.close();
  });

  it("the history budget: 300 edits of a 100 KB file keep 40 versions and at most 4 MiB, not 300", { timeout: 120_000 }, async () => {
    const profile = await freshProfile("quota-budget");
    const { ctx, page, cdp } = await startWithQuota(profile, 1_000_000_000);
    /** @type {Record<string, { versions: number, bytes: number, usage: number }>} */
    const kept = {};
    for (const [key, store, limits] of /** @type {const} */ ([["whole", "rel-budget-whole", WHOLE_HISTORY], ["default", "rel-budget-default", undefined]])) {
      await openTool(page, key, { store, createOverwrites: true, ...(limits ? { limits } : {}) });
      const failures = await page.evaluate(async (k) => {
        const out = [];
        for (let i = 0; i < 300; i++) {
          // Letters from a seeded generator: text that does not compress, so the usage is real.
          let seed = 2_654_435_761 ^ (i + 1);
          const letters = new Array(102_396);
          for (let j = 0; j < letters.length; j++) {
            seed ^= seed << 13;
            seed ^= seed >>> 17;
            seed ^= seed << 5;
            letters[j] = String.fromCharCode(33 + ((seed >>> 0) % 94));
          }
          const text = letters.join("");
          // @ts-ignore: window.rel is the fixture's
          const r = await rel.tool(k).execute({ command: "create", path: "/memories/big.md", file_text: text });
          if (r.isError) out.push(r.content);
        }
        return out;
      }, key);
      assert.deepEqual(failures, []);
      const raw = await dump(page, store, { inline: 0 });
      assertConsistent(raw, `after 300 edits (${key})`);
      kept[key] = { versions: raw.versions.length, bytes: raw.contents.reduce((sum, c) => sum + (c.size ?? 0), 0), usage: await usage(cdp) };
    }
    assert.equal(kept.whole.versions, 300);
    assert.equal(kept.whole.bytes, 300 * 102_396);
    assert.equal(kept.default.versions, 40);
    assert.ok(kept.default.bytes <= 4 * 1024 * 1024, String(kept.default.bytes));
    console.log(
      `# history budget, 300 edits of a 102,396 B file: budget lifted ${kept.whole.versions} versions, ${kept.whole.bytes} B of content ` +
        `(origin usage ${kept.whole.usage} B); default budget ${kept.default.versions} versions, ${kept.default.bytes} B ` +
        `(origin usage grew by ${kept.default.usage - kept.whole.usage} B)`,
    );
    await ctx.close();
  });

  it("raised no uncaught errors or console errors in any page", () => {
    assert.deepEqual(problems, []);
  });
});
