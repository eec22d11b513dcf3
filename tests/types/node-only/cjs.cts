// A CommonJS module of a Node-only project: `require` of the anthropic entry gets its .d.cts.
import anthropic = require("memory-tool-wasm/anthropic");
import type { MemoryTool } from "memory-tool-wasm";

export function toolFor(memory: MemoryTool) {
  const tool = anthropic.memoryTool(memory, { cache_control: { type: "ephemeral" } });
  const type: string | null | undefined = tool.type;
  return { tool, type };
}
