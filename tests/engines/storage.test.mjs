// What the package asks of the browser beyond IndexedDB, in Chromium, Firefox and WebKit:
// `persist()` settles within its bound whatever the browser does (Firefox waits on a
// permission prompt nobody answers under automation; WebKitGTK has no Storage API), `usage()`
// copes where `navigator.storage` is missing, and the package loads and works with
// navigator.storage, Web Locks, BroadcastChannel, Symbol.dispose and localStorage each taken
// away (WebKitGTK lacks two of them already).
//
// Run: node --test --test-concurrency=1 tests/engines/storage.test.mjs

import assert from "node:assert/strict";
import { test } from "node:test";
import { eachEngine, problemsOf } from "./lib.mjs";

/** In a page: `persist(options)`, timed; "did not settle" after `limit` ms (the bug it guards). */
const timedPersist = async ({ options, limit }) => {
  const memory = await /** @type {any} */ (window).pkg.MemoryTool.open({ store: "persist" });
  const started = performance.now();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const answer = await Promise.race([
    memory.persist(options).then((/** @type {unknown} */ value) => ({ value })),
    new Promise((resolve) => (timer = setTimeout(() => resolve({ value: "did not settle" }), limit))),
  ]);
  clearTimeout(timer);
  memory.close();
  return { ...answer, ms: Math.round(performance.now() - started) };
};

