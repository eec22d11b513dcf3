// Type declarations for memory-tool-wasm/ai-sdk (hand-written; ai-sdk.js beside them is the
// code). The tool type comes from `ai`, this entry's peer dependency with `@ai-sdk/anthropic`;
// `answerToolCall`'s parameters are what `@ai-sdk/react`'s `useChat` (and `ai`'s `Chat`) give.

import type { Tool } from "ai";
import type { MemoryTool, ToolResultContent } from "./index.js";

/** What `memoryTool` and `answerToolCall` need of a `MemoryTool`: its `run` (tool_use block in, tool_result out). */
export type MemoryToolLike = Pick<MemoryTool, "run">;

/** The options of `memoryTool`. */
export interface MemoryToolOptions {
  /**
   * An `@ai-sdk/anthropic` provider: `anthropic` (the default instance) or one from
   * `createAnthropic({ … })`. Its `tools.memory_20250818` builds the definition sent to the API.
   * Typed as any object, not as `ai`'s `Tool`: npm may install `@ai-sdk/anthropic` with a copy
   * of `@ai-sdk/provider-utils` other than `ai`'s, whose `Tool` types then do not match.
   */
  anthropic: { tools: { memory_20250818: (...args: any[]) => object } };
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

/**
 * The memory tool for a server whose page runs the memory, for
 * `tools: { memory: clientMemoryTool({ anthropic }) }` with `streamText` (then
 * `toUIMessageStreamResponse()`): the provider's `memory_20250818` definition with no `execute`,
 * so each call goes to the page's `onToolCall`, every input let through as the model sent it.
 * The page's answer (`answerToolCall`) reaches the model as the core wrote it: errors with
 * `is_error`, image views as image content when the server converts the chat with
 * `convertToModelMessages(messages, { tools })`. The key name must be `memory`. Throws
 * `MemoryToolError` `INVALID_OPTIONS` if `anthropic` is not a provider.
 */
export function clientMemoryTool(options: MemoryToolOptions): Tool<unknown, ToolResultContent>;

/** A tool call as useChat's `onToolCall` gives it (`{ toolCall }`). */
export interface ToolCallLike {
  toolCallId: string;
  toolName: string;
  input: unknown;
  dynamic?: boolean;
}

/** useChat's (or `new Chat(…)`'s) `addToolOutput`, as `answerToolCall` calls it. */
export type AddToolOutput = (
  output:
    | { tool: "memory"; toolCallId: string; output: ToolResultContent }
    | { tool: "memory"; toolCallId: string; state: "output-error"; errorText: string },
) => void | PromiseLike<void>;

/**
 * Answers a memory tool call in the page, from useChat's `onToolCall`:
 * `onToolCall: ({ toolCall }) => answerToolCall(memory, toolCall, addToolOutput)`. Runs it with
 * `memory.run` (versions record the call's `toolCallId`) and hands the result to `addToolOutput`
 * without awaiting it (awaiting it inside `onToolCall` would deadlock useChat): the content as
 * the output, an error as `state: "output-error"` with its text. Resolves to `false`, doing
 * nothing, for another tool's call. `memory` may be the promise `MemoryTool.open(…)` gives.
 * Throws `MemoryToolError` `INVALID_OPTIONS` for arguments that are not these.
 */
export function answerToolCall(
  memory: MemoryToolLike | PromiseLike<MemoryToolLike>,
  toolCall: ToolCallLike,
  addToolOutput: AddToolOutput,
): Promise<boolean>;
