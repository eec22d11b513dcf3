// The demo's entry point: loads the package, opens the store registry and the store named by
// `?store=` (default "demo", created if missing), then mounts the panels: the agent, the tool
// console, the memory browser with its store picker, export/import and storage status.

import { mountToolConsole } from "./tool-console.js";
import { mountStoreBrowser } from "./store-browser.js";
import { mountStorePicker } from "./browser/store-picker.js";
import { mountBundleTools } from "./browser/bundle-tools.js";
import { mountAgentPanel } from "./agent/agent-panel.js";
import { mountMountsEditor } from "./agent/mounts-editor.js";
import { mountOverview } from "./browser/overview.js";
import { mountVanishedNotice } from "./browser/vanished-notice.js";
import { mountSyncPanel } from "./browser/sync-panel.js";
import { StoreCatalog } from "./stores.js";
import { StoreSession } from "./store-session.js";
import { mountTabs } from "./tabs.js";
import { describeError } from "./render.js";
import { usePackage } from "./core.js";

const DEFAULT_STORE = "demo";

const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const notice = byId("notice");
const noticeText = byId("notice-text");
const activity = byId("activity");
let noticeTimer = 0;
let activityTimer = 0;
byId("notice-dismiss").addEventListener("click", () => (notice.hidden = true));

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

/**
 * Says what just happened (a save, a change from another tab) on the memory panel's activity
 * line, politely; the line is marked fresh for a moment.
 * @param {string} message
 */
function announce(message) {
  activity.textContent = message;
  activity.hidden = false;
  activity.classList.add("fresh");
  clearTimeout(activityTimer);
  activityTimer = window.setTimeout(() => activity.classList.remove("fresh"), 3000);
}

const vanished = mountVanishedNotice({ root: byId("vanished") });

/** Marks where start-up got to (tests and styles read `html[data-state]`): "vanished" while the
 * page waits for the user's choice about a store whose data was deleted outside it. */
function setState(/** @type {"loading" | "vanished" | "ready" | "failed"} */ state) {
  document.documentElement.dataset.state = state;
  if (state === "vanished") {
    byId("store-summary").textContent = "Not open: its data was deleted outside this page; see the notice at the top.";
    byId("agent-mode").textContent = "The agent waits for the store: see the notice at the top.";
  }
  if (state === "failed") {
    byId("store-summary").textContent = "Not open: see the message above.";
    byId("agent-mode").textContent = "The agent needs the package; see the message above.";
  }
}

