// The conversation as the agent panel shows it: user messages, the assistant's text as it
// streams, and each memory tool call as a collapsible card (its input, then its result exactly
// as the model received it).

import { el, renderContent, readableJson } from "../render.js";

/**
 * The transcript list and what is being painted into it now.
 */
export class Transcript {
  /** @type {HTMLElement} */
  #list;
  /** @type {HTMLElement | null} the assistant message being streamed */
  #current = null;
  /** @type {Map<number, HTMLElement>} content blocks of the current message, by index */
  #blocks = new Map();
  /** @type {Map<number, string>} tool input JSON streamed so far, by block index */
  #partialInputs = new Map();
  /** @type {Map<string, HTMLDetailsElement>} tool call cards by tool_use id */
  #cards = new Map();
  /** @type {HTMLElement | null} the assistant message finished last (what context notes are about) */
  #finished = null;

  /** @param {HTMLElement} list the `<ol>` */
  constructor(list) {
    this.#list = list;
  }

  /** Empties the transcript, leaving `placeholder` (a node) in it. */
  clear(/** @type {Node | null} */ placeholder = null) {
    this.#list.replaceChildren(...(placeholder ? [placeholder] : []));
    this.#current = null;
    this.#finished = null;
    this.#blocks.clear();
    this.#cards.clear();
  }

