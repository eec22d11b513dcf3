// "What the agent's memory holds": for each store the agent mounts, how many files, how many
// bytes, which file changed last and which is largest, with the tool path the model sees each
// under. Kept up to date while it is open: the agent's memory tool hears every mounted store's
// changes, from this tab and from others.

import { el, formatBytes, describeError } from "../render.js";
import { describeWhen } from "./words.js";

/**
 * @typedef {object} OverviewOptions
 * @property {HTMLDetailsElement} root   the overview's <details>
 * @property {() => Promise<{ memory: import("memory-tool-wasm").MemoryTool }>} openMemory  the agent's memory now
 * @property {EventTarget[]} changes    events that may change what the agent's memory holds
 */

/**
 * One store's facts.
 * @typedef {{ name: string, path: string, access: string, files: number, bytes: number,
 *   newest: { path: string, at: string } | null, largest: { path: string, bytes: number } | null }} StoreFacts
 */

/**
 * Wires the overview.
 * @param {OverviewOptions} options
 */
export function mountOverview({ root, openMemory, changes }) {
  const list = /** @type {HTMLElement} */ (root.querySelector("#overview-list"));
  const summary = /** @type {HTMLElement} */ (root.querySelector("#overview-summary"));
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
      list.replaceChildren(el("li", { className: "problem" }, `Could not read the agent's memory: ${describeError(error)}`));
      return;
    }
    hear(target.memory);
    const files = facts.reduce((n, f) => n + f.files, 0);
    const bytes = facts.reduce((n, f) => n + f.bytes, 0);
    summary.textContent = `${facts.length} store${facts.length === 1 ? "" : "s"}, ${files.toLocaleString("en-US")} file${files === 1 ? "" : "s"}, ${formatBytes(bytes)}`;
    list.replaceChildren(...facts.map(item));
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

  /** @param {StoreFacts} f */
  function item(f) {
    return el(
      "li",
      { className: "overview-store", dataset: { testid: "overview-store", store: f.name } },
      el("p", { className: "store-line" }, el("strong", {}, f.name), el("span", { className: "meta" }, ` · ${f.path} · ${f.access === "read_only" ? "read only" : "read and write"}`)),
      el(
        "dl",
        {},
        fact("Files", f.files.toLocaleString("en-US"), "files"),
        fact("Size", formatBytes(f.bytes), "bytes"),
        fact("Changed last", f.newest ? `${f.newest.path}, ${describeWhen(f.newest.at)}` : "—", "newest"),
        fact("Largest", f.largest ? `${f.largest.path}, ${formatBytes(f.largest.bytes)}` : "—", "largest"),
      ),
    );
  }

  return { refresh };
}

/** @param {string} term @param {string} value @param {string} testid */
function fact(term, value, testid) {
  return el("div", {}, el("dt", {}, term), el("dd", { dataset: { testid: `overview-${testid}` } }, value));
}

/**
 * A mounted store's facts, from its listing (no contents are read).
 * @param {import("memory-tool-wasm").MemoryTool} memory
 * @param {Readonly<import("memory-tool-wasm").MountInfo>} mount
 * @returns {Promise<StoreFacts>}
 */
async function factsOf(memory, mount) {
  const listing = /** @type {any} */ (await memory.memories.list({ store: mount.store }));
  const records = (Array.isArray(listing) ? listing : listing.data).filter((/** @type {any} */ r) => !r.type || r.type === "memory");
  const toolPath = (/** @type {string} */ p) => `${mount.path.replace(/\/$/, "")}${p}`;
  let bytes = 0;
  /** @type {any} */
  let newest = null;
  /** @type {any} */
  let largest = null;
  for (const r of records) {
    const size = Number(r.content_size_bytes);
    bytes += size;
    if (!newest || r.updated_at > newest.updated_at) newest = r;
    if (!largest || size > Number(largest.content_size_bytes)) largest = r;
  }
  return {
    name: mount.name,
    path: mount.path,
    access: mount.access,
    files: records.length,
    bytes,
    newest: newest ? { path: toolPath(newest.path), at: newest.updated_at } : null,
    largest: largest ? { path: toolPath(largest.path), bytes: Number(largest.content_size_bytes) } : null,
  };
}
