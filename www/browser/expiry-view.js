// Expiry in the memory browser: the rule the demo opens its stores with, the memories due to
// expire now (the package's dry run, `memories.expire({ dryRun: true })`) and those due within a
// week (the same dry run a week earlier), each with a "Keep" button (`memories.keep(id)`: its
// last use becomes now). Expired memories go to "Recently deleted", restorable
// (docs/TOOL.md#last-use-and-expiry).

import { el, describeError } from "../render.js";
import { EXPIRE_AFTER_DAYS, RETENTION_DAYS } from "../stores.js";
import { toToolPath } from "./tree.js";
import { describeWhen } from "./words.js";

/** How far ahead "due soon" looks, in days. */
export const SOON_DAYS = 7;

const DAY_MS = 24 * 3600 * 1000;

/**
 * @typedef {object} ExpiryOptions
 * @property {HTMLDetailsElement} root                   the expiry <details>
 * @property {() => import("memory-tool-wasm").MemoryTool} memory
 * @property {() => boolean} readOnly                    whether the store shown is archived
 * @property {(path: string) => void} onSelect           opens a memory (by tool path) in the viewer
 * @property {() => Promise<void>} onChanged             the store changed here (a keep, an expiry)
 * @property {(message: string) => void} announce
 * @property {(message: string) => void} notify
 */

/**
 * Wires the expiry section.
 * @param {ExpiryOptions} options
 * @returns {{ paint: () => Promise<void>, clear: () => void, readonly expiring: boolean }}
 *   `expiring`: the user's "Expire now" is running (its expiries are announced by it)
 */
