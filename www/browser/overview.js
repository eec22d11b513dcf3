// "What the agent's memory holds": for each store the agent mounts, how many files, how many
// bytes (the package's `usage()`, from the store's metadata), which file changed last and which
// is largest, with the tool path the model sees each under, and a check of what in it cannot be
// read (`check()`, then `repair()` after asking); below, what the browser says of the whole
// site (its usage and quota, whether it is persisted) with a button to ask it to keep the data
// (`persist()`). Kept up to date while it is open: the agent's memory tool hears every mounted
// store's changes, from this tab and from others.

import { el, formatBytes, roughBytes, describeError } from "../render.js";
import { describeWhen, rememberRepaired } from "./words.js";
import { toToolPath } from "./tree.js";

/**
 * @typedef {object} OverviewOptions
 * @property {HTMLDetailsElement} root   the overview's <details>
 * @property {() => Promise<{ memory: import("memory-tool-wasm").MemoryTool }>} openMemory  the agent's memory now
 * @property {EventTarget[]} changes    events that may change what the agent's memory holds
 */

/**
 * One store's facts.
 * @typedef {{ store: string, name: string, path: string, access: string, files: number, bytes: number,
 *   newest: { path: string, at: string } | null, largest: { path: string, bytes: number } | null,
 *   origin: { usage: number, quota: number } | null, persisted: boolean | null }} StoreFacts
 */

/**
 * What the last check of a store found (or why it could not run).
 * @typedef {{ result: import("memory-tool-wasm").CheckResult } | { problem: string }} CheckOutcome
 */

/**
 * Wires the overview.
 * @param {OverviewOptions} options
 */
