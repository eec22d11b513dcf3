// The memory browser's words for who made a change (`created_by`), one line per actor the
// package records: the model through the tool (with and without its tool_use id), the demo's
// console and recorded model, the host API, an import, expiry.
//
// Run: node --test tests/e2e/demo-words.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { describeActor } from "../../www/browser/words.js";

test("each actor in words", () => {
  const table = [
    [{ type: "tool", tool_use_id: "toolu_01ABC" }, "the model (toolu_01ABC)"],
    [{ type: "tool", tool_use_id: "toolu_recorded_k3j9xa_1_1_2_1" }, "the recorded model (toolu_recorded_k3j9xa_1_1_2_1)"],
    [{ type: "tool", tool_use_id: "toolu_demo_7" }, "the tool console (toolu_demo_7)"],
    [{ type: "tool" }, "the model, through the memory tool"],
    [{ type: "api", session_id: "session_1" }, "this page (host API)"],
    [{ type: "import" }, "an import"],
    [{ type: "expiry" }, "expiry (not viewed or changed for too long)"],
    [null, "unknown"],
  ];
  assert.deepEqual(
    table.map(([actor]) => describeActor(actor)),
    table.map(([, words]) => words),
  );
});