export function mountExpiry({ root, memory, readOnly, onSelect, onChanged, announce, notify }) {
  const summary = /** @type {HTMLElement} */ (root.querySelector("#expiry-summary"));
  const body = /** @type {HTMLElement} */ (root.querySelector("#expiry-body"));
  let paints = 0;
  let expiring = false;
  // Bumped by clear(): a paint still waiting on the package when the store vanished paints nothing.
  let generation = 0;

  /** Asks the package what is due now and within a week, and paints both lists. */
  async function paint() {
    if (readOnly()) {
      summary.textContent = "off: this store is archived, and read-only stores never expire";
      body.replaceChildren(rule());
      done();
      return;
    }
    const at = generation;
    let due;
    let soon;
    try {
      due = (await memory().memories.expire({ dryRun: true })).data;
      soon = (await memory().memories.expire({ dryRun: true, olderThanDays: EXPIRE_AFTER_DAYS - SOON_DAYS })).data;
    } catch (error) {
      // A store that vanished has a notice of its own; its section says nothing until it starts over.
      if (at !== generation || /** @type {any} */ (error)?.code === "STORE_VANISHED") {
        clear();
        done();
        return;
      }
      summary.textContent = "unknown";
      body.replaceChildren(rule(), el("p", { className: "problem" }, `Could not ask what is due to expire: ${describeError(error)}`));
      done();
      return;
    }
    if (at !== generation) {
      done();
      return;
    }
    const dueIds = new Set(due.map((m) => m.id));
    soon = soon.filter((m) => !dueIds.has(m.id));
    summary.textContent =
      due.length === 0 && soon.length === 0
        ? `nothing due within ${SOON_DAYS} days`
        : `${due.length} due now, ${soon.length} more within ${SOON_DAYS} days`;
    root.dataset.due = String(due.length);
    root.dataset.soon = String(soon.length);
    // Focus was on a Keep button that this paint replaces: it goes to the next one, else the summary.
    const active = document.activeElement;
    const keptAt = active instanceof HTMLElement && root.contains(active) && active.dataset.testid === "expiry-keep"
      ? [...root.querySelectorAll('[data-testid="expiry-keep"]')].indexOf(active)
      : -1;
    body.replaceChildren(
      rule(),
      group("Due now", "expiry-due", due, "Nothing is due now."),
      group(`Due within ${SOON_DAYS} days`, "expiry-soon", soon, `Nothing else is due within ${SOON_DAYS} days.`),
    );
    if (due.length > 0) {
      body.append(el("div", { className: "actions" }, el("button", { type: "button", className: "small danger", dataset: { testid: "expire-now" }, onclick: () => void expireNow(due.length) }, `Expire the ${due.length} due now…`)));
    }
    if (keptAt >= 0) {
      const buttons = root.querySelectorAll('[data-testid="expiry-keep"]');
      /** @type {HTMLElement} */ (buttons[Math.min(keptAt, buttons.length - 1)] ?? root.querySelector("summary"))?.focus();
    }
    done();
  }

  function done() {
    paints += 1;
    root.dataset.paints = String(paints);
  }

  function rule() {
    return el(
      "p",
      { className: "hint", dataset: { testid: "expiry-rule" } },
      `This demo opens its stores with expireAfterDays: ${EXPIRE_AFTER_DAYS}. A memory neither viewed nor changed (by the model or by you) for ${EXPIRE_AFTER_DAYS} days is deleted by “expiry”, once each time the store opens; its text stays restorable under “Recently deleted” for ${RETENTION_DAYS} days from then. `,
      "On opening, the store counts days by the date an earlier visit also saw, so a clock that is wrong for one visit expires nothing. ",
      "Opening a memory here shows it through the model's view, which counts as a use.",
    );
  }

  /**
   * @param {string} title @param {string} testid
   * @param {import("memory-tool-wasm").MemorySummary[]} memories @param {string} empty
   */
  function group(title, testid, memories, empty) {
    const id = `${testid}-title`;
    return el(
      "section",
      { className: "expiry-group", "aria-labelledby": id },
      el("h3", { id }, title),
      memories.length === 0
        ? el("p", { className: "meta", dataset: { testid: `${testid}-empty` } }, empty)
        : el("ul", { className: "expiry-list", dataset: { testid } }, ...memories.map(item)),
    );
  }

  /** @param {import("memory-tool-wasm").MemorySummary} m */
  function item(m) {
    const path = toToolPath(m.path);
    const left = Math.ceil((Date.parse(m.last_accessed_at) + EXPIRE_AFTER_DAYS * DAY_MS - Date.now()) / DAY_MS);
    const unused = Math.floor((Date.now() - Date.parse(m.last_accessed_at)) / DAY_MS);
    return el(
      "li",
      { className: "expiry-item", dataset: { testid: "expiry-item", path, id: m.id } },
      el("button", { type: "button", className: "link", dataset: { testid: "expiry-open" }, onclick: () => onSelect(path) }, path),
      el(
        "span",
        { className: "meta", dataset: { testid: "expiry-when" } },
        ` · last used ${describeWhen(m.last_accessed_at)} · `,
        left <= 0 ? `due, unused for ${unused} days` : `expires in ${left} day${left === 1 ? "" : "s"}`,
      ),
      el("button", { type: "button", className: "small", dataset: { testid: "expiry-keep" }, "aria-label": `Keep ${path}`, onclick: () => void keep(m.id, path) }, "Keep"),
    );
  }

  /** @param {string} id @param {string} path */
  async function keep(id, path) {
    try {
      await memory().memories.keep(id);
    } catch (error) {
      notify(`Could not keep ${path}: ${describeError(error)}`);
      return;
    }
    announce(`Kept ${path}: its last use is now, so it expires in ${EXPIRE_AFTER_DAYS} days at the earliest.`);
    await onChanged();
  }

  /** Runs the expiry now (it also runs by itself once per open), after asking. @param {number} count */
  async function expireNow(count) {
    const question = `Expire ${count} memor${count === 1 ? "y" : "ies"} not used for ${EXPIRE_AFTER_DAYS} days? Each goes to “Recently deleted”, where its history can restore it for ${RETENTION_DAYS} days.`;
    if (!window.confirm(question)) return;
    let result;
    expiring = true;
    try {
      result = await memory().memories.expire();
    } catch (error) {
      notify(`Could not expire: ${describeError(error)}`);
      return;
    } finally {
      // Its change events arrive before the call resolves (a commit is said before it returns).
      setTimeout(() => (expiring = false), 500);
    }
    const n = result.data.length;
    announce(`Expired ${n} memor${n === 1 ? "y" : "ies"}: under “Recently deleted”, each restorable for ${RETENTION_DAYS} days.`);
    await onChanged();
    /** @type {HTMLElement | null} */ (root.querySelector("summary"))?.focus();
  }

  /** The store's data is gone (it vanished): nothing to say of its expiry until it starts over. */
  function clear() {
    generation += 1;
    summary.textContent = "—";
    body.replaceChildren();
    delete root.dataset.due;
    delete root.dataset.soon;
  }

  return {
    paint,
    clear,
    get expiring() {
      return expiring;
    },
  };
}
