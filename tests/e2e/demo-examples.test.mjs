// The tool console's examples, run in the order the picker lists them, on a fresh memory (the
// package in Node, in-memory storage): each one's result agrees with its note. In particular
// the errors about /memories/notes/todo.md find the file, so rename and delete come after them.
//
// Needs the built wasm (npm run build). Run: node --test tests/e2e/demo-examples.test.mjs

import { it } from "node:test";
import assert from "node:assert/strict";
import { MemoryTool } from "memory-tool-wasm";
import { EXAMPLES } from "../../www/examples.js";

it("the console's examples, run in order, do what their notes say", async () => {
  const memory = await MemoryTool.open({ storage: "memory" });
  /** @type {Record<string, { content: string, isError: boolean }>} */
  const results = {};
  for (const example of EXAMPLES) {
    const input = /** @type {any} */ (example.input);
    const { content, isError } = await memory.execute(input.type === "tool_use" ? input.input : input);
    results[example.id] = { content: String(content), isError };
  }
  for (const example of EXAMPLES) {
    const { content, isError } = results[example.id];
    assert.equal(isError, example.group === "Instructive errors", `${example.id}: ${content}`);
    // No example finds the note it is about missing, unless that is its point.
    if (example.id !== "error-missing") assert.doesNotMatch(content, /does not exist/, `${example.id}: ${content}`);
  }
  // The notes that promise a particular answer.
  assert.match(results["error-view-range"]?.content ?? "", /lines? .*\d/, "the error names the file's real line range");
  assert.match(results["error-multiple"]?.content ?? "", /lines?:? \d/, "the error lists the line of each match");
  assert.match(results["error-exists"]?.content ?? "", /already exists/);
});
