// "Sync with a hosted memory store": keeps the open store in step with a memory store hosted by
// Anthropic (`client.beta.memoryStores`) through the package's MemorySync (docs/SYNC.md). The
// user gives an API key (kept in this tab's sessionStorage only, as the agent's is) or the base
// URL of their app's proxy (which adds the key itself), picks or creates a hosted store, and
// starts, stops or runs a pass; the panel shows the sync's status, what waits here for the next
// pass (and, for a delete, when it can go), its conflicts (each with "Restore my version", from
// the local history) and refusals. A failure is said in words with what to do, never as the
// API's JSON, and the state line says the same; a base URL the page's Content-Security-Policy
// would block is refused before any request, with the reason.

import { el, describeError } from "../render.js";
import { describeFailure, policyProblem } from "../api-errors.js";
import { rememberHostedStores } from "./words.js";

const KEY = "memory-tool-wasm-demo:sync-api-key";
const BASE = "memory-tool-wasm-demo:sync-base-url";

/** At most one pass this long after a local change (MemorySync's default, given explicitly so the panel can say it). */
export const INTERVAL_MS = 15_000;
/** How long a local delete must last, and a later pass still see it, before the hosted delete goes. */
export const DELETE_CORROBORATION_MS = 30_000;

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

/** `1 conflict`, `2 conflicts`. @param {number} n @param {string} one @param {string} [many] */
export function count(n, one, many = `${one}s`) {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
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
  const live = q("sync-live");
  const statusList = q("sync-status");
  const conflicts = q("sync-conflicts");
  const refused = q("sync-refused");

  keyInput.value = load(KEY);
  baseInput.value = load(BASE) || configuredBase();

  /** @type {any} */ let sync = null;
  /** @type {() => void} */ let unsubscribe = () => {};
  /** @type {any} */ let memory = null;
  let busy = false;
  /** The status last shown (kept after Stop, for its last sync). @type {any} */
  let lastStatus = null;
  /** Changes made here (not by sync) since the pass that last started, by path. @type {Map<string, { deleted: boolean, at: number }>} */
  const localChanges = new Map();
  /** When the running pass started (changes before it are in it). */
  let passStartedAt = 0;

  /** @type {Promise<{ Anthropic: any, MemorySync: any }> | null} */
  let loading = null;
  const loadSdk = () =>
    (loading ??= Promise.all([import("@anthropic-ai/sdk"), import("memory-tool-wasm/sync")]).then(([sdk, s]) => ({
      Anthropic: sdk.default,
      MemorySync: s.MemorySync,
    })));

  /** Where the requests go, in words. */
  function endpoint() {
    return baseInput.value.trim() || "the Anthropic API";
  }

  /** A client from the fields: with the key, or (a proxy) with none. */
  async function client() {
    const key = keyInput.value.trim();
    const baseURL = baseInput.value.trim();
    if (!key && !baseURL) throw new Error("Give your API key, or your app's proxy URL.");
    if (baseURL && !/^https?:\/\//.test(baseURL)) throw new Error("The base URL must start with https:// (or http://).");
    // Refused here, in words, rather than by the browser with only "Connection error.".
    const blocked = policyProblem(baseURL || "https://api.anthropic.com");
    if (blocked) throw new Error(blocked);
    save(KEY, key);
    save(BASE, baseURL === configuredBase() ? "" : baseURL);
    const { Anthropic } = await loadSdk();
    return key
      ? new Anthropic({ apiKey: key, dangerouslyAllowBrowser: true, maxRetries: 1, ...(baseURL ? { baseURL } : {}) })
      : new Anthropic({ apiKey: null, baseURL, defaultHeaders: { authorization: null }, dangerouslyAllowBrowser: true, maxRetries: 1 });
  }

  /** A failure (an SDK error, or a pass's error message) in words, with what to do. @param {any} error */
  function failureWords(error) {
    if (error instanceof Error && !("status" in error) && error.constructor?.name === "Error") return error.message;
    return describeFailure(error, {
      endpoint: endpoint(),
      keyAction: "Check the API key above (or the proxy), then press “Sync now” or start again.",
      retryAction: "Press “Sync now” to try again.",
    }).words;
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

  /** The state in words; an error or being offline says why, as the live line does. @param {any} status */
  function stateWords(status) {
    if (!status) return lastStatus ? "off (stopped)" : "off";
    if (status.state === "error") return `error: ${status.lastError ? failureWords(status.lastError) : "the last pass failed"}`;
    if (status.state === "offline") return "offline: the last pass got no answer; it tries again by itself";
    return status.state;
  }

  /** What waits: the last pass's counts, and the changes made here since it began. @param {any} status */
  function pendingWords(status) {
    if (!status) return "–";
    const parts = [];
    const { push, pull, delete: deletes } = status.pending;
    const edits = [...localChanges.values()].filter((c) => !c.deleted).length;
    const deleted = [...localChanges.entries()].filter(([, c]) => c.deleted);
    const toPush = push + edits;
    parts.push(`${count(toPush, "change")} to send`, `${count(pull, "change")} to receive`);
    if (deletes > 0 || deleted.length > 0) parts.push(`${count(Math.max(deletes, deleted.length), "delete")} waiting`);
    let out = parts.join(", ");
    if (edits > 0) out += `. ${count(edits, "change")} made here since the last pass go${edits === 1 ? "es" : ""} out on the next one (within ${INTERVAL_MS / 1000} s of a change)`;
    if (deleted.length > 0) {
      const [path, c] = deleted[0];
      out +=
        `. A delete made here goes to the hosted store once it has stayed ${DELETE_CORROBORATION_MS / 1000} s and a later pass still finds it: ` +
        `${path} not before ${new Date(c.at + DELETE_CORROBORATION_MS).toLocaleTimeString()}` +
        (deleted.length > 1 ? ` (and ${count(deleted.length - 1, "other")})` : "");
    }
    return `${out}.`;
  }

  /** @param {any} status */
  function paintStatus(status) {
    if (status) lastStatus = status;
    const state = status ? status.state : "off";
    statusList.dataset.state = state;
    q("sync-state").textContent = stateWords(status);
    // After Stop, the last sync is still the last sync.
    const last = (status ?? lastStatus)?.lastSyncAt ?? null;
    q("sync-last").textContent = when(last);
    if (last) q("sync-last").dataset.at = last;
    q("sync-pending").textContent = pendingWords(status);
    q("sync-summary").textContent = status ? `${state}, with ${sync?.memoryStoreId ?? ""}` : "off";
    // The live line agrees with the state: it never says "Syncing" over an error.
    if (status?.state === "error") live.textContent = `Sync is not working: ${stateWords(status).replace(/^error: /, "")}`;
    else if (status?.state === "offline") live.textContent = "Sync is offline: no answer from the hosted store; it tries again by itself (or press “Sync now”).";
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
      fail(failureWords(error));
      live.textContent = sync ? live.textContent : "";
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
    rememberHostedStores(stores);
    picker.replaceChildren(
      ...(stores.length
        ? stores.map((s) => el("option", { value: s.id }, `${s.name} (${s.id})`))
        : [el("option", { value: "" }, "(no hosted stores: create one)")]),
    );
    if (select) picker.value = select;
    live.textContent = `${count(stores.length, "hosted store")} found.`;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run(() => listStores());
  });

  createButton.addEventListener("click", () =>
    void run(async () => {
      const c = await client();
      const made = await c.beta.memoryStores.create({ name: session.name, description: `Synced from the memory-tool-wasm demo's “${session.name}”.` });
      rememberHostedStores([made]);
      await listStores(made.id);
      live.textContent = `Created the hosted store “${made.name}” (${made.id}).`;
    }),
  );

  /** @param {any} event */
  function onEvent(event) {
    if (event.type === "status") {
      if (event.status.state === "syncing" && lastStatus?.state !== "syncing") passStartedAt = Date.now();
      paintStatus(event.status);
    } else if (event.type === "conflict") addConflict(event);
    else if (event.type === "refused") {
      refused.append(
        el("li", { dataset: { testid: "sync-refusal", path: event.path } },
          el("code", {}, event.path), ` (${event.side === "hosted" ? "not sent to the hosted store" : "not taken from the hosted store"}): ${event.reason}`),
      );
    } else if (event.type === "pass") {
      const r = event.result;
      if (r.ok) {
        // What the pass began with is done; a delete waits until the hosted one went.
        for (const [path, c] of [...localChanges]) {
          if ((!c.deleted && c.at < passStartedAt) || (c.deleted && r.deletedHosted.includes(path))) localChanges.delete(path);
        }
        paintStatus(sync?.status ?? lastStatus);
        const moved = r.pulled.length + r.pushed.length + r.deletedLocal.length + r.deletedHosted.length;
        if (moved) announce(`Synced: ${r.pushed.length} sent, ${r.pulled.length} received, ${r.deletedLocal.length + r.deletedHosted.length} deleted.`);
      } else if (r.error && !r.skipped) {
        live.textContent = `The last pass failed: ${failureWords(r.error)}`;
      }
    }
  }

  /** A change committed to the store: one made here (not by sync itself) waits for the next pass. @param {any} change */
  function onChange(change) {
    if (!sync || !change.path || change.created_by?.memory_store_id) return;
    localChanges.set(change.path, { deleted: change.operation === "deleted", at: Date.now() });
    paintStatus(sync.status);
  }
  session.addEventListener("change", (event) => onChange(/** @type {CustomEvent} */ (event).detail));

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
      localChanges.clear();
      sync = await MemorySync.start(memory, {
        client: c,
        memoryStoreId: picker.value,
        intervalMs: INTERVAL_MS,
        deleteCorroborationMs: DELETE_CORROBORATION_MS,
      });
      unsubscribe = sync.subscribe(onEvent);
      live.textContent = `Syncing “${session.name}” with ${picker.selectedOptions[0]?.textContent ?? picker.value}.`;
      paintStatus(sync.status);
    }),
  );

  nowButton.addEventListener("click", () =>
    void run(async () => {
      const r = await sync.now();
      paintStatus(sync.status);
      if (r.skipped === "standby") live.textContent = "Another tab syncs this store; it runs the passes.";
      else if (!r.ok) {
        const words = failureWords(r.error ?? "the pass failed");
        fail(`The pass failed: ${words}`);
        live.textContent = `The last pass failed: ${words}`;
      } else {
        live.textContent =
          `Synced: ${r.pushed.length} sent, ${r.pulled.length} received, ${count(r.conflicts.length, "conflict")}, ${r.refused.length} refused.`;
      }
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
      lastStatus = s.status;
    } catch (error) {
      fail(`Stopping failed: ${describeError(error)}`);
    } finally {
      localChanges.clear();
      paintStatus(null);
      live.textContent = "Sync stopped.";
    }
  }
  stopButton.addEventListener("click", () => void run(stop));

  // Another store opened in the page: the sync was of the old one (whose tool closes).
  session.addEventListener("switch", () => void stop().catch(() => {}));

  paintStatus(null);
  paintButtons();
  return { stop, get sync() { return sync; } };
}
