// The demo's entry point: opens the store in IndexedDB, then mounts the tool console and the
// store browser. The store name comes from `?store=` (default "demo").

import { mountToolConsole } from "./tool-console.js";
import { mountStoreBrowser } from "./store-browser.js";
import { describeError } from "./render.js";

const DEFAULT_STORE = "demo";

const notice = /** @type {HTMLElement} */ (document.getElementById("notice"));
const noticeText = /** @type {HTMLElement} */ (document.getElementById("notice-text"));
let noticeTimer = 0;
document.getElementById("notice-dismiss")?.addEventListener("click", () => (notice.hidden = true));

/**
 * Shows a problem to the user, in words, until they act again (or for a while).
 * @param {string} message
 * @param {{ sticky?: boolean }} [options]
 */
function notify(message, { sticky = false } = {}) {
  noticeText.textContent = message;
  notice.hidden = false;
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = window.setTimeout(() => (notice.hidden = true), 12000);
}

/** Marks where start-up got to (tests and styles read `html[data-state]`). */
function setState(/** @type {"loading" | "ready" | "failed"} */ state) {
  document.documentElement.dataset.state = state;
  if (state === "failed") {
    const summary = document.getElementById("store-summary");
    if (summary) summary.textContent = "Not open: see the message above.";
  }
}

async function main() {
  const storeName = new URLSearchParams(location.search).get("store")?.trim() || DEFAULT_STORE;
  /** @type {HTMLElement} */ (document.getElementById("store-name")).textContent = storeName;
  document.title = `${storeName} · memory-tool-wasm demo`;

  let pkg;
  try {
    pkg = await import("memory-tool-wasm");
  } catch (err) {
    setState("failed");
    notify(
      `The package could not be loaded (${describeError(err)}). ` +
        "Has the WebAssembly been built? Run npm start, which builds it and serves this page.",
      { sticky: true },
    );
    return;
  }

  let memory;
  try {
    memory = await pkg.MemoryTool.open({ store: storeName });
  } catch (err) {
    setState("failed");
    notify(
      `The store “${storeName}” could not be opened in IndexedDB: ${describeError(err)}. ` +
        "A private window or blocked site data can cause this.",
      { sticky: true },
    );
    return;
  }

  const browser = mountStoreBrowser(memory, {
    root: /** @type {HTMLElement} */ (document.getElementById("store")),
    storeName,
    notify,
  });
  mountToolConsole(memory, {
    root: /** @type {HTMLElement} */ (document.getElementById("console")),
    onStoreChanged: () => void browser.refresh(),
  });
  await browser.refresh();

  // For poking around from the browser's devtools console.
  Object.assign(window, { demo: { memory, MemoryTool: pkg.MemoryTool, storeName } });
  setState("ready");
}

main().catch((err) => {
  setState("failed");
  notify(`The demo failed to start: ${describeError(err)}`, { sticky: true });
});