  /**
   * Adds a line that is not a message (a conversation's title, with a detail under it).
   * @param {string} title @param {string} [detail] @param {string} [detailTestid]
   */
  addDivider(title, detail = "", detailTestid = "") {
    this.#dropPlaceholder();
    this.#append(
      el(
        "li",
        { className: "divider" },
        el("p", { className: "divider-title" }, title),
        detail ? el("p", { className: "meta", dataset: detailTestid ? { testid: detailTestid } : {} }, detail) : null,
      ),
    );
  }

  /**
   * Adds the user's message: the visitor's own, or (`recorded`) the recording's line, said as such.
   * @param {string} text @param {{ recorded?: boolean }} [options]
   */
  addUser(text, { recorded = false } = {}) {
    this.#dropPlaceholder();
    this.#append(
      el(
        "li",
        { className: `msg msg-user${recorded ? " msg-recorded" : ""}`, dataset: { testid: "msg-user", from: recorded ? "recording" : "you" } },
        el("p", { className: "who" }, recorded ? "The recording's visitor" : "You"),
        el("div", { className: "msg-text" }, text),
      ),
    );
  }

  /**
   * Starts an assistant message (one per request the runner makes).
   * @param {string} who  "Claude" or "Recorded model"
   * @param {number} turn
   */
  startAssistant(who, turn) {
    this.#current = el(
      "li",
      { className: "msg msg-assistant", dataset: { testid: "msg-assistant", turn: String(turn) } },
      el("p", { className: "who" }, who, el("span", { className: "meta" }, ` · request ${turn}`)),
    );
    this.#blocks.clear();
    this.#partialInputs.clear();
    this.#append(this.#current);
  }

  /** The blocks before this one are done streaming. */
  #settle() {
    for (const block of this.#blocks.values()) block.classList.remove("streaming");
  }

  /** @param {number} index */
  startText(index) {
    this.#settle();
    const text = el("div", { className: "msg-text streaming", dataset: { testid: "assistant-text" } });
    this.#blocks.set(index, text);
    this.#currentMessage().append(text);
  }

  /** @param {number} index @param {string} delta */
  appendText(index, delta) {
    const text = this.#blocks.get(index);
    if (!text) return;
    text.append(delta);
    this.#follow();
  }

  /**
   * A tool call's card, shown as soon as the model starts writing it.
   * @param {number} index
   * @param {{ id: string, name: string }} block
   */
  startToolUse(index, block) {
    this.#settle();
    const status = el("span", { className: "badge badge-pending", dataset: { testid: "tool-status" } }, "writing…");
    const label = el("code", { className: "tool-label" }, block.name);
    const preview = el("span", { className: "tool-preview" });
    const inputPre = el("pre", { className: "json tool-input", dataset: { testid: "tool-input" }, tabindex: 0 });
    const resultBox = el("div", { className: "tool-result", dataset: { testid: "tool-result" } }, el("p", { className: "placeholder" }, "Not run yet."));
    const card = /** @type {HTMLDetailsElement} */ (
      el(
        "details",
        { className: "tool-call", dataset: { testid: "tool-call", toolUseId: block.id, status: "writing" } },
        el("summary", {}, label, status, preview),
        el("div", { className: "tool-body" }, el("h3", {}, "Input"), inputPre, el("h3", {}, "Result, as the model received it"), resultBox),
      )
    );
    this.#blocks.set(index, card);
    this.#partialInputs.set(index, "");
    this.#cards.set(block.id, card);
    this.#currentMessage().append(card);
    this.#follow();
  }

  /** @param {number} index @param {string} partialJson */
  appendToolInput(index, partialJson) {
    const card = this.#blocks.get(index);
    if (!card) return;
    const sofar = (this.#partialInputs.get(index) ?? "") + partialJson;
    this.#partialInputs.set(index, sofar);
    /** @type {HTMLElement} */ (card.querySelector(".tool-input")).textContent = sofar;
  }

  /**
   * The tool call's input is complete.
   * @param {{ id: string, name: string, input: unknown }} block
   */
  finishToolUse(block) {
    const card = this.#cards.get(block.id);
    if (!card) return;
    /** @type {HTMLElement} */ (card.querySelector(".tool-label")).textContent = describeCall(block.input);
    /** @type {HTMLElement} */ (card.querySelector(".tool-input")).textContent = JSON.stringify(block.input, null, 2);
    setStatus(card, "queued", "queued", "badge-pending");
  }

  /** The runner is running these calls. @param {string[]} ids */
  markRunning(ids) {
    for (const id of ids) {
      const card = this.#cards.get(id);
      if (card) setStatus(card, "running", "running…", "badge-pending");
    }
  }

  /**
   * A tool call's result.
   * @param {{ tool_use_id: string, content: unknown, is_error?: boolean }} result
   */
  addToolResult(result) {
    const card = this.#cards.get(result.tool_use_id);
    if (!card) return;
    const isError = result.is_error === true;
    setStatus(card, isError ? "error" : "ok", isError ? "is_error" : "ok", isError ? "badge-error" : "badge-ok");
    /** @type {HTMLElement} */ (card.querySelector(".tool-preview")).textContent = firstLine(result.content);
    const box = /** @type {HTMLElement} */ (card.querySelector(".tool-result"));
    box.replaceChildren(
      renderContent(result.content, { testid: "tool-result", isError }),
      el(
        "details",
        { className: "raw-json" },
        el("summary", {}, "tool_result JSON"),
        el("pre", { className: "json", tabindex: 0 }, readableJson({ type: "tool_result", ...result })),
      ),
    );
    this.#follow();
  }

  /** The current assistant message is complete. */
  finishAssistant() {
    for (const block of this.#blocks.values()) block.classList.remove("streaming");
    // Text that ended up empty (a message of tool calls only) leaves no empty box.
    for (const text of this.#currentMessage().querySelectorAll(".msg-text")) {
      if (text.textContent === "") text.remove();
    }
    this.#finished = this.#current;
    this.#current = null;
  }

  /**
   * The run ended early: tool calls that never got a result say so, and an assistant message
   * that never got any content goes.
   */
  abandonOpenCalls() {
    if (this.#current && this.#blocks.size === 0) this.#current.remove();
    this.#current = null;
    for (const card of this.#cards.values()) {
      const status = card.dataset.status;
      if (status === "writing" || status === "queued" || status === "running") setStatus(card, "stopped", "not run", "badge-problem");
    }
    for (const block of this.#blocks.values()) block.classList.remove("streaming");
  }

  /**
   * The API cleared part of the context of the request the current message answers (context
   * editing): said just before that message.
   * @param {ReadonlyArray<{ type: string, cleared_tool_uses?: number, cleared_input_tokens?: number }>} edits
   */
  addContextEdit(edits) {
    const uses = edits.reduce((n, e) => n + (e.cleared_tool_uses ?? 0), 0);
    const tokens = edits.reduce((n, e) => n + (e.cleared_input_tokens ?? 0), 0);
    const words =
      uses > 0
        ? `Context cleared: before the model read this request, the API cleared ${uses.toLocaleString("en-US")} old tool result${uses === 1 ? "" : "s"} ` +
          `(${tokens.toLocaleString("en-US")} input tokens). What they showed is still in memory: the model can view it again.`
        : `Context edited: the API cleared ${tokens.toLocaleString("en-US")} input tokens of this request before the model read it.`;
    const note = el("li", { className: "msg-context meta", dataset: { testid: "context-cleared" } }, words);
    const at = this.#current ?? this.#finished;
    if (at && at.parentElement === this.#list) this.#list.insertBefore(note, at);
    else this.#append(note);
  }

  /**
   * The conversation was compacted: the current message (the runner's compaction request) is
   * shown as what it is, with the summary that stands in for everything above it from now on.
   * @param {string | null} summary
   */
  showCompaction(summary) {
    const item = el(
      "li",
      { className: "msg-context compaction", dataset: { testid: "context-compacted" } },
      el("p", { className: "divider-title" }, "Context compacted"),
      el(
        "p",
        { className: "meta" },
        summary === null
          ? "The API could not summarise the conversation; it goes on as it was."
          : "The API summarised the conversation so far: from here on the model reads this summary instead of the messages above, and its memory for the details.",
      ),
      summary === null
        ? null
        : el("details", {}, el("summary", {}, "The summary"), el("pre", { className: "tool-text", tabindex: 0, dataset: { testid: "compaction-summary" } }, summary)),
    );
    const request = this.#current ?? this.#finished;
    if (request && request.parentElement === this.#list) request.replaceWith(item);
    else this.#append(item);
    this.#current = null;
    this.#finished = null;
    this.#blocks.clear();
    this.#follow();
  }

  /**
   * A problem, in words, in the flow of the conversation, with a Retry button when `retry` is
   * given. The list item stays a list item; the alert is inside it (a screen reader says it).
   * @param {string} text @param {{ retry?: () => void }} [options]
   */
  addProblem(text, { retry } = {}) {
    /** @type {HTMLButtonElement | null} */
    const button = retry
      ? /** @type {HTMLButtonElement} */ (
          el("button", { type: "button", className: "small", dataset: { testid: "retry" } }, "Retry")
        )
      : null;
    button?.addEventListener("click", () => {
      // One retry per problem: the button goes once pressed.
      button.remove();
      retry?.();
    });
    this.#append(
      el(
        "li",
        { className: "msg msg-problem", dataset: { testid: "msg-problem" } },
        el("div", { role: "alert", className: "problem-words", dataset: { testid: "problem-words" } }, text),
        button,
      ),
    );
  }

  /**
   * The answer being streamed was cut (the connection dropped): its text ends with a mark that
   * says so, instead of stopping mid-sentence with nothing to tell.
   */
  markCut() {
    for (const block of this.#blocks.values()) {
      if (!block.classList.contains("streaming") || !block.classList.contains("msg-text")) continue;
      block.classList.remove("streaming");
      block.classList.add("cut");
      const gap = /\s$/.test(block.textContent ?? "") ? "" : " ";
      block.append(el("span", { className: "cut-mark", dataset: { testid: "cut-mark" } }, `${gap}[cut off here: the connection dropped]`));
    }
  }

  /** A quiet note (how a run ended). */
  addNote(/** @type {string} */ text) {
    this.#append(el("li", { className: "msg-note meta", dataset: { testid: "msg-note" } }, text));
  }

  #currentMessage() {
    if (!this.#current) this.startAssistant("Assistant", 0);
    return /** @type {HTMLElement} */ (this.#current);
  }

  #dropPlaceholder() {
    this.#list.querySelector(":scope > .placeholder-item")?.remove();
  }

  /** @param {HTMLElement} item */
  #append(item) {
    this.#list.append(item);
    this.#follow();
  }

  /** Keeps the newest text in view while it streams, unless the reader scrolled up. */
  #follow() {
    // The scroll box is the log around the list (on a phone, the page itself scrolls).
    const list = this.#list.parentElement ?? this.#list;
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 120;
    if (nearBottom) list.scrollTop = list.scrollHeight;
  }
}

/**
 * @param {HTMLElement} card
 * @param {string} status
 * @param {string} label
 * @param {string} badgeClass
 */
function setStatus(card, status, label, badgeClass) {
  card.dataset.status = status;
  const badge = /** @type {HTMLElement} */ (card.querySelector('[data-testid="tool-status"]'));
  badge.className = `badge ${badgeClass}`;
  badge.textContent = label;
}

/**
 * A short label for a tool call: `view /memories`, `rename a → b`.
 * @param {unknown} input
 */
export function describeCall(input) {
  if (!input || typeof input !== "object" || Array.isArray(input)) return "memory";
  const value = /** @type {Record<string, unknown>} */ (input);
  const command = typeof value.command === "string" ? value.command : "(no command)";
  if (typeof value.old_path === "string") return `${command} ${value.old_path} → ${value.new_path}`;
  return typeof value.path === "string" ? `${command} ${value.path}` : command;
}

/**
 * The first line of a result, for the card's summary.
 * @param {unknown} content
 */
function firstLine(content) {
  if (typeof content === "string") {
    const line = content.split("\n", 1)[0];
    return line.length > 90 ? `${line.slice(0, 89)}…` : line;
  }
  if (Array.isArray(content)) {
    const image = content.find((b) => b && b.type === "image");
    if (image) return `image (${image.source?.media_type ?? "?"})`;
    const text = content.find((b) => b && b.type === "text");
    if (text) return firstLine(text.text);
  }
  return "";
}
