// End to end: memory.subscribe across pages and workers of one origin, in headless Chromium
// over real IndexedDB. Two pages open the same store through the harness
// (tests/e2e/fixtures/harness.html); one changes a memory (a tool command, a host API call,
// a directory rename), the other's listener hears each change with origin "remote"; the
// changing page hears its own with origin "local". A module worker's changes reach a page;
// other stores' changes do not; the channel closes on pagehide and reopens on pageshow.
// Every wait is for a condition (page.waitForFunction), never a fixed sleep.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test --test-concurrency=1 tests/e2e/events.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { harnessSession } from "./browser-env.mjs";

const TEST_TIMEOUT = 30_000;

/** @typedef {import("playwright-core").Page} Page */

const session = harnessSession("events");
const { openHarness, pageProblems } = session;
before(session.start);
after(session.stop);

/** MemoryTool.open in the page under `key`. */
async function openTool(/** @type {Page} */ page, /** @type {string} */ key, /** @type {object} */ options) {
  const opened = await page.evaluate(([k, o]) => harness.open(k, o), /** @type {const} */ ([key, options]));
  assert.ok(!("thrown" in opened), `MemoryTool.open failed: ${JSON.stringify(opened)}`);
}

/** A host API call (or run/execute) in the page; fails the test on an error. */
async function call(/** @type {Page} */ page, /** @type {string} */ key, /** @type {string} */ name, /** @type {unknown[]} */ ...args) {
  const value = await page.evaluate(([k, n, a]) => harness.call(k, n, ...a), /** @type {const} */ ([key, name, args]));
  assert.ok(!(value && value.thrown), `${name} failed: ${JSON.stringify(value)}`);
  return value;
}

/** Subscribes tool `key` in the page; its events pile up under `as`. */
function subscribe(/** @type {Page} */ page, /** @type {string} */ key, as = key) {
  return page.evaluate(([k, a]) => harness.subscribe(k, a), /** @type {const} */ ([key, as]));
}

/** Waits until subscription `as` in the page has heard `count` events; returns them all. */
async function heard(/** @type {Page} */ page, /** @type {string} */ as, /** @type {number} */ count) {
  await page.waitForFunction(([a, n]) => (harness.events.get(a)?.length ?? 0) >= n, /** @type {const} */ ([as, count]));
  return page.evaluate((a) => harness.events.get(a), as);
}

const toolUse = (/** @type {string} */ id, /** @type {object} */ input) => ({ type: "tool_use", id, name: "memory", input });

