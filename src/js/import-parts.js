// A bundle handed to the core a part at a time, for `import` (docs/TOOL.md#bundles): its
// header, then its memories and its versions in lists of about PART_BYTES of content each, the
// page running between parts. The core checks each part as it comes (every path, hash and
// field) and what spans the whole bundle once all are in, so the checks, their order and their
// words are the bundle's whole; no one call turns the whole bundle into JSON, and none parses
// or hashes all of it.

import { BundleParts } from "../../pkg/memory_tool_wasm.js";
import { MemoryToolError, messageOf } from "./errors.js";
import { utf8 } from "./driver.js";

/** About this much content (UTF-16 code units of `content` / `content_base64`) per part. */
export const PART_BYTES = 1 << 18;
/** At most this many memories or versions per part (they may be small). */
export const PART_ITEMS = 1024;

/**
 * The bundle read into the core in parts, or null when its shape is not one to cut (not
 * lists where lists belong, a `toJSON` of its own): the core then reads it whole and says
 * what is wrong with it, as it would for any bundle.
 * @param {Record<string, unknown>} bundle
 * @returns {Promise<BundleParts | null>}
 */
export async function bundleParts(bundle) {
  const { memories, versions } = bundle;
  if (!Array.isArray(memories) || !(versions === undefined || Array.isArray(versions)) || typeof bundle.toJSON === "function") {
    return null;
  }
  const header = { ...bundle, memories: [], ...(versions === undefined ? {} : { versions: [] }) };
  const parts = new BundleParts(utf8.encode(json(header)));
  try {
    let first = true;
    for (const [list, add] of /** @type {const} */ ([
      [memories, "memories"],
      [versions ?? [], "versions"],
    ])) {
      for (let from = 0; from < list.length; ) {
        const end = partEnd(list, from);
        if (!first) await yieldToPage();
        first = false;
        parts[add](utf8.encode(json(list.slice(from, end))));
        from = end;
      }
    }
    return parts;
  } catch (error) {
    parts.free();
    throw error;
  }
}

/**
 * Where the part of `list` that starts at `from` ends (exclusive): PART_ITEMS items or
 * PART_BYTES of content, whichever comes first, and one item at least.
 * @param {unknown[]} list
 * @param {number} from
 */
function partEnd(list, from) {
  let size = 0;
  let end = from;
  while (end < list.length && end - from < PART_ITEMS && size < PART_BYTES) {
    const item = /** @type {{ content?: unknown, content_base64?: unknown } | null} */ (list[end]);
    const text = item?.content ?? item?.content_base64;
    size += typeof text === "string" ? text.length : 0;
    end += 1;
  }
  return end;
}

/**
 * `JSON.stringify(value)`, refused as the arguments of any host call are when it has no JSON
 * form.
 * @param {unknown} value
 */
function json(value) {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new MemoryToolError("INVALID_INPUT", `import: the arguments have no JSON form (${messageOf(error)}).`);
  }
}

/**
 * Lets the page run before the next part: a timer, queued behind the page's own (not
 * `scheduler.yield()`, whose continuation goes before them, so a page's timers would wait for
 * every part).
 */
function yieldToPage() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
