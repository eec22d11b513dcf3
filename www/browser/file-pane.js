// The memory browser's file pane: the memory open in it (the selection, which it alone keeps:
// a live memory followed by id across renames, or a deleted one), its header (path, facts,
// where its last version came from, Download and Delete) and its three tabs: as the model sees
// it (the tool's `view`), the editor, and its history.

import { el, fill, renderContent, formatBytes, describeError } from "../render.js";
import { mountEditor } from "./file-editor.js";
import { mountHistory } from "./history-view.js";
import { describeWhen } from "./words.js";
import { originNodes, restoredFromOf } from "./provenance.js";
import { mountTabs } from "../tabs.js";

/**
 * What the file pane shows: a live memory (by id, at its current path), or a deleted one.
 * @typedef {{ id: string | null, path: string, deleted: boolean }} Selection
 */

/**
 * @typedef {object} FilePaneOptions
 * @property {HTMLElement} root                         the viewer section (#viewer)
 * @property {import("../store-session.js").StoreSession} session
 * @property {() => import("./tree.js").TreeFile[]} files   the store's files, as last listed
 * @property {() => Promise<void>} refresh              lists the store again and repaints the panel
 * @property {() => void} onMarked                      the selection changed: the tree marks it
 * @property {() => void} download                      the header's Download
 * @property {() => void} remove                        the header's Delete
 * @property {(message: string) => void} notify
 * @property {(message: string) => void} announce
 */

/**
 * Wires the file pane; it starts with no memory open.
 * @param {FilePaneOptions} options
 */
export function mountFilePane({ root, session, files, refresh, onMarked, download, remove, notify, announce }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const fileHead = $("file-head");
  const viewPanel = $("file-view");
  const memory = () => session.memory;

  /** @type {Selection | null} */
  let selected = null;

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
  const tabs = mountTabs($("file-tabs"), { onChange: () => void paint() });

  /** Shows a memory (by its tool path) in the file pane and has the tree mark it. */
  async function select(/** @type {string} */ path) {
    const file = files().find((f) => f.path === path);
    selected = { id: file?.id ?? null, path, deleted: false };
    if (!file) {
      // Not in the last listing (just written): list again to learn its id.
      await refresh();
      const again = files().find((f) => f.path === path);
      selected = { id: again?.id ?? null, path, deleted: false };
    }
    editor.close();
    onMarked();
    await paint();
  }

  /** Shows a deleted memory, on its History tab (where it is restored). @param {string} id @param {string} path */
  async function selectDeleted(id, path) {
    selected = { id, path, deleted: true };
    editor.close();
    onMarked();
    tabs.select("file-tab-history");
    await paint();
  }

  /**
   * Opens `path` on `tab` once the store is listed again: for a memory just written here (an
   * upload, a new file), whose id the last listing does not know yet.
   * @param {string} path @param {string} tab the tab's id
   */
  async function open(path, tab) {
    tabs.select(tab);
    await refresh();
    await select(path);
  }

  /** After a listing: follow the memory by id, since a rename moves it and a deletion leaves its history. */
  function follow() {
    if (!selected || !selected.id) return;
    const now = files().find((f) => f.id === selected?.id);
    if (now) {
      selected.path = now.path;
      selected.deleted = false;
    } else if (!selected.deleted) {
      selected.deleted = true;
    }
  }

  /** A change was committed: the editor of the memory it changed hears of it. @param {import("memory-tool-wasm").ChangeEvent} change */
  function noteChange(change) {
    if (selected && selected.id === change.memory_id) void editor.noteChange(change);
  }

  /** Another store is shown: nothing is open, and no history is kept from the last one. */
  function reset() {
    selected = null;
    editor.close();
    history.clear();
    paintNothing();
  }

  /** The store's data is gone: nothing is open. */
  function clear() {
    selected = null;
    editor.close();
    paintNothing();
  }

  function paintNothing() {
    delete root.dataset.path;
    delete root.dataset.id;
    root.dataset.empty = "true";
    fileHead.replaceChildren(el("h3", { id: "viewer-title", className: "viewer-title" }, "No memory open"));
    viewPanel.replaceChildren(el("p", { className: "placeholder" }, "Pick a file in the tree to see it as the model does, edit it, or read its history."));
    $("file-edit").replaceChildren();
    history.clear();
  }

  /** Paints the file pane's header and its active tab for the selection. */
  async function paint() {
    if (!selected) {
      paintNothing();
      return;
    }
    const { path, id, deleted } = selected;
    const file = files().find((f) => f.id === id);
    delete root.dataset.empty;
    fill(
      fileHead,
      el("h3", { id: "viewer-title", className: "viewer-title" }, el("code", { dataset: { testid: "viewer-path" } }, path)),
      file ? el("span", { className: "meta", dataset: { testid: "viewer-facts" } }, `${formatBytes(file.size)} · changed ${describeWhen(file.updatedAt)} · last used ${describeWhen(file.lastUsedAt)}`) : null,
      deleted ? el("span", { className: "badge badge-problem", dataset: { testid: "deleted-badge" } }, "deleted") : null,
      id ? el("span", { className: "meta origin", dataset: { testid: "viewer-origin" } }) : null,
      !deleted && id
        ? el(
            "span",
            { className: "file-actions" },
            el("button", { type: "button", className: "small", dataset: { testid: "file-download" }, onclick: () => download() }, "Download"),
            session.store.archived_at === null
              ? el("button", { type: "button", className: "small danger", dataset: { testid: "file-delete" }, onclick: () => remove() }, "Delete")
              : null,
          )
        : null,
    );
    if (id) void paintOrigin(id, deleted);
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
    root.dataset.path = path;
    root.dataset.deleted = String(deleted);
    if (id) root.dataset.id = id;
    else delete root.dataset.id;
  }

  /**
   * Where the open memory's last version came from: its actor, linked to the tool call in this
   * page's conversation when the agent wrote it.
   * @param {string} id @param {boolean} deleted
   */
  async function paintOrigin(id, deleted) {
    let head;
    try {
      const page = await memory().versions.list({ memory_id: id, limit: 1 });
      head = page.data[0];
    } catch {
      return;
    }
    const box = fileHead.querySelector('[data-testid="viewer-origin"]');
    if (!box || !head || selected?.id !== id) return;
    const from = restoredFromOf(head.created_by);
    box.replaceChildren(
      deleted ? "Deleted by " : from ? "Last change: a restore, by " : "Last change by ",
      ...originNodes(head.created_by, { testid: "viewer-origin-link", operation: head.operation, memoryId: head.memory_id }),
    );
    /** @type {HTMLElement} */ (box).dataset.versionId = head.id;
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
    root.setAttribute("aria-busy", "true");
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
    root.removeAttribute("aria-busy");
  }

  paintNothing();
  return {
    /** The memory open, or null. The object itself: a rename seen by the next listing moves its path. */
    selection: () => selected,
    select,
    selectDeleted,
    open,
    follow,
    paint,
    noteChange,
    reset,
    clear,
  };
}
