// The code of memory-tool-wasm/anthropic, given the SDK's ToolError class: the entry that
// imports it (anthropic.js, ESM) and the one that requires it (anthropic.cjs, CommonJS) each
// hand over the class of their own module system. The tool runner tells a ToolError by
// `instanceof` against its own copy, so the class must be the one the runner was loaded with;
// any other thrown value gets "Error: " put in front of its message.

import { MemoryToolError } from "./errors.js";

/** @typedef {import("./anthropic.js").MemoryToolExtraProps} MemoryToolExtraProps */
/** @typedef {import("./anthropic.js").SdkMemoryTool} SdkMemoryTool */
/** @typedef {import("./anthropic.js").SdkMemoryHandlers} SdkMemoryHandlers */
/** @typedef {import("./index.js").ToolResultContent} ToolResultContent */
/** @typedef {import("./anthropic.js").MemoryToolLike} Executes */

/** The memory tool's commands, as the SDK's `betaMemoryTool` handlers are keyed. */
const COMMANDS = /** @type {const} */ (["view", "create", "str_replace", "insert", "delete", "rename"]);

/**
 * The entry's functions, throwing `ToolError` (the SDK's class, as loaded by the entry).
 * @param {new (content: any) => Error} ToolError
 * @returns {{ memoryTool: (memory: Executes, extraProps?: MemoryToolExtraProps) => SdkMemoryTool,
 *   sdkHandlers: (memory: Executes) => SdkMemoryHandlers }}
 */
export function anthropicEntry(ToolError) {
  return {
    memoryTool: (memory, extraProps) => memoryToolOf(ToolError, memory, extraProps),
    sdkHandlers: (memory) => sdkHandlersOf(ToolError, memory),
  };
}

/**
 * The SDK's runnable memory tool over `memory`: the `memory_20250818` definition (with
 * `extraProps` such as `cache_control`) plus the `parse` and `run` the tool runner calls. Every
 * input, whatever its command, goes to `memory.execute`; a success comes back as the result
 * (text, or an image's content blocks), an error as a `ToolError` carrying the core's exact
 * text, which the runner sends with `is_error: true`.
 * @param {new (content: any) => Error} ToolError
 * @param {Executes} memory a MemoryTool (from `await MemoryTool.open(…)`)
 * @param {MemoryToolExtraProps} [extraProps]
 * @returns {SdkMemoryTool}
 */
function memoryToolOf(ToolError, memory, extraProps) {
  checkMemory(memory, "memoryTool");
  return {
    ...extraProps,
    type: "memory_20250818",
    name: "memory",
    // The core checks every parameter itself (docs/TOOL.md#input); the input is passed on as the model sent it.
    parse: (input) => /** @type {any} */ (input),
    // The runner passes the call's context: its tool_use id goes into the versions' created_by.
    run: (input, context) => answer(ToolError, memory, input, toolUseId(context)),
  };
}

/**
 * Handlers for the SDK's own `betaMemoryTool(handlers)`, one per command, each running the input
 * through `memory.execute` as `memoryTool` does. Prefer `memoryTool(memory)`: with these handlers
 * an unknown command is answered by the SDK (`Error: <command> not implemented`) instead of by
 * the core. The object has no prototype, so `toString` and the like are not handlers.
 * @param {new (content: any) => Error} ToolError
 * @param {Executes} memory a MemoryTool (from `await MemoryTool.open(…)`)
 * @returns {SdkMemoryHandlers}
 */
function sdkHandlersOf(ToolError, memory) {
  checkMemory(memory, "sdkHandlers");
  const handlers = /** @type {Record<string, (input: unknown) => Promise<ToolResultContent>>} */ (
    Object.create(null)
  );
  for (const command of COMMANDS) handlers[command] = (input) => answer(ToolError, memory, input);
  return /** @type {SdkMemoryHandlers} */ (/** @type {unknown} */ (handlers));
}

/**
 * Runs one tool input; resolves with the result's content, or throws a `ToolError` with the
 * error's exact content (the runner then sends it with `is_error: true`). With the call's
 * `tool_use` id (and a MemoryTool's `run`), the versions it writes record that id.
 * @param {new (content: any) => Error} ToolError
 * @param {Executes} memory
 * @param {unknown} input
 * @param {string | undefined} [id]
 * @returns {Promise<any>}
 */
async function answer(ToolError, memory, input, id) {
  const runs = /** @type {{ run?: unknown }} */ (memory);
  if (id !== undefined && typeof runs.run === "function") {
    const block = await /** @type {(b: object) => Promise<{ content: any, is_error?: boolean }>} */ (runs.run).call(
      memory,
      { type: "tool_use", id, name: "memory", input },
    );
    if (block.is_error === true) throw new ToolError(block.content);
    return block.content;
  }
  const { content, isError } = await memory.execute(input);
  if (isError) throw new ToolError(/** @type {any} */ (content));
  return content;
}

/**
 * The `tool_use` id of a runner's call context, if it has one.
 * @param {unknown} context
 * @returns {string | undefined}
 */
function toolUseId(context) {
  const id = /** @type {{ toolUse?: { id?: unknown } } | undefined} */ (context)?.toolUse?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * Throws `INVALID_OPTIONS` unless `memory` can execute tool inputs: caught when the tool is
 * built, not when the model first calls it.
 * @param {unknown} memory
 * @param {string} caller
 */
function checkMemory(memory, caller) {
  const value = /** @type {{ execute?: unknown, then?: unknown } | null | undefined} */ (memory);
  if (typeof value?.execute === "function") return;
  const hint =
    typeof value?.then === "function"
      ? " It got a promise: pass `await MemoryTool.open(…)`."
      : "";
  throw new MemoryToolError(
    "INVALID_OPTIONS",
    `${caller}(memory): \`memory\` must be a MemoryTool (from \`await MemoryTool.open(…)\`).${hint}`,
  );
}