export function mountOverview({ root, openMemory, changes }) {
  const list = /** @type {HTMLElement} */ (root.querySelector("#overview-list"));
  const summary = /** @type {HTMLElement} */ (root.querySelector("#overview-summary"));
  const site = /** @type {HTMLElement} */ (root.querySelector("#overview-site"));
  /** The last check of each store, by store id, kept until the next. @type {Map<string, CheckOutcome>} */
  const checks = new Map();
  /** After a check or a repair, focus goes back to that store's Check button. @type {string | null} */
  let focusCheck = null;
  /** What the browser said to the last "Keep my data", shown until the next paint that changes it. */
  let persistAnswer = "";
  /** @type {import("memory-tool-wasm").MemoryTool | null} the agent memory whose changes are heard */
  let heard = null;
  let stopHearing = () => {};
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let paints = 0;
  let pending = Promise.resolve();

  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), 60);
  };
  for (const target of changes) {
    target.addEventListener("change", soon);
    target.addEventListener("switch", soon);
    target.addEventListener("mounts-change", soon);
  }
  root.addEventListener("toggle", () => {
    if (root.open) void refresh();
  });

  /** Recounts (queued, so two refreshes never paint out of order). */
  function refresh() {
    pending = pending.then(paint, paint);
    return pending;
  }

  async function paint() {
    let target;
    /** @type {StoreFacts[]} */
    const facts = [];
    try {
      target = await openMemory();
      for (const mount of target.memory.mounts) facts.push(await factsOf(target.memory, mount));
    } catch (error) {
      summary.textContent = "could not be read";
      site.replaceChildren();
      list.replaceChildren(
        el(
          "li",
          { className: "problem" },
          /** @type {any} */ (error)?.code === "STORE_VANISHED"
            ? "A store's data was deleted outside this page: see the notice at the top."
            : `Could not read the agent's memory: ${describeError(error)}`,
        ),
      );
      return;
    }
    hear(target.memory);
    const files = facts.reduce((n, f) => n + f.files, 0);
    const bytes = facts.reduce((n, f) => n + f.bytes, 0);
    summary.textContent = `${facts.length} store${facts.length === 1 ? "" : "s"}, ${files.toLocaleString("en-US")} file${files === 1 ? "" : "s"}, ${formatBytes(bytes)}`;
    list.replaceChildren(...facts.map((f) => item(f, target.memory)));
    paintSite(facts[0] ?? null, target.memory);
    if (focusCheck !== null) {
      /** @type {HTMLElement | null} */ (list.querySelector(`[data-store-id="${CSS.escape(focusCheck)}"] [data-testid="check-store"]`))?.focus();
      focusCheck = null;
    }
    paints += 1;
    root.dataset.paints = String(paints);
  }

  /** Listens to the agent memory's changes (every mounted store's). @param {import("memory-tool-wasm").MemoryTool} memory */
  function hear(memory) {
    if (heard === memory) return;
    stopHearing();
    heard = memory;
    stopHearing = memory.subscribe(soon);
  }

  /**
   * The whole site's storage, as the browser tells it, and the button to ask it to keep it.
   * @param {StoreFacts | null} f  any store's facts (the origin's figures are the same in each)
   * @param {import("memory-tool-wasm").MemoryTool} memory
   */
  function paintSite(f, memory) {
    if (!f) {
      site.replaceChildren();
      return;
    }
    const used = f.origin
      ? `This site uses ${roughBytes(f.origin.usage)} of about ${roughBytes(f.origin.quota)} the browser allows it. `
      : "This browser does not say how much the site uses. ";
    const kept =
      f.persisted === true
        ? "Persisted: the browser keeps it until you clear the site's data."
        : f.persisted === false
          ? "Not persisted: the browser may clear it when the disk runs low."
          : "This browser cannot promise to keep it.";
    site.dataset.persisted = String(f.persisted);
    site.replaceChildren(el("span", { dataset: { testid: "overview-origin" } }, used), el("span", { dataset: { testid: "overview-persisted" } }, kept));
    if (f.persisted === false) {
      site.append(el("button", { type: "button", className: "small", dataset: { testid: "keep-my-data" }, onclick: () => void keepData(memory) }, "Keep my data"));
    }
    if (persistAnswer) site.append(el("span", { className: "hint", dataset: { testid: "persist-answer" } }, ` ${persistAnswer}`));
  }

  /** Asks the browser to keep the site's data (`persist()`), and says what it answered. @param {import("memory-tool-wasm").MemoryTool} memory */
  async function keepData(memory) {
    /** @type {boolean | null} */
    let granted = false;
    try {
      // null: the browser has not answered within persist()'s bound (Firefox asks with a prompt).
      granted = await memory.persist();
    } catch (error) {
      persistAnswer = `The browser could not be asked: ${describeError(error)}`;
      await refresh();
      return;
    }
    persistAnswer =
      granted === true
        ? "The browser agreed to keep it."
        : granted === null
          ? "Your browser has not answered yet: it may be asking you (look for its prompt near the address bar). Until it says yes, the data is not kept for good."
          : "The browser said no for now: browsers grant this to sites you use often, bookmark, or install.";
    await refresh();
    /** @type {HTMLElement | null} */ (site.querySelector('[data-testid="keep-my-data"]') ?? root.querySelector("summary"))?.focus();
  }

  /**
   * Checks a store (`check()`: hashes every content, a page at a time) and shows what is damaged.
   * @param {import("memory-tool-wasm").MemoryTool} memory @param {string} store
   */
  async function check(memory, store) {
    try {
      checks.set(store, { result: await memory.check({ store }) });
    } catch (error) {
      checks.set(store, { problem: `Could not check the store: ${describeError(error)}` });
    }
    focusCheck = store;
    await refresh();
  }

  /**
   * Repairs a store after asking (`repair()`): a record that cannot be read is removed, a memory
   * whose content is missing is deleted as a version (its history says so).
   * @param {import("memory-tool-wasm").MemoryTool} memory @param {StoreFacts} f @param {number} count
   */
  async function repair(memory, f, count) {
    const question =
      `Repair “${f.name}”? ${count} damaged memor${count === 1 ? "y is" : "ies are"} taken out: a record that cannot be read is removed, ` +
      "a memory whose content is missing is deleted (its history keeps its older versions), " +
      "and a text changed outside this page is kept as it is now, as a new version. Nothing else changes.";
    if (!window.confirm(question)) return;
    try {
      const result = await memory.repair({ store: f.store });
      // The history then names these deletions "repair" (the versions may record a host call).
      rememberRepaired(result.damaged.map((d) => d.memory_id));
      checks.set(f.store, { result });
    } catch (error) {
      checks.set(f.store, { problem: `Could not repair the store: ${describeError(error)}` });
    }
    focusCheck = f.store;
    await refresh();
  }

  /**
   * What a repair did, in words: what it took out, and what it kept as it is now.
   * @param {import("memory-tool-wasm").CheckResult["damaged"]} damaged
   */
  function repairedWords(damaged) {
    const out = damaged.filter((d) => d.action !== "kept");
    const kept = damaged.filter((d) => d.action === "kept");
    const names = (/** @type {typeof damaged} */ list) => list.map((d) => toToolPath(d.path)).join(", ");
    const parts = [];
    if (out.length > 0) parts.push(`${out.length} damaged memor${out.length === 1 ? "y was" : "ies were"} taken out (${names(out)})`);
    if (kept.length > 0) parts.push(`${kept.length} changed outside this page ${kept.length === 1 ? "was" : "were"} kept as ${kept.length === 1 ? "it is" : "they are"} now, as a new version (${names(kept)})`);
    return `Repaired: ${parts.join("; ")}.`;
  }

  /**
   * A store's last check, in words, with the Repair button when something is damaged.
   * @param {StoreFacts} f @param {import("memory-tool-wasm").MemoryTool} memory
   */
  function checkNodes(f, memory) {
    const outcome = checks.get(f.store);
    if (!outcome) return null;
    if ("problem" in outcome) return el("p", { className: "problem", dataset: { testid: "check-result" } }, outcome.problem);
    const { result } = outcome;
    if (result.repaired) {
      const n = result.damaged.length;
      return el(
        "p",
        { className: "meta", dataset: { testid: "check-result", state: "repaired" } },
        n === 0 ? "Repaired: nothing was damaged." : repairedWords(result.damaged),
      );
    }
    if (result.damaged.length === 0) {
      return el("p", { className: "meta", dataset: { testid: "check-result", state: "ok" } }, `Checked: all ${result.files.toLocaleString("en-US")} record${result.files === 1 ? "" : "s"} can be read.`);
    }
    const n = result.damaged.length;
    return el(
      "div",
      { className: "check-result", dataset: { testid: "check-result", state: "damaged" } },
      el("p", { className: "problem" }, `${n} damaged memor${n === 1 ? "y" : "ies"} of ${result.files.toLocaleString("en-US")}:`),
      el(
        "ul",
        { dataset: { testid: "damaged-list" } },
        ...result.damaged.map((d) =>
          el(
            "li",
            { dataset: { testid: "damaged", path: toToolPath(d.path), problem: d.problem } },
            el("code", {}, toToolPath(d.path)),
            d.problem === "content"
              ? ": its content is missing from storage"
              : d.problem === "sha256"
                ? ": its content was changed outside this page (it no longer matches its hash); repair keeps it as it is, as a new version"
                : ": its stored record cannot be read",
          ),
        ),
      ),
      f.access === "read_write"
        ? el("button", { type: "button", className: "small danger", dataset: { testid: "repair-store" }, onclick: () => void repair(memory, f, n) }, "Repair…")
        : el("p", { className: "hint" }, "This store is mounted read-only: it cannot be repaired from here."),
    );
  }

  /** @param {StoreFacts} f @param {import("memory-tool-wasm").MemoryTool} memory */
  function item(f, memory) {
    return el(
      "li",
      { className: "overview-store", dataset: { testid: "overview-store", store: f.name, storeId: f.store } },
      el("p", { className: "store-line" }, el("strong", {}, f.name), el("span", { className: "meta" }, ` · ${f.path} · ${f.access === "read_only" ? "read only" : "read and write"}`)),
      el(
        "dl",
        {},
        fact("Files", f.files.toLocaleString("en-US"), "files"),
        fact("Size", formatBytes(f.bytes), "bytes"),
        fact("Changed last", f.newest ? `${f.newest.path}, ${describeWhen(f.newest.at)}` : "—", "newest"),
        fact("Largest", f.largest ? `${f.largest.path}, ${formatBytes(f.largest.bytes)}` : "—", "largest"),
      ),
      el(
        "div",
        { className: "actions" },
        el("button", { type: "button", className: "small", dataset: { testid: "check-store" }, "aria-label": `Check store ${f.name}`, onclick: () => void check(memory, f.store) }, "Check store"),
      ),
      checkNodes(f, memory),
    );
  }

  return { refresh };
}

