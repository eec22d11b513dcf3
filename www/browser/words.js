// Words for the memory browser: when something happened, and who did it, in the words people
// use ("you, in the editor", "synced from “Team notes”", "expired after 30 days unused",
// "repair"), from a version's `created_by` and what the page itself remembers of the hosted
// stores it listed and the repairs it ran.

import { EXPIRE_AFTER_DAYS } from "../stores.js";

/** localStorage: the names of hosted stores the sync panel listed, by id. */
const HOSTED_NAMES = "memory-tool-wasm-demo:hosted-store-names";
/** localStorage: the memories this page's "Repair…" deleted, by memory id (for versions that record only `{ type: "api" }`). */
const REPAIRED = "memory-tool-wasm-demo:repaired-memories";

/** @param {string} key @returns {Record<string, string>} */
function readMap(key) {
  try {
    const value = JSON.parse(globalThis.localStorage?.getItem(key) ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** @param {string} key @param {Record<string, string>} entries */
function addToMap(key, entries) {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify({ ...readMap(key), ...entries }));
  } catch {
    // Not kept: the page then names the store by id, or the repair as a host call.
  }
}

/**
 * Keeps the names of hosted stores (from a listing), so that versions synced from them are
 * named by name. @param {Array<{ id: string, name: string }>} stores
 */
export function rememberHostedStores(stores) {
  addToMap(HOSTED_NAMES, Object.fromEntries(stores.map((s) => [s.id, s.name])));
}

/** A hosted store in words: “Team notes” (memstore_…), or its id. @param {string} id */
export function hostedStoreWords(id) {
  const name = readMap(HOSTED_NAMES)[id];
  return name ? `“${name}” (${id})` : id;
}

/**
 * Notes that this page's repair deleted these memories (the package records such a deletion
 * as a host call, `{ type: "api" }`, until it says `{ type: "repair" }` itself).
 * @param {Array<string | null | undefined>} memoryIds
 */
export function rememberRepaired(memoryIds) {
  const at = new Date().toISOString();
  addToMap(REPAIRED, Object.fromEntries(memoryIds.filter((id) => typeof id === "string").map((id) => [id, at])));
}

/**
 * "just now", "5 min ago", "3 h ago", else the date.
 * @param {string} iso an RFC 3339 time
 * @param {number} [now]
 */
export function describeWhen(iso, now = Date.now()) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 45) return "just now";
  if (seconds < 90 * 60) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(then).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/**
 * Who made a change, from a version's `created_by`, in words. `operation` and `memoryId` (the
 * version's) tell a host call apart: an edit is "you, in the editor", a create or a delete
 * "you, in the memory browser", a delete of a memory this page's repair took out "repair".
 * The model's calls are "the model" (or the demo's recorded model, or the tool console); where
 * it was (this conversation, with a link) is added by the provenance view.
 * @param {any} actor
 * @param {{ operation?: string, memoryId?: string }} [version]
 */
export function describeActor(actor, { operation, memoryId } = {}) {
  if (!actor || typeof actor !== "object") return "unknown";
  if (actor.type === "tool") {
    const id = typeof actor.tool_use_id === "string" ? actor.tool_use_id : null;
    // The SDK's tool runner calls the tool without the tool_use id.
    if (id === null) return "the model, through the memory tool";
    if (id.startsWith("toolu_demo_")) return "you, in the tool console";
    if (id.startsWith("toolu_recorded_")) return "the recorded model";
    return "the model";
  }
  if (actor.type === "repair") return "repair";
  if (actor.type === "expiry") return `expired after ${EXPIRE_AFTER_DAYS} days unused`;
  if (actor.type === "import") return "an import";
  if (actor.type === "api") {
    if (typeof actor.memory_store_id === "string") return `synced from the hosted store ${hostedStoreWords(actor.memory_store_id)}`;
    if (typeof actor.restored_from === "string") return "you";
    if (operation === "deleted" && memoryId && readMap(REPAIRED)[memoryId]) return "repair";
    if (operation === "modified") return "you, in the editor";
    return "you, in the memory browser";
  }
  return String(actor.type ?? "unknown");
}
