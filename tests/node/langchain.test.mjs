// LangChain.js (`@langchain/anthropic`) with a MemoryTool, against a fake Anthropic endpoint on
// 127.0.0.1. ChatAnthropic sends a ToolMessage as a tool_result with no is_error (status
// "error" or not), so the tool abstraction cannot carry an error to the model; the README's
// recipe binds the memory tool's definition and answers each turn's tool calls with
// `memory.runAll` as raw tool_result blocks in a HumanMessage, which ChatAnthropic passes on
// as they are. Both are checked here: the recipe gives memory.run's results byte for byte
// (is_error and images included), whole and streamed; the ToolMessage path loses is_error.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { ChatAnthropic, tools } from "@langchain/anthropic";
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeAnthropic, toolTurn, textTurn, UNUSUAL_INPUTS } from "./fixtures/fake-anthropic.mjs";
import { pngBytes } from "./fixtures/anthropic-conversation.mjs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) console.error("\n*** langchain.test.mjs: pkg/ is not built; SKIPPING. ***\n");
const suite = built ? describe : describe.skip;
const { MemoryTool } = built ? await import("memory-tool-wasm") : {};

async function memoryWithDiagram() {
  const memory = await MemoryTool.open({ storage: "memory" });
  await memory.writeFile("/memories/diagram.png", pngBytes());
  return memory;
}

const inputs = UNUSUAL_INPUTS.map(([, input]) => input);

/**
 * The README's recipe: the memory tool's definition bound to the model; each turn's tool calls
 * answered by `memory.runAll`, sent back as they are.
 */
async function converse(model, memory, prompt, stream) {
  const messages = [new HumanMessage(prompt)];
  for (let turn = 0; turn < 5; turn++) {
    let ai;
    if (stream) {
      for await (const chunk of await model.stream(messages)) ai = ai ? ai.concat(chunk) : chunk;
    } else {
      ai = await model.invoke(messages);
    }
    messages.push(ai);
    const uses = (ai.tool_calls ?? []).map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args }));
    const results = await memory.runAll(uses);
    if (results.length === 0) return { messages, ai };
    messages.push(new HumanMessage({ content: results }));
  }
  throw new Error("too many turns");
}

suite("LangChain.js with the memory tool", () => {
  for (const stream of [false, true]) {
    test(`the recipe (${stream ? "streamed" : "whole"}): every tool_result is memory.run's, with is_error and images`, async () => {
      const turns = [toolTurn(stream ? "lc_stream" : "lc_whole", inputs), textTurn("lc_end", "Done.")];
      const fake = await fakeAnthropic(turns);
      try {
        const memory = await memoryWithDiagram();
        const model = new ChatAnthropic({
          model: "claude-sonnet-4-5",
          apiKey: "test",
          anthropicApiUrl: fake.origin,
          maxRetries: 0,
          streaming: stream,
        }).bindTools([tools.memory_20250818()]);
        const { ai } = await converse(model, memory, "Remember this.", stream);
        assert.equal(ai.text, "Done.");
        assert.equal(fake.requests[0].body.stream === true, stream, "streamed when asked");
        assert.deepEqual(
          fake.requests[0].body.tools.map((t) => ({ type: t.type, name: t.name })),
          [{ type: "memory_20250818", name: "memory" }],
        );
        const sent = fake.requests[1].body.messages.at(-1).content;
        const expectedMemory = await memoryWithDiagram();
        for (const [i, block] of turns[0].content.entries()) {
          const want = await expectedMemory.run(block);
          assert.deepEqual(sent[i], want, UNUSUAL_INPUTS[i][0]);
        }
        expectedMemory.close();
        memory.close();
      } finally {
        await fake.close();
      }
    });
  }

  test("why not the tool abstraction: a ToolMessage with status \"error\" reaches the API without is_error", async () => {
    const fake = await fakeAnthropic([textTurn("lc_tm", "ok")]);
    try {
      const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: fake.origin, maxRetries: 0 });
      const turn = toolTurn("lc_tm_use", [{ command: "view", path: "/etc" }]);
      const { AIMessage } = await import("@langchain/core/messages");
      await model.invoke([
        new HumanMessage("hi"),
        new AIMessage({ content: turn.content, tool_calls: [{ id: turn.content[0].id, name: "memory", args: turn.content[0].input }] }),
        new ToolMessage({ tool_call_id: turn.content[0].id, content: "Error: Path must be …", status: "error" }),
      ]);
      const result = fake.requests[0].body.messages.at(-1).content[0];
      assert.equal(result.type, "tool_result");
      assert.equal(result.is_error, undefined, "if this fails, @langchain/anthropic now carries is_error: an adapter becomes possible");
    } finally {
      await fake.close();
    }
  });
});
