// The SDK runner's call context reaches the history: versions written through memoryTool
// record the call's tool_use id.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runRunnableTool } from "@anthropic-ai/sdk/lib/tools/BetaRunnableTool";
import { MemoryTool } from "memory-tool-wasm";
import { memoryTool } from "memory-tool-wasm/anthropic";

test("versions written through the runner record the call's tool_use id", async () => {
  const memory = await MemoryTool.open({ storage: "memory" });
  const tool = memoryTool(memory);
  const input = { command: "create", path: "/memories/a.md", file_text: "hi" };
  const toolUse = { type: "tool_use", id: "toolu_from_runner", name: "memory", input };
  const outcome = await runRunnableTool(tool, input, { toolUse, toolUseBlock: toolUse });
  assert.deepEqual(outcome, { content: "File created successfully at: /memories/a.md", isError: false });
  const refused = await runRunnableTool(tool, { command: "view", path: "/etc" }, { toolUse, toolUseBlock: toolUse });
  assert.deepEqual(refused, { content: "Error: Path must be /memories or start with /memories/, got: /etc", isError: true });
  const { data } = await memory.versions.list();
  assert.deepEqual(data.map((v) => v.created_by), [{ type: "tool", tool_use_id: "toolu_from_runner" }]);
  // Without a context (called directly), the change is still the tool's.
  await tool.run({ command: "create", path: "/memories/b.md", file_text: "x" });
  const latest = (await memory.versions.list({ limit: 1 })).data[0];
  assert.deepEqual(latest.created_by, { type: "tool", tool_use_id: null });
  memory.close();
});