/** @param {string} term @param {string} value @param {string} testid */
function fact(term, value, testid) {
  return el("div", {}, el("dt", {}, term), el("dd", { dataset: { testid: `overview-${testid}` } }, value));
}

/**
 * A mounted store's facts: its usage (from the store's metadata) and its listing (no contents
 * are read).
 * @param {import("memory-tool-wasm").MemoryTool} memory
 * @param {Readonly<import("memory-tool-wasm").MountInfo>} mount
 * @returns {Promise<StoreFacts>}
 */
async function factsOf(memory, mount) {
  const usage = await memory.usage({ store: mount.store });
  const listing = /** @type {any} */ (await memory.memories.list({ store: mount.store }));
  const records = (Array.isArray(listing) ? listing : listing.data).filter((/** @type {any} */ r) => !r.type || r.type === "memory");
  const toolPath = (/** @type {string} */ p) => `${mount.path.replace(/\/$/, "")}${p}`;
  /** @type {any} */
  let newest = null;
  /** @type {any} */
  let largest = null;
  for (const r of records) {
    const size = Number(r.content_size_bytes);
    if (!newest || r.updated_at > newest.updated_at) newest = r;
    if (!largest || size > Number(largest.content_size_bytes)) largest = r;
  }
  return {
    store: mount.store,
    name: mount.name,
    path: mount.path,
    access: mount.access,
    files: usage.files,
    bytes: usage.bytes,
    origin: usage.origin,
    persisted: usage.persisted,
    newest: newest ? { path: toolPath(newest.path), at: newest.updated_at } : null,
    largest: largest ? { path: toolPath(largest.path), bytes: Number(largest.content_size_bytes) } : null,
  };
}
