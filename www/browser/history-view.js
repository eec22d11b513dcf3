// A memory's history: every version (newest first) with what happened, when and by whom; a
// version's content or its changes against another version (a line diff); restoring a version
// (written back as a new version) and redacting one (its content erased for good).

import { el, fill, describeError, formatBytes } from "../render.js";
import { renderDiff, renderNumbered } from "./diff-view.js";
import { toToolPath } from "./tree.js";
import { describeWhen, describeActor } from "./words.js";
import { originNodes, restoredFromOf } from "./provenance.js";

/** @typedef {import("memory-tool-wasm").MemoryVersion} MemoryVersion */

/**
 * @typedef {object} HistoryOptions
 * @property {HTMLElement} root                        the history tab panel
 * @property {() => import("memory-tool-wasm").MemoryTool} memory
 * @property {(message: string) => void} notify
 * @property {(message: string) => void} announce      says what happened, politely (live region)
 */

/**
 * Wires the history panel.
 * @param {HistoryOptions} options
 */
export function mountHistory({ root, memory, notify, announce }) {
  /** @type {string | null} */
  let memoryId = null;
  /** @type {string | null} the live memory's head, null when the memory is deleted */
  let headId = null;
  /** @type {MemoryVersion[]} newest first */
  let versions = [];
  /** @type {string | null} */
  let nextPage = null;
  /** @type {string | null} */
  let selectedId = null;
  /** @type {"changes" | "content"} */
  let mode = "changes";
  /** @type {string} "previous", "head", or a version id */
  let compareWith = "previous";
  /** Version contents by id (immutable, except that redaction clears them). */
  const contents = new Map();
  let paints = 0;
  /** After a restore, the next paint puts focus on the new version. */
  let focusHead = false;

  /**
   * Shows the history of a memory.
   * @param {string} id the memory's id
   * @param {string | null} head its head version, or null if it is deleted
   */
  async function show(id, head) {
    if (id !== memoryId) {
      selectedId = null;
      compareWith = "previous";
      contents.clear();
    }
    memoryId = id;
    headId = head;
    await reload();
  }

  /** Reloads the list (after a change) and repaints. */
  async function reload() {
    if (!memoryId) return;
    const want = memoryId;
    try {
      const page = await memory().versions.list({ memory_id: want, limit: 100 });
      if (want !== memoryId) return;
      versions = page.data;
      nextPage = page.next_page;
    } catch (error) {
      paintProblem(`Could not read the history: ${describeError(error)}`);
      return;
    }
    if (!selectedId || !versions.some((v) => v.id === selectedId)) selectedId = versions[0]?.id ?? null;
    await paint();
  }

  async function loadOlder() {
    if (!memoryId || !nextPage) return;
    try {
      const page = await memory().versions.list({ memory_id: memoryId, limit: 100, page: nextPage });
      versions = [...versions, ...page.data];
      nextPage = page.next_page;
    } catch (error) {
      notify(`Could not read older versions: ${describeError(error)}`);
      return;
    }
    await paint();
  }

  function clear() {
    memoryId = null;
    versions = [];
    root.replaceChildren(el("p", { className: "placeholder" }, "Pick a memory to see its history."));
  }

  /** @param {string} text */
  function paintProblem(text) {
    root.replaceChildren(el("p", { className: "problem" }, text));
  }

  /** The text of a version (null for a deletion or a redacted version). @param {MemoryVersion} version */
  async function contentOf(version) {
    if (version.operation === "deleted" || version.redacted_at) return null;
    if (contents.has(version.id)) return contents.get(version.id);
    const full = await memory().versions.get(version.id);
    const text = full.content ?? null;
    contents.set(version.id, text);
    return text;
  }

  async function paint() {
    // Repainting replaces the buttons: focus that was in the history stays in it.
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusedHere = active !== null && root.contains(active);
    const focusedVersion = focusedHere ? (/** @type {HTMLElement | null} */ (active.closest("[data-version-id]"))?.dataset.versionId ?? null) : null;
    const list = el(
      "ol",
      { className: "version-list", dataset: { testid: "version-list" }, "aria-label": "Versions, newest first" },
      ...versions.map((version, i) => versionItem(version, versions.length - i)),
    );
    const older = nextPage
      ? el("button", { type: "button", className: "small", onclick: () => void loadOlder() }, "Load older versions")
      : null;
    const detail = el("div", { className: "version-detail", dataset: { testid: "version-detail" } });
    fill(
      root,
      el(
        "p",
        { className: "meta" },
        `${versions.length}${nextPage ? "+" : ""} version${versions.length === 1 ? "" : "s"}, newest first. `,
        headId ? "Every change is kept; restore any version, or redact one for good." : "This memory is deleted: restore a version to bring it back.",
      ),
      list,
      older,
      detail,
    );
    // Focus goes back at once, before the detail is read: a key pressed meanwhile (a repaint
    // after a change elsewhere, while the keyboard is on a version) reaches the version, not
    // the page.
    if ((focusedHere || focusHead) && !root.contains(document.activeElement)) {
      const target = focusHead ? headId : (focusedVersion ?? selectedId);
      /** @type {HTMLElement | null} */ (root.querySelector(`[data-version-id="${target}"]`) ?? root.querySelector("[data-version-id]"))?.focus();
    }
    focusHead = false;
    await paintDetail(detail);
    paints += 1;
    root.dataset.paints = String(paints);
  }

  /**
   * @param {MemoryVersion} version
   * @param {number} number 1 for the oldest
   */
  function versionItem(version, number) {
    const on = version.id === selectedId;
    const isHead = version.id === headId;
    return el(
      "li",
      {},
      el(
        "button",
        {
          type: "button",
          className: `version${on ? " selected" : ""}`,
          "aria-pressed": on ? "true" : "false",
          dataset: { testid: "version", versionId: version.id, operation: version.operation, redacted: String(Boolean(version.redacted_at)) },
          onclick: async () => {
            selectedId = version.id;
            if (compareWith === version.id) compareWith = "previous";
            await paint();
            /** @type {HTMLElement | null} */ (root.querySelector(`[data-version-id="${version.id}"]`))?.focus();
          },
        },
        el("span", { className: "version-number" }, `v${number}`),
        el("span", { className: `op op-${version.operation}` }, operationWords(version)),
        isHead ? el("span", { className: "badge badge-ok" }, "current") : null,
        el("span", { className: "version-when", title: version.created_at }, describeWhen(version.created_at)),
        el("span", { className: "version-by" }, describeActor(version.created_by, { operation: version.operation, memoryId: version.memory_id })),
        version.content_size_bytes !== null && version.operation !== "deleted"
          ? el("span", { className: "size" }, formatBytes(version.content_size_bytes))
          : null,
      ),
    );
  }

  /**
   * Paints the selected version; marks the box with its id once done (tests wait on it).
   * @param {HTMLElement} detail
   */
  async function paintDetail(detail) {
    await paintDetailBody(detail);
    if (selectedId) detail.dataset.versionId = selectedId;
  }

  /** @param {HTMLElement} detail */
  async function paintDetailBody(detail) {
    const index = versions.findIndex((v) => v.id === selectedId);
    const version = versions[index];
    if (!version) {
      detail.replaceChildren(el("p", { className: "placeholder" }, "No versions."));
      return;
    }
    const isHead = version.id === headId;
    const redacted = Boolean(version.redacted_at);
    const deletion = version.operation === "deleted";

    const actions = el(
      "div",
      { className: "actions" },
      el(
        "button",
        {
          type: "button",
          dataset: { testid: "restore-version" },
          disabled: isHead || redacted || deletion,
          title: isHead ? "This is the current version." : redacted ? "A redacted version has nothing to restore." : deletion ? "A deletion has no content; restore the version before it." : "",
          onclick: () => void restore(version),
        },
        "Restore this version",
      ),
      el(
        "button",
        {
          type: "button",
          className: "danger",
          dataset: { testid: "redact-version" },
          disabled: isHead || redacted,
          title: isHead ? "The current version of a memory cannot be redacted: change or delete the memory first." : redacted ? "Already redacted." : "",
          onclick: () => void redact(version),
        },
        "Redact…",
      ),
    );

    const restored = restoreOf(version);
    const same = backTo(version);
    const moved = renameOf(version);
    const title = el(
      "h4",
      { className: "version-title", dataset: { testid: "version-title" } },
      `${
        version.redacted_at
          ? "Redacted version"
          : restored
            ? `Restored from ${restored}`
            : moved
              ? `Renamed from ${toToolPath(moved.from)} to ${toToolPath(moved.to)}${moved.sameText ? "" : ", and its text changed"}`
              : same
                ? `${capitalise(version.operation)}, back to the text of v${same}`
                : capitalise(version.operation)
      } · `,
      el("code", {}, version.id),
    );
    const facts = el(
      "p",
      { className: "meta", dataset: { testid: "version-facts" } },
      `${new Date(version.created_at).toLocaleString()} · by `,
      ...originNodes(version.created_by, { testid: "version-origin-link", operation: version.operation, memoryId: version.memory_id }),
      restored ? `, restoring ${restored}` : "",
      version.path ? ` · at ${toToolPath(version.path)}` : "",
      version.content_sha256 ? ` · sha256 ${version.content_sha256.slice(0, 12)}…` : "",
      version.redacted_at ? ` · redacted ${new Date(version.redacted_at).toLocaleString()}` : "",
    );

    if (redacted) {
      detail.replaceChildren(title, facts, el("p", { className: "placeholder" }, "Its content, path and hash were erased for good."), actions);
      return;
    }

    const modeSwitch = el(
      "div",
      { className: "segmented", role: "group", "aria-label": "Show" },
      modeButton("changes", "Changes"),
      modeButton("content", "Content"),
    );
    const body = el("div", { className: "version-body" });
    const why = isHead
      ? el("p", { className: "hint", dataset: { testid: "head-note" } }, "This is the memory's current version: there is nothing to restore, and it cannot be redacted until the memory changes or is deleted.")
      : deletion
        ? el("p", { className: "hint" }, "A deletion has no content: restore the version before it to bring the memory back.")
        : null;
    fill(detail, title, facts, el("div", { className: "version-tools" }, modeSwitch, mode === "changes" ? compareSelect(index) : null), body, why, actions);

    let text;
    try {
      text = await contentOf(version);
    } catch (error) {
      body.replaceChildren(el("p", { className: "problem" }, `Could not read this version: ${describeError(error)}`));
      return;
    }
    if (mode === "content") {
      body.replaceChildren(
        text === null
          ? el("p", { className: "placeholder" }, deletion ? "The memory was deleted here: this version has no content." : "Not text: nothing to show.")
          : renderNumbered(text, { testid: "version-content" }),
      );
      return;
    }
    const base = baseFor(index);
    let baseText = "";
    let baseLabel = "nothing (before it existed)";
    if (base) {
      try {
        baseText = (await contentOf(base)) ?? "";
      } catch (error) {
        body.replaceChildren(el("p", { className: "problem" }, `Could not read the version to compare with: ${describeError(error)}`));
        return;
      }
      baseLabel = `v${versions.length - versions.indexOf(base)}${base.redacted_at ? " (redacted)" : ""}`;
    }
    const label = `v${versions.length - index}`;
    const renamed = base && base === versions[index + 1] ? renameOf(version) : null;
    body.replaceChildren(
      base?.redacted_at
        ? el("p", { className: "placeholder" }, "The version to compare with was redacted; pick another.")
        : renderDiff(baseText, text ?? "", {
            oldLabel: baseLabel,
            newLabel: deletion ? `${label} (deleted)` : label,
            testid: "version-diff",
            ...(renamed ? { noChanges: `Renamed from ${toToolPath(renamed.from)} to ${toToolPath(renamed.to)}; the text is the same.` } : {}),
          }),
    );
  }

  /** The version to compare version `index` with. @param {number} index */
  function baseFor(index) {
    if (compareWith === "previous") return versions[index + 1] ?? null;
    if (compareWith === "head") return versions.find((v) => v.id === headId) ?? null;
    return versions.find((v) => v.id === compareWith) ?? null;
  }

  /** @param {"changes" | "content"} value @param {string} label */
  function modeButton(value, label) {
    return el(
      "button",
      {
        type: "button",
        className: `small${mode === value ? " on" : ""}`,
        "aria-pressed": mode === value ? "true" : "false",
        dataset: { testid: `history-mode-${value}` },
        onclick: () => {
          mode = value;
          void paint();
        },
      },
      label,
    );
  }

  /** @param {number} index */
  function compareSelect(index) {
    const select = /** @type {HTMLSelectElement} */ (
      el(
        "select",
        { id: "compare-with", dataset: { testid: "compare-with" } },
        el("option", { value: "previous" }, "the version before"),
        headId ? el("option", { value: "head" }, "the current version") : null,
        ...versions
          .map((v, i) => ({ v, i }))
          .filter(({ i }) => i !== index)
          .map(({ v, i }) => el("option", { value: v.id }, `v${versions.length - i} · ${v.redacted_at ? "redacted" : v.operation} · ${describeWhen(v.created_at)}`)),
      )
    );
    select.value = compareWith;
    select.addEventListener("change", () => {
      compareWith = select.value;
      void paint().then(() => /** @type {HTMLElement | null} */ (root.querySelector("#compare-with"))?.focus());
    });
    return el("label", { className: "compare" }, "compared with ", select);
  }

  /**
   * "v3" when `version` is a restore of v3 (null if it is no restore; "a version now pruned"
   * if v3 is not in the list any more).
   * @param {MemoryVersion} version
   */
  function restoreOf(version) {
    const from = restoredFromOf(version.created_by);
    if (from === null) return null;
    const at = versions.findIndex((v) => v.id === from);
    return at < 0 ? "a version now pruned" : `v${versions.length - at}`;
  }

  /** What happened in `version`, in a word or three. @param {MemoryVersion} version */
  function operationWords(version) {
    if (version.redacted_at) return "redacted";
    const restored = restoreOf(version);
    if (restored) return `restored ${restored}`;
    if (renameOf(version)) return "renamed";
    const same = backTo(version);
    return same ? `back to v${same}` : version.operation;
  }

  /**
   * A rename: a `modified` version whose path differs from the version before it (the paths,
   * and whether the text stayed the same), or null.
   * @param {MemoryVersion} version
   */
  function renameOf(version) {
    if (version.operation !== "modified" || !version.path) return null;
    const before = versions[versions.indexOf(version) + 1];
    if (!before || !before.path || before.path === version.path) return null;
    return { from: before.path, to: version.path, sameText: before.content_sha256 !== null && before.content_sha256 === version.content_sha256 };
  }

  /**
   * The number of an older version whose text this one has again (a restore, or an edit back),
   * not counting the version right before it; null if none. For a write that is no restore
   * (an edit back, an import), the page says what it can see: the same bytes as vN.
   * @param {MemoryVersion} version
   */
  function backTo(version) {
    if (version.redacted_at || !version.content_sha256 || version.operation === "deleted") return null;
    const at = versions.indexOf(version);
    if (versions[at + 1]?.content_sha256 === version.content_sha256) return null;
    const older = versions.findIndex((v, k) => k > at + 1 && !v.redacted_at && v.content_sha256 === version.content_sha256);
    return older < 0 ? null : versions.length - older;
  }

  /** @param {MemoryVersion} version */
  async function restore(version) {
    try {
      const restored = await memory().versions.restore(version.id);
      headId = restored.memory_version_id ?? headId;
      announce(`Restored: ${toToolPath(restored.path)} is back to v${versions.length - versions.indexOf(version)}, as a new version.`);
    } catch (error) {
      const code = /** @type {any} */ (error)?.code;
      notify(
        code === "PATH_CONFLICT"
          ? `Cannot restore: another memory is at ${version.path ? toToolPath(version.path) : "that path"} now. Move or delete it first.`
          : `Could not restore this version: ${describeError(error)}`,
      );
      return;
    }
    // Show the new version against the one before: what the restore changed. Focus goes to it,
    // not to <body> (the button that was pressed is repainted away).
    selectedId = null;
    compareWith = "previous";
    focusHead = true;
    await reload();
  }

  /** @param {MemoryVersion} version */
  async function redact(version) {
    const number = versions.length - versions.indexOf(version);
    if (!window.confirm(`Redact v${number}? Its content, path and hash are erased for good. This cannot be undone.`)) return;
    try {
      await memory().versions.redact(version.id);
    } catch (error) {
      const code = /** @type {any} */ (error)?.code;
      notify(
        code === "REDACT_HEAD"
          ? "This is the memory's current version, which cannot be redacted: change or delete the memory first."
          : `Could not redact this version: ${describeError(error)}`,
      );
      return;
    }
    contents.delete(version.id);
    announce(`Redacted v${number}.`);
    await reload();
  }

  clear();
  return {
    show,
    reload,
    clear,
    /** The memory shown, if any. */
    get memoryId() {
      return memoryId;
    },
  };
}

/** @param {string} word */
function capitalise(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