async function main() {
  const storeName = new URLSearchParams(location.search).get("store")?.trim() || DEFAULT_STORE;
  byId("store-name").textContent = storeName;

  /** @type {typeof import("memory-tool-wasm")} */
  let pkg;
  try {
    pkg = await import("memory-tool-wasm");
    usePackage(pkg);
  } catch (err) {
    setState("failed");
    notify(
      `The package could not be loaded (${describeError(err)}). ` +
        "Has the WebAssembly been built? Run npm start, which builds it and serves this page.",
      { sticky: true },
    );
    return;
  }

  /** @type {StoreSession} */
  let session;
  /** @type {import("./browser/vanished-notice.js").VanishedChoice | null} */
  let choice = null;
  try {
    const catalog = await StoreCatalog.open(pkg);
    const store = await catalog.ensure(storeName);
    for (;;) {
      try {
        session = await StoreSession.open(catalog, store);
        break;
      } catch (err) {
        if (/** @type {any} */ (err)?.code !== "STORE_VANISHED") throw err;
        // The store held memories and its database is gone: the user says how to go on.
        setState("vanished");
        const files = /** @type {any} */ (err).files ?? null;
        choice = await vanished.ask(store.name, files);
        await catalog.startOver(store);
        setState("loading");
      }
    }
    if (choice) vanished.done();
  } catch (err) {
    setState("failed");
    notify(
      typeof globalThis.indexedDB !== "object" || globalThis.indexedDB === null
        ? "This browser gives the page no IndexedDB (a private window, or site data blocked for this site, can do that). " +
            "The demo keeps its memories there, so it cannot start here."
        : `The store “${storeName}” could not be opened in IndexedDB: ${describeError(err)}. ` +
            "A private window or blocked site data can cause this.",
      { sticky: true },
    );
    return;
  }

  const memoryPanel = byId("memory-panel");
  const memory = () => session.memory;
  mountMemoryChip(memoryPanel);
  const picker = mountStorePicker({ root: memoryPanel, session, notify, announce });
  const browser = mountStoreBrowser({ root: memoryPanel, session, notify, announce });
  const bundle = mountBundleTools({
    root: byId("bundle"),
    memory,
    storeName: () => session.name,
    announce,
    readOnly: () => session.store.archived_at !== null,
  });
  session.addEventListener("switch", () => bundle.reset());
  session.addEventListener("vanished", (event) => void onVanished(/** @type {CustomEvent} */ (event).detail.files ?? null));

  /**
   * The open store's data was deleted outside the page (a command failed with STORE_VANISHED):
   * the user chooses, then the store starts over empty and is opened again, and, for a backup,
   * the import flow starts.
   * @param {number | null} files
   */
  async function onVanished(files) {
    const store = session.store;
    let next = await vanished.ask(store.name, files);
    for (;;) {
      try {
        await session.catalog.startOver(store);
        await session.switchTo(store);
        break;
      } catch (error) {
        next = await vanished.failed(store.name, files, error);
      }
    }
    vanished.done();
    announce(`The store “${store.name}” starts over, empty.`);
    if (next === "import") bundle.chooseFile();
    else byId("memory-panel").focus();
  }
  const hostedSync = mountSyncPanel({ root: byId("sync"), session, announce });
  mountToolConsole({ root: byId("console"), memory });
  const mounts = mountMountsEditor({ root: byId("agent-memory"), session });
  const overview = mountOverview({
    root: /** @type {HTMLDetailsElement} */ (byId("overview")),
    openMemory: () => mounts.open(),
    changes: [session, byId("agent-memory")],
  });
  const agent = mountAgentPanel({
    root: byId("agent"),
    openMemory: () => mounts.open(),
    // An empty memory for the agent: a new store (never a deletion of the user's notes).
    startOver: async () => {
      const names = new Set((await session.catalog.list()).map((s) => s.name));
      let name = "Fresh start";
      for (let n = 2; names.has(name); n++) name = `Fresh start ${n}`;
      const store = await session.catalog.create({ name, description: "An empty memory, to replay the recorded conversations from the start." });
      await session.switchTo(store);
      await mounts.reset();
    },
  });
  // An expiry, another tab or the browser's own buttons can empty the memory the offer was about.
  let fileCount = -1;
  memoryPanel.addEventListener("files", (event) => {
    const count = /** @type {CustomEvent<{ files: unknown[] }>} */ (event).detail.files.length;
    if (count !== fileCount && fileCount !== -1) agent.memoryChanged();
    fileCount = count;
  });
  const tabs = mountTabs(byId("main-tabs"), {
    onChange: (id) => history.replaceState(null, "", id === "tab-console" ? "#console" : location.pathname + location.search),
  });
  if (location.hash === "#console") tabs.select("tab-console");

  await Promise.all([browser.refresh(), picker.refresh(), overview.refresh()]);

  // For poking around from the browser's devtools console.
  Object.assign(window, { demo: { session, pkg, hostedSync } });
  setState("ready");
  if (choice === "import") bundle.chooseFile();
  else if (choice === "empty") announce(`The store “${storeName}” starts over, empty.`);
}

/**
 * The memory chip by the message box (shown on a phone, where the memory browser is below the
 * conversation): how many files the open store holds and the one changed last, refreshed on
 * each paint of the tree, marked fresh for a moment when it changes; it links to the tree.
 * @param {HTMLElement} memoryPanel
 */
function mountMemoryChip(memoryPanel) {
  const chip = byId("memory-chip");
  const countText = byId("memory-chip-count");
  const lastText = byId("memory-chip-last");
  let shown = "";
  let timer = 0;
  memoryPanel.addEventListener("files", (event) => {
    const files = /** @type {CustomEvent<{ files: Array<{ path: string }> }>} */ (event).detail.files;
    countText.textContent = `${files.length.toLocaleString("en-US")} file${files.length === 1 ? "" : "s"}`;
    lastText.textContent = files.length > 0 ? ` · latest: ${files[0].path.replace(/^\/memories\//, "")}` : "";
    chip.dataset.files = String(files.length);
    const now = chip.textContent ?? "";
    if (shown && now !== shown) {
      chip.classList.add("fresh");
      clearTimeout(timer);
      timer = window.setTimeout(() => chip.classList.remove("fresh"), 2500);
    }
    shown = now;
  });
  // Following the link lands on the memory panel, focused (it is the skip link's target too).
  chip.addEventListener("click", (event) => {
    event.preventDefault();
    memoryPanel.scrollIntoView({ block: "start" });
    memoryPanel.focus({ preventScroll: true });
  });
}

main().catch((err) => {
  setState("failed");
  notify(`The demo failed to start: ${describeError(err)}`, { sticky: true });
});
