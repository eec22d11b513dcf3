// memory-tool-wasm/anthropic: a MemoryTool as the official SDK's runnable memory tool, so that
// `client.beta.messages.toolRunner({ tools: [memoryTool(memory)], … })` runs it (in a browser
// too). `@anthropic-ai/sdk` is an optional peer dependency: only this entry imports it. This is
// the ESM entry; `require` gets anthropic.cjs, with the SDK's CommonJS ToolError.

// The one SDK module used at run time: a class with no imports, safe in any browser.
import { ToolError } from "@anthropic-ai/sdk/lib/tools/ToolError";
import { anthropicEntry } from "./anthropic-tool.js";

export const { memoryTool, sdkHandlers } = anthropicEntry(ToolError);
