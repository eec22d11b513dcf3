// The notice for a store that vanished: its database, which held memories, was deleted outside
// the page (another tab, the browser's "clear site data", a browser that dropped a database it
// found corrupt). The package then refuses every command with STORE_VANISHED and creates
// nothing until the host says so (docs/ARCHITECTURE.md#a-store-that-vanished); this asks the
// user which way to go: start over empty, or start over and import a backup.

import { describeError } from "../render.js";

/** @typedef {"empty" | "import"} VanishedChoice */

/**
 * Wires the notice (an alert region with two buttons).
 * @param {{ root: HTMLElement }} options
 */
export function mountVanishedNotice({ root }) {
  const text = /** @type {HTMLElement} */ (root.querySelector("#vanished-text"));
  const problem = /** @type {HTMLElement} */ (root.querySelector("#vanished-problem"));
  const startOver = /** @type {HTMLButtonElement} */ (root.querySelector("#vanished-start-over"));
  const importButton = /** @type {HTMLButtonElement} */ (root.querySelector("#vanished-import"));
  /** @type {((choice: VanishedChoice) => void) | null} */
  let answer = null;

  startOver.addEventListener("click", () => answer?.("empty"));
  importButton.addEventListener("click", () => answer?.("import"));

  /**
   * Shows the notice for store `name` (which held `files` memories, if known) and resolves with
   * the user's choice; asking again while it is shown gives the same answer.
   * @param {string} name @param {number | null} files
   * @returns {Promise<VanishedChoice>}
   */
  function ask(name, files) {
    const held = files === null || files === undefined ? "memories" : `${files.toLocaleString("en-US")} memor${files === 1 ? "y" : "ies"}`;
    text.textContent =
      `The store “${name}” held ${held}, and its data was deleted outside this page: by another tab, by clearing this site's data, or by the browser itself. ` +
      "Nothing was recreated, and the page writes nothing to it until you choose. Start it over empty, or start it over and import a backup (an exported bundle file).";
    problem.textContent = "";
    startOver.disabled = false;
    importButton.disabled = false;
    const shown = !root.hidden;
    root.hidden = false;
    if (!shown) startOver.focus();
    return new Promise((resolve) => {
      answer = (choice) => {
        answer = null;
        startOver.disabled = true;
        importButton.disabled = true;
        resolve(choice);
      };
    });
  }

  /** The choice was carried out: the notice goes. */
  function done() {
    root.hidden = true;
  }

  /**
   * Carrying the choice out failed: says so, and asks again.
   * @param {string} name @param {number | null} files @param {unknown} error
   */
  function failed(name, files, error) {
    const asked = ask(name, files);
    problem.textContent = `That did not work: ${describeError(error)}`;
    return asked;
  }

  return { ask, done, failed };
}
