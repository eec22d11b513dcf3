// The recorded model: what answers when no API key is given. Two recorded conversations of an
// assistant with memory (the first learns about a trip and edits its notes, including one
// mistake it recovers from; the second, a fresh conversation, recalls them), and a `fetch` that
// plays them back to the official SDK as the Messages API would: whole JSON, or server-sent
// events cut into small pieces, so the SDK's real tool runner streams, runs the memory tool in
// this page and sends the results back, all offline.

/** The `model` the recorded messages name. */
export const RECORDED_MODEL = "recorded-demo-model";

/**
 * One exchange: what the user says, then the assistant's turns until it stops using tools.
 * @typedef {{ user: string, turns: Array<{ text?: string, tools?: Array<Record<string, unknown>> }> }} Exchange
 */

/**
 * A recorded conversation.
 * @typedef {{ title: string, intro: string, exchanges: Exchange[] }} Conversation
 */

/**
 * The two conversations, over a memory whose root is `root` (`/memories`, or a mounted store's
 * folder such as `/memories/travel`).
 * @param {string} [root]
 * @returns {Conversation[]}
 */
export function recordedConversations(root = "/memories") {
  const profile = `${root}/profile.md`;
  const trip = `${root}/trips/lisbon.md`;
  return [
    {
      title: "Conversation 1: the model takes notes",
      intro: "The model checks its memory, writes two notes, then edits one when your plans change.",
      exchanges: [
        {
          user: "Hi! I'm planning a trip to Lisbon from 12 to 16 May. I'm vegetarian and I always pick a window seat. Please remember that.",
          turns: [
            { text: "I'll check my memory first.", tools: [{ command: "view", path: root }] },
            {
              text: "Nothing about you yet, so I'll write down what you told me: one note about you, one about the trip.",
              tools: [
                {
                  command: "create",
                  path: profile,
                  file_text: "# About the user\n- vegetarian\n- prefers a window seat on flights\n",
                },
                {
                  command: "create",
                  path: trip,
                  file_text: "# Lisbon trip\n- dates: 12–16 May\n- status: planning\n",
                },
              ],
            },
            {
              text:
                "Noted: you're vegetarian, you like a window seat, and your Lisbon trip runs from 12 to 16 May. " +
                "I'll remember this the next time we talk.",
            },
          ],
        },
        {
          user: "Change of plan: the trip moved to 2–6 June, and I've booked the Alfama Guesthouse.",
          turns: [
            {
              text: "I'll update the trip note.",
              tools: [{ command: "str_replace", path: trip, old_str: "- dates: 12-16 May", new_str: "- dates: 2–6 June" }],
            },
            {
              text: "That text wasn't in the note. Let me read it as it is.",
              tools: [{ command: "view", path: trip }],
            },
            {
              text: "The note uses an en dash. Fixing the dates, adding the hotel, and marking the trip as booked.",
              tools: [
                { command: "str_replace", path: trip, old_str: "- dates: 12–16 May", new_str: "- dates: 2–6 June" },
                { command: "insert", path: trip, insert_line: 2, insert_text: "- hotel: Alfama Guesthouse (booked)" },
                { command: "str_replace", path: trip, old_str: "- status: planning", new_str: "- status: booked" },
              ],
            },
            { text: "Updated: Lisbon is now 2–6 June, and you're staying at the Alfama Guesthouse." },
          ],
        },
      ],
    },
    {
      title: "Conversation 2: a fresh start, and the model remembers",
      intro: "A new conversation knows nothing of the first one; only the memory files carry over.",
      exchanges: [
        {
          user: "Any dinner ideas for my first evening in Lisbon?",
          turns: [
            { text: "Let me see what I know about you and your plans.", tools: [{ command: "view", path: root }] },
            { tools: [{ command: "view", path: profile }, { command: "view", path: trip }] },
            {
              text:
                "From my notes: you arrive on 2 June and you're staying at the Alfama Guesthouse, and you're vegetarian. " +
                "For that first evening, try a vegetarian tasting menu within walking distance in Alfama, " +
                "then a sunset walk up to the Miradouro de Santa Luzia, a few minutes from your guesthouse.",
            },
          ],
        },
      ],
    },
  ];
}

