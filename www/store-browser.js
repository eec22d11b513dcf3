// The memory browser: the open store's tree, the selected memory in three tabs (as the model
// sees it, an editor with a precondition, its history with diffs, restore and redact), recently
// deleted memories, uploads and clearing the store. It repaints by itself when a change is
// committed: by the agent, the console or the editor in this tab, or by another tab. Memories
// that expire as the store opens are named in a notice, with where to restore them; after each
// paint the panel dispatches "files" (detail: the files, newest first) for the memory chip.

import { el, fill, renderContent, formatBytes, describeError } from "./render.js";
import { listFiles, renderTree, renderFlat, toToolPath, toStorePath } from "./browser/tree.js";
import { mountEditor } from "./browser/file-editor.js";
import { mountHistory } from "./browser/history-view.js";
import { describeWhen } from "./browser/words.js";
import { originNodes, restoredFromOf } from "./browser/provenance.js";
import { mountExpiry } from "./browser/expiry-view.js";
import { mountTabs } from "./tabs.js";
import { EXPIRE_AFTER_DAYS, RETENTION_DAYS } from "./stores.js";

const DAY_MS = 24 * 3600 * 1000;

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
  const search = /** @type {HTMLInputElement} */ ($("tree-search"));
  const sort = /** @type {HTMLSelectElement} */ ($("tree-sort"));
  const searchStatus = $("search-status");
  const newFileButton = /** @type {HTMLButtonElement} */ ($("new-file-button"));
  const newFileForm = /** @type {HTMLFormElement} */ ($("new-file-form"));
  const newFilePath = /** @type {HTMLInputElement} */ ($("new-file-path"));
  const newFileProblem = $("new-file-problem");
  const pickButton = /** @type {HTMLButtonElement} */ ($("pick-button"));
  const bulkBar = $("bulk-bar");
  const bulkCount = $("bulk-count");
  const bulkExport = /** @type {HTMLButtonElement} */ ($("bulk-export"));
  const bulkDelete = /** @type {HTMLButtonElement} */ ($("bulk-delete"));
  const expiredNotice = $("expired-notice");
  const memory = () => session.memory;
  /** Memories expired as the store opened, waiting to be named together. @type {string[]} */
  let expiredNow = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let expiredTimer;
  /** With bulk selection on: the memories ticked, by id. @type {Map<string, import("./browser/tree.js").TreeFile> | null} */
  let picked = null;
  /** Above this many files the tree starts with its folders folded. */
  const FOLD_ABOVE = 40;
  /** Folders the user unfolded. */
  const opened = new Set();
  /** Texts read for the search, by memory id, kept while the memory is unchanged. */
  const texts = new Map();
  let searches = 0;

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
  const expiry = mountExpiry({
    root: /** @type {HTMLDetailsElement} */ ($("expiry")),
    memory,
    readOnly: () => session.store.archived_at !== null,
    onSelect: (path) => void select(path),
    onChanged: () => refresh(),
    announce,
    notify,
  });

  refreshButton.addEventListener("click", () => void refresh());
  search.addEventListener("input", () => paintTree());
  sort.addEventListener("change", () => paintTree());
  newFileButton.addEventListener("click", () => {
    newFileForm.hidden = !newFileForm.hidden;
    if (newFileForm.hidden) return;
    newFileProblem.textContent = "";
    newFilePath.focus();
    newFilePath.setSelectionRange(newFilePath.value.length, newFilePath.value.length);
  });
  const closeNewFile = () => {
    newFileForm.hidden = true;
    newFileButton.focus();
  };
  $("new-file-cancel").addEventListener("click", closeNewFile);
  newFileForm.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    closeNewFile();
  });
  newFileForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void createFile();
  });
  pickButton.addEventListener("click", () => setPicking(picked === null));
  $("bulk-all").addEventListener("click", () => pickAllShown());
  $("bulk-none").addEventListener("click", () => {
    picked?.clear();
    paintTree();
    paintBulk();
  });
  bulkExport.addEventListener("click", () => void exportPicked());
  bulkDelete.addEventListener("click", () => void deletePicked());
  bulkBar.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    setPicking(false);
  });
  uploadButton.addEventListener("click", () => uploadInput.click());
  uploadInput.addEventListener("change", () => void upload());
  clearButton.addEventListener("click", () => void clearStore());
  refreshButton.disabled = false;
  paintAccess();

  /** An archived store is read-only for good: nothing here offers to change it. */
  function paintAccess() {
    const readOnly = session.store.archived_at !== null;
    uploadDir.disabled = readOnly;
    for (const button of [uploadButton, clearButton, newFileButton]) {
      button.disabled = readOnly;
      button.title = readOnly ? "This store is archived: read-only for good." : "";
    }
  }

  session.addEventListener("switch", () => {
    expiredNotice.hidden = true;
    expiredNow = [];
    paintAccess();
    if (picked) picked.clear();
    paintBulk();
    selected = null;
    collapsed.clear();
    opened.clear();
    texts.clear();
    recent.clear();
    editor.close();
    history.clear();
    paintNothing();
    void refresh();
  });
  session.addEventListener("change", (event) => onChange(/** @type {CustomEvent} */ (event).detail));
  // The store's data was deleted outside the page: what the panel shows of it is gone too (the
  // page's notice offers the ways on; a "switch" follows once the store starts over).
  session.addEventListener("vanished", () => {
    files = [];
    selected = null;
    if (picked) picked.clear();
    editor.close();
    paintNothing();
    paintBulk();
    summary.textContent = "Its data was deleted outside this page: see the notice at the top.";
    tree.replaceChildren(el("p", { className: "placeholder", dataset: { testid: "tree-vanished" } }, "Nothing to show: the store's data is gone."));
    deletedBox.hidden = true;
    expiry.clear();
  });

  /**
   * A change was committed to the store. The tree is reloaded once a burst of changes settles
   * (an agent's turn can make several); the open memory's panels follow it.
   * @param {import("memory-tool-wasm").ChangeEvent} change
   */
  function onChange(change) {
    if (change.created_by?.type === "expiry" && change.operation === "deleted" && change.path && !expiry.expiring) {
      expiredNow.push(toToolPath(change.path));
      clearTimeout(expiredTimer);
      expiredTimer = setTimeout(paintExpired, 150);
    }
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
   * Names the memories that expired as the store opened (the package's expiry runs after the
   * store's first command): what went, why, and where to restore each, until when.
   */
  function paintExpired() {
    const gone = [...new Set(expiredNow)].sort();
    expiredNow = [];
    if (gone.length === 0) return;
    const until = new Date(Date.now() + RETENTION_DAYS * DAY_MS).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
    const n = gone.length;
    expiredNotice.replaceChildren(
      el(
        "p",
        { dataset: { testid: "expired-words" } },
        `${n} memor${n === 1 ? "y" : "ies"} expired as this store opened: not viewed or changed for ${EXPIRE_AFTER_DAYS} days. `,
        `${n === 1 ? "It is" : "Each is"} under “Recently deleted”, below the files: open ${n === 1 ? "it" : "one"} there and restore it from its history, until ${until}.`,
      ),
      el("ul", {}, ...gone.map((path) => el("li", {}, el("code", {}, path)))),
      el(
        "button",
        {
          type: "button",
          className: "small",
          dataset: { testid: "expired-dismiss" },
          onclick: () => {
            expiredNotice.hidden = true;
            search.focus();
          },
        },
        "Dismiss",
      ),
    );
    expiredNotice.hidden = false;
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
    if (picked) for (const id of [...picked.keys()]) if (!files.some((f) => f.id === id)) picked.delete(id);
    paintTree();
    root.dispatchEvent(new CustomEvent("files", { detail: { files: byRecent(files) } }));
    paintBulk();
    await paintDeleted();
    await expiry.paint();
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
    const newest = files.reduce((a, f) => (a === null || f.updatedAt > a.updatedAt ? f : a), /** @type {any} */ (null));
    summary.textContent =
      files.length === 0
        ? "Empty."
        : `${files.length.toLocaleString("en-US")} file${files.length === 1 ? "" : "s"}, ${formatBytes(total)} in all; ` +
          `last changed: ${newest.path}, ${describeWhen(newest.updatedAt)}.`;
    const current = selected && !selected.deleted ? selected.path : null;
    const query = search.value.trim();
    if (query) {
      void paintSearch(query);
      return;
    }
    searchStatus.textContent = "";
    delete tree.dataset.search;
    if (sort.value === "recent" || sort.value === "used") {
      const items = (sort.value === "used" ? byLastUse(files) : byRecent(files)).map((file) => ({ file, snippet: null }));
      const when = sort.value === "used" ? "used" : "changed";
      tree.replaceChildren(renderFlat(items, { selected: current, query: "", onSelect: (path) => void select(path), empty: "No memories yet.", picking: picking(), when }));
      return;
    }
    tree.replaceChildren(
      renderTree(files, {
        selected: current,
        collapsed,
        opened,
        foldAll: files.length > FOLD_ABOVE,
        recent,
        onSelect: (path) => void select(path),
        picking: picking(),
      }),
    );
  }

  /** The tree's bulk selection, when it is on. */
  function picking() {
    if (picked === null) return undefined;
    const ticked = picked;
    return {
      ids: new Set(ticked.keys()),
      onToggle: (/** @type {import("./browser/tree.js").TreeFile} */ file, /** @type {boolean} */ on) => {
        if (on) ticked.set(file.id, file);
        else ticked.delete(file.id);
        paintBulk();
      },
    };
  }

  /** Turns bulk selection on (checkboxes in the tree, the bar of actions) or off. @param {boolean} on */
  function setPicking(on) {
    picked = on ? new Map() : null;
    pickButton.setAttribute("aria-pressed", String(on));
    pickButton.textContent = on ? "Done selecting" : "Select several";
    paintTree();
    paintBulk();
    if (on) (/** @type {HTMLElement | null} */ (tree.querySelector("input.pick")) ?? $("bulk-all")).focus();
    else pickButton.focus();
  }

  /** The count and what can be done with the memories ticked. */
  function paintBulk() {
    bulkBar.hidden = picked === null;
    const n = picked?.size ?? 0;
    bulkCount.textContent = n === 0 ? "None selected" : `${n} selected`;
    const readOnly = session.store.archived_at !== null;
    bulkExport.disabled = n === 0;
    bulkDelete.disabled = n === 0 || readOnly;
    bulkDelete.title = readOnly ? "This store is archived: read-only for good." : "";
  }

  /** Ticks every memory the tree (or the search) shows now. */
  function pickAllShown() {
    if (!picked) return;
    const shown = new Set([...tree.querySelectorAll('[data-testid="tree-file"]')].map((b) => /** @type {HTMLElement} */ (b).dataset.id));
    for (const file of files) if (shown.has(file.id)) picked.set(file.id, file);
    paintTree();
    paintBulk();
  }

  /** The ticked memories, by path. */
  function pickedFiles() {
    return [...(picked?.values() ?? [])].sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /**
   * Deletes the ticked memories after asking; each goes to "Recently deleted", restorable from
   * its history like a single deletion.
   */
  async function deletePicked() {
    const chosen = pickedFiles();
    if (chosen.length === 0) return;
    const listed = chosen.slice(0, 8).map((f) => f.path).join(", ") + (chosen.length > 8 ? `, and ${chosen.length - 8} more` : "");
    const question = `Delete ${chosen.length} memor${chosen.length === 1 ? "y" : "ies"} (${listed})? Each goes to “Recently deleted”, where its history can restore it for ${RETENTION_DAYS} days.`;
    if (!window.confirm(question)) return;
    const failures = [];
    for (const file of chosen) {
      try {
        await memory().memories.delete(file.id);
        picked?.delete(file.id);
      } catch (error) {
        failures.push(`${file.path}: ${describeError(error)}`);
      }
    }
    if (failures.length) notify(`Some memories could not be deleted. ${failures.join("; ")}`);
    const done = chosen.length - failures.length;
    announce(`Deleted ${done} memor${done === 1 ? "y" : "ies"}: under “Recently deleted”, each restorable.`);
    await refresh();
    search.focus();
  }

  /** Saves the ticked memories (with their history, if "with history" is ticked) as a bundle file. */
  async function exportPicked() {
    const chosen = pickedFiles();
    if (chosen.length === 0) return;
    const withHistory = /** @type {HTMLInputElement | null} */ (document.getElementById("export-versions"))?.checked ?? true;
    let bundle;
    try {
      bundle = await memory().export({ include_versions: withHistory });
    } catch (error) {
      notify(`Could not export: ${describeError(error)}`);
      return;
    }
    const ids = new Set(chosen.map((f) => f.id));
    // A bundle of some memories is the store's bundle with only theirs: each memory and version
    // carries its own hash, so the part imports (and is checked) like a whole.
    const part = {
      ...bundle,
      memories: bundle.memories.filter((m) => ids.has(m.id)),
      ...(bundle.versions ? { versions: bundle.versions.filter((v) => ids.has(v.memory_id)) } : {}),
    };
    const name = `${session.name.replace(/[^\w.-]+/g, "-")}-${chosen.length}-memor${chosen.length === 1 ? "y" : "ies"}.json`;
    const url = URL.createObjectURL(new Blob([JSON.stringify(part, null, 2)], { type: "application/json" }));
    const link = el("a", { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    announce(`Exported ${chosen.length} memor${chosen.length === 1 ? "y" : "ies"}${withHistory ? " with their history" : ""} to ${name}.`);
  }

  /** @param {import("./browser/tree.js").TreeFile[]} list */
  function byRecent(list) {
    return [...list].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.path < b.path ? -1 : 1));
  }

  /** The longest unused first (what expires first). @param {import("./browser/tree.js").TreeFile[]} list */
  function byLastUse(list) {
    return [...list].sort((a, b) => (a.lastUsedAt < b.lastUsedAt ? -1 : a.lastUsedAt > b.lastUsedAt ? 1 : a.path < b.path ? -1 : 1));
  }

  /**
   * The files whose path or text holds `query` (any case), the match marked, with a line of
   * the text around the first match. Texts are read once per version of each memory.
   * @param {string} query
   */
  async function paintSearch(query) {
    const seq = ++searches;
    const needle = query.toLowerCase();
    /** @type {Array<{ file: import("./browser/tree.js").TreeFile, snippet: string | null }>} */
    const items = [];
    for (const file of files) {
      let known = texts.get(file.id);
      if (!known || known.updatedAt !== file.updatedAt) {
        let text = "";
        try {
          text = (await memory().memories.get(file.id)).content ?? "";
        } catch {
          // Gone meanwhile: the next refresh drops it.
        }
        known = { updatedAt: file.updatedAt, text };
        texts.set(file.id, known);
        if (seq !== searches) return;
      }
      const inPath = file.path.toLowerCase().includes(needle);
      const at = known.text.toLowerCase().indexOf(needle);
      if (inPath || at >= 0) items.push({ file, snippet: at >= 0 ? lineAround(known.text, at) : null });
    }
    if (seq !== searches) return;
    const order = sort.value === "recent" ? byRecent : sort.value === "used" ? byLastUse : null;
    const shown = order ? order(items.map((i) => i.file)).map((f) => /** @type {any} */ (items.find((i) => i.file === f))) : items;
    tree.replaceChildren(
      renderFlat(shown, {
        selected: selected && !selected.deleted ? selected.path : null,
        query,
        picking: picking(),
        onSelect: (path) => void select(path),
        when: sort.value === "used" ? "used" : "changed",
        empty: `Nothing matches “${query}” in the paths or texts of this store.`,
      }),
    );
    searchStatus.textContent = `${items.length} of ${files.length} file${files.length === 1 ? "" : "s"} match “${query}”.`;
    tree.dataset.search = query;
  }

  /** The line of `text` around offset `at`, cut to a readable length. @param {string} text @param {number} at */
  function lineAround(text, at) {
    const start = text.lastIndexOf("\n", at - 1) + 1;
    const end = text.indexOf("\n", at);
    const line = text.slice(start, end < 0 ? text.length : end);
    return line.length > 120 ? `${at - start > 60 ? "…" : ""}${line.slice(Math.max(0, at - start - 60), at - start + 60)}…` : line;
  }

  /** Creates an empty memory at the path typed and opens it in the editor. */
  async function createFile() {
    const path = newFilePath.value.trim();
    if (!path.startsWith("/memories/") || path.endsWith("/")) {
      newFileProblem.textContent = "A file's path starts with /memories/ and ends with its name, for example /memories/notes/ideas.md.";
      newFilePath.focus();
      return;
    }
    try {
      await memory().memories.create({ path: toStorePath(path), content: "" });
    } catch (error) {
      newFileProblem.textContent = `Could not create ${path}: ${describeError(error)}`;
      newFilePath.focus();
      return;
    }
    newFileForm.hidden = true;
    newFilePath.value = "/memories/";
    announce(`Created ${path}.`);
    tabs.select("file-tab-edit");
    await refresh();
    await select(path.normalize("NFC"));
    /** @type {HTMLElement | null} */ ($("file-edit").querySelector("#edit-content"))?.focus();
  }

  /** Deletes the open memory after asking; it goes to "Recently deleted", restorable. */
  async function deleteSelected() {
    if (!selected?.id || selected.deleted) return;
    const { id, path } = selected;
    if (!window.confirm(`Delete ${path}? It goes to “Recently deleted”, where its history can restore it for ${RETENTION_DAYS} days.`)) return;
    try {
      await memory().memories.delete(id);
    } catch (error) {
      notify(`Could not delete ${path}: ${describeError(error)}`);
      return;
    }
    announce(`Deleted ${path}: it is under “Recently deleted”, restorable.`);
    await refresh();
    search.focus();
  }

  /** Saves the open memory's bytes as a file of the same name. */
  async function downloadSelected() {
    if (!selected?.id || selected.deleted) return;
    let stored;
    try {
      stored = await memory().memories.get(selected.id);
    } catch (error) {
      notify(`Could not read ${selected.path}: ${describeError(error)}`);
      return;
    }
    const bytes =
      stored.content !== null ? new TextEncoder().encode(stored.content) : Uint8Array.from(atob(stored.content_base64 ?? ""), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: stored.content !== null ? "text/plain;charset=utf-8" : "application/octet-stream" }));
    const link = el("a", { href: url, download: stored.path.slice(stored.path.lastIndexOf("/") + 1), hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
        el("summary", {}, `Recently deleted (${gone.size})`, el("span", { className: "hint" }, ` · each restorable for ${RETENTION_DAYS} days from its deletion`)),
        el(
          "ul",
          {},
          ...[...gone.values()].map((version) => {
            const path = version.path ? toToolPath(version.path) : "(redacted path)";
            const expired = version.created_by?.type === "expiry";
            return el(
              "li",
              {},
              el(
                "button",
                {
                  type: "button",
                  className: `file deleted${selected?.deleted && selected.id === version.memory_id ? " selected" : ""}`,
                  dataset: { testid: "deleted-file", path, id: version.memory_id, by: expired ? "expiry" : (version.created_by?.type ?? "unknown") },
                  onclick: () => void selectDeleted(version.memory_id, path),
                },
                el("span", { className: "name" }, path),
                el(
                  "span",
                  { className: "size", title: `Restorable until ${new Date(Date.parse(version.created_at) + RETENTION_DAYS * DAY_MS).toLocaleString()}` },
                  `${expired ? "expired" : "deleted"} ${describeWhen(version.created_at)}`,
                ),
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
      file ? el("span", { className: "meta", dataset: { testid: "viewer-facts" } }, `${formatBytes(file.size)} · changed ${describeWhen(file.updatedAt)} · last used ${describeWhen(file.lastUsedAt)}`) : null,
      deleted ? el("span", { className: "badge badge-problem", dataset: { testid: "deleted-badge" } }, "deleted") : null,
      id ? el("span", { className: "meta origin", dataset: { testid: "viewer-origin" } }) : null,
      !deleted && id
        ? el(
            "span",
            { className: "file-actions" },
            el("button", { type: "button", className: "small", dataset: { testid: "file-download" }, onclick: () => void downloadSelected() }, "Download"),
            session.store.archived_at === null
              ? el("button", { type: "button", className: "small danger", dataset: { testid: "file-delete" }, onclick: () => void deleteSelected() }, "Delete")
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
    viewer.dataset.path = path;
    viewer.dataset.deleted = String(deleted);
    if (id) viewer.dataset.id = id;
    else delete viewer.dataset.id;
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
      `in the store “${session.name}”? Each goes to “Recently deleted”, where its history can restore it for ${RETENTION_DAYS} days.`;
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
