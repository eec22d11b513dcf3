// The memory browser: the open store's tree, the selected memory in three tabs (as the model
// sees it, an editor with a precondition, its history with diffs, restore and redact), recently
// deleted memories, uploads and clearing the store. It repaints by itself when a change is
// committed: by the agent, the console or the editor in this tab, or by another tab.

import { el, fill, renderContent, formatBytes, describeError } from "./render.js";
import { listFiles, renderTree, toToolPath } from "./browser/tree.js";
import { mountEditor } from "./browser/file-editor.js";
import { mountHistory } from "./browser/history-view.js";
import { describeWhen } from "./browser/words.js";
import { mountTabs } from "./tabs.js";

/**
 * @typedef {object} StoreBrowserOptions
 * @property {HTMLElement} root                     the memory panel
 * @property {import("./store-session.js").StoreSession} session
 * @property {(message: string) => void} notify     shows a problem in words
 * @property {(message: string) => void} announce   says what happened (polite live region)
 */

/**
 * What the file panel shows: a live memory (by id, at its current path), or a deleted one.
 * @typedef {{ id: string | null, path: string, deleted: boolean }} Selection
 */

/**
 * Wires the memory panel to the session's store.
 * @param {StoreBrowserOptions} options
 * @returns {{ refresh: () => Promise<void>, select: (path: string) => Promise<void> }}
 */
