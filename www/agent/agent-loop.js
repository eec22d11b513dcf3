// One user message through the official SDK's tool runner: Claude (or the recorded model)
// answers, streaming; each memory tool call runs in this page through `memoryTool(memory)`;
// the runner sends the results back and goes on until the model stops using tools. The panel
// hears everything as it happens through `AgentEvents`.
//
// A long conversation stays within the context window two ways (docs: context editing and
// compaction), and memory keeps what must survive both:
// - context editing (`context_management`, applied by the API before the model reads a request):
//   old memory tool results are cleared, the latest few kept; what they showed is still in
//   memory, where the model can view it again;
// - compaction (the SDK tool runner's `compactBeforeNextTurn()`): once a request's input passes
//   `compactAt` tokens, the runner asks the API for a summary after the turn, and the summary
//   stands in for the messages before it from then on.

/**
 * What the panel hears during one run. `index` is the content block's index in its message.
 * @typedef {object} AgentEvents
 * @property {(turn: number) => void} onTurnStart                a request went out (1, 2, …)
 * @property {(index: number) => void} onTextStart
 * @property {(index: number, delta: string) => void} onTextDelta
 * @property {(index: number, block: { id: string, name: string }) => void} onToolUseStart
 * @property {(index: number, partialJson: string) => void} onToolInputDelta
 * @property {(block: { id: string, name: string, input: unknown }) => void} onToolUse    its input is complete
 * @property {(message: any) => void} onMessage                 a whole assistant message
 * @property {(toolUseIds: string[]) => void} onToolsRunning    the runner is running these calls
 * @property {(result: { tool_use_id: string, content: unknown, is_error?: boolean }) => void} onToolResult
 * @property {(edits: ReadonlyArray<{ type: string, cleared_tool_uses?: number, cleared_input_tokens?: number }>) => void} [onContextEdited]
 *   the API cleared parts of this request's context before the model read it
 * @property {(summary: string | null) => void} [onCompacted]   the conversation so far was replaced by a summary
 */

/**
 * Context editing for the live agent: when a request's input passes 30,000 tokens, the API
 * clears the oldest memory tool results (at least 5,000 tokens' worth), keeping the 4 latest
 * tool uses; the calls themselves stay, so the model still sees what it asked for and can view
 * a file again. Memory is this agent's only tool, so `exclude_tools: ["memory"]` (what an agent
 * with other tools would set, so that only their results are cleared) would clear nothing here.
 * @type {{ edits: Array<Record<string, unknown>> }}
 */
export const CONTEXT_MANAGEMENT = {
  edits: [
    {
      type: "clear_tool_uses_20250919",
      trigger: { type: "input_tokens", value: 30000 },
      keep: { type: "tool_uses", value: 4 },
      clear_at_least: { type: "input_tokens", value: 5000 },
    },
  ],
};

/** Above this many input tokens in one request, the runner compacts the conversation after the turn. */
export const COMPACT_AT = 100000;

/** The betas context editing and the tool runner's compaction need. */
export const LONG_RUNNING_BETAS = ["context-management-2025-06-27", "compact-2026-09-04"];

/**
 * The parameters of one run.
 * @typedef {object} RunParams
 * @property {any} client          an `Anthropic` client
 * @property {any} tool            `memoryTool(memory)`
 * @property {string} model
 * @property {string | null} system
 * @property {any[]} messages      the conversation so far, ending with the new user message
 * @property {AbortSignal} signal
 * @property {AgentEvents} events
 * @property {number} [maxTokens]
 * @property {number} [maxIterations]
 * @property {{ edits: Array<Record<string, unknown>> }} [contextManagement]  sent with every request
 * @property {number} [compactAt]     compact once a request's input tokens reach this (none: never)
 * @property {string[]} [betas]
 */

/**
 * Runs the tool loop for the last user message of `messages`.
 * Resolves with the whole conversation afterwards; on an error or abort, rejects with the error,
 * whose `history` property holds the conversation as far as it is safe to continue from.
 * @param {RunParams} params
 * @returns {Promise<{ messages: any[], requests: number, toolCalls: number }>}
 */
export async function runAgent({
  client,
  tool,
  model,
  system,
  messages,
  signal,
  events,
  maxTokens = 2048,
  maxIterations = 16,
  contextManagement,
  compactAt,
  betas,
}) {
  // `thread: false`: every request carries the whole history, as the plain Messages API does,
  // so the conversation lives here (one runner per user message) and works with any model.
  const runner = client.beta.messages.toolRunner(
    {
      model,
      max_tokens: maxTokens,
      ...(system ? { system } : {}),
      messages,
      tools: [tool],
      stream: true,
      thread: false,
      max_iterations: maxIterations,
      ...(contextManagement ? { context_management: contextManagement } : {}),
      ...(betas?.length ? { betas } : {}),
    },
    { signal },
  );
  let requests = 0;
  let toolCalls = 0;
  try {
    for await (const stream of runner) {
      requests += 1;
      events.onTurnStart(requests);
      stream.on("streamEvent", (/** @type {any} */ event) => {
        if (event.type === "content_block_start") {
          const block = event.content_block;
          if (block.type === "text") events.onTextStart(event.index);
          else if (block.type === "tool_use") events.onToolUseStart(event.index, { id: block.id, name: block.name });
        } else if (event.type === "content_block_delta") {
          if (event.delta.type === "text_delta") events.onTextDelta(event.index, event.delta.text);
          else if (event.delta.type === "input_json_delta") events.onToolInputDelta(event.index, event.delta.partial_json);
        }
      });
      stream.on("contentBlock", (/** @type {any} */ block) => {
        if (block.type === "tool_use") events.onToolUse(block);
      });
      const message = await stream.finalMessage();
      events.onMessage(message);
      const applied = message.context_management?.applied_edits ?? [];
      if (applied.length > 0) events.onContextEdited?.(applied);
      const compaction = message.content.find((/** @type {any} */ b) => b.type === "compaction");
      if (compaction) {
        // The runner has put the summary in place of the messages it covers.
        events.onCompacted?.(compaction.content ?? null);
        continue;
      }
      if (compactAt !== undefined && inputTokens(message.usage) >= compactAt) runner.compactBeforeNextTurn();
      const uses = message.content.filter((/** @type {any} */ b) => b.type === "tool_use");
      if (uses.length > 0 && message.stop_reason === "tool_use") {
        events.onToolsRunning(uses.map((/** @type {any} */ b) => b.id));
        // The runner caches this response and sends it with the next request.
        const response = await runner.generateToolResponse(signal);
        for (const result of response?.content ?? []) {
          toolCalls += 1;
          events.onToolResult(result);
        }
      }
    }
  } catch (error) {
    /** @type {any} */ (error).history = safeHistory(runner.params.messages);
    throw error;
  }
  return { messages: runner.params.messages, requests, toolCalls };
}

/**
 * All the input tokens of a request: fresh, read from the cache, and written to it.
 * @param {any} usage
 */
function inputTokens(usage) {
  return (usage?.input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0);
}

/**
 * The conversation cut back to a point a next request can continue from: no assistant
 * message whose tool calls have no results after it.
 * @param {any[]} messages
 */
export function safeHistory(messages) {
  const out = [...messages];
  while (out.length > 0) {
    const last = out[out.length - 1];
    const calls = last.role === "assistant" && Array.isArray(last.content) && last.content.some((/** @type {any} */ b) => b.type === "tool_use");
    if (!calls) break;
    out.pop();
  }
  return out;
}
