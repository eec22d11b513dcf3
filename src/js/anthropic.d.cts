// Type declarations for memory-tool-wasm/anthropic under `require` (anthropic.cjs; the same as
// anthropic.d.ts, which the ESM entry has). The SDK types come from `@anthropic-ai/sdk`, this
// entry's peer dependency.

import type { MemoryToolHandlers } from "@anthropic-ai/sdk/helpers/beta/memory";
import type { BetaRunnableTool } from "@anthropic-ai/sdk/lib/tools/BetaRunnableTool";
import type {
  BetaMemoryTool20250818,
  BetaMemoryTool20250818Command,
} from "@anthropic-ai/sdk/resources/beta";
import type { MemoryTool } from "./index.js";

/** What `memoryTool` and `sdkHandlers` need of a `MemoryTool`: its `execute`. */
export type MemoryToolLike = Pick<MemoryTool, "execute">;

/**
 * Further fields of the tool definition sent to the API (`cache_control`, `defer_loading`,
 * `allowed_callers`, …), as the SDK's `betaMemoryTool` takes them. `type` and `name` are fixed.
 */
export type MemoryToolExtraProps = Omit<BetaMemoryTool20250818, "type" | "name">;

/** The SDK's runnable memory tool: the definition plus the `parse` and `run` its tool runner calls. */
export type SdkMemoryTool = BetaRunnableTool<BetaMemoryTool20250818Command>;

/** Handlers for the SDK's `betaMemoryTool(handlers)`, one per command. */
export type SdkMemoryHandlers = MemoryToolHandlers;

/**
 * The SDK's runnable memory tool over `memory`, for
 * `client.beta.messages.toolRunner({ tools: [memoryTool(memory)], … })`. Every input goes to
 * `memory.execute`; an error reaches the model with the core's exact text and `is_error: true`
 * (thrown as the SDK's `ToolError`), an image view as its content blocks.
 * Throws `MemoryToolError` `INVALID_OPTIONS` if `memory` has no `execute` (a promise, say).
 */
export function memoryTool(memory: MemoryToolLike, extraProps?: MemoryToolExtraProps): SdkMemoryTool;

/**
 * Handlers for the SDK's own `betaMemoryTool(sdkHandlers(memory))`, each running its input
 * through `memory.execute` as `memoryTool` does. Prefer `memoryTool(memory)`: with these, an
 * unknown command is answered by the SDK (`Error: <command> not implemented`), not by the core.
 */
export function sdkHandlers(memory: MemoryToolLike): SdkMemoryHandlers;
