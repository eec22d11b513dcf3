// "Recently deleted" in the memory browser: the memories deleted lately (by the user, the
// model or expiry), below the tree. Their history stays, so each can be opened (on its History
// tab) and restored, until its retention runs out.

import { el } from "../render.js";
import { RETENTION_DAYS } from "../stores.js";
import { toToolPath } from "./tree.js";
import { describeWhen } from "./words.js";

const DAY_MS = 24 * 3600 * 1000;

/**
 * @typedef {object} DeletedListOptions
 * @property {HTMLElement} root                        the list's box (#deleted)
 * @property {() => import("memory-tool-wasm").MemoryTool} memory
 * @property {() => import("./tree.js").TreeFile[]} files   the store's files, as last listed (the live ones)
 * @property {() => import("./file-pane.js").Selection | null} selection   the memory open in the file pane
 * @property {(id: string, path: string) => void} onSelect   opens a deleted memory in the file pane
 */

/**
 * Wires the list.
 * @param {DeletedListOptions} options
 */
export function mountDeletedList({ root, memory, files, selection, onSelect }) {
  /** Memories deleted lately (their history stays): each can be opened to restore it. */
  async function paint() {
    let page;
    try {
      page = await memory().versions.list({ operation: "deleted", limit: 50 });
    } catch {
      root.hidden = true;
      return;
    }
    const live = new Set(files().map((f) => f.id));
    /** @type {Map<string, import("memory-tool-wasm").MemoryVersion>} */
    const gone = new Map();
    for (const version of page.data) {
      if (!live.has(version.memory_id) && !gone.has(version.memory_id)) gone.set(version.memory_id, version);
    }
    root.hidden = gone.size === 0;
    if (gone.size === 0) return;
    const selected = selection();
    root.replaceChildren(
      el(
        "details",
        // Repainted after each change: it stays open if the user opened it.
        { open: root.querySelector("details")?.hasAttribute("open") ?? false },
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
                  onclick: () => onSelect(version.memory_id, path),
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

  /** The store's data is gone: so is the list. */
  function hide() {
    root.hidden = true;
  }

  return { paint, hide };
}
