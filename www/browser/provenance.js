// Where a memory's versions came from: the actor a version records (`created_by`), and, when the
// tool call that wrote it is in this page's conversation, a way to that call's card. Restores
// are remembered here too: the package records a restore as any host write (`modified` by
// `{ type: "api" }`), so the page keeps, in this browser's localStorage, which versions its own
// History tab wrote by restoring which.

import { el } from "../render.js";
import { describeActor } from "./words.js";

const RESTORES_KEY = "memory-tool-demo:restores";

/**
 * The versions this page wrote by restoring: new version id → the version it restored.
 * @returns {Record<string, string>}
 */
function restores() {
  try {
    const value = JSON.parse(localStorage.getItem(RESTORES_KEY) ?? "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/**
 * Remembers that version `written` is a restore of version `from` (kept in localStorage, so
 * other tabs of the demo know it too; where storage refuses, the restore just is not named so).
 * @param {string} written @param {string} from
 */
export function recordRestore(written, from) {
  try {
    localStorage.setItem(RESTORES_KEY, JSON.stringify({ ...restores(), [written]: from }));
  } catch {
    // Storage full or refused: the history then says what it can see (the same text as vN).
  }
}

/** The version `versionId` restored, if this page's History wrote it by a restore. @param {string} versionId */
export function restoredFrom(versionId) {
  return restores()[versionId] ?? null;
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
 * Who wrote a version, in words, with a button to the tool call in this page's conversation when
 * it is there (the agent's calls, by `tool_use_id`), or a note that it is not.
 * @param {any} actor  the version's `created_by`
 * @param {{ testid: string }} options
 * @returns {Array<string | HTMLElement>}
 */
export function originNodes(actor, { testid }) {
  const words = describeActor(actor);
  const id = toolUseIdOf(actor);
  if (id === null || id.startsWith("toolu_demo_")) return [words];
  if (cardOf(id)) {
    return [
      words,
      " · ",
      el("button", { type: "button", className: "link", dataset: { testid, toolUseId: id }, onclick: () => revealToolUse(id) }, "see it in the conversation"),
    ];
  }
  return [words, el("span", { className: "meta" }, " · from a conversation no longer on this page")];
}
