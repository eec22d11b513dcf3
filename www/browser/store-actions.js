// What the memory browser does to the store beside the tree: Refresh, a new (empty) file from
// a path typed in a small form, an upload into a folder, clearing the whole store, and the open
// memory's Download and Delete. Deletions ask first and go to "Recently deleted", restorable.
// An archived store is read-only for good: the buttons that would change it are off.

import { el, describeError } from "../render.js";
import { RETENTION_DAYS } from "../stores.js";
import { listFiles, toStorePath } from "./tree.js";

/**
 * @typedef {object} StoreActionsOptions
 * @property {HTMLElement} root                                the memory panel
 * @property {import("../store-session.js").StoreSession} session
 * @property {() => import("./tree.js").TreeFile[]} files       the store's files, as last listed
 * @property {() => import("./file-pane.js").Selection | null} selection   the memory open in the file pane
 * @property {(path: string, tab: string) => Promise<void>} open  opens a memory just written, on a tab of the file pane
 * @property {() => Promise<void>} refresh                     lists the store again and repaints the panel
 * @property {() => void} focusSearch                          where focus goes after a deletion
 * @property {(message: string) => void} notify
 * @property {(message: string) => void} announce
 */

/**
 * Wires the store's buttons and the new-file form.
 * @param {StoreActionsOptions} options
 */
export function mountStoreActions({ root, session, files, selection, open, refresh, focusSearch, notify, announce }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const button = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ ($(id));
  const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));
  const [refreshButton, uploadButton, clearButton, newFileButton] = ["refresh-button", "upload-button", "clear-button", "new-file-button"].map(button);
  const [uploadInput, uploadDir, newFilePath] = ["upload-input", "upload-dir", "new-file-path"].map(field);
  const newFileForm = /** @type {HTMLFormElement} */ ($("new-file-form"));
  const newFileProblem = $("new-file-problem");
  const memory = () => session.memory;

  refreshButton.addEventListener("click", () => void refresh());
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
    await open(path.normalize("NFC"), "file-tab-edit");
    /** @type {HTMLElement | null} */ ($("file-edit").querySelector("#edit-content"))?.focus();
  }

  /** Deletes the open memory after asking; it goes to "Recently deleted", restorable. */
  async function deleteSelected() {
    const selected = selection();
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
    focusSearch();
  }

  /** Saves the open memory's bytes as a file of the same name. */
  async function downloadSelected() {
    const selected = selection();
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

  async function upload() {
    const file = uploadInput.files && uploadInput.files[0];
    uploadInput.value = ""; // so choosing the same file again fires `change`
    if (!file) return;
    let dir = uploadDir.value.trim() || "/memories/";
    if (!dir.endsWith("/")) dir += "/";
    const path = `${dir}${file.name}`;
    const taken = files().find((f) => f.path === path.normalize("NFC"));
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
    await open(path.normalize("NFC"), "file-tab-view");
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

  return { paintAccess, downloadSelected, deleteSelected };
}
