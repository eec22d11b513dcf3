// The storage contract (docs/STORAGE.md) in Chromium, Firefox and WebKit over each engine's
// real IndexedDB: the package's IndexedDbStorage through `storageContract`, and the IndexedDB
// backend docs/STORAGE.md prints (written from its code block as it stands) through
// `keyValueContract`, both with the six commands and the host API compared against
// InMemoryStorage in the same page.
//
// Run: node --test --test-concurrency=1 tests/engines/contract.test.mjs   (ENGINES=webkit …)

import assert from "node:assert/strict";
import { test } from "node:test";
import { eachEngine, problemsOf } from "./lib.mjs";
import { blocksOf } from "../consumers/doc-blocks.mjs";

const backend = (await blocksOf("docs/STORAGE.md")).find((b) => b.file === "indexeddb-backend.js")?.code;
assert.ok(backend, "docs/STORAGE.md prints indexeddb-backend.js");

/** In a page: both suites, each case's outcome. */
const runSuites = async (/** @type {{ backend: string }} */ { backend }) => {
  const pkg = /** @type {any} */ (window).pkg;
  const { keyValueContract, storageContract } = await import("/src/js/storage-contract.js");
  const url = URL.createObjectURL(new Blob([backend], { type: "text/javascript" }));
  const { IndexedDbBackend } = await import(url);
  const suites = {
    IndexedDbBackend: keyValueContract(() => new IndexedDbBackend({ prefix: "contract-backend:" }), { MemoryTool: pkg.MemoryTool }),
    IndexedDbStorage: storageContract(() => new pkg.IndexedDbStorage({ dbPrefix: "contract:" }), { MemoryTool: pkg.MemoryTool }),
  };
  const results = [];
  for (const [suite, cases] of Object.entries(suites)) {
    for (const { name, run } of cases) {
      try {
        await run();
        results.push({ suite, name, ok: true });
      } catch (error) {
        results.push({ suite, name, ok: false, error: String(/** @type {any} */ (error)?.stack ?? error) });
      }
    }
  }
  return results;
};

eachEngine("the storage contract", (env) => {
  test("IndexedDbStorage and docs/STORAGE.md's IndexedDB backend keep the storage contract", async (t) => {
    const tab = await env.open();
    /** @type {Array<{ suite: string, name: string, ok: boolean, error?: string }>} */
    const results = await tab.run(runSuites, { backend });
    assert.deepEqual(results.filter((r) => !r.ok), []);
    for (const suite of ["IndexedDbBackend", "IndexedDbStorage"]) {
      const n = results.filter((r) => r.suite === suite).length;
      assert.ok(n >= 30, `${suite}: ${n} cases`);
      t.diagnostic(`${env.engine}: ${suite} passed ${n} cases`);
    }
    assert.deepEqual(await problemsOf(tab), []);
    await tab.close();
  });
});
