// The store browser: a tree of every file in the store (from memory.memories.list), a viewer
// that shows a file exactly as the model's `view` does, uploading files (writeFile with bytes),
// and clearing the store (the delete command on each top-level entry).

import { el, renderContent, formatSize, formatBytes, describeError } from "./render.js";

/**
 * @typedef {object} StoreBrowserOptions
 * @property {HTMLElement} root                  the store panel
 * @property {string} storeName                  shown in confirmations
 * @property {(message: string) => void} notify  shows a problem in words
 */

/**
 * @typedef {object} TreeDir
 * @property {string} name
 * @property {string} path      the tool's path (`/memories/notes`)
 * @property {number} size      bytes of every file below it
 * @property {number} files     files below it
 * @property {Map<string, TreeDir>} dirs
 * @property {Map<string, TreeFile>} fileMap
 */
/** @typedef {{ name: string, path: string, size: number }} TreeFile */

/**
 * Wires the store panel to a MemoryTool.
 * @param {import("memory-tool-wasm").MemoryTool} memory
 * @param {StoreBrowserOptions} options
 * @returns {{ refresh: () => Promise<void>, select: (path: string) => Promise<void> }}
 */
export function mountStoreBrowser(memory, { root, storeName, notify }) {
  const tree = /** @type {HTMLElement} */ (root.querySelector("#tree"));
  const viewer = /** @type {HTMLElement} */ (root.querySelector("#viewer"));
  const summary = /** @type {HTMLElement} */ (root.querySelector("#store-summary"));
  const refreshButton = /** @type {HTMLButtonElement} */ (root.querySelector("#refresh-button"));
  const uploadButton = /** @type {HTMLButtonElement} */ (root.querySelector("#upload-button"));
  const uploadInput = /** @type {HTMLInputElement} */ (root.querySelector("#upload-input"));
  const uploadDir = /** @type {HTMLInputElement} */ (root.querySelector("#upload-dir"));
  const clearButton = /** @type {HTMLButtonElement} */ (root.querySelector("#clear-button"));

  /** @type {string | null} the file shown in the viewer */
  let selected = null;
  /** @type {Set<string>} folders the user folded */
  const collapsed = new Set();
  /** @type {TreeFile[]} */
  let files = [];
  let refreshes = 0;
  let pending = Promise.resolve();

  refreshButton.addEventListener("click", () => void refresh());
  uploadButton.addEventListener("click", () => uploadInput.click());
  uploadInput.addEventListener("change", () => void upload());
  clearButton.addEventListener("click", () => void clearStore());
  for (const button of [refreshButton, uploadButton, clearButton]) button.disabled = false;

  /**
   * Reloads the tree (and the viewer, whose file may have changed). Calls are queued so that
   * two quick refreshes never paint out of order.
   */
  function refresh() {
    pending = pending.then(doRefresh, doRefresh);
    return pending;
  }

  async function doRefresh() {
    try {
      files = await listFiles(memory);
    } catch (err) {
      notify(`Could not list the store: ${describeError(err)}`);
      return;
    }
    paintTree();
    if (selected) {
      if (files.some((f) => f.path === selected)) await paintViewer(selected);
      else {
        paintViewerGone(selected);
        selected = null;
      }
    }
    refreshes += 1;
    tree.dataset.refreshes = String(refreshes);
  }

  /** Shows a file in the viewer and marks it in the tree. */
  async function select(/** @type {string} */ path) {
    selected = path;
    for (const button of tree.querySelectorAll("button.file")) {
      const on = /** @type {HTMLElement} */ (button).dataset.path === path;
      button.classList.toggle("selected", on);
      if (on) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
    await paintViewer(path);
  }

  function paintTree() {
    const totalSize = files.reduce((sum, f) => sum + f.size, 0);
    summary.textContent =
      files.length === 0
        ? "Empty."
        : `${files.length.toLocaleString("en-US")} file${files.length === 1 ? "" : "s"}, ${formatBytes(totalSize)} in all.`;
    if (files.length === 0) {
      tree.replaceChildren(
        el("p", { className: "placeholder" }, "No files yet. Run “create a note” in the console, or upload a file."),
      );
      return;
    }
    const rootDir = buildTree(files);
    const list = el("ul", { className: "tree-root" });
    list.append(
      el(
        "li",
        {},
        el("div", { className: "tree-dir-label root-label" }, el("span", { className: "name" }, "/memories"), sizeTag(rootDir.size)),
        renderDir(rootDir),
      ),
    );
    tree.replaceChildren(list);
  }

  /** @param {TreeDir} dir @returns {HTMLElement} */
  function renderDir(dir) {
    const list = el("ul", {});
    const names = [...dir.dirs.keys(), ...dir.fileMap.keys()].sort();
    for (const name of names) {
      const sub = dir.dirs.get(name);
      if (sub) {
        const details = /** @type {HTMLDetailsElement} */ (
          el(
            "details",
            { open: !collapsed.has(sub.path), dataset: { path: sub.path } },
            el(
              "summary",
              { className: "tree-dir-label" },
              el("span", { className: "name" }, `${sub.name}/`),
              sizeTag(sub.size),
            ),
            renderDir(sub),
          )
        );
        details.addEventListener("toggle", () => {
          if (details.open) collapsed.delete(sub.path);
          else collapsed.add(sub.path);
        });
        list.append(el("li", { className: "dir" }, details));
      }
      const file = dir.fileMap.get(name);
      if (file) {
        const on = file.path === selected;
        list.append(
          el(
            "li",
            { className: "file-item" },
            el(
              "button",
              {
                type: "button",
                className: `file${on ? " selected" : ""}`,
                "aria-current": on ? "true" : undefined,
                dataset: { path: file.path, testid: "tree-file" },
                title: `${file.path} · ${formatBytes(file.size)}`,
                onclick: () => void select(file.path),
              },
              el("span", { className: "name" }, file.name),
              sizeTag(file.size),
            ),
          ),
        );
      }
    }
    return list;
  }

  async function paintViewer(/** @type {string} */ path) {
    viewer.setAttribute("aria-busy", "true");
    let result;
    try {
      result = await memory.execute({ command: "view", path });
    } catch (err) {
      result = { content: `memory.execute threw: ${describeError(err)}`, isError: true };
    }
    const file = files.find((f) => f.path === path);
    viewer.replaceChildren(
      el(
        "header",
        { className: "viewer-head" },
        el("h3", { id: "viewer-title", className: "viewer-title" }, el("code", { dataset: { testid: "viewer-path" } }, path)),
        file ? el("span", { className: "meta" }, formatBytes(file.size)) : null,
        result.isError ? el("span", { className: "badge badge-error" }, "is_error: true") : null,
      ),
      el("p", { className: "meta" }, "What the model sees for ", el("code", {}, `{"command":"view","path":${JSON.stringify(path)}}`)),
      renderContent(result.content, { testid: "viewer", isError: result.isError }),
    );
    viewer.dataset.path = path;
    viewer.removeAttribute("aria-busy");
  }

  function paintViewerGone(/** @type {string} */ path) {
    viewer.replaceChildren(
      el("h3", { id: "viewer-title", className: "viewer-title" }, "Viewer"),
      el("p", { className: "placeholder" }, el("code", {}, path), " is no longer in the store."),
    );
    delete viewer.dataset.path;
  }

  async function upload() {
    const file = uploadInput.files && uploadInput.files[0];
    uploadInput.value = ""; // so choosing the same file again fires `change`
    if (!file) return;
    let dir = uploadDir.value.trim() || "/memories/";
    if (!dir.endsWith("/")) dir += "/";
    const path = `${dir}${file.name}`;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      await memory.writeFile(path, bytes);
    } catch (err) {
      notify(`Could not upload “${file.name}” to ${path}: ${describeError(err)}`);
      return;
    }
    await refresh();
    await select(path.normalize("NFC"));
  }

  async function clearStore() {
    let current;
    try {
      current = await listFiles(memory);
    } catch (err) {
      notify(`Could not list the store: ${describeError(err)}`);
      return;
    }
    if (current.length === 0) {
      notify(`The store “${storeName}” is already empty.`);
      return;
    }
    const question =
      `Delete all ${current.length.toLocaleString("en-US")} file${current.length === 1 ? "" : "s"} ` +
      `in the store “${storeName}”? This cannot be undone.`;
    if (!window.confirm(question)) return;
    const tops = new Set(current.map((f) => f.path.split("/")[2]));
    const failures = [];
    for (const name of [...tops].sort()) {
      const path = `/memories/${name}`;
      try {
        const r = await memory.execute({ command: "delete", path });
        if (r.isError) failures.push(`${path}: ${textOf(r.content)}`);
      } catch (err) {
        failures.push(`${path}: ${describeError(err)}`);
      }
    }
    if (failures.length) notify(`Some entries could not be deleted. ${failures.join("; ")}`);
    await refresh();
  }

  return { refresh, select };
}

