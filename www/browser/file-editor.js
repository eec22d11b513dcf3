// Editing a memory through the host API (`memories.update`) with a precondition: the save
// only goes through if the memory is still what the editor started from. When another tab, the
// agent or the console changed it in between, the save is refused (PRECONDITION_FAILED) and
// the user chooses, seeing both texts' differences: reload theirs, overwrite with mine, or keep
// editing (merge by hand; the next save then replaces their version).

import { el, describeError } from "../render.js";
import { renderDiff } from "./diff-view.js";
import { toStorePath, toToolPath } from "./tree.js";

/**
 * @typedef {object} EditorOptions
 * @property {HTMLElement} root                         the edit tab panel
 * @property {() => import("memory-tool-wasm").MemoryTool} memory
 * @property {(message: string) => void} announce
 * @property {(toolPath: string) => void} onSaved       after a save (the path may have changed)
 */

/**
 * Wires the editor.
 * @param {EditorOptions} options
 */
export function mountEditor({ root, memory, announce, onSaved }) {
  /** @type {{ id: string, path: string, sha: string, content: string } | null} what the edit started from */
  let base = null;
  /** Version ids this editor wrote: their change events are not "changes elsewhere". */
  const ownVersions = new Set();

  const pathInput = /** @type {HTMLInputElement} */ (el("input", { type: "text", id: "edit-path", spellcheck: "false", autocomplete: "off", dataset: { testid: "edit-path" } }));
  const textarea = /** @type {HTMLTextAreaElement} */ (
    el("textarea", { id: "edit-content", rows: 12, spellcheck: "false", dataset: { testid: "edit-content" }, "aria-describedby": "edit-state" })
  );
  const saveButton = el("button", { type: "submit", className: "primary", dataset: { testid: "edit-save" } }, "Save");
  const revertButton = el("button", { type: "button", dataset: { testid: "edit-revert" }, onclick: () => revert() }, "Discard changes");
  const state = el("p", { id: "edit-state", className: "meta", dataset: { testid: "edit-state" }, "aria-live": "polite" });
  const banner = el("p", { className: "edit-banner", dataset: { testid: "edit-banner" }, hidden: true });
  const conflict = el("section", { className: "conflict", dataset: { testid: "conflict" }, hidden: true, role: "alertdialog", "aria-labelledby": "conflict-title", "aria-describedby": "conflict-text" });
  const form = /** @type {HTMLFormElement} */ (
    el(
      "form",
      { className: "editor", dataset: { testid: "editor" } },
      el("div", { className: "field" }, el("label", { for: "edit-path" }, "Path"), pathInput),
      el("div", { className: "field" }, el("label", { for: "edit-content" }, "Content"), textarea),
      banner,
      conflict,
      el("div", { className: "actions" }, saveButton, revertButton, el("span", { className: "hint" }, el("kbd", {}, "Ctrl"), "/", el("kbd", {}, "⌘"), " + ", el("kbd", {}, "S"), " saves")),
      state,
    )
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void save();
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "s" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  });
  textarea.addEventListener("input", paintState);
  pathInput.addEventListener("input", paintState);

  /**
   * Starts editing the memory at `toolPath` from what is stored now.
   * @param {string} toolPath
   */
  async function open(toolPath) {
    let current;
    try {
      current = await memory().memories.getByPath(toStorePath(toolPath));
    } catch (error) {
      root.replaceChildren(el("p", { className: "problem" }, `Could not open ${toolPath} for editing: ${describeError(error)}`));
      base = null;
      return;
    }
    if (current.content === null) {
      base = null;
      root.replaceChildren(el("p", { className: "placeholder" }, `${toolPath} is not text (an image or other bytes): it cannot be edited here.`));
      return;
    }
    start(current);
    root.replaceChildren(form);
  }

  /** @param {import("memory-tool-wasm").Memory} current */
  function start(current) {
    base = { id: current.id, path: toToolPath(current.path), sha: current.content_sha256, content: current.content ?? "" };
    pathInput.value = base.path;
    textarea.value = base.content;
    banner.hidden = true;
    conflict.hidden = true;
    delete root.dataset.conflict;
    paintState();
  }

  function dirty() {
    return base !== null && (textarea.value !== base.content || pathInput.value.trim() !== base.path);
  }

  function paintState() {
    if (!base) return;
    root.dataset.dirty = String(dirty());
    state.textContent = dirty()
      ? "Unsaved changes. Saving checks that nobody changed the memory meanwhile."
      : `Up to date with the stored version (sha256 ${base.sha.slice(0, 12)}…).`;
  }

  async function save(/** @type {{ overwriteSha?: string }} */ { overwriteSha } = {}) {
    if (!base) return;
    const newPath = pathInput.value.trim();
    if (!newPath.startsWith("/memories/") || newPath.length === "/memories/".length) {
      // Said, not silently turned into /memories/…: a path elsewhere is no memory's.
      state.textContent = `Not saved: a memory's path starts with /memories/ (for example /memories${newPath.startsWith("/") ? "" : "/"}${newPath || "notes.md"}).`;
      state.classList.add("problem");
      pathInput.focus();
      return;
    }
    /** @type {import("memory-tool-wasm").UpdateMemoryParams} */
    const params = {};
    if (textarea.value !== base.content || overwriteSha) params.content = textarea.value;
    if (newPath !== base.path) params.path = toStorePath(newPath);
    if (params.content === undefined && params.path === undefined) {
      state.textContent = "Nothing to save: no changes.";
      return;
    }
    params.precondition = { type: "content_sha256", content_sha256: overwriteSha ?? base.sha };
    let saved;
    try {
      saved = await memory().memories.update(base.id, params);
    } catch (error) {
      const code = /** @type {any} */ (error)?.code;
      if (code === "PRECONDITION_FAILED") return showConflict(/** @type {any} */ (error).current_content_sha256);
      if (code === "NOT_FOUND") return showDeleted();
      state.textContent = `Not saved: ${describeError(error)}`;
      state.classList.add("problem");
      return;
    }
    state.classList.remove("problem");
    if (saved.memory_version_id) ownVersions.add(saved.memory_version_id);
    start(saved);
    state.textContent = `Saved as a new version (${saved.memory_version_id ?? "stored"}).`;
    announce(`Saved ${toToolPath(saved.path)}.`);
    onSaved(toToolPath(saved.path));
  }

  /**
   * The save was refused: the memory changed since the edit began. Shows their version against
   * mine and the three ways on.
   * @param {string | undefined} theirSha
   */
  async function showConflict(theirSha) {
    if (!base) return;
    let theirs;
    try {
      theirs = await memory().memories.get(base.id);
    } catch (error) {
      if (/** @type {any} */ (error)?.code === "NOT_FOUND") return showDeleted();
      state.textContent = `Not saved, and their version could not be read: ${describeError(error)}`;
      return;
    }
    const mine = textarea.value;
    const theirText = theirs.content ?? "";
    const sha = theirSha ?? theirs.content_sha256;
    const edited = base;
    conflict.replaceChildren(
      el("h4", { id: "conflict-title" }, "This memory changed while you were editing"),
      el(
        "p",
        { id: "conflict-text" },
        `Another tab, the agent or the console saved a new version of ${toToolPath(theirs.path)} after you opened it. `,
        "Your edit was not saved. Below: what you would change in their version.",
      ),
      renderDiff(theirText, mine, { oldLabel: "theirs (stored now)", newLabel: "yours", testid: "conflict-diff" }),
      el(
        "div",
        { className: "actions" },
        el("button", { type: "button", dataset: { testid: "conflict-reload" }, onclick: () => reloadTheirs(theirs) }, "Reload theirs (drop my edit)"),
        el("button", { type: "button", className: "danger", dataset: { testid: "conflict-overwrite" }, onclick: () => void save({ overwriteSha: sha }) }, "Overwrite with mine"),
        el(
          "button",
          {
            type: "button",
            dataset: { testid: "conflict-keep" },
            onclick: () => {
              // Merge by hand: the next save replaces their version (which the user has now seen).
              base = { ...edited, sha, content: theirText };
              conflict.hidden = true;
              paintState();
              state.textContent = "Keep editing: merge their changes by hand; saving then replaces their version.";
              textarea.focus();
            },
          },
          "Keep editing",
        ),
      ),
    );
    conflict.hidden = false;
    banner.hidden = true;
    root.dataset.conflict = "true";
    state.textContent = "Not saved: the memory changed meanwhile. Choose below.";
    /** @type {HTMLElement} */ (conflict.querySelector("button"))?.focus();
  }

  /** @param {import("memory-tool-wasm").Memory} theirs */
  function reloadTheirs(theirs) {
    start(theirs);
    delete root.dataset.conflict;
    state.textContent = "Reloaded their version; your edit was dropped.";
    textarea.focus();
  }

  /**
   * The memory is gone (deleted in another tab, by the agent or the console): the user's text
   * stays, with the choice to save it as a new memory or drop it. Focus moves to the choice
   * only when `focus` (after a save the user asked for), not while they type.
   */
  function showDeleted({ focus = true } = {}) {
    if (!base) return;
    if (root.dataset.conflict === "deleted") return;
    root.dataset.conflict = "deleted";
    const gone = base;
    conflict.replaceChildren(
      el("h4", { id: "conflict-title" }, "This memory was deleted meanwhile"),
      el("p", { id: "conflict-text" }, `${gone.path} was deleted elsewhere after you opened it. Your text is still here.`),
      el(
        "div",
        { className: "actions" },
        el(
          "button",
          {
            type: "button",
            className: "primary",
            dataset: { testid: "deleted-save-new" },
            onclick: async () => {
              try {
                const created = await memory().memories.create({ path: toStorePath(pathInput.value.trim()), content: textarea.value });
                if (created.memory_version_id) ownVersions.add(created.memory_version_id);
                start(created);
                announce(`Saved as a new memory at ${toToolPath(created.path)}.`);
                onSaved(toToolPath(created.path));
              } catch (error) {
                state.textContent = `Not saved: ${describeError(error)}`;
              }
            },
          },
          "Save mine as a new memory",
        ),
        el(
          "button",
          {
            type: "button",
            dataset: { testid: "deleted-discard" },
            onclick: () => {
              conflict.hidden = true;
              base = null;
              delete root.dataset.conflict;
              delete root.dataset.dirty;
              const gonePlaceholder = el("p", { className: "placeholder", tabindex: "-1" }, `${gone.path} is gone; your text was dropped.`);
              root.replaceChildren(gonePlaceholder);
              gonePlaceholder.focus();
            },
          },
          "Discard my text",
        ),
      ),
    );
    conflict.hidden = false;
    // The "changed while you edit" warning said less than this does.
    banner.hidden = true;
    state.textContent = "Not saved: the memory was deleted meanwhile. Your text is still here.";
    if (focus) /** @type {HTMLElement} */ (conflict.querySelector("button"))?.focus();
  }

  function revert() {
    if (!base) return;
    textarea.value = base.content;
    pathInput.value = base.path;
    conflict.hidden = true;
    delete root.dataset.conflict;
    paintState();
  }

  /**
   * A change was committed to the store. If it is this memory's and not this editor's own
   * save: with no unsaved edit, the editor quietly takes the new version; with one, a banner
   * warns that saving will ask what to do.
   * @param {import("memory-tool-wasm").ChangeEvent} change
   */
  async function noteChange(change) {
    if (!base || change.memory_id !== base.id || ownVersions.has(change.version_id)) return;
    if (!dirty() && conflict.hidden) {
      try {
        const current = await memory().memories.get(base.id);
        start(current);
        state.textContent = "Updated to the version just saved elsewhere.";
      } catch {
        // Deleted: the browser closes the file.
      }
      return;
    }
    banner.textContent = `Changed ${change.origin === "remote" ? "in another tab" : "elsewhere in this tab"} while you edit: saving will ask what to do.`;
    banner.hidden = false;
  }

  return {
    open,
    noteChange,
    /** The memory being edited was deleted: keep the text and offer the choice. */
    showDeleted: () => showDeleted({ focus: false }),
    /** Whether there are unsaved changes. */
    isDirty: dirty,
    /** The memory being edited, if any. */
    get memoryId() {
      return base?.id ?? null;
    },
    close() {
      base = null;
      delete root.dataset.conflict;
      delete root.dataset.dirty;
    },
  };
}
