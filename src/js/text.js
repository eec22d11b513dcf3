// The core's own words for what a host shows beside memories: the folder a store's name mounts
// at (its slug) and a size as directory listings write it. Synchronous; they need the core,
// which is loaded once a MemoryTool or MemoryStores has opened — before that they throw.

import { formatSize as coreFormatSize, slug as coreSlug } from "../../pkg/memory_tool_wasm.js";
import { MemoryToolError } from "./errors.js";
import { isLoaded } from "./wasm.js";

/**
 * The folder a store named `name` mounts at, `/memories/<slug>/` (docs/TOOL.md#stores-and-slugs):
 * letters and digits of any script, lowercased, other runs as one `-`. Empty when the name has
 * no letter or digit (such a name is refused).
 * @param {string} name
 * @returns {string}
 */
export function slugOf(name) {
  ready("slugOf");
  if (typeof name !== "string") throw new TypeError("slugOf: the name must be a string");
  return coreSlug(name);
}

/**
 * `bytes` as directory listings write a size (docs/TOOL.md#sizes): `44B`, `1.0K`, `1.2M`.
 * @param {number} bytes
 * @returns {string}
 */
export function formatSize(bytes) {
  ready("formatSize");
  if (typeof bytes !== "number" || !(bytes >= 0)) {
    throw new TypeError("formatSize: the size must be a number of bytes, 0 or more");
  }
  return coreFormatSize(bytes);
}

/** @param {string} who */
function ready(who) {
  if (!isLoaded()) {
    throw new MemoryToolError(
      "NOT_READY",
      `${who}: the core is not loaded yet; call it once MemoryTool.open or MemoryStores.open has resolved.`,
    );
  }
}
