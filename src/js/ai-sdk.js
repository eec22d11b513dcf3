// memory-tool-wasm/ai-sdk: a MemoryTool as the Vercel AI SDK's Anthropic memory tool. Two ways:
// `memoryTool(memory, { anthropic })` runs the tool where the agent runs (`generateText`,
// `streamText`, agents, in a page or in Node); `clientMemoryTool({ anthropic })` declares it on
// a server without running it, so the AI SDK hands each call to the page (useChat's
// `onToolCall`), where `answerToolCall(memory, toolCall, addToolOutput)` runs it against the
// user's own memory and gives the result back. `ai` and `@ai-sdk/anthropic` are optional peer
// dependencies: only this entry needs them (the provider instance is passed in; `ai` gives the
// input schema that lets every input through). Nothing here loads the wasm core: a server that
// only declares the tool never loads it.

import { jsonSchema } from "ai";
import { MemoryToolError } from "./errors.js";

/** @typedef {import("./index.js").ToolResultContent} ToolResultContent */
/** @typedef {import("./ai-sdk.js").MemoryToolOutput} MemoryToolOutput */

/**
 * Every input as the model sent it: the core checks each parameter itself, with its own texts
 * (docs/TOOL.md#input), where the provider's zod schema would answer with a zod dump, refuse a
 * `str_replace` with no `new_str` (a delete here) and never reach the core.
 */
const ANY_INPUT = jsonSchema({ type: "object", additionalProperties: true });

/**
 * The AI SDK tool over `memory`: the provider's `memory_20250818` definition (so the API gets
 * the memory tool, not a custom one), every input run by `memory.run` under the call's
 * `toolCallId` (recorded in the versions' `created_by`), and results sent to the model as the
 * core wrote them: a text, `is_error` with an error's text, an image view as image content.
 * @param {import("./ai-sdk.js").MemoryToolLike} memory a MemoryTool (from `await MemoryTool.open(…)`)
 * @param {import("./ai-sdk.js").MemoryToolOptions} options `{ anthropic }`: an `@ai-sdk/anthropic` provider
 * @returns {import("ai").Tool<unknown, MemoryToolOutput>}
 */
export function memoryTool(memory, options) {
  const value = /** @type {{ run?: unknown, then?: unknown } | null | undefined} */ (memory);
  if (typeof value?.run !== "function") {
    const hint = typeof value?.then === "function" ? " It got a promise: pass `await MemoryTool.open(…)`." : "";
    throw invalid("memoryTool(memory, { anthropic })", `\`memory\` must be a MemoryTool (from \`await MemoryTool.open(…)\`).${hint}`);
  }
  const factory = memoryFactory(options, "memoryTool(memory, { anthropic })");
  const run = /** @type {(block: object) => Promise<{ content: ToolResultContent, is_error?: boolean }>} */ (value.run);
  const tool = factory({
    /**
     * @param {unknown} input
     * @param {{ toolCallId?: string }} call
     * @returns {Promise<MemoryToolOutput>}
     */
    execute: async (input, call) => {
      const block = await run.call(memory, { type: "tool_use", id: call.toolCallId, name: "memory", input });
      return { content: block.content, isError: block.is_error === true };
    },
    toModelOutput: (/** @type {{ output: MemoryToolOutput }} */ { output }) => modelOutput(output),
  });
  return { ...tool, inputSchema: ANY_INPUT };
}

/**
 * A result as the AI SDK's tool output the provider turns into the tool_result it sends: text
 * as is, an error as `error-text` (sent with `is_error: true`), content blocks as content parts
 * (an image as `image-data`, sent back as the same base64 image block).
 * @param {MemoryToolOutput} output
 * @returns {ReturnType<typeof import("./ai-sdk.js").modelOutput>}
 */
export function modelOutput(output) {
  const { content, isError } = output;
  if (typeof content === "string") return { type: isError ? "error-text" : "text", value: content };
  /** @type {Array<{ type: "text", text: string } | { type: "image-data", data: string, mediaType: string }>} */
  const parts = content.map((block) =>
    block.type === "image"
      ? { type: /** @type {const} */ ("image-data"), data: block.source.data, mediaType: block.source.media_type }
      : { type: /** @type {const} */ ("text"), text: block.text },
  );
  // The core's errors are texts; were one ever blocks, its text still goes as an error.
  if (isError) return { type: "error-text", value: textOf(content) };
  return { type: "content", value: parts };
}

/**
 * The memory tool for a server whose page runs the memory: the provider's `memory_20250818`
 * definition with no `execute`, so `streamText` (or `generateText`) stops at each memory call
 * and the UI stream hands it to the page, where `answerToolCall` runs it. Every input is let
 * through as the model sent it (the page's core answers it with its own texts, where the
 * provider's zod schema would answer a `str_replace` with no `new_str` or an `insert_line` of
 * `"1"` with a schema dump, on the server, never reaching the page); the page's answer reaches
 * the model as the core wrote it: an error with `is_error` (useChat's `output-error`), an image
 * view as image content (with `convertToModelMessages(messages, { tools })`, which lets this
 * tool turn the page's output into the tool_result).
 * @param {import("./ai-sdk.js").MemoryToolOptions} options `{ anthropic }`: an `@ai-sdk/anthropic` provider
 * @returns {import("ai").Tool<unknown, ToolResultContent>}
 */
