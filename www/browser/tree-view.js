// The memory browser's tree: the store's summary line, its files as folders (big stores start
// folded; what the user folds or unfolds stays so), or as a flat list by last change or last
// use, or the files a search finds (./text-search.js); files changed a moment ago are
// highlighted, the open one is marked, and with bulk selection on each has a checkbox.

import { el, formatBytes } from "../render.js";
import { renderTree, renderFlat, byRecent, byLastUse } from "./tree.js";
import { describeWhen } from "./words.js";
import { mountTextSearch } from "./text-search.js";

/** Above this many files the tree starts with its folders folded. */
const FOLD_ABOVE = 40;

/**
 * @typedef {object} TreeViewOptions
 * @property {HTMLElement} root                          the memory panel
 * @property {() => import("memory-tool-wasm").MemoryTool} memory
 * @property {() => import("./tree.js").TreeFile[]} files   the store's files, as last listed
 * @property {() => string | null} selected              the path of the live memory open, if any
 * @property {(path: string) => void} onSelect           opens a memory (by tool path) in the file pane
 * @property {() => import("./tree.js").Picking | undefined} picking  the bulk selection, when it is on
 */

/**
 * Wires the tree, its search box and its order.
 * @param {TreeViewOptions} options
 */
export function mountTree({ root, memory, files, selected, onSelect, picking }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const tree = $("tree");
  const summary = $("store-summary");
  const search = /** @type {HTMLInputElement} */ ($("tree-search"));
  const sort = /** @type {HTMLSelectElement} */ ($("tree-sort"));
  /** Folders the user folded. */
  const collapsed = new Set();
  /** Folders the user unfolded. */
  const opened = new Set();
  /** Paths changed a moment ago, highlighted in the tree. */
  const recent = new Set();

  /**
   * A flat list in the tree: the order by change or use, or a search's finds.
   * @param {Array<{ file: import("./tree.js").TreeFile, snippet: string | null }>} items
   * @param {{ query: string, when: "changed" | "used", empty: string }} view
   */
  const paintFlat = (items, { query, when, empty }) =>
    tree.replaceChildren(renderFlat(items, { selected: selected(), query, picking: picking(), onSelect, when, empty }));
  const texts = mountTextSearch({ root, memory, files, sort: () => sort.value, paint: paintFlat });

  search.addEventListener("input", () => paint());
  sort.addEventListener("change", () => paint());

  function paint() {
    const all = files();
    const total = all.reduce((sum, f) => sum + f.size, 0);
    const newest = all.reduce((a, f) => (a === null || f.updatedAt > a.updatedAt ? f : a), /** @type {any} */ (null));
    summary.textContent =
      all.length === 0
        ? "Empty."
        : `${all.length.toLocaleString("en-US")} file${all.length === 1 ? "" : "s"}, ${formatBytes(total)} in all; ` +
          `last changed: ${newest.path}, ${describeWhen(newest.updatedAt)}.`;
    const current = selected();
    const query = search.value.trim();
    if (query) {
      void texts.show(query);
      return;
    }
    texts.off();
    if (sort.value === "recent" || sort.value === "used") {
      const items = (sort.value === "used" ? byLastUse(all) : byRecent(all)).map((file) => ({ file, snippet: null }));
      const when = sort.value === "used" ? "used" : "changed";
      tree.replaceChildren(renderFlat(items, { selected: current, query: "", onSelect, empty: "No memories yet.", picking: picking(), when }));
      return;
    }
    tree.replaceChildren(
      renderTree(all, {
        selected: current,
        collapsed,
        opened,
        foldAll: all.length > FOLD_ABOVE,
        recent,
        onSelect,
        picking: picking(),
      }),
    );
  }

  /** Marks the open memory's button, without painting the tree again. */
  function mark() {
    const current = selected();
    for (const button of tree.querySelectorAll("button.file")) {
      const on = /** @type {HTMLElement} */ (button).dataset.path === current;
      button.classList.toggle("selected", on);
      if (on) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }

  /** `path` changed a moment ago: highlighted for a while (painted by the next paint). @param {string} path */
  function noteChanged(path) {
    recent.add(path);
    setTimeout(() => {
      recent.delete(path);
      tree.querySelector(`[data-path="${CSS.escape(path)}"]`)?.classList.remove("changed");
    }, 2500);
  }

  /** Another store is shown: the folds, the texts read and the highlights were the last one's. */
  function reset() {
    collapsed.clear();
    opened.clear();
    texts.forget();
    recent.clear();
  }

  /** The store's data was deleted outside the page: the tree says so instead. */
  function vanish() {
    summary.textContent = "Its data was deleted outside this page: see the notice at the top.";
    tree.replaceChildren(el("p", { className: "placeholder", dataset: { testid: "tree-vanished" } }, "Nothing to show: the store's data is gone."));
  }

  return { paint, mark, noteChanged, reset, vanish, focusSearch: () => search.focus() };
}
