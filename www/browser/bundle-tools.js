// Export and import: the whole store as one JSON bundle (optionally with its history), saved as
// a file; a bundle file imported into the open store in one transaction, all or nothing, with
// a progress bar and the outcome in words.

import { el, describeError, formatBytes } from "../render.js";

/**
 * @typedef {object} BundleToolsOptions
 * @property {HTMLElement} root
 * @property {() => import("memory-tool-wasm").MemoryTool} memory
 * @property {() => string} storeName
 * @property {(message: string) => void} announce
 * @property {() => boolean} readOnly   whether the store shown is archived (read-only for good)
 */

/**
 * Wires the export and import controls.
 * @param {BundleToolsOptions} options
 */
export function mountBundleTools({ root, memory, storeName, announce, readOnly }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const withVersions = /** @type {HTMLInputElement} */ ($("export-versions"));
  const exportButton = /** @type {HTMLButtonElement} */ ($("export-button"));
  const importButton = /** @type {HTMLButtonElement} */ ($("import-button"));
  const importInput = /** @type {HTMLInputElement} */ ($("import-input"));
  const confirmBox = $("import-confirm");
  const progress = /** @type {HTMLProgressElement} */ ($("import-progress"));
  const status = $("bundle-status");

  exportButton.addEventListener("click", () => void exportBundle());
  importButton.addEventListener("click", () => importInput.click());
  importInput.addEventListener("change", () => void chooseBundle());
  exportButton.disabled = false;
  paintAccess();

  /** Closes the import question; focus goes back to the Import button. */
  function cancelImport() {
    confirmBox.hidden = true;
    importButton.focus();
  }
  confirmBox.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    cancelImport();
  });

  /** An archived store takes no import; its export still works. */
  function paintAccess() {
    importButton.disabled = readOnly();
    importButton.title = readOnly() ? "This store is archived: read-only for good." : "";
  }

  /** Another store is shown: what was said about the last one goes, and the offer to import into it. */
  function reset() {
    say("");
    confirmBox.replaceChildren();
    confirmBox.hidden = true;
    progress.hidden = true;
    paintAccess();
  }

  async function exportBundle() {
    let bundle;
    try {
      bundle = await memory().export({ include_versions: withVersions.checked });
    } catch (error) {
      say(`Could not export: ${describeError(error)}`, true);
      return;
    }
    const text = JSON.stringify(bundle, null, 1);
    const blob = new Blob([text], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const name = `${fileSafe(storeName())}-${new Date().toISOString().slice(0, 10)}.memories.json`;
    const link = el("a", { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    const versions = bundle.versions ? `, ${bundle.versions.length} version${bundle.versions.length === 1 ? "" : "s"}` : "";
    say(`Exported ${bundle.memories.length} memor${bundle.memories.length === 1 ? "y" : "ies"}${versions} as ${name} (${formatBytes(blob.size)}).`);
  }

  async function chooseBundle() {
    const file = importInput.files?.[0];
    importInput.value = "";
    if (!file) return;
    let bundle;
    try {
      bundle = JSON.parse(await file.text());
    } catch (error) {
      say(`“${file.name}” is not a bundle: it is not JSON (${describeError(error)}).`, true);
      return;
    }
    if (!bundle || bundle.format !== "memory-tool-wasm/bundle" || !Array.isArray(bundle.memories)) {
      say(`“${file.name}” is not a memory-tool-wasm bundle (it has no "format": "memory-tool-wasm/bundle").`, true);
      return;
    }
    const versions = Array.isArray(bundle.versions) ? bundle.versions.length : 0;
    const policy = /** @type {HTMLSelectElement} */ (
      el(
        "select",
        { id: "import-conflict", dataset: { testid: "import-conflict" } },
        el("option", { value: "fail" }, "stop, and import nothing"),
        el("option", { value: "skip" }, "keep the store's memory"),
        el("option", { value: "overwrite" }, "replace it with the bundle's"),
      )
    );
    confirmBox.replaceChildren(
      el(
        "p",
        {},
        `“${file.name}” holds ${bundle.memories.length} memor${bundle.memories.length === 1 ? "y" : "ies"}`,
        versions ? ` and ${versions} version${versions === 1 ? "" : "s"} of history` : "",
        `. Import into “${storeName()}”?`,
      ),
      el("div", { className: "field inline" }, el("label", { for: "import-conflict" }, "Where a memory is taken"), policy),
      el(
        "div",
        { className: "actions" },
        el("button", { type: "button", className: "primary", dataset: { testid: "import-go" }, onclick: () => void runImport(bundle, policy.value) }, "Import"),
        el("button", { type: "button", dataset: { testid: "import-cancel" }, onclick: () => cancelImport() }, "Cancel"),
      ),
    );
    confirmBox.hidden = false;
    /** @type {HTMLElement} */ (confirmBox.querySelector("select")).focus();
  }

  /**
   * @param {any} bundle
   * @param {string} onConflict
   */
  async function runImport(bundle, onConflict) {
    confirmBox.hidden = true;
    progress.hidden = false;
    progress.removeAttribute("value");
    delete root.dataset.progress;
    say("Importing…");
    root.dataset.importing = "true";
    let result;
    try {
      result = await memory().import(bundle, {
        onConflict: /** @type {"fail" | "skip" | "overwrite"} */ (onConflict),
        onProgress: ({ done, total }) => {
          progress.max = Math.max(1, total);
          progress.value = done;
          root.dataset.progress = `${done}/${total}`;
          say(`Importing… ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} writes.`);
        },
      });
    } catch (error) {
      const code = /** @type {any} */ (error)?.code;
      const where = /** @type {any} */ (error)?.conflicting_path;
      say(
        code === "PATH_CONFLICT"
          ? `Nothing was imported: ${where ? `/memories${where}` : "a memory"} is taken in this store. Choose what to do where a memory is taken, and import again.`
          : code === "INVALID_BUNDLE"
            ? `Nothing was imported: the bundle is damaged (${describeError(error)}).`
            : `Nothing was imported: ${describeError(error)}`,
        true,
      );
      return;
    } finally {
      progress.hidden = true;
      delete root.dataset.importing;
    }
    const parts = [
      `${result.imported} imported`,
      result.overwritten ? `${result.overwritten} overwritten` : "",
      result.skipped ? `${result.skipped} skipped` : "",
      result.unchanged ? `${result.unchanged} already there` : "",
    ].filter(Boolean);
    const text = `Import done: ${parts.join(", ")}; ${result.versions} version${result.versions === 1 ? "" : "s"} of history added.`;
    say(text);
    announce(text);
  }

  /** @param {string} text @param {boolean} [problem] */
  function say(text, problem = false) {
    status.textContent = text;
    status.classList.toggle("problem", problem);
  }

  /**
   * Opens the import flow from elsewhere (after a store vanished and started over): the section
   * opened, the file chooser shown; the rest is as the Import button's.
   */
  function chooseFile() {
    const section = root.closest("details");
    if (section) section.open = true;
    importButton.scrollIntoView({ block: "center" });
    importButton.focus();
    importInput.click();
  }

  return { reset, chooseFile };
}

/** A store name as part of a file name. @param {string} name */
function fileSafe(name) {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "store";
}
