// The memory browser's words for who made a change (`created_by`), one line per actor the
// package records, in the words people use: the model through the tool (with and without its
// tool_use id), the demo's console and recorded model, a host call (an edit is "you, in the
// editor", a create or delete "you, in the memory browser"), a restore, a write sync pulled
// from a hosted store (named by the name the sync panel listed, else by id), repair (its own
// actor, or a host-call delete of a memory this page's repair took out), expiry, an import.
//
// Run: node --test tests/e2e/demo-words.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";

// words.js keeps what it learns in localStorage, as the page does (here a Map, as Node has none).
const stored = new Map();
globalThis.localStorage = /** @type {any} */ ({
  getItem: (/** @type {string} */ k) => stored.get(k) ?? null,
  setItem: (/** @type {string} */ k, /** @type {string} */ v) => void stored.set(k, String(v)),
  removeItem: (/** @type {string} */ k) => void stored.delete(k),
});
const { describeActor, rememberHostedStores, rememberRepaired } = await import("../../www/browser/words.js");

test("each actor in words", () => {
  rememberHostedStores([{ id: "memstore_01named", name: "Team notes" }]);
  rememberRepaired(["mem_repaired"]);
  /** @type {Array<[any, { operation?: string, memoryId?: string }, string]>} */
  const table = [
    [{ type: "tool", tool_use_id: "toolu_01ABC" }, {}, "the model"],
    [{ type: "tool", tool_use_id: "toolu_recorded_k3j9xa_1_1_2_1" }, {}, "the recorded model"],
    [{ type: "tool", tool_use_id: "toolu_demo_7" }, {}, "you, in the tool console"],
    [{ type: "tool" }, {}, "the model, through the memory tool"],
    [{ type: "api", session_id: "session_1" }, { operation: "modified" }, "you, in the editor"],
    [{ type: "api" }, { operation: "created" }, "you, in the memory browser"],
    [{ type: "api" }, { operation: "deleted", memoryId: "mem_other" }, "you, in the memory browser"],
    [{ type: "api", restored_from: "memver_1" }, { operation: "modified" }, "you"],
    [{ type: "api", memory_store_id: "memstore_01named", memory_version_id: "memver_h1" }, { operation: "modified" }, "synced from the hosted store “Team notes” (memstore_01named)"],
    [{ type: "api", memory_store_id: "memstore_01other" }, { operation: "deleted" }, "synced from the hosted store memstore_01other"],
    [{ type: "repair" }, { operation: "deleted" }, "repair"],
    [{ type: "api" }, { operation: "deleted", memoryId: "mem_repaired" }, "repair"],
    [{ type: "import" }, {}, "an import"],
    [{ type: "expiry" }, { operation: "deleted" }, "expired after 30 days unused"],
    [null, {}, "unknown"],
  ];
  assert.deepEqual(
    table.map(([actor, version]) => describeActor(actor, version)),
    table.map(([, , words]) => words),
  );
});
