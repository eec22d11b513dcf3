// "Memory the agent sees": which stores the agent's memory tool mounts (up to 8), each read
// and write or read only, each with instructions for the model. One mounted store is
// /memories itself; several are /memories/<slug>/ each. Until the user changes anything, the
// agent mounts the store the memory browser shows.

import { el, describeError } from "../render.js";
import { MAX_MOUNTS } from "../stores.js";

/**
 * @typedef {object} MountsEditorOptions
 * @property {HTMLElement} root                       the <details> holding the editor
 * @property {import("../store-session.js").StoreSession} session
 */

/**
 * Wires the mounts editor; `open()` gives the agent's memory for the mounts chosen now.
 * @param {MountsEditorOptions} options
 */
export function mountMountsEditor({ root, session }) {
  const list = /** @type {HTMLElement} */ (root.querySelector("#mounts-list"));
  const summary = /** @type {HTMLElement} */ (root.querySelector("#mounts-summary"));
  const problem = /** @type {HTMLElement} */ (root.querySelector("#mounts-problem"));
  const promptBox = /** @type {HTMLDetailsElement} */ (root.querySelector("#system-prompt"));
  const promptText = /** @type {HTMLElement} */ (root.querySelector("#system-prompt-text"));
  promptBox.addEventListener("toggle", () => void paintPrompt());

  /** @type {import("memory-tool-wasm").MemoryStore[]} */
  let stores = [];
  /** @type {Map<string, { access: "read_write" | "read_only", instructions: string }>} mounted stores by id, in mount order */
  let chosen = new Map([[session.store.id, { access: "read_write", instructions: "" }]]);
  /** Whether the user changed the mounts (else they follow the browser's store). */
  let customised = false;
  /** @type {{ key: string, value: Promise<{ memory: import("memory-tool-wasm").MemoryTool, system: string | null, root: string, label: string }> } | null} */
  let opened = null;

  session.addEventListener("switch", () => {
    if (!customised) chosen = new Map([[session.store.id, { access: session.store.archived_at ? "read_only" : "read_write", instructions: "" }]]);
    void refresh();
  });
  session.addEventListener("stores", () => void refresh());

  async function refresh() {
    try {
      stores = await session.catalog.list();
    } catch (error) {
      problem.textContent = `Could not list the stores: ${describeError(error)}`;
      return;
    }
    // Stores deleted meanwhile are no longer mounted.
    for (const id of [...chosen.keys()]) if (!stores.some((s) => s.id === id)) chosen.delete(id);
    if (chosen.size === 0) chosen.set(session.store.id, { access: session.store.archived_at ? "read_only" : "read_write", instructions: "" });
    paint();
    void paintPrompt();
  }

  function paint() {
    list.replaceChildren(...stores.map((store) => row(store)));
    summary.textContent = label();
    problem.textContent = "";
  }

  /** The mounts chosen now, in words ("Travel (read and write), demo (read only)"). */
  function label() {
    return [...chosen.entries()]
      .map(([id, m]) => {
        const store = stores.find((s) => s.id === id) ?? (session.store.id === id ? session.store : null);
        return `${store?.name ?? id} (${m.access === "read_only" ? "read only" : "read and write"})`;
      })
      .join(", ");
  }

  /** Back to following the browser's store (after "start over" switched it). */
  function reset() {
    customised = false;
    chosen = new Map([[session.store.id, { access: session.store.archived_at ? "read_only" : "read_write", instructions: "" }]]);
    root.dispatchEvent(new CustomEvent("mounts-change"));
    return refresh();
  }

  /** @param {import("memory-tool-wasm").MemoryStore} store */
  function row(store) {
    const mount = chosen.get(store.id);
    const archived = store.archived_at !== null;
    const id = store.id;
    const check = /** @type {HTMLInputElement} */ (
      el("input", { type: "checkbox", id: `mount-${id}`, checked: Boolean(mount), dataset: { testid: "mount-check", store: store.name } })
    );
    check.addEventListener("change", () => {
      if (check.checked) {
        if (chosen.size >= MAX_MOUNTS) {
          check.checked = false;
          problem.textContent = `At most ${MAX_MOUNTS} stores can be mounted at once.`;
          return;
        }
        chosen.set(id, { access: archived ? "read_only" : "read_write", instructions: "" });
      } else {
        if (chosen.size === 1) {
          check.checked = true;
          problem.textContent = "The agent needs at least one store.";
          return;
        }
        chosen.delete(id);
      }
      changed();
      paint();
      /** @type {HTMLElement | null} */ (list.querySelector(`#mount-${CSS.escape(id)}`))?.focus();
    });
    const access = /** @type {HTMLSelectElement} */ (
      el(
        "select",
        { id: `access-${id}`, disabled: !mount || archived, "aria-label": `Access to ${store.name}`, dataset: { testid: "mount-access" } },
        el("option", { value: "read_write" }, "read and write"),
        el("option", { value: "read_only" }, "read only"),
      )
    );
    access.value = mount?.access ?? (archived ? "read_only" : "read_write");
    access.addEventListener("change", () => {
      const m = chosen.get(id);
      if (m) m.access = /** @type {"read_write" | "read_only"} */ (access.value);
      changed();
      paint();
    });
    const instructions = /** @type {HTMLTextAreaElement} */ (
      el("textarea", {
        id: `instructions-${id}`,
        rows: 2,
        maxlength: 4096,
        disabled: !mount,
        placeholder: "Instructions for the model about this store (optional)",
        "aria-label": `Instructions for ${store.name}`,
        dataset: { testid: "mount-instructions" },
      })
    );
    instructions.value = mount?.instructions ?? "";
    instructions.addEventListener("change", () => {
      const m = chosen.get(id);
      if (m) m.instructions = instructions.value;
      changed();
    });
    return el(
      "div",
      { className: `mount${mount ? " on" : ""}` },
      el(
        "div",
        { className: "mount-head" },
        el("label", { for: `mount-${id}`, className: "mount-name" }, check, ` ${store.name}`, archived ? el("span", { className: "meta" }, " (archived)") : null),
        access,
      ),
      store.description ? el("p", { className: "meta" }, store.description) : null,
      mount ? instructions : null,
    );
  }

  function changed() {
    customised = true;
    void paintPrompt();
    root.dispatchEvent(new CustomEvent("mounts-change"));
  }

  /** Shows `memory.systemPrompt()` for the mounts chosen now (when its box is open). */
  async function paintPrompt() {
    if (!promptBox.open) return;
    const asked = JSON.stringify(mounts());
    try {
      const { system } = await open();
      if (JSON.stringify(mounts()) !== asked) return; // the mounts changed meanwhile: a later paint shows them
      promptText.textContent = system ?? "";
      promptText.classList.remove("is-error");
    } catch (error) {
      if (JSON.stringify(mounts()) !== asked) return;
      promptText.textContent = `These mounts cannot be opened: ${describeError(error)}`;
      promptText.classList.add("is-error");
    }
  }

  /** The mounts chosen now, in order. */
  function mounts() {
    return [...chosen.entries()].map(([store, m]) => ({ store, access: m.access, instructions: m.instructions }));
  }

  /**
   * The agent's memory over the chosen mounts, opened once per choice (the previous one is
   * closed when the choice changes).
   */
  async function open() {
    const wanted = mounts();
    const key = JSON.stringify(wanted);
    if (opened?.key !== key) {
      const previous = opened;
      const words = label();
      opened = { key, value: session.catalog.openForAgent(wanted).then((target) => ({ ...target, label: words })) };
      opened.value.catch(() => {
        if (opened?.key === key) opened = null;
      });
      previous?.value.then((p) => p.memory.close(), () => {});
    }
    return opened.value;
  }

  void refresh();
  return { open, refresh, mounts, reset };
}
