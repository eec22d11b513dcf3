// "Sync with a hosted memory store": keeps the open store in step with a memory store hosted by
// Anthropic (`client.beta.memoryStores`) through the package's MemorySync (docs/SYNC.md). The
// user gives an API key (kept in this tab's sessionStorage only, as the agent's is) or the base
// URL of their app's proxy (which adds the key itself), picks or creates a hosted store, and
// starts, stops or runs a pass; the panel shows the sync's status, and its conflicts (each with
// "Restore my version", from the local history) and refusals.

import { el, describeError } from "../render.js";

const KEY = "memory-tool-wasm-demo:sync-api-key";
const BASE = "memory-tool-wasm-demo:sync-base-url";

/** @param {string} name */
function load(name) {
  try {
    return sessionStorage.getItem(name) ?? "";
  } catch {
    return "";
  }
}
/** @param {string} name @param {string} value */
function save(name, value) {
  try {
    if (value) sessionStorage.setItem(name, value);
    else sessionStorage.removeItem(name);
  } catch {
    // Storage blocked: used until the page reloads.
  }
}

/** The endpoint the page was served for (scripts/serve.mjs fills the meta from $ANTHROPIC_BASE_URL). */
function configuredBase() {
  return document.querySelector('meta[name="anthropic-base-url"]')?.getAttribute("content")?.trim() ?? "";
}

/** @param {string | null} iso */
function when(iso) {
  return iso ? new Date(iso).toLocaleTimeString() : "never";
}

/**
 * @param {{ root: HTMLElement, session: import("../store-session.js").StoreSession, announce: (message: string) => void }} options
 */
