// memory-tool-wasm/ai-sdk with the Vercel AI SDK (`ai` and `@ai-sdk/anthropic`) against a fake
// Anthropic endpoint on 127.0.0.1, whole (generateText) and streamed (streamText): each
// tool_result the provider sends back is the one `memory.run` gives for the same input on the
// same files, byte for byte, with is_error and image blocks; unusual inputs get the core's own
// texts (the provider's zod schema is not the judge); the call's id lands in created_by.

import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { generateText, streamText, stepCountIs } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { fakeAnthropic, toolTurn, textTurn, UNUSUAL_INPUTS } from "./fixtures/fake-anthropic.mjs";
import { pngBytes } from "./fixtures/anthropic-conversation.mjs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) console.error("\n*** ai-sdk.test.mjs: pkg/ is not built; SKIPPING. ***\n");
const suite = built ? describe : describe.skip;
const { MemoryTool, MemoryToolError } = built ? await import("memory-tool-wasm") : {};
const { memoryTool } = await import("memory-tool-wasm/ai-sdk");

/** A memory over fresh in-memory storage with the diagram in it. */
async function memoryWithDiagram() {
  const memory = await MemoryTool.open({ storage: "memory" });
  await memory.writeFile("/memories/diagram.png", pngBytes());
  return memory;
}

/** What `memory.run` answers for the tool_use blocks of `turn`, in order, on a fresh memory. */
async function expectedResults(turn) {
  const memory = await memoryWithDiagram();
  const results = [];
  for (const block of turn.content) results.push(await memory.run(block));
  memory.close();
  return results;
}

const inputs = UNUSUAL_INPUTS.map(([, input]) => input);

suite("memory-tool-wasm/ai-sdk", () => {
  /** @type {Awaited<ReturnType<typeof fakeAnthropic>>} */
  let server;
  before(async () => {
    server = await fakeAnthropic([]);
  });
  after(() => server.close());

  for (const mode of ["generateText", "streamText"]) {
    test(`${mode}: every tool_result is memory.run's, with is_error and images`, async () => {
      const turns = [toolTurn(`${mode}_1`, inputs), textTurn(`${mode}_2`, "Done.")];
      const fake = await fakeAnthropic(turns);
      try {
        const anthropic = createAnthropic({ baseURL: fake.baseURL, apiKey: "test" });
        const memory = await memoryWithDiagram();
        const params = {
          model: anthropic("claude-sonnet-4-5"),
          prompt: "Remember this.",
          tools: { memory: memoryTool(memory, { anthropic }) },
          stopWhen: stepCountIs(3),
        };
        let text;
        if (mode === "generateText") {
          text = (await generateText(params)).text;
        } else {
          const result = streamText(params);
          text = await result.text;
        }
        assert.equal(text, "Done.");
        assert.equal(fake.requests.length, 2);
        const sent = fake.requests[0].body;
        assert.deepEqual(
          sent.tools.map((t) => ({ type: t.type, name: t.name })),
          [{ type: "memory_20250818", name: "memory" }],
          "the API gets the memory tool itself",
        );
        const results = fake.requests[1].body.messages.at(-1).content;
        const expected = await expectedResults(turns[0]);
        assert.equal(results.length, expected.length);
        for (const [i, want] of expected.entries()) {
          const got = results[i];
          const about = UNUSUAL_INPUTS[i][0];
          assert.equal(got.type, "tool_result");
          assert.equal(got.tool_use_id, want.tool_use_id, about);
          assert.deepEqual(got.content, want.content, about);
          assert.equal(got.is_error === true, want.is_error === true, `${about}: is_error`);
        }
        const { data } = await memory.versions.list();
        const byTool = data.filter((v) => v.created_by?.type === "tool");
        assert.deepEqual(
          byTool.map((v) => [v.operation, v.created_by.tool_use_id]).reverse(),
          [["created", `toolu_${mode}_1_1`], ["modified", `toolu_${mode}_1_2`]],
          "the writes record the calls' toolCallIds",
        );
        memory.close();
      } finally {
        await fake.close();
      }
    });
  }

  test("the unusual inputs get the core's texts, not the provider schema's", async () => {
    const [turn] = [toolTurn("texts", inputs)];
    const expected = await expectedResults(turn);
    const byAbout = Object.fromEntries(UNUSUAL_INPUTS.map(([about], i) => [about, expected[i]]));
    assert.equal(byAbout["str_replace with no new_str (a delete)"].is_error, undefined, "a delete, done");
    for (const result of expected) {
      assert.doesNotMatch(JSON.stringify(result.content), /invalid_type|invalid_union|Invalid input|zod/i);
    }
    assert.ok(Array.isArray(byAbout["a view of an image"].content), "an image view is content blocks");
  });

  test("refuses what is not a MemoryTool or not a provider, when the tool is built", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    const anthropic = createAnthropic({ apiKey: "test" });
    assert.throws(() => memoryTool(MemoryTool.open({ storage: "memory" }), { anthropic }), (e) =>
      e instanceof MemoryToolError && e.code === "INVALID_OPTIONS" && /It got a promise/.test(e.message),
    );
    assert.throws(() => memoryTool(memory, {}), (e) => e.code === "INVALID_OPTIONS" && /options\.anthropic/.test(e.message));
    assert.throws(() => memoryTool(memory), (e) => e.code === "INVALID_OPTIONS");
    memory.close();
  });
});