export function clientMemoryTool(options) {
  const factory = memoryFactory(options, "clientMemoryTool({ anthropic })");
  const tool = factory({
    toModelOutput: (/** @type {{ output: unknown }} */ { output }) => contentOutput(output),
  });
  return { ...tool, inputSchema: ANY_INPUT };
}

/**
 * Answers a memory tool call in the page, for useChat's (or `new Chat`'s) `onToolCall`: runs it
 * with `memory.run` (the versions record the call's `toolCallId`) and gives the result to
 * `addToolOutput`: the content as the output, or an error as `state: "output-error"` with its
 * text, which the server sends to the model with `is_error: true`. `addToolOutput` is called,
 * not awaited: useChat runs `onToolCall` inside the job that `addToolOutput` queues behind, so
 * awaiting it there would never finish. Resolves to whether the call was the memory tool's
 * (`false`, with nothing done, for any other tool), so other client tools can follow.
 * @param {import("./ai-sdk.js").MemoryToolLike | PromiseLike<import("./ai-sdk.js").MemoryToolLike>} memory
 *   a MemoryTool, or the promise `MemoryTool.open(…)` gives
 * @param {import("./ai-sdk.js").ToolCallLike} toolCall `onToolCall`'s `toolCall`
 * @param {import("./ai-sdk.js").AddToolOutput} addToolOutput useChat's `addToolOutput`
 * @returns {Promise<boolean>}
 */
export async function answerToolCall(memory, toolCall, addToolOutput) {
  const call = "answerToolCall(memory, toolCall, addToolOutput)";
  if (typeof addToolOutput !== "function") throw invalid(call, "`addToolOutput` must be useChat's `addToolOutput` function.");
  const given = /** @type {{ toolName?: unknown, toolCallId?: unknown, input?: unknown } | null | undefined} */ (toolCall);
  if (typeof given !== "object" || given === null || typeof given.toolCallId !== "string") {
    throw invalid(call, "`toolCall` must be the `toolCall` that `onToolCall` gets ({ toolCallId, toolName, input }).");
  }
  if (given.toolName !== "memory") return false;
  const tool = /** @type {{ run?: unknown } | null | undefined} */ (await memory);
  if (typeof tool?.run !== "function") throw invalid(call, "`memory` must be a MemoryTool (or the promise `MemoryTool.open(…)` gives).");
  const run = /** @type {(block: object) => Promise<{ content: ToolResultContent, is_error?: boolean }>} */ (tool.run);
  const toolCallId = given.toolCallId;
  const block = await run.call(tool, { type: "tool_use", id: toolCallId, name: "memory", input: given.input });
  if (block.is_error === true) {
    void addToolOutput({ tool: "memory", toolCallId, state: "output-error", errorText: textOf(block.content) });
  } else {
    void addToolOutput({ tool: "memory", toolCallId, output: block.content });
  }
  return true;
}

/**
 * The tool output the provider sends for what the page gave (`answerToolCall`'s output: a
 * result's content): a text as is, content blocks as content parts (an image as `image-data`).
 * Anything else (a page that answered with its own shape) goes as the AI SDK would send it.
 * @param {unknown} output
 * @returns {ReturnType<typeof import("./ai-sdk.js").modelOutput> | { type: "json", value: any }}
 */
function contentOutput(output) {
  if (typeof output === "string" || (Array.isArray(output) && output.every(isContentBlock))) {
    return modelOutput({ content: /** @type {ToolResultContent} */ (output), isError: false });
  }
  return { type: "json", value: output === undefined ? null : output };
}

/**
 * Whether `value` is a text or base64 image block, as a result's content holds.
 * @param {unknown} value
 */
function isContentBlock(value) {
  const block = /** @type {{ type?: unknown, text?: unknown, source?: { type?: unknown, data?: unknown, media_type?: unknown } } | null} */ (value);
  if (typeof block !== "object" || block === null) return false;
  if (block.type === "text") return typeof block.text === "string";
  return block.type === "image" && block.source?.type === "base64" && typeof block.source.data === "string" && typeof block.source.media_type === "string";
}

/**
 * A result's text: the content itself, or its text blocks joined (the core's errors are texts).
 * @param {ToolResultContent} content
 */
function textOf(content) {
  return typeof content === "string" ? content : content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/**
 * The provider's `tools.memory_20250818` factory, or `INVALID_OPTIONS`.
 * @param {unknown} options
 * @param {string} call
 * @returns {any} the factory (typed by the provider, which is passed in untyped)
 */
function memoryFactory(options, call) {
  const anthropic = /** @type {{ anthropic?: any } | undefined} */ (options)?.anthropic;
  const factory = anthropic?.tools?.memory_20250818;
  if (typeof factory !== "function") {
    throw invalid(
      call,
      "`options.anthropic` must be an @ai-sdk/anthropic provider (`anthropic` or `createAnthropic(…)`), whose `tools.memory_20250818` builds the tool.",
    );
  }
  return factory;
}

/**
 * @param {string} call
 * @param {string} message
 */
function invalid(call, message) {
  return new MemoryToolError("INVALID_OPTIONS", `${call}: ${message}`);
}
