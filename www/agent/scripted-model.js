// The recorded model: what answers when no API key is given. Two recorded conversations of an
// assistant with memory (see recorded-script.js: the first learns about a trip and edits its
// notes, including one mistake it recovers from; the second, a fresh conversation, recalls
// them), and a `fetch` that plays them back to the official SDK as the Messages API would: whole
// JSON, or server-sent events cut into small pieces, so the SDK's real tool runner streams,
// runs the memory tool in this page and sends the results back, all offline. Each turn is
// worked out from the tool results in the request, so what the model says follows them.
//
// A user message is the recording's line only when it is, word for word, the line that comes
// next in the script; anything else the visitor typed gets `ownMessage`, which takes no fact
// from it (so the recording's facts never answer a message that says otherwise).

import { nextTurn, ownMessage } from "./recorded-script.js";

export { recordedConversations, SCENARIOS, TYPED_NOTE } from "./recorded-script.js";

/** @typedef {import("./recorded-script.js").Conversation} Conversation */
/** @typedef {import("./recorded-script.js").Turn} Turn */

/** The `model` the recorded messages name. */
export const RECORDED_MODEL = "recorded-demo-model";

/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaMessage} BetaMessage */
/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaContentBlock} BetaContentBlock */
/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaRawMessageStreamEvent} BetaRawMessageStreamEvent */

/**
 * The assistant message of one recorded turn, as the Messages API returns it: every field of
 * the SDK's `BetaMessage`.
 * @param {Turn} turn
 * @param {string} id   message id
 * @param {string} useIdBase  prefix of the tool_use ids
 * @returns {BetaMessage}
 */
function assistantMessage(turn, id, useIdBase) {
  /** @type {BetaContentBlock[]} */
  const content = [];
  if (turn.text) content.push({ type: "text", text: turn.text, citations: null });
  (turn.tools ?? []).forEach((input, i) => {
    content.push({ type: "tool_use", id: `${useIdBase}_${i + 1}`, name: "memory", input });
  });
  const words = (turn.text ?? "").split(/\s+/).length;
  return {
    id,
    type: "message",
    role: "assistant",
    model: RECORDED_MODEL,
    container: null,
    content,
    context_management: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: turn.tools?.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      cache_creation: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      fallback_credit: null,
      inference_geo: null,
      input_tokens: 0,
      iterations: null,
      output_tokens: words + 20 * (turn.tools?.length ?? 0),
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: "standard",
      speed: null,
    },
  };
}

/**
 * The conversation as the recorded model reads it: one entry per exchange (a user message that
 * is not tool results), with that message's text and the tool results of every assistant turn
 * since, in the order of that turn's tool_use blocks. The SDK's runner sends the whole history
 * each time (`thread: false`), so no state is kept between requests.
 * @param {Array<{ role: string, content: unknown }>} messages
 * @returns {Array<{ text: string, turns: Array<import("./recorded-script.js").Result[]> }>}
 */
export function exchangesOf(messages) {
  /** @type {Array<{ text: string, turns: Array<import("./recorded-script.js").Result[]> }>} */
  const exchanges = [];
  /** @type {string[] | null} tool_use ids of the last assistant turn, waiting for results */
  let pending = null;
  for (const message of messages) {
    if (message.role === "assistant") {
      const blocks = Array.isArray(message.content) ? message.content : [];
      pending = blocks.filter((b) => b && b.type === "tool_use").map((b) => b.id);
    } else if (isToolResults(message.content)) {
      const results = /** @type {any[]} */ (message.content);
      const byId = new Map(results.map((r) => [r.tool_use_id, { text: resultText(r.content), isError: r.is_error === true }]));
      exchanges[exchanges.length - 1]?.turns.push((pending ?? []).map((id) => byId.get(id) ?? { text: "(no result)", isError: true }));
      pending = null;
    } else {
      exchanges.push({ text: userText(message.content), turns: [] });
      pending = null;
    }
  }
  return exchanges;
}

/** A user message's text (a string, or its text blocks). @param {unknown} content */
function userText(content) {
  return resultText(content).trim();
}

/**
 * How many of `conversation`'s lines `messages` has played, in order: a user message counts
 * when it is, word for word, the next line of the script.
 * @param {Conversation} conversation
 * @param {Array<{ role: string, content: unknown }>} messages
 */
export function playedLines(conversation, messages) {
  let played = 0;
  for (const { text } of exchangesOf(messages)) {
    if (played < conversation.exchanges.length && text === conversation.exchanges[played].user.trim()) played += 1;
  }
  return played;
}

/** @param {unknown} content a tool_result's content: text, or text blocks */
function resultText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (b && b.type === "text" ? String(b.text) : "")).join("");
  return "";
}

/** @param {unknown} content */
function isToolResults(content) {
  return Array.isArray(content) && content.length > 0 && content.every((b) => b && b.type === "tool_result");
}