/**
 * The assistant message of one recorded turn, as the Messages API returns it.
 * @param {Exchange["turns"][number]} turn
 * @param {string} id   message id
 * @param {string} useIdBase  prefix of the tool_use ids
 */
function assistantMessage(turn, id, useIdBase) {
  /** @type {any[]} */
  const content = [];
  if (turn.text) content.push({ type: "text", text: turn.text });
  (turn.tools ?? []).forEach((input, i) => {
    content.push({ type: "tool_use", id: `${useIdBase}_${i + 1}`, name: "memory", input });
  });
  const words = (turn.text ?? "").split(/\s+/).length;
  return {
    id,
    type: "message",
    role: "assistant",
    model: RECORDED_MODEL,
    content,
    stop_reason: turn.tools?.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: words + 20 * (turn.tools?.length ?? 0) },
  };
}

/**
 * The recorded model has run out of script for this conversation.
 * @param {string} id
 */
function scriptEndMessage(id) {
  return assistantMessage(
    {
      text:
        "(The recorded model has nothing more to say in this conversation. Start a new conversation, " +
        "or give your API key to talk to Claude.)",
    },
    id,
    "none",
  );
}

/**
 * Finds where a request is in the conversation: its exchange (one per user message that is not
 * tool results) and its turn within the exchange (the assistant messages since that message).
 * The SDK's runner sends the whole history each time (`thread: false`), so no state is kept.
 * @param {Array<{ role: string, content: unknown }>} messages
 */
export function positionOf(messages) {
  let exchange = -1;
  let turn = 0;
  for (const message of messages) {
    if (message.role === "assistant") turn += 1;
    else if (!isToolResults(message.content)) {
      exchange += 1;
      turn = 0;
    }
  }
  return { exchange: Math.max(0, exchange), turn };
}

/** @param {unknown} content */
function isToolResults(content) {
  return Array.isArray(content) && content.length > 0 && content.every((b) => b && b.type === "tool_result");
}

/**
 * A `fetch` for the SDK that answers every Messages API request with the recorded turn that
 * comes next in `conversation`. Streamed requests get server-sent events, `delayMs` apart, so
 * the text appears word by word as it would from the API. Aborting the request (the SDK's
 * `signal`) ends the stream with an AbortError.
 * @param {Conversation} conversation
 * @param {{ delayMs?: number, conversationIndex?: number }} [options]
 * @returns {typeof fetch}
 */
export function scriptedFetch(conversation, { delayMs = 18, conversationIndex = 0 } = {}) {
  return async (_url, init = {}) => {
    const body = JSON.parse(String(init.body ?? "{}"));
    const { exchange, turn } = positionOf(Array.isArray(body.messages) ? body.messages : []);
    const id = `msg_recorded_${conversationIndex + 1}_${exchange + 1}_${turn + 1}`;
    const recorded = conversation.exchanges[exchange]?.turns[turn];
    const message = recorded
      ? assistantMessage(recorded, id, `toolu_recorded_${conversationIndex + 1}_${exchange + 1}_${turn + 1}`)
      : scriptEndMessage(id);
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
 * @param {any} message
 * @returns {string[]}
 */
export function sseEvents(message) {
  /** @type {string[]} */
  const events = [];
  const event = (/** @type {string} */ type, /** @type {object} */ data) =>
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", {
    message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  message.content.forEach((/** @type {any} */ block, /** @type {number} */ index) => {
    if (block.type === "text") {
      event("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of block.text.match(/\S+\s*|\s+/g) ?? []) {
        event("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
      }
    } else {
      event("content_block_start", { index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      const size = Math.max(8, Math.ceil(json.length / 4));
      for (let at = 0; at < json.length; at += size) {
        event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: json.slice(at, at + size) } });
      }
    }
    event("content_block_stop", { index });
  });
  event("message_delta", {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  event("message_stop", {});
  return events;
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
