// The tree's search over the store's texts: the files whose path or text holds what is typed in
// the search box (any case), in the tree's order, the match marked, with the line of text around
// the first match; the status line says how many match. Each memory's text is read once per
// version of it and kept, by id, until another store is shown.

import { byRecent, byLastUse } from "./tree.js";

/** @typedef {import("./tree.js").TreeFile} TreeFile */

/** A file that matches, with the line around its first match in the text (null: only its path matches). @typedef {{ file: TreeFile, snippet: string | null }} Found */

/**
 * @typedef {object} TextSearchOptions
 * @property {HTMLElement} root                          the memory panel (#tree, #search-status)
 * @property {() => import("memory-tool-wasm").MemoryTool} memory
 * @property {() => TreeFile[]} files                    the store's files, as last listed
 * @property {() => string} sort                         the tree's order: "path", "recent" or "used"
 * @property {(items: Found[], view: { query: string, when: "changed" | "used", empty: string }) => void} paint
 *   paints a flat list in the tree (the tree knows the selection and the ticked memories)
 */

/**
 * Wires the search.
 * @param {TextSearchOptions} options
 */
export function mountTextSearch({ root, memory, files, sort, paint }) {
  const tree = /** @type {HTMLElement} */ (root.querySelector("#tree"));
  const status = /** @type {HTMLElement} */ (root.querySelector("#search-status"));
  /** Texts read for the search, by memory id, kept while the memory is unchanged. @type {Map<string, { updatedAt: string, text: string }>} */
  const texts = new Map();
  // Each search counts; one that finds a newer one started when its reads come back paints nothing.
  let searches = 0;

  /**
   * Paints the files whose path or text holds `query`.
   * @param {string} query
   */
  async function show(query) {
    const seq = ++searches;
    const needle = query.toLowerCase();
    /** @type {Found[]} */
    const items = [];
    for (const file of files()) {
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
    const order = sort() === "recent" ? byRecent : sort() === "used" ? byLastUse : null;
    const shown = order ? order(items.map((i) => i.file)).map((f) => /** @type {Found} */ (items.find((i) => i.file === f))) : items;
    paint(shown, {
      query,
      when: sort() === "used" ? "used" : "changed",
      empty: `Nothing matches “${query}” in the paths or texts of this store.`,
    });
    const all = files();
    status.textContent = `${items.length} of ${all.length} file${all.length === 1 ? "" : "s"} match “${query}”.`;
    tree.dataset.search = query;
  }

  /** The search box is empty: the status line and the tree's mark of a search go. */
  function off() {
    status.textContent = "";
    delete tree.dataset.search;
  }

  return { show, off, forget: () => texts.clear() };
}

/** The line of `text` around offset `at`, cut to a readable length. @param {string} text @param {number} at */
function lineAround(text, at) {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const end = text.indexOf("\n", at);
  const line = text.slice(start, end < 0 ? text.length : end);
  return line.length > 120 ? `${at - start > 60 ? "…" : ""}${line.slice(Math.max(0, at - start - 60), at - start + 60)}…` : line;
}