/**
 * The recorded turn that answers `messages` in `conversation`. Earlier exchanges are run again
 * first, for what they left the model knowing. The last user message is the script's next line
 * only when it is that line word for word; any other message is answered by `ownMessage`.
 * `exchange` counts every user message (0 for the first); `line` is the script's line played
 * (null for a message of the visitor's own).
 * @param {Conversation} conversation
 * @param {Array<{ role: string, content: unknown }>} messages
 * @returns {{ turn: Turn, exchange: number, step: number, line: number | null }}
 */
export function recordedTurn(conversation, messages) {
  const exchanges = exchangesOf(messages);
  const current = Math.max(0, exchanges.length - 1);
  /** @type {import("./recorded-script.js").Known} */
  const known = new Map();
  let played = 0;
  /** @param {string} text */
  const isNextLine = (text) => played < conversation.exchanges.length && text === conversation.exchanges[played].user.trim();
  for (let i = 0; i < current; i++) {
    if (!isNextLine(exchanges[i].text)) continue; // the visitor's own words leave nothing known
    nextTurn(conversation.exchanges[played], exchanges[i].turns, known);
    played += 1;
  }
  const last = exchanges[current] ?? { text: "", turns: [] };
  const recorded = isNextLine(last.text);
  const exchange = recorded ? conversation.exchanges[played] : ownMessage(conversation.root, last.text);
  return { turn: nextTurn(exchange, last.turns, known), exchange: current, step: last.turns.length, line: recorded ? played : null };
}

/**
 * A `fetch` for the SDK that answers every Messages API request with the recorded turn that
 * comes next in `conversation` (or, for a message the visitor typed, `ownMessage`'s), worked
 * out from the tool results the request carries. Streamed
 * requests get server-sent events, `delayMs` apart, so the text appears word by word as it
 * would from the API. Aborting the request (the SDK's `signal`) ends the stream with an AbortError.
 * @param {Conversation} conversation
 * @param {{ delayMs?: number, conversationIndex?: number, tag?: string }} [options]
 *   `tag` goes into every tool_use id, so that the calls of one run are told from a replay's
 *   (the versions they write record the ids, and the memory browser links them to their cards)
 * @returns {typeof fetch}
 */
export function scriptedFetch(conversation, { delayMs = 18, conversationIndex = 0, tag = "" } = {}) {
  return async (_url, init = {}) => {
    const body = JSON.parse(String(init.body ?? "{}"));
    const { turn, exchange, step } = recordedTurn(conversation, Array.isArray(body.messages) ? body.messages : []);
    const id = `msg_recorded_${conversationIndex + 1}_${exchange + 1}_${step + 1}`;
    const message = assistantMessage(turn, id, `toolu_recorded_${tag ? `${tag}_` : ""}${conversationIndex + 1}_${exchange + 1}_${step + 1}`);
    const headers = { "request-id": `req_${id}` };
    if (body.stream !== true) {
      return new Response(JSON.stringify(message), { status: 200, headers: { ...headers, "content-type": "application/json" } });
    }
    return new Response(eventStream(sseEvents(message), delayMs, init.signal ?? null), {
      status: 200,
      headers: { ...headers, "content-type": "text/event-stream" },
    });
  };
}

/**
 * The server-sent events the Messages API streams for `message`: text in word-sized deltas,
 * tool inputs in a few JSON pieces.
 * @param {BetaMessage} message
 * @returns {string[]}
 */
export function sseEvents(message) {
  /** @type {BetaRawMessageStreamEvent[]} */
  const events = [
    { type: "message_start", message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } } },
  ];
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } });
      for (const piece of block.text.match(/\S+\s*|\s+/g) ?? []) {
        events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
      }
    } else if (block.type === "tool_use") {
      events.push({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      const size = Math.max(8, Math.ceil(json.length / 4));
      for (let at = 0; at < json.length; at += size) {
        events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(at, at + size) } });
      }
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({
    type: "message_delta",
    delta: { container: null, stop_details: null, stop_reason: message.stop_reason, stop_sequence: null },
    usage: {
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      fallback_credit: null,
      input_tokens: null,
      iterations: null,
      output_tokens: message.usage.output_tokens,
      output_tokens_details: null,
      server_tool_use: null,
    },
    context_management: null,
  });
  events.push({ type: "message_stop" });
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * A response body that sends one event every `delayMs` (all at once for 0).
 * @param {string[]} events
 * @param {number} delayMs
 * @param {AbortSignal | null} signal
 */
function eventStream(events, delayMs, signal) {
  const encoder = new TextEncoder();
  let next = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  return new ReadableStream({
    start(controller) {
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          try {
            controller.error(new DOMException("The request was aborted.", "AbortError"));
          } catch {
            // Already closed.
          }
        },
        { once: true },
      );
    },
    pull(controller) {
      if (signal?.aborted) return;
      if (next >= events.length) {
        controller.close();
        return;
      }
      if (delayMs <= 0) {
        controller.enqueue(encoder.encode(events.slice(next).join("")));
        next = events.length;
        return;
      }
      return new Promise((resolve) => {
        timer = setTimeout(() => {
          if (!signal?.aborted) controller.enqueue(encoder.encode(events[next++]));
          resolve(undefined);
        }, delayMs);
      });
    },
  });
}
