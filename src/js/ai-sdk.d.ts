// Type declarations for memory-tool-wasm/ai-sdk (hand-written; ai-sdk.js beside them is the
// code). The tool type comes from `ai`, this entry's peer dependency with `@ai-sdk/anthropic`.

import type { Tool } from "ai";
import type { MemoryTool, ToolResultContent } from "./index.js";

/** What `memoryTool` needs of a `MemoryTool`: its `run` (tool_use block in, tool_result out). */
export type MemoryToolLike = Pick<MemoryTool, "run">;

/** The options of `memoryTool`. */
export interface MemoryToolOptions {
  /**
   * An `@ai-sdk/anthropic` provider: `anthropic` (the default instance) or one from
   * `createAnthropic({ … })`. Its `tools.memory_20250818` builds the definition sent to the API.
   */
  anthropic: { tools: { memory_20250818: (...args: any[]) => Tool<any, any> } };
}

/** What the tool's `execute` gives: the result as the core wrote it. */
export interface MemoryToolOutput {
  content: ToolResultContent;
  isError: boolean;
}

/**
 * The AI SDK memory tool over `memory`, for `tools: { memory: memoryTool(memory, { anthropic }) }`
 * with `generateText`, `streamText` or an agent. Every input reaches the core as the model sent it
 * (the core's texts answer unusual inputs, not a schema's); results reach the model as the core
 * wrote them, with `is_error` for errors and image content for image views; the call's
 * `toolCallId` is recorded in the versions' `created_by`. Throws `MemoryToolError`
 * `INVALID_OPTIONS` if `memory` is not a MemoryTool (a promise, say) or `anthropic` is not a provider.
 */
export function memoryTool(memory: MemoryToolLike, options: MemoryToolOptions): Tool<unknown, MemoryToolOutput>;

/**
 * The tool output the provider sends for a result: `text`, `error-text` (sent with
 * `is_error: true`) or `content` with text and `image-data` parts.
 */
export function modelOutput(output: MemoryToolOutput):
  | { type: "text" | "error-text"; value: string }
  | {
      type: "content";
      value: Array<{ type: "text"; text: string } | { type: "image-data"; data: string; mediaType: string }>;
    };
