// The memory browser: the open store's tree, the selected memory in three tabs (as the model
// sees it, an editor with a precondition, its history with diffs, restore and redact), recently
// deleted memories, uploads and clearing the store. It repaints by itself when a change is
// committed: by the agent, the console or the editor in this tab, or by another tab. Memories
// that expire as the store opens are named in a notice, with where to restore them; after each
// paint the panel dispatches "files" (detail: the files, newest first) for the memory chip.
//
// This module composes the panel's parts (./browser/): it keeps the store's listing and the
// queue of refreshes, and hears the session; each part keeps its own state and is handed
// getters for the rest (the file pane alone knows the selection, the bulk picking alone what
// is ticked).

import { describeError } from "./render.js";
import { listFiles, toToolPath, byRecent } from "./browser/tree.js";
import { mountTree } from "./browser/tree-view.js";
import { mountBulkPicking } from "./browser/bulk-picking.js";
import { mountFilePane } from "./browser/file-pane.js";
import { mountDeletedList } from "./browser/deleted-list.js";
import { mountStoreActions } from "./browser/store-actions.js";
import { mountExpiredNotice } from "./browser/expired-notice.js";
import { mountExpiry } from "./browser/expiry-view.js";

/**
 * @typedef {object} StoreBrowserOptions
 * @property {HTMLElement} root                     the memory panel
 * @property {import("./store-session.js").StoreSession} session
 * @property {(message: string) => void} notify     shows a problem in words
 * @property {(message: string) => void} announce   says what happened (polite live region)
 */

/**
 * Wires the memory panel to the session's store.
 * @param {StoreBrowserOptions} options
 * @returns {{ refresh: () => Promise<void>, select: (path: string) => Promise<void> }}
 */
export function mountStoreBrowser({ root, session, notify, announce }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const memory = () => session.memory;
  const treeBox = $("tree");
  /** The store's files as last listed: every part reads them through `files`. @type {import("./browser/tree.js").TreeFile[]} */
  let files = [];
  const listed = () => files;
  let refreshes = 0;
  let pending = Promise.resolve();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let changeTimer;

  // The parts call each other through these arrows, so the order they are mounted in does not
  // matter: none calls another while it mounts.
  const pane = mountFilePane({
    root: $("viewer"),
    session,
    files: listed,
    refresh,
    onMarked: () => tree.mark(),
    download: () => void actions.downloadSelected(),
    remove: () => void actions.deleteSelected(),
    notify,
    announce,
  });
  const openPath = () => {
    const selected = pane.selection();
    return selected && !selected.deleted ? selected.path : null;
  };
  const tree = mountTree({
    root,
    memory,
    files: listed,
    selected: openPath,
    onSelect: (path) => void pane.select(path),
    picking: () => picks.picking(),
  });
  const picks = mountBulkPicking({
    root,
    session,
    files: listed,
    paintTree: () => tree.paint(),
    refresh,
    focusSearch: () => tree.focusSearch(),
    notify,
    announce,
  });
  const deleted = mountDeletedList({
    root: $("deleted"),
    memory,
    files: listed,
    selection: () => pane.selection(),
    onSelect: (id, path) => void pane.selectDeleted(id, path),
  });
  const expiry = mountExpiry({
    root: /** @type {HTMLDetailsElement} */ ($("expiry")),
    memory,
    readOnly: () => session.store.archived_at !== null,
    onSelect: (path) => void pane.select(path),
    onChanged: () => refresh(),
    announce,
    notify,
  });
  const expired = mountExpiredNotice({ root: $("expired-notice"), expiring: () => expiry.expiring, onDismiss: () => tree.focusSearch() });
  const actions = mountStoreActions({
    root,
    session,
    files: listed,
    selection: () => pane.selection(),
    open: (path, tab) => pane.open(path, tab),
    refresh,
    focusSearch: () => tree.focusSearch(),
    notify,
    announce,
  });

  session.addEventListener("switch", () => {
    expired.reset();
    actions.paintAccess();
    picks.clear();
    picks.paint();
    tree.reset();
    pane.reset();
    void refresh();
  });
  session.addEventListener("change", (event) => onChange(/** @type {CustomEvent} */ (event).detail));
  // The store's data was deleted outside the page: what the panel shows of it is gone too (the
  // page's notice offers the ways on; a "switch" follows once the store starts over).
  session.addEventListener("vanished", () => {
    files = [];
    picks.clear();
    pane.clear();
    picks.paint();
    tree.vanish();
    deleted.hide();
    expiry.clear();
  });

  /**
   * A change was committed to the store. The tree is reloaded once a burst of changes settles
   * (an agent's turn can make several); the open memory's panels follow it.
   * @param {import("memory-tool-wasm").ChangeEvent} change
   */
  function onChange(change) {
    expired.hear(change);
    if (change.path) {
      const path = toToolPath(change.path);
      tree.noteChanged(path);
      if (change.origin === "remote") announce(`Changed in another tab: ${path} (${change.operation}).`);
    }
    pane.noteChange(change);
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
      // A store that vanished has a notice of its own, with the choices it needs.
      if (/** @type {any} */ (error)?.code !== "STORE_VANISHED") notify(`Could not list the store: ${describeError(error)}`);
      return;
    }
    pane.follow();
    picks.prune();
    tree.paint();
    root.dispatchEvent(new CustomEvent("files", { detail: { files: byRecent(files) } }));
    picks.paint();
    await deleted.paint();
    await expiry.paint();
    await pane.paint();
    refreshes += 1;
    // Set last: the page (and its tests) read it as "listed and painted".
    treeBox.dataset.refreshes = String(refreshes);
  }

  return { refresh, select: (path) => pane.select(path) };
}
