// Where a memory's versions came from: the actor a version records (`created_by`), and, when the
// tool call that wrote it is in this page's conversation, a way to that call's card. A restore
// names itself: the package records the version it brought back as `created_by.restored_from`
// (docs/TOOL.md#restore).

import { el } from "../render.js";
import { describeActor } from "./words.js";

/** The version a restore brought back (`created_by.restored_from`), or null if `actor` is no restore. @param {any} actor */
export function restoredFromOf(actor) {
  return actor && typeof actor.restored_from === "string" ? actor.restored_from : null;
}

/** The `tool_use` id a version's actor records, if it was written by a tool call. @param {any} actor */
export function toolUseIdOf(actor) {
  return actor && actor.type === "tool" && typeof actor.tool_use_id === "string" ? actor.tool_use_id : null;
}

/**
 * The card of tool call `id` in this page's conversation, if it is there.
 * @param {string} id
 * @returns {HTMLDetailsElement | null}
 */
function cardOf(id) {
  const cards = document.querySelectorAll(`#transcript [data-testid="tool-call"][data-tool-use-id="${CSS.escape(id)}"]`);
  // A replayed recording reuses its ids: the latest card is the call that wrote last.
  return /** @type {HTMLDetailsElement | null} */ (cards[cards.length - 1] ?? null);
}

/**
 * Shows tool call `id` in the conversation: the Agent tab, the card opened, scrolled to, focused.
 * @param {string} id
 */
export function revealToolUse(id) {
  const card = cardOf(id);
  if (!card) return false;
  /** @type {HTMLElement | null} */ (document.getElementById("tab-agent"))?.click();
  card.open = true;
  const summary = /** @type {HTMLElement} */ (card.querySelector(":scope > summary"));
  summary.scrollIntoView({ block: "center" });
  summary.focus();
  return true;
}

/**
 * Who wrote a version, in words, with where when the model wrote it: "in this conversation", a
 * button to the tool call's card (the agent's calls, by `tool_use_id`), or "in a conversation
 * no longer on this page".
 * @param {any} actor  the version's `created_by`
 * @param {{ testid: string, operation?: string, memoryId?: string }} options  the version's operation and memory
 * @returns {Array<string | HTMLElement>}
 */
export function originNodes(actor, { testid, operation, memoryId }) {
  const words = describeActor(actor, { operation, memoryId });
  const id = toolUseIdOf(actor);
  if (id === null || id.startsWith("toolu_demo_")) return [words];
  if (cardOf(id)) {
    return [
      words,
      ", ",
      el(
        "button",
        {
          type: "button",
          className: "link",
          title: id,
          "aria-label": "in this conversation: show the tool call",
          dataset: { testid, toolUseId: id },
          onclick: () => revealToolUse(id),
        },
        "in this conversation",
      ),
    ];
  }
  return [words, el("span", { className: "meta", title: id }, ", in a conversation no longer on this page")];
}