/**
 * Every file in the store, with the tool's path and its size in bytes, sorted by path.
 * @param {import("memory-tool-wasm").MemoryTool} memory
 * @returns {Promise<TreeFile[]>}
 */
async function listFiles(memory) {
  const listing = /** @type {any} */ (await memory.memories.list());
  // A MemoryList ({ data }); a plain array is accepted too.
  const records = Array.isArray(listing) ? listing : listing.data;
  /** @type {TreeFile[]} */
  const out = [];
  for (const record of records) {
    if (!record || (record.type && record.type !== "memory")) continue; // prefixes (depth 1) are not files
    const path = toToolPath(record.path);
    const size = Number(record.content_size_bytes);
    out.push({ name: path.slice(path.lastIndexOf("/") + 1), path, size });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The memory tool's spelling of a store path: listings name memories as the memory stores API
 * does (`/notes/todo.md`); the tool sees them under `/memories` (`/memories/notes/todo.md`).
 * @param {string} path
 */
function toToolPath(path) {
  return `/memories${path}`;
}

/**
 * Folds a flat list of files into folders.
 * @param {TreeFile[]} files
 * @returns {TreeDir}
 */
function buildTree(files) {
  /** @type {TreeDir} */
  const root = { name: "memories", path: "/memories", size: 0, files: 0, dirs: new Map(), fileMap: new Map() };
  for (const file of files) {
    const parts = file.path.split("/").slice(2); // drop "" and "memories"
    let dir = root;
    dir.size += file.size;
    dir.files += 1;
    for (const part of parts.slice(0, -1)) {
      let sub = dir.dirs.get(part);
      if (!sub) {
        sub = { name: part, path: `${dir.path}/${part}`, size: 0, files: 0, dirs: new Map(), fileMap: new Map() };
        dir.dirs.set(part, sub);
      }
      sub.size += file.size;
      sub.files += 1;
      dir = sub;
    }
    dir.fileMap.set(parts[parts.length - 1], file);
  }
  return root;
}

/** @param {number} bytes */
function sizeTag(bytes) {
  return el("span", { className: "size", title: formatBytes(bytes) }, formatSize(bytes));
}

/** @param {unknown} content */
function textOf(content) {
  return typeof content === "string" ? content : JSON.stringify(content);
}