export function mountSyncPanel({ root, session, announce }) {
  const q = (/** @type {string} */ id) => /** @type {any} */ (root.querySelector(`#${id}`));
  const form = /** @type {HTMLFormElement} */ (q("sync-connect"));
  const keyInput = /** @type {HTMLInputElement} */ (q("sync-key"));
  const baseInput = /** @type {HTMLInputElement} */ (q("sync-base"));
  const picker = /** @type {HTMLSelectElement} */ (q("sync-store"));
  const createButton = /** @type {HTMLButtonElement} */ (q("sync-create"));
  const startButton = /** @type {HTMLButtonElement} */ (q("sync-start"));
  const nowButton = /** @type {HTMLButtonElement} */ (q("sync-now"));
  const stopButton = /** @type {HTMLButtonElement} */ (q("sync-stop"));
  const problem = q("sync-problem");
  const statusList = q("sync-status");
  const conflicts = q("sync-conflicts");
  const refused = q("sync-refused");

  keyInput.value = load(KEY);
  baseInput.value = load(BASE) || configuredBase();

  /** @type {any} */ let sync = null;
  /** @type {() => void} */ let unsubscribe = () => {};
  /** @type {any} */ let memory = null;
  let busy = false;

  /** @type {Promise<{ Anthropic: any, MemorySync: any }> | null} */
  let loading = null;
  const loadSdk = () =>
    (loading ??= Promise.all([import("@anthropic-ai/sdk"), import("memory-tool-wasm/sync")]).then(([sdk, s]) => ({
      Anthropic: sdk.default,
      MemorySync: s.MemorySync,
    })));

  /** A client from the fields: with the key, or (a proxy) with none. */
  async function client() {
    const key = keyInput.value.trim();
    const baseURL = baseInput.value.trim();
    if (!key && !baseURL) throw new Error("Give your API key, or your app's proxy URL.");
    if (baseURL && !/^https?:\/\//.test(baseURL)) throw new Error("The base URL must start with https:// (or http://).");
    save(KEY, key);
    save(BASE, baseURL === configuredBase() ? "" : baseURL);
    const { Anthropic } = await loadSdk();
    return key
      ? new Anthropic({ apiKey: key, dangerouslyAllowBrowser: true, maxRetries: 1, ...(baseURL ? { baseURL } : {}) })
      : new Anthropic({ apiKey: null, baseURL, defaultHeaders: { authorization: null }, dangerouslyAllowBrowser: true, maxRetries: 1 });
  }

  function paintButtons() {
    const on = sync !== null;
    const archived = session.store.archived_at !== null;
    picker.disabled = busy || on || picker.options.length === 0 || picker.options[0].value === "";
    createButton.disabled = busy || on;
    q("sync-list").disabled = busy || on;
    startButton.disabled = busy || on || picker.disabled || archived;
    nowButton.disabled = busy || !on;
    stopButton.disabled = busy || !on;
  }

  /** @param {any} status */
  function paintStatus(status) {
    const state = status ? status.state : "off";
    statusList.dataset.state = state;
    q("sync-state").textContent = status?.lastError && state === "error" ? `error: ${status.lastError}` : state;
    q("sync-last").textContent = status ? when(status.lastSyncAt) : "never";
    if (status?.lastSyncAt) q("sync-last").dataset.at = status.lastSyncAt;
    q("sync-pending").textContent = status
      ? `${status.pending.push} to push, ${status.pending.pull} to pull, ${status.pending.delete} deletes waiting`
      : "–";
    q("sync-summary").textContent = status ? `${state}, with ${sync?.memoryStoreId ?? ""}` : "off";
  }

  /** @param {string} text */
  function fail(text) {
    problem.textContent = text;
  }

  /** Runs `action` with the buttons off; a failure is shown in words. @param {() => Promise<void>} action */
  async function run(action) {
    busy = true;
    paintButtons();
    problem.textContent = "";
    try {
      await action();
    } catch (error) {
      fail(describeError(error));
    } finally {
      busy = false;
      paintButtons();
    }
  }

  async function listStores(/** @type {string} */ select = "") {
    const c = await client();
    /** @type {any[]} */
    const stores = [];
    for await (const s of c.beta.memoryStores.list()) stores.push(s);
    picker.replaceChildren(
      ...(stores.length
        ? stores.map((s) => el("option", { value: s.id }, `${s.name} (${s.id})`))
        : [el("option", { value: "" }, "(no hosted stores: create one)")]),
    );
    if (select) picker.value = select;
    q("sync-live").textContent = `${stores.length} hosted store${stores.length === 1 ? "" : "s"} found.`;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run(() => listStores());
  });

  createButton.addEventListener("click", () =>
    void run(async () => {
      const c = await client();
      const made = await c.beta.memoryStores.create({ name: session.name, description: `Synced from the memory-tool-wasm demo's “${session.name}”.` });
      await listStores(made.id);
      q("sync-live").textContent = `Created the hosted store “${made.name}” (${made.id}).`;
    }),
  );

  /** @param {any} event */
  function onEvent(event) {
    if (event.type === "status") paintStatus(event.status);
    else if (event.type === "conflict") addConflict(event);
    else if (event.type === "refused") {
      refused.append(
        el("li", { dataset: { testid: "sync-refusal", path: event.path } },
          el("code", {}, event.path), ` (${event.side === "hosted" ? "not sent to the hosted store" : "not taken from the hosted store"}): ${event.reason}`),
      );
    } else if (event.type === "pass" && event.result.ok) {
      const r = event.result;
      const moved = r.pulled.length + r.pushed.length + r.deletedLocal.length + r.deletedHosted.length;
      if (moved) announce(`Synced: ${r.pushed.length} sent, ${r.pulled.length} received, ${r.deletedLocal.length + r.deletedHosted.length} deleted.`);
    }
  }

  /** @param {any} event a `conflict` event (path, local_version_id, hosted_version_id, …) */
  function addConflict(event) {
    const restorable = typeof event.local_version_id === "string";
    const item = el("li", { dataset: { testid: "sync-conflict", path: event.path } }, el("code", {}, event.path), " changed on both sides. ");
    if (restorable) {
      const button = el("button", { type: "button", className: "small", dataset: { testid: "sync-restore" } }, "Restore my version");
      button.setAttribute("aria-label", `Restore my version of ${event.path}`);
      button.addEventListener("click", () =>
        void run(async () => {
          await memory.versions.restore(event.local_version_id);
          button.replaceWith("Restored (the next pass sends it).");
          announce(`Your version of ${event.path} is back; the next sync sends it.`);
        }),
      );
      item.append(button);
    } else {
      item.append("Your text was not kept.");
    }
    conflicts.append(item);
  }

  startButton.addEventListener("click", () =>
    void run(async () => {
      const c = await client();
      const { MemorySync } = await loadSdk();
      memory = session.memory;
      conflicts.replaceChildren();
      refused.replaceChildren();
      sync = await MemorySync.start(memory, { client: c, memoryStoreId: picker.value });
      unsubscribe = sync.subscribe(onEvent);
      paintStatus(sync.status);
      q("sync-live").textContent = `Syncing “${session.name}” with ${picker.value}.`;
    }),
  );

  nowButton.addEventListener("click", () =>
    void run(async () => {
      const r = await sync.now();
      paintStatus(sync.status);
      if (r.skipped === "standby") q("sync-live").textContent = "Another tab syncs this store; it runs the passes.";
      else if (!r.ok) fail(`The pass failed: ${r.error}`);
      else q("sync-live").textContent = `Synced: ${r.pushed.length} sent, ${r.pulled.length} received, ${r.conflicts.length} conflicts, ${r.refused.length} refused.`;
    }),
  );

  async function stop() {
    if (!sync) return;
    const s = sync;
    sync = null;
    unsubscribe();
    unsubscribe = () => {};
    try {
      await s.stop();
    } finally {
      paintStatus(null);
      q("sync-live").textContent = "Sync stopped.";
    }
  }
  stopButton.addEventListener("click", () => void run(stop));

  // Another store opened in the page: the sync was of the old one (whose tool closes).
  session.addEventListener("switch", () => void stop().catch(() => {}));

  paintStatus(null);
  paintButtons();
  return { stop, get sync() { return sync; } };
}