describe("memory.subscribe across pages and workers of one origin (headless Chromium)", { timeout: 120_000 }, () => {
  it("one page changes a memory (tool command, host API, directory rename); the other page's listener hears each change", { timeout: TEST_TIMEOUT }, async () => {
    const STORE = "e2e-events";
    const a = await openHarness();
    const b = await openHarness();
    await openTool(a, "m", { store: STORE });
    await openTool(b, "m", { store: STORE });
    await subscribe(a, "m");
    await subscribe(b, "m");

    // A tool command, from a tool_use block.
    const result = await call(a, "m", "run", toolUse("toolu_e2e_1", { command: "create", path: "/memories/notes/todo.md", file_text: "buy milk" }));
    assert.equal(result.content, "File created successfully at: /memories/notes/todo.md");
    const [created] = await heard(b, "m", 1);
    const [memory] = await call(a, "m", "memories.list");
    assert.deepEqual(created, {
      type: "change",
      store: STORE,
      memory_id: memory.id,
      path: "/notes/todo.md",
      operation: "created",
      version_id: memory.memory_version_id,
      redacted: false,
      created_by: { type: "tool", tool_use_id: "toolu_e2e_1" },
      origin: "remote",
    });
    // The page that made it hears it too, as local.
    const [own] = await heard(a, "m", 1);
    assert.deepEqual(own, { ...created, origin: "local" });

    // A host API call.
    const updated = await call(a, "m", "memories.update", memory.id, { content: "buy oat milk" });
    const [, modified] = await heard(b, "m", 2);
    assert.deepEqual(modified, {
      ...created,
      operation: "modified",
      version_id: updated.memory_version_id,
      created_by: { type: "api" },
    });

    // A directory rename: one event per memory it moves, all from one transaction.
    await call(a, "m", "memories.create", { path: "/notes/other.md", content: "x" });
    await call(a, "m", "execute", { command: "rename", old_path: "/memories/notes", new_path: "/memories/archive" });
    const events = await heard(b, "m", 5);
    assert.deepEqual(
      events.slice(3).map((/** @type {any} */ e) => [e.operation, e.path, e.origin]).sort(),
      [
        ["modified", "/archive/other.md", "remote"],
        ["modified", "/archive/todo.md", "remote"],
      ],
    );
    // The listening page reads what it heard of: the change had committed.
    const seen = await call(b, "m", "memories.get", memory.id);
    assert.equal(seen.path, "/archive/todo.md");
    assert.equal(seen.content, "buy oat milk");

    // And the other way round.
    await call(b, "m", "memories.delete", memory.id);
    const fromB = await heard(a, "m", 6);
    assert.deepEqual(
      [fromB[5].operation, fromB[5].path, fromB[5].origin, fromB[5].created_by],
      ["deleted", "/archive/todo.md", "remote", { type: "api" }],
    );
    assert.equal((await heard(b, "m", 6))[5].origin, "local");
    await a.close();
    await b.close();
  });

  it("a module worker's change reaches the pages; an unsubscribed listener and other stores hear nothing", { timeout: TEST_TIMEOUT }, async () => {
    const STORE = "e2e-events-worker";
    const page = await openHarness();
    await openTool(page, "m", { store: STORE });
    await openTool(page, "other", { store: "e2e-events-elsewhere" });
    await subscribe(page, "m", "kept");
    await subscribe(page, "m", "dropped");
    await subscribe(page, "other");
    await page.evaluate(() => harness.unsubscribes.get("dropped")());

    const fromWorker = await page.evaluate(
      ([store, at]) =>
        harness.withTimeout(
          new Promise((resolve, reject) => {
            const source = `
              import { MemoryTool } from ${JSON.stringify(at + "/src/js/index.js")};
              const m = await MemoryTool.open({ store: ${JSON.stringify(store)} });
              await m.run({ type: "tool_use", id: "toolu_worker", name: "memory",
                input: { command: "create", path: "/memories/from-worker.md", file_text: "hello" } });
              const [memory] = await m.memories.list();
              postMessage(memory);
            `;
            const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
            worker.onmessage = (event) => {
              worker.terminate();
              resolve(event.data);
            };
            worker.onerror = (event) => reject(new Error(event.message));
          }),
          10_000,
          "the worker's change",
        ),
      /** @type {const} */ ([STORE, session.origin]),
    );
    const [event] = await heard(page, "kept", 1);
    assert.deepEqual(event, {
      type: "change",
      store: STORE,
      memory_id: fromWorker.id,
      path: "/from-worker.md",
      operation: "created",
      version_id: fromWorker.memory_version_id,
      redacted: false,
      created_by: { type: "tool", tool_use_id: "toolu_worker" },
      origin: "remote",
    });
    // A change of this page's own store, after the worker's: it is heard as the second event.
    await call(page, "m", "memories.create", { path: "/local.md", content: "l" });
    const kept = await heard(page, "kept", 2);
    assert.deepEqual(kept.map((/** @type {any} */ e) => [e.path, e.origin]), [["/from-worker.md", "remote"], ["/local.md", "local"]]);
    assert.deepEqual(await page.evaluate(() => harness.events.get("dropped")), []);
    assert.deepEqual(await page.evaluate(() => harness.events.get("other")), []);
    await page.close();
  });

  it("pagehide closes the channel (what is posted meanwhile is missed), pageshow reopens it", { timeout: TEST_TIMEOUT }, async () => {
    const STORE = "e2e-events-pagehide";
    const a = await openHarness();
    const b = await openHarness();
    await openTool(a, "m", { store: STORE });
    await openTool(b, "m", { store: STORE });
    await subscribe(b, "m");
    await call(a, "m", "memories.create", { path: "/before.md", content: "1" });
    await heard(b, "m", 1);

    // As a navigation away does (the page may go to the back/forward cache).
    await b.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true })));
    await call(a, "m", "memories.create", { path: "/while-hidden.md", content: "2" });
    // As the page coming back does.
    await b.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })));
    await call(a, "m", "memories.create", { path: "/after.md", content: "3" });
    const events = await heard(b, "m", 2);
    assert.deepEqual(events.map((/** @type {any} */ e) => e.path), ["/before.md", "/after.md"]);
    // The store itself missed nothing.
    assert.deepEqual(
      (await call(b, "m", "memories.list")).map((/** @type {any} */ m) => m.path),
      ["/after.md", "/before.md", "/while-hidden.md"],
    );
    await a.close();
    await b.close();
  });

  it("raised no uncaught errors or console errors in any page", () => {
    assert.deepEqual(pageProblems, []);
  });
});
