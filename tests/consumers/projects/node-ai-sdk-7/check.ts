// The declarations of `memory-tool-wasm/ai-sdk` against `ai` 7's own types: the tool goes in
// `tools` as the README shows, and its output type is what the adapter declares.
import { generateText, stepCountIs, type Tool } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { MemoryTool } from "memory-tool-wasm";
import { clientMemoryTool, memoryTool, type MemoryToolOutput } from "memory-tool-wasm/ai-sdk";
import type { ToolResultContent } from "memory-tool-wasm";

const anthropic = createAnthropic({ apiKey: "test" });
const memory = await MemoryTool.open({ storage: "memory" });
const tool: Tool<unknown, MemoryToolOutput> = memoryTool(memory, { anthropic });
const result = await generateText({ model: anthropic("claude-sonnet-4-5"), prompt: "hi", tools: { memory: tool }, stopWhen: stepCountIs(3) });
const text: string = result.text;
void text;
// The tool a server declares for the page: the same definition, its output a result's content.
const declared: Tool<unknown, ToolResultContent> = clientMemoryTool({ anthropic });
void declared;
