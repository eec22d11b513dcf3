// The store's files as a folder tree: built from `memory.memories.list()`, painted as nested
// lists (folders are <details>, files are buttons), sizes written as the tool's listings do.

import { el, formatSize, formatBytes } from "../render.js";
import { describeWhen } from "./words.js";

/**
 * A file in the tree. `path` is the tool's path (`/memories/notes/todo.md`); `lastUsedAt` is
 * when the model (or the host) last viewed or changed it, what expiry counts from.
 * @typedef {{ id: string, name: string, path: string, size: number, updatedAt: string, lastUsedAt: string }} TreeFile
 */

/**
 * @typedef {object} TreeDir
 * @property {string} name
 * @property {string} path      the tool's path (`/memories/notes`)
 * @property {number} size      bytes of every file below it
 * @property {Map<string, TreeDir>} dirs
 * @property {Map<string, TreeFile>} fileMap
 */

/**
 * Every memory of the store, with the tool's path, sorted by path.
 * @param {import("memory-tool-wasm").MemoryTool} memory
 * @returns {Promise<TreeFile[]>}
 */
export async function listFiles(memory) {
  const listing = /** @type {any} */ (await memory.memories.list());
  const records = Array.isArray(listing) ? listing : listing.data;
  /** @type {TreeFile[]} */
  const out = [];
  for (const record of records) {
    if (!record || (record.type && record.type !== "memory")) continue;
    const path = toToolPath(record.path);
    out.push({
      id: record.id,
      name: path.slice(path.lastIndexOf("/") + 1),
      path,
      size: Number(record.content_size_bytes),
      updatedAt: record.updated_at,
      lastUsedAt: record.last_accessed_at ?? record.updated_at,
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The memory tool's spelling of a store path: the host API names memories as the memory stores
 * API does (`/notes/todo.md`); the tool sees them under /memories.
 * @param {string} path
 */
export function toToolPath(path) {
  return `/memories${path}`;
}

/**
 * The host API's spelling of a tool path (`/memories/notes/todo.md` → `/notes/todo.md`).
 * @param {string} path
 */
export function toStorePath(path) {
  return path.startsWith("/memories/") ? path.slice("/memories".length) : path;
}

/**
 * @typedef {object} TreeView
 * @property {string | null} selected         the selected file's path
 * @property {Set<string>} collapsed          folders the user folded
 * @property {Set<string>} [opened]           folders the user unfolded (they matter when `foldAll`)
 * @property {boolean} [foldAll]              big stores start with every folder folded
 * @property {Set<string>} recent             paths changed a moment ago (highlighted)
 * @property {(path: string) => void} onSelect
 * @property {Picking} [picking]               with bulk selection on: the ticked memories
 */

/**
 * Bulk selection: a checkbox before each file, ticked for the memories in `ids`.
 * @typedef {{ ids: Set<string>, onToggle: (file: TreeFile, on: boolean) => void }} Picking
 */

/**
 * The checkbox that picks `file` for a bulk action (nothing without bulk selection).
 * @param {TreeFile} file
 * @param {Picking | undefined} picking
 */
function pickBox(file, picking) {
  if (!picking) return null;
  const box = /** @type {HTMLInputElement} */ (
    el("input", {
      type: "checkbox",
      className: "pick",
      checked: picking.ids.has(file.id),
      "aria-label": `Select ${file.path}`,
      dataset: { testid: "pick", path: file.path },
    })
  );
  box.addEventListener("change", () => picking.onToggle(file, box.checked));
  return box;
}

/**
 * Paints the tree of `files` (a placeholder when there are none).
 * @param {TreeFile[]} files
 * @param {TreeView} view
 * @returns {HTMLElement}
 */
export function renderTree(files, view) {
  if (files.length === 0) {
    return el("p", { className: "placeholder" }, "No memories yet. Ask the agent to remember something, run “create a note” in the console, or upload a file.");
  }
  const root = buildTree(files);
  return el(
    "ul",
    { className: "tree-root" },
    el(
      "li",
      {},
      el("div", { className: "tree-dir-label root-label" }, el("span", { className: "name" }, "/memories"), sizeTag(root.size)),
      renderDir(root, view),
    ),
  );
}

/**
 * @param {TreeDir} dir
 * @param {TreeView} view
 * @returns {HTMLElement}
 */
function renderDir(dir, view) {
  const list = el("ul", {});
  const names = [...new Set([...dir.dirs.keys(), ...dir.fileMap.keys()])].sort();
  for (const name of names) {
    const sub = dir.dirs.get(name);
    if (sub) {
      const details = /** @type {HTMLDetailsElement} */ (
        el(
          "details",
          { open: isOpen(sub.path, view), dataset: { path: sub.path } },
          el("summary", { className: "tree-dir-label" }, el("span", { className: "name" }, `${sub.name}/`), sizeTag(sub.size)),
          renderDir(sub, view),
        )
      );
      // A details element created open fires "toggle" too: only a change from what was last
      // shown is the user's.
      let shown = details.open;
      details.addEventListener("toggle", () => {
        if (details.open === shown) return;
        shown = details.open;
        if (details.open) {
          view.collapsed.delete(sub.path);
          view.opened?.add(sub.path);
        } else {
          view.collapsed.add(sub.path);
          view.opened?.delete(sub.path);
        }
      });
      list.append(el("li", { className: "dir" }, details));
    }
    const file = dir.fileMap.get(name);
    if (file) {
      const on = file.path === view.selected;
      const classes = ["file", on ? "selected" : "", view.recent.has(file.path) ? "changed" : ""].filter(Boolean).join(" ");
      list.append(
        el(
          "li",
          { className: `file-item${view.picking ? " picking" : ""}` },
          pickBox(file, view.picking),
          el(
            "button",
            {
              type: "button",
              className: classes,
              "aria-current": on ? "true" : undefined,
              dataset: { path: file.path, id: file.id, testid: "tree-file" },
              title: `${file.path} · ${formatBytes(file.size)}`,
              onclick: () => view.onSelect(file.path),
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

/**
 * Whether a folder shows open: as the user left it; else folded in a big store, unless the
 * selected file is inside it.
 * @param {string} path @param {TreeView} view
 */
function isOpen(path, view) {
  if (view.collapsed.has(path)) return false;
  if (!view.foldAll || view.opened?.has(path)) return true;
  return view.selected !== null && view.selected.startsWith(`${path}/`);
}

/**
 * The files as a flat list (search results, the most recently changed first, or the longest
 * unused first), each with its path, when it changed (or, with `when: "used"`, was last used)
 * and, for a search, the matching text marked.
 * @param {Array<{ file: TreeFile, snippet: string | null }>} items
 * @param {{ selected: string | null, query: string, onSelect: (path: string) => void, empty: string, picking?: Picking, when?: "changed" | "used" }} view
 * @returns {HTMLElement}
 */
export function renderFlat(items, view) {
  if (items.length === 0) return el("p", { className: "placeholder", dataset: { testid: "flat-empty" } }, view.empty);
  return el(
    "ul",
    { className: "flat-list", dataset: { testid: "flat-list" } },
    ...items.map(({ file, snippet }) => {
      const on = file.path === view.selected;
      return el(
        "li",
        { className: `file-item${view.picking ? " picking" : ""}` },
        pickBox(file, view.picking),
        el(
          "button",
          {
            type: "button",
            className: `file flat${on ? " selected" : ""}`,
            "aria-current": on ? "true" : undefined,
            dataset: { path: file.path, id: file.id, testid: "tree-file" },
            onclick: () => view.onSelect(file.path),
          },
          el("span", { className: "name" }, ...marked(file.path, view.query)),
          view.when === "used"
            ? el("span", { className: "meta when", title: file.lastUsedAt, dataset: { testid: "last-used" } }, `used ${describeWhen(file.lastUsedAt)}`)
            : el("span", { className: "meta when", title: file.updatedAt }, `changed ${describeWhen(file.updatedAt)}`),
          snippet !== null ? el("span", { className: "snippet", dataset: { testid: "search-snippet" } }, ...marked(snippet, view.query)) : null,
          sizeTag(file.size),
        ),
      );
    }),
  );
}

/**
 * `text` with each case-insensitive occurrence of `query` in a <mark>.
 * @param {string} text @param {string} query
 * @returns {Array<string | HTMLElement>}
 */
export function marked(text, query) {
  if (!query) return [text];
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  /** @type {Array<string | HTMLElement>} */
  const out = [];
  let at = 0;
  for (let hit = lower.indexOf(needle); hit >= 0; hit = lower.indexOf(needle, hit + needle.length)) {
    if (hit > at) out.push(text.slice(at, hit));
    out.push(el("mark", {}, text.slice(hit, hit + needle.length)));
    at = hit + needle.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/**
 * Folds a flat list of files into folders.
 * @param {TreeFile[]} files
 * @returns {TreeDir}
 */
function buildTree(files) {
  /** @type {TreeDir} */
  const root = { name: "memories", path: "/memories", size: 0, dirs: new Map(), fileMap: new Map() };
  for (const file of files) {
    const parts = file.path.split("/").slice(2); // drop "" and "memories"
    let dir = root;
    dir.size += file.size;
    for (const part of parts.slice(0, -1)) {
      let sub = dir.dirs.get(part);
      if (!sub) {
        sub = { name: part, path: `${dir.path}/${part}`, size: 0, dirs: new Map(), fileMap: new Map() };
        dir.dirs.set(part, sub);
      }
      sub.size += file.size;
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

/**
 * The newest change first (the tree's "recent" order, and the memory chip's).
 * @param {TreeFile[]} list
 */
export function byRecent(list) {
  return [...list].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.path < b.path ? -1 : 1));
}

/**
 * The longest unused first (what expires first).
 * @param {TreeFile[]} list
 */
export function byLastUse(list) {
  return [...list].sort((a, b) => (a.lastUsedAt < b.lastUsedAt ? -1 : a.lastUsedAt > b.lastUsedAt ? 1 : a.path < b.path ? -1 : 1));
}
