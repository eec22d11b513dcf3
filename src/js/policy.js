// The host's write policy (`beforeWrite`) turned into the answer the core takes for a `policy`
// read: allow, refuse (with a reason), or the bytes to store instead. The hook decides
// synchronously inside the write's transaction; whatever it does, a decision comes back.

import { messageOf } from "./errors.js";
import { LONE_SURROGATE, describeValue, isPlainObject } from "./arguments.js";

/** @typedef {import("./index.js").BeforeWrite} BeforeWrite */

/** Strings a hook may return meaning no: refused, never stored as content. */
const REFUSAL_WORDS = new Set(["deny", "denied", "refuse", "refused", "reject", "rejected", "block", "blocked", "disallow", "forbid", "no", "false"]);

/**
 * The write policy's decision on one write, as the core takes it: `answer` (allow or refuse,
 * as JSON) or `rewrite` (the bytes to store instead). Whatever the hook does, a decision comes
 * back: a throw or a promise refuses the write, with a reason that says why.
 * @param {BeforeWrite} beforeWrite
 * @param {import("./index.js").PendingWrite} write
 * @returns {{ answer: { decision: "allow" } | { decision: "refuse", reason?: string }, rewrite?: undefined }
 *   | { rewrite: Uint8Array, answer?: undefined }}
 */
export function decide(beforeWrite, write) {
  /** @param {string} [reason] */
  const refuse = (reason) => ({
    answer: reason === undefined ? { decision: /** @type {const} */ ("refuse") } : { decision: /** @type {const} */ ("refuse"), reason },
  });
  let result;
  try {
    result = beforeWrite(Object.freeze(write));
  } catch (error) {
    return refuse(`the write policy failed: ${messageOf(error)}`);
  }
  if (result === undefined || result === true || result === "allow") {
    return { answer: { decision: /** @type {const} */ ("allow") } };
  }
  if (isThenable(result)) {
    // Its outcome cannot matter any more; keep a rejection from going unhandled.
    Promise.resolve(result).catch(() => {});
    return refuse("beforeWrite must decide synchronously");
  }
  // No reason: the core says "the host's write policy refused it".
  if (result === false) return refuse();
  if (typeof result === "string") {
    // A word that reads as a refusal is not stored as the memory's text: that would write
    // "deny" where the host meant no. (To store such a word, return { rewrite: "deny" }.)
    if (REFUSAL_WORDS.has(result.trim().toLowerCase())) {
      return refuse(`beforeWrite returned ${describeValue(result)}; refuse with false or { refuse: reason }`);
    }
    return rewriteText(result, refuse);
  }
  if (result instanceof Uint8Array) return { rewrite: result };
  if (result instanceof ArrayBuffer) return { rewrite: new Uint8Array(result) };
  if (ArrayBuffer.isView(result)) {
    return { rewrite: new Uint8Array(result.buffer, result.byteOffset, result.byteLength) };
  }
  if (isPlainObject(result) && "rewrite" in /** @type {object} */ (result)) {
    const content = /** @type {{ rewrite: unknown }} */ (result).rewrite;
    if (typeof content === "string") return rewriteText(content, refuse);
    if (content instanceof Uint8Array) return { rewrite: content };
    return refuse(`beforeWrite returned { rewrite: ${describeValue(content)} }, which is not text or bytes`);
  }
  if (isPlainObject(result) && "refuse" in /** @type {object} */ (result)) {
    const reason = /** @type {{ refuse: unknown }} */ (result).refuse;
    return refuse(typeof reason === "string" && reason.trim() !== "" ? reason : undefined);
  }
  return refuse(`beforeWrite returned ${describeValue(result)}, which is not a decision`);
}

/**
 * A rewrite the hook gave as text, as UTF-8 bytes. A lone surrogate has no UTF-8 form
 * (`TextEncoder` would store U+FFFD in its place without a word), so such a rewrite refuses the
 * write and says where, as a host's own content does (docs/TOOL.md#from-javascript).
 * @template R
 * @param {string} text
 * @param {(reason: string) => R} refuse
 * @returns {{ rewrite: Uint8Array, answer?: undefined } | R}
 */
function rewriteText(text, refuse) {
  const found = LONE_SURROGATE.exec(text);
  if (found === null) return { rewrite: new TextEncoder().encode(text) };
  const unit = found[0].charCodeAt(0).toString(16).toUpperCase();
  return refuse(
    `beforeWrite's rewrite holds a lone surrogate (U+${unit} at index ${found.index}, half of a UTF-16 surrogate pair), which has no UTF-8 form`,
  );
}

/**
 * The content of a write as the policy sees it: text when the bytes are UTF-8, else the bytes.
 * @param {Uint8Array} bytes
 * @returns {string | Uint8Array}
 */
export function textOrBytes(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return bytes;
  }
}

/**
 * Whether `value` is a Promise or anything else with a `then` method.
 * @param {unknown} value
 */
function isThenable(value) {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (/** @type {{ then?: unknown }} */ (value).then) === "function"
  );
}
