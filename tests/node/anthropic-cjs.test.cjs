// memory-tool-wasm/anthropic from CommonJS: `require` of the SDK and of this package, the SDK's
// real tool runner, and the tool_result it sends back. The runner tells a ToolError by
// `instanceof` against its own (here CommonJS) class; any other thrown value gets "Error: " in
// front of its message. So an error's text must arrive exactly as the core wrote it, with
// is_error, whichever module system loaded the SDK.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { existsSync } = require("node:fs");
const path = require("node:path");

const built = existsSync(path.join(__dirname, "../../pkg/memory_tool_wasm_bg.wasm"));
const run = built ? test : test.skip;
if (!built) console.error("\n*** anthropic-cjs.test.cjs: pkg/ is not built; SKIPPING. ***\n");

/** A fetch that answers the runner's requests with `turns` in order, and records each request body. */
function scriptedFetch(turns) {
  const bodies = [];
  const fetch = async (_url, init = {}) => {
    bodies.push(JSON.parse(init.body));
    const turn = turns[bodies.length - 1];
    return new Response(JSON.stringify(turn), {
      status: turn ? 200 : 400,
      headers: { "content-type": "application/json", "request-id": `req_${bodies.length}` },
    });
  };
  return { fetch, bodies };
}

const message = (id, content, stop_reason) => ({
  id,
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

run("an error tool_result keeps the core's exact text and is_error under require()", async () => {
  const { Anthropic } = require("@anthropic-ai/sdk");
  const { memoryTool } = require("memory-tool-wasm/anthropic");
  const { MemoryTool } = require("memory-tool-wasm");
  const memory = await MemoryTool.open({ storage: "memory" });
  const { fetch, bodies } = scriptedFetch([
    message(
      "msg_1",
      [
        { type: "tool_use", id: "toolu_bad", name: "memory", input: { command: "view", path: "/etc/passwd" } },
        { type: "tool_use", id: "toolu_missing", name: "memory", input: { command: "view", path: "/memories/nope.md" } },
        { type: "tool_use", id: "toolu_ok", name: "memory", input: { command: "create", path: "/memories/a.md", file_text: "hi" } },
      ],
      "tool_use",
    ),
    message("msg_2", [{ type: "text", text: "done" }], "end_turn"),
  ]);
  const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
  await client.beta.messages.toolRunner({
    model: "claude-sonnet-4-5",
    max_tokens: 100,
    messages: [{ role: "user", content: "remember" }],
    tools: [memoryTool(memory)],
  });
  const results = bodies[1].messages.at(-1).content;
  const expected = [
    { tool_use_id: "toolu_bad", ...(await memory.execute({ command: "view", path: "/etc/passwd" })) },
    { tool_use_id: "toolu_missing", ...(await memory.execute({ command: "view", path: "/memories/nope.md" })) },
  ];
  for (const [i, want] of expected.entries()) {
    assert.equal(want.isError, true);
    assert.equal(results[i].tool_use_id, want.tool_use_id);
    assert.equal(results[i].is_error, true);
    assert.equal(results[i].content, want.content, "no extra `Error: ` in front of the core's text");
    assert.doesNotMatch(results[i].content, /^Error: Error: /);
  }
  assert.equal(results[2].tool_use_id, "toolu_ok");
  assert.notEqual(results[2].is_error, true);
  assert.equal(results[2].content, "File created successfully at: /memories/a.md");
  memory.close();
});
