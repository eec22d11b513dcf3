// memory-tool-wasm/ai-sdk: a MemoryTool as the Vercel AI SDK's Anthropic memory tool, for
// `generateText`/`streamText`/agents with `tools: { memory: memoryTool(memory, { anthropic }) }`.
// `ai` and `@ai-sdk/anthropic` are optional peer dependencies: only this entry needs them (the
// provider instance is passed in; `ai` gives the input schema that lets every input through).

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
    throw invalid(`\`memory\` must be a MemoryTool (from \`await MemoryTool.open(…)\`).${hint}`);
  }
  const anthropic = /** @type {{ anthropic?: any } | undefined} */ (options)?.anthropic;
  const factory = anthropic?.tools?.memory_20250818;
  if (typeof factory !== "function") {
    throw invalid(
      "`options.anthropic` must be an @ai-sdk/anthropic provider (`anthropic` or `createAnthropic(…)`), whose `tools.memory_20250818` builds the tool.",
    );
  }
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
  if (isError) return { type: "error-text", value: parts.map((p) => ("text" in p ? p.text : "")).join("") };
  return { type: "content", value: parts };
}

/** @param {string} message */
function invalid(message) {
  return new MemoryToolError("INVALID_OPTIONS", `memoryTool(memory, { anthropic }): ${message}`);
}