eachEngine("the browser's storage APIs", (env) => {
  test("persist() settles within its bound; usage() says what the browser says", async () => {
    const tab = await env.open();
    const quick = await tab.run(timedPersist, { options: { timeoutMs: 1000 }, limit: 15_000 });
    const usage = await tab.run(async () => {
      const memory = await /** @type {any} */ (window).pkg.MemoryTool.open({ store: "usage" });
      await memory.execute({ command: "create", path: "/memories/u.md", file_text: "12345" });
      const out = await memory.usage();
      memory.close();
      return { ...out, storage: typeof navigator.storage };
    });
    assert.deepEqual([usage.files, usage.bytes], [1, 5]);
    if (env.engine === "webkit") {
      // WebKitGTK has no Storage API: nothing to ask, nothing known.
      assert.deepEqual([quick.value, usage.storage, usage.origin, usage.persisted], [false, "undefined", null, null]);
    } else {
      assert.equal(typeof usage.origin?.quota, "number");
      assert.equal(typeof usage.persisted, "boolean");
    }
    if (env.engine === "firefox") {
      // Firefox asks the person and waits; under automation nobody answers: no answer (null)
      // at the bound, not a hang.
      assert.equal(quick.value, null);
      assert.ok(quick.ms >= 950 && quick.ms < 5000, `resolved after ${quick.ms} ms`);
      const byDefault = await tab.run(timedPersist, { options: undefined, limit: 30_000 });
      assert.equal(byDefault.value, null);
      assert.ok(byDefault.ms >= 9950 && byDefault.ms < 15_000, `the default bound is 10 s; resolved after ${byDefault.ms} ms`);
    }
    if (env.engine === "chromium") {
      // Chromium answers at once, from its own heuristics.
      assert.equal(typeof quick.value, "boolean");
      assert.ok(quick.ms < 1000, `answered after ${quick.ms} ms`);
    }
    const refused = await tab.run(async () => {
      const memory = await /** @type {any} */ (window).pkg.MemoryTool.open({ store: "persist" });
      const codes = [];
      for (const options of [{ timeoutMs: -1 }, { timeoutMs: 1.5 }, { timeoutMs: "10" }, { wait: 1 }]) {
        codes.push(await memory.persist(options).then(() => "resolved", (/** @type {any} */ e) => `${e.code}: ${e.message}`));
      }
      memory.close();
      return codes;
    });
    assert.deepEqual(refused, [
      "INVALID_INPUT: persist: `timeoutMs` must be a whole number of milliseconds from 0 to 2,147,483,647.",
      "INVALID_INPUT: persist: `timeoutMs` must be a whole number of milliseconds from 0 to 2,147,483,647.",
      "INVALID_INPUT: persist: `timeoutMs` must be a whole number of milliseconds from 0 to 2,147,483,647.",
      "INVALID_INPUT: persist: unknown option `wait`; the only option is timeoutMs.",
    ]);
    assert.deepEqual(await problemsOf(tab), []);
    await tab.close();
  });

  test("works with navigator.storage, Web Locks, BroadcastChannel, Symbol.dispose or localStorage taken away", async () => {
    for (const without of ["storage", "locks", "broadcast", "dispose", "localstorage", "storage,locks,broadcast,dispose,localstorage"]) {
      const tab = await env.open(`?without=${without}&entry=${without.includes(",") ? "bundle" : "src"}`);
      const got = await tab.run(async (store) => {
        const w = /** @type {any} */ (window);
        const { MemoryTool, IndexedDbStorage } = w.pkg;
        await new IndexedDbStorage().destroy(store);
        const memory = await MemoryTool.open({ store });
        const heard = [];
        memory.subscribe((/** @type {any} */ e) => heard.push(e.type));
        const results = [
          await memory.execute({ command: "create", path: "/memories/a.md", file_text: "a" }),
          await memory.execute({ command: "str_replace", path: "/memories/a.md", old_str: "a", new_str: "b" }),
          await memory.execute({ command: "view", path: "/memories/a.md" }),
        ].map((r) => r.content);
        const usage = await memory.usage();
        const persisted = await memory.persist({ timeoutMs: 500 });
        const exported = (await memory.export()).memories.length;
        memory.close();
        return { taken: w.taken, results, heard, usage, persisted, exported };
      }, `without-${without.replaceAll(",", "-")}`);
      assert.deepEqual(
        got.results,
        [
          "File created successfully at: /memories/a.md",
          "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tb",
          "Here's the content of /memories/a.md with line numbers:\n     1\tb",
        ],
        without,
      );
      assert.deepEqual(got.heard, ["change", "change"], `${without}: this tab hears its own changes`);
      assert.equal(got.exported, 1);
      assert.deepEqual([got.usage.files, got.usage.bytes], [1, 1]);
      const taken = without.split(",");
      if (taken.includes("storage")) {
        assert.equal(got.taken.storage, "undefined");
        assert.deepEqual([got.usage.origin, got.usage.persisted, got.persisted], [null, null, false], without);
      }
      if (taken.includes("locks")) assert.equal(got.taken.locks, "undefined");
      if (taken.includes("broadcast")) assert.equal(got.taken.broadcast, "undefined");
      if (taken.includes("dispose")) assert.equal(got.taken.dispose, "undefined");
      if (taken.includes("localstorage")) assert.equal(got.taken.localStorage, "SecurityError");
      assert.deepEqual(await problemsOf(tab), [], without);
      await tab.close();
    }
  });
});

// Firefox answers persist() from its permission pref when one is set: granted (1) or denied (2).
for (const [pref, want] of [
  [1, true],
  [2, false],
]) {
  eachEngine(
    `persist() with permissions.default.persistent-storage at ${pref}`,
    (env) => {
      test(`resolves ${want}, at once`, async () => {
        const tab = await env.open();
        const got = await tab.run(timedPersist, { options: undefined, limit: 15_000 });
        assert.equal(got.value, want);
        assert.ok(got.ms < 5000, `answered after ${got.ms} ms`);
        const usage = await tab.run(async () => {
          const memory = await /** @type {any} */ (window).pkg.MemoryTool.open({ store: "persist" });
          const out = await memory.usage();
          memory.close();
          return out.persisted;
        });
        assert.equal(usage, want);
        await tab.close();
      });
    },
    { engines: ["firefox"], prefs: { "permissions.default.persistent-storage": pref } },
  );
}
