// Bulk selection in the memory browser's tree: "Select several" puts a checkbox before each
// file and shows a bar with the count, "Select all shown", "Clear", and what can be done with
// the memories ticked: export them as a bundle (with their history if "with history" is
// ticked), or delete them after asking (each goes to "Recently deleted", restorable).

import { el, describeError } from "../render.js";
import { RETENTION_DAYS } from "../stores.js";

/** @typedef {import("./tree.js").TreeFile} TreeFile */

/**
 * @typedef {object} BulkPickingOptions
 * @property {HTMLElement} root                  the memory panel
 * @property {import("../store-session.js").StoreSession} session
 * @property {() => TreeFile[]} files            the store's files, as last listed
 * @property {() => void} paintTree              paints the tree again (its checkboxes follow the ticks)
 * @property {() => Promise<void>} refresh       lists the store again and repaints the panel
 * @property {() => void} focusSearch            where focus goes after a bulk deletion
 * @property {(message: string) => void} notify
 * @property {(message: string) => void} announce
 */

/**
 * Wires the "Select several" button and the bar of bulk actions.
 * @param {BulkPickingOptions} options
 */
export function mountBulkPicking({ root, session, files, paintTree, refresh, focusSearch, notify, announce }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const tree = $("tree");
  const pickButton = /** @type {HTMLButtonElement} */ ($("pick-button"));
  const bulkBar = $("bulk-bar");
  const bulkCount = $("bulk-count");
  const bulkExport = /** @type {HTMLButtonElement} */ ($("bulk-export"));
  const bulkDelete = /** @type {HTMLButtonElement} */ ($("bulk-delete"));
  const memory = () => session.memory;
  /** With bulk selection on: the memories ticked, by id. @type {Map<string, TreeFile> | null} */
  let picked = null;

  pickButton.addEventListener("click", () => setPicking(picked === null));
  $("bulk-all").addEventListener("click", () => pickAllShown());
  $("bulk-none").addEventListener("click", () => {
    picked?.clear();
    paintTree();
    paint();
  });
  bulkExport.addEventListener("click", () => void exportPicked());
  bulkDelete.addEventListener("click", () => void deletePicked());
  bulkBar.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    setPicking(false);
  });

  /** The tree's bulk selection, when it is on. */
  function picking() {
    if (picked === null) return undefined;
    const ticked = picked;
    return {
      ids: new Set(ticked.keys()),
      onToggle: (/** @type {TreeFile} */ file, /** @type {boolean} */ on) => {
        if (on) ticked.set(file.id, file);
        else ticked.delete(file.id);
        paint();
      },
    };
  }

  /** Turns bulk selection on (checkboxes in the tree, the bar of actions) or off. @param {boolean} on */
  function setPicking(on) {
    picked = on ? new Map() : null;
    pickButton.setAttribute("aria-pressed", String(on));
    pickButton.textContent = on ? "Done selecting" : "Select several";
    paintTree();
    paint();
    if (on) (/** @type {HTMLElement | null} */ (tree.querySelector("input.pick")) ?? $("bulk-all")).focus();
    else pickButton.focus();
  }

  /** The count and what can be done with the memories ticked. */
  function paint() {
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
    for (const file of files()) if (shown.has(file.id)) picked.set(file.id, file);
    paintTree();
    paint();
  }

  /** After a listing: memories no longer in the store are no longer ticked. */
  function prune() {
    if (picked) for (const id of [...picked.keys()]) if (!files().some((f) => f.id === id)) picked.delete(id);
  }

  /** Nothing is ticked (another store is shown, or this one's data is gone); selection stays on if it was. */
  function clear() {
    if (picked) picked.clear();
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
    focusSearch();
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

  return { picking, prune, clear, paint };
}