export function mountStoreBrowser({ root, session, notify, announce }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const tree = $("tree");
  const deletedBox = $("deleted");
  const viewer = $("viewer");
  const fileHead = $("file-head");
  const viewPanel = $("file-view");
  const summary = $("store-summary");
  const refreshButton = /** @type {HTMLButtonElement} */ ($("refresh-button"));
  const uploadButton = /** @type {HTMLButtonElement} */ ($("upload-button"));
  const uploadInput = /** @type {HTMLInputElement} */ ($("upload-input"));
  const uploadDir = /** @type {HTMLInputElement} */ ($("upload-dir"));
  const clearButton = /** @type {HTMLButtonElement} */ ($("clear-button"));
  const memory = () => session.memory;

  /** @type {Selection | null} */
  let selected = null;
  /** @type {import("./browser/tree.js").TreeFile[]} */
  let files = [];
  const collapsed = new Set();
  /** Paths changed a moment ago, highlighted in the tree. */
  const recent = new Set();
  let refreshes = 0;
  let pending = Promise.resolve();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let changeTimer;

  const editor = mountEditor({
    root: $("file-edit"),
    memory,
    announce,
    onSaved: (path) => {
      if (selected) selected.path = path;
      void refresh();
    },
  });
  const history = mountHistory({ root: $("file-history"), memory, notify, announce });
  const tabs = mountTabs($("file-tabs"), { onChange: () => void paintFile() });

  refreshButton.addEventListener("click", () => void refresh());
  uploadButton.addEventListener("click", () => uploadInput.click());
  uploadInput.addEventListener("change", () => void upload());
  clearButton.addEventListener("click", () => void clearStore());
  refreshButton.disabled = false;
  paintAccess();

  /** An archived store is read-only for good: nothing here offers to change it. */
  function paintAccess() {
    const readOnly = session.store.archived_at !== null;
    uploadDir.disabled = readOnly;
    for (const button of [uploadButton, clearButton]) {
      button.disabled = readOnly;
      button.title = readOnly ? "This store is archived: read-only for good." : "";
    }
  }

  session.addEventListener("switch", () => {
    paintAccess();
    selected = null;
    collapsed.clear();
    recent.clear();
    editor.close();
    history.clear();
    paintNothing();
    void refresh();
  });
  session.addEventListener("change", (event) => onChange(/** @type {CustomEvent} */ (event).detail));

  /**
   * A change was committed to the store. The tree is reloaded once a burst of changes settles
   * (an agent's turn can make several); the open memory's panels follow it.
   * @param {import("memory-tool-wasm").ChangeEvent} change
   */
  function onChange(change) {
    if (change.path) {
      const path = toToolPath(change.path);
      recent.add(path);
      setTimeout(() => {
        recent.delete(path);
        tree.querySelector(`[data-path="${CSS.escape(path)}"]`)?.classList.remove("changed");
      }, 2500);
      if (change.origin === "remote") announce(`Changed in another tab: ${path} (${change.operation}).`);
    }
    if (selected && selected.id === change.memory_id) void editor.noteChange(change);
    clearTimeout(changeTimer);
    changeTimer = setTimeout(() => void refresh(), 40);
  }

  /**
   * Reloads the tree and the open memory. Calls are queued so that two quick refreshes never
   * paint out of order.
   */
  function refresh() {
    pending = pending.then(doRefresh, doRefresh);
    return pending;
  }

  async function doRefresh() {
    try {
      files = await listFiles(memory());
    } catch (error) {
      notify(`Could not list the store: ${describeError(error)}`);
      return;
    }
    if (selected && selected.id) {
      // Follow the memory by id: a rename moves it, a deletion leaves its history.
      const now = files.find((f) => f.id === selected?.id);
      if (now) {
        selected.path = now.path;
        selected.deleted = false;
      } else if (!selected.deleted) {
        selected.deleted = true;
      }
    }
    paintTree();
    await paintDeleted();
    await paintFile();
    refreshes += 1;
    tree.dataset.refreshes = String(refreshes);
  }

  /** Shows a memory (by its tool path) in the file panel and marks it in the tree. */
  async function select(/** @type {string} */ path) {
    const file = files.find((f) => f.path === path);
    selected = { id: file?.id ?? null, path, deleted: false };
    if (!file) {
      // Not in the last listing (just written): list again to learn its id.
      await refresh();
      const again = files.find((f) => f.path === path);
      selected = { id: again?.id ?? null, path, deleted: false };
    }
    editor.close();
    markSelected();
    await paintFile();
  }

  /** @param {string} id @param {string} path */
  async function selectDeleted(id, path) {
    selected = { id, path, deleted: true };
    editor.close();
    markSelected();
    tabs.select("file-tab-history");
    await paintFile();
  }

  function markSelected() {
    for (const button of tree.querySelectorAll("button.file")) {
      const on = /** @type {HTMLElement} */ (button).dataset.path === selected?.path && !selected?.deleted;
      button.classList.toggle("selected", on);
      if (on) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }

  function paintTree() {
    const total = files.reduce((sum, f) => sum + f.size, 0);
    summary.textContent =
      files.length === 0
        ? "Empty."
        : `${files.length.toLocaleString("en-US")} file${files.length === 1 ? "" : "s"}, ${formatBytes(total)} in all.`;
    tree.replaceChildren(
      renderTree(files, {
        selected: selected && !selected.deleted ? selected.path : null,
        collapsed,
        recent,
        onSelect: (path) => void select(path),
      }),
    );
  }

  /** Memories deleted lately (their history stays): each can be opened to restore it. */
  async function paintDeleted() {
    let page;
    try {
      page = await memory().versions.list({ operation: "deleted", limit: 50 });
    } catch {
      deletedBox.hidden = true;
      return;
    }
    const live = new Set(files.map((f) => f.id));
    /** @type {Map<string, import("memory-tool-wasm").MemoryVersion>} */
    const gone = new Map();
    for (const version of page.data) {
      if (!live.has(version.memory_id) && !gone.has(version.memory_id)) gone.set(version.memory_id, version);
    }
    deletedBox.hidden = gone.size === 0;
    if (gone.size === 0) return;
    deletedBox.replaceChildren(
      el(
        "details",
        { open: deletedBox.querySelector("details")?.hasAttribute("open") ?? false },
        el("summary", {}, `Recently deleted (${gone.size})`),
        el(
          "ul",
          {},
          ...[...gone.values()].map((version) => {
            const path = version.path ? toToolPath(version.path) : "(redacted path)";
            return el(
              "li",
              {},
              el(
                "button",
                {
                  type: "button",
                  className: `file deleted${selected?.deleted && selected.id === version.memory_id ? " selected" : ""}`,
                  dataset: { testid: "deleted-file", path, id: version.memory_id },
                  onclick: () => void selectDeleted(version.memory_id, path),
                },
                el("span", { className: "name" }, path),
                el("span", { className: "size" }, describeWhen(version.created_at)),
              ),
            );
          }),
        ),
      ),
    );
  }

  function paintNothing() {
    delete viewer.dataset.path;
    delete viewer.dataset.id;
    viewer.dataset.empty = "true";
    fileHead.replaceChildren(el("h3", { id: "viewer-title", className: "viewer-title" }, "No memory open"));
    viewPanel.replaceChildren(el("p", { className: "placeholder" }, "Pick a file in the tree to see it as the model does, edit it, or read its history."));
    $("file-edit").replaceChildren();
    history.clear();
  }

  /** Paints the file panel's header and its active tab for the selection. */
  async function paintFile() {
    if (!selected) {
      paintNothing();
      return;
    }
    const { path, id, deleted } = selected;
    const file = files.find((f) => f.id === id);
    delete viewer.dataset.empty;
    fill(
      fileHead,
      el("h3", { id: "viewer-title", className: "viewer-title" }, el("code", { dataset: { testid: "viewer-path" } }, path)),
      file ? el("span", { className: "meta" }, `${formatBytes(file.size)} · changed ${describeWhen(file.updatedAt)}`) : null,
      deleted ? el("span", { className: "badge badge-problem", dataset: { testid: "deleted-badge" } }, "deleted") : null,
    );
    const readOnly = session.store.archived_at !== null;
    // Deleted while the user has unsaved text in the editor: the text stays, with a choice.
    const unsaved = deleted && id !== null && editor.memoryId === id && editor.isDirty();
    const noEdit = (deleted && !unsaved) || readOnly;
    tabs.setDisabled("file-tab-edit", noEdit);
    if (noEdit && tabs.selected() === "file-tab-edit") tabs.select(deleted ? "file-tab-history" : "file-tab-view");
    const tab = tabs.selected();
    if (tab === "file-tab-view") await paintView(path, deleted);
    else if (tab === "file-tab-edit") {
      if (unsaved) editor.showDeleted();
      else if (editor.memoryId !== id) await editor.open(path);
    } else if (tab === "file-tab-history" && id) {
      await history.show(id, deleted ? null : (await headOf(id)));
    }
    if (selected?.path !== path) return; // another memory was picked meanwhile
    // Set last: tests (and styles) read it as "this memory is painted".
    viewer.dataset.path = path;
    viewer.dataset.deleted = String(deleted);
    if (id) viewer.dataset.id = id;
    else delete viewer.dataset.id;
  }

  /** The head version of a live memory. @param {string} id */
  async function headOf(id) {
    try {
      return (await memory().memories.get(id)).memory_version_id ?? null;
    } catch {
      return null;
    }
  }

  /**
   * The file as the model's `view` shows it: numbered lines, or an image block.
   * @param {string} path @param {boolean} deleted
   */
  async function paintView(path, deleted) {
    if (deleted) {
      viewPanel.replaceChildren(el("p", { className: "placeholder" }, "This memory was deleted. Its history keeps every version: open History to restore one."));
      return;
    }
    viewer.setAttribute("aria-busy", "true");
    let result;
    try {
      result = await memory().execute({ command: "view", path });
    } catch (error) {
      result = { content: `memory.execute threw: ${describeError(error)}`, isError: true };
    }
    if (selected?.path !== path) return; // another file was picked meanwhile
    viewPanel.replaceChildren(
      el(
        "p",
        { className: "meta" },
        "What the model reads for ",
        el("code", {}, `{"command":"view","path":${JSON.stringify(path)}}`),
        result.isError ? el("span", { className: "badge badge-error" }, " is_error: true") : null,
      ),
      renderContent(result.content, { testid: "viewer", isError: result.isError }),
    );
    viewer.removeAttribute("aria-busy");
  }

  async function upload() {
    const file = uploadInput.files && uploadInput.files[0];
    uploadInput.value = ""; // so choosing the same file again fires `change`
    if (!file) return;
    let dir = uploadDir.value.trim() || "/memories/";
    if (!dir.endsWith("/")) dir += "/";
    const path = `${dir}${file.name}`;
    const taken = files.find((f) => f.path === path.normalize("NFC"));
    if (taken) {
      const question = `${taken.path} already exists. Replace it with the uploaded “${file.name}”? Its current text stays in the history.`;
      if (!window.confirm(question)) {
        announce(`Not uploaded: ${taken.path} was kept as it is.`);
        return;
      }
    }
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      await memory().writeFile(path, bytes);
    } catch (error) {
      notify(`Could not upload “${file.name}” to ${path}: ${describeError(error)}`);
      return;
    }
    tabs.select("file-tab-view");
    await refresh();
    await select(path.normalize("NFC"));
  }

  async function clearStore() {
    let current;
    try {
      current = await listFiles(memory());
    } catch (error) {
      notify(`Could not list the store: ${describeError(error)}`);
      return;
    }
    if (current.length === 0) {
      notify(`The store “${session.name}” is already empty.`);
      return;
    }
    const question =
      `Delete all ${current.length.toLocaleString("en-US")} file${current.length === 1 ? "" : "s"} ` +
      `in the store “${session.name}”? Their history stays, so each can be restored.`;
    if (!window.confirm(question)) return;
    const failures = [];
    for (const file of current) {
      try {
        await memory().memories.delete(file.id);
      } catch (error) {
        failures.push(`${file.path}: ${describeError(error)}`);
      }
    }
    if (failures.length) notify(`Some memories could not be deleted. ${failures.join("; ")}`);
    await refresh();
  }

  paintNothing();
  return { refresh, select };
}
