// What callers hand a MemoryTool, checked and put in the form the core takes: tool_use blocks
// and tool inputs, writeFile content, host calls' options and version filters, an import's
// progress callback, and who a change is by; plus how a message names a value it refused.
// The rules of the values themselves are the core's: this only shapes them.

import { MemoryToolError } from "./errors.js";
// A free function of the core; callable once the core is loaded (every method that takes
// options runs on an open MemoryTool or MemoryStores, which loaded it).
import { refuseUnknownOption } from "../../pkg/memory_tool_wasm.js";

/**
 * Whether `value` is an object that is not an array (what every options argument must be).
 * @param {unknown} value
 * @returns {boolean}
 */
export function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A short description of a value for messages: a string quoted (cut at 40 characters), null,
 * "an array", "an object", or its type and value (`number 3`).
 * @param {unknown} value
 * @returns {string}
 */
export function describeValue(value) {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return Array.isArray(value) ? "an array" : "an object";
  return `${typeof value} ${String(value)}`;
}

/**
 * Who a change is by, recorded in its version's `created_by` (docs/ARCHITECTURE.md): the
 * `actorJson` of the core's start calls.
 * @param {string} type "tool", "api" or "import"
 * @param {string | null} session the tool's `session_id`, or null to leave it out
 * @param {Record<string, unknown>} [extra]
 * @returns {string}
 */
export function actor(type, session, extra) {
  return JSON.stringify({ type, ...extra, ...(session === null ? {} : { session_id: session }) });
}

/** The actor of host calls made with no session (the store registry's, path checks). */
export const API_ACTOR = actor("api", null);

/**
 * Throws `INVALID_TOOL_USE` unless `block` is a `tool_use` block of the tool named "memory".
 * @param {unknown} block
 * @returns {asserts block is import("./index.js").ToolUseBlock}
 */
export function checkToolUse(block) {
  /** @param {string} why */
  const fail = (why) => {
    throw new MemoryToolError("INVALID_TOOL_USE", `Not a memory tool_use block: ${why}.`);
  };
  if (typeof block !== "object" || block === null || Array.isArray(block)) fail("expected an object");
  const b = /** @type {Record<string, unknown>} */ (block);
  if (b.type !== "tool_use") fail(`its type is ${JSON.stringify(b.type) ?? "missing"}, not "tool_use"`);
  if (typeof b.id !== "string" || b.id === "") fail("it has no `id` string");
  if (b.name !== "memory") fail(`its name is ${JSON.stringify(b.name) ?? "missing"}, not "memory"`);
}

/**
 * The `content` of a message-like value, or undefined.
 * @param {unknown} message
 * @returns {unknown}
 */
export function contentOf(message) {
  return typeof message === "object" && message !== null ? /** @type {{ content?: unknown }} */ (message).content : undefined;
}

/**
 * JSON text of a tool input; "null" (which the core refuses as not an object) when the value
 * has no JSON form (undefined, a BigInt, a cycle).
 * @param {unknown} value
 * @returns {string}
 */
export function inputJson(value) {
  try {
    const json = JSON.stringify(value);
    return typeof json === "string" ? json : "null";
  } catch {
    return "null";
  }
}

/** Half a surrogate pair: a string that is not well-formed UTF-16, and has no UTF-8 form. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Throws `INVALID_INPUT` when the string `text` (a host's content) holds a lone surrogate: UTF-8
 * (what `TextEncoder` and the core write) would turn it into U+FFFD without a word, so the host
 * is told instead (docs/TOOL.md#from-javascript). The model's tool input keeps the memory tool's
 * rule: its content stores U+FFFD.
 * @param {string} what the call and argument, for the message (`writeFile(path, content)`)
 * @param {string} text
 */
export function refuseLoneSurrogate(what, text) {
  const found = LONE_SURROGATE.exec(text);
  if (found === null) return;
  const unit = found[0].charCodeAt(0).toString(16).toUpperCase();
  throw new MemoryToolError(
    "INVALID_INPUT",
    `${what}: \`content\` holds a lone surrogate (U+${unit} at index ${found.index}, half of a UTF-16 surrogate pair), which has no UTF-8 form; send well-formed text or bytes.`,
  );
}

/**
 * The bytes of a `writeFile` content: strings as UTF-8. Throws `INVALID_INPUT` for anything
 * but a string or bytes, and for a string that holds a lone surrogate.
 * @param {unknown} content
 * @returns {Uint8Array}
 */
export function toBytes(content) {
  if (typeof content === "string") {
    refuseLoneSurrogate("writeFile(path, content)", content);
    return new TextEncoder().encode(content);
  }
  if (content instanceof Uint8Array) return content;
  if (content instanceof ArrayBuffer) return new Uint8Array(content);
  if (ArrayBuffer.isView(content)) return new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
  throw new MemoryToolError(
    "INVALID_INPUT",
    "writeFile(path, content): `content` must be a string or a Uint8Array.",
  );
}

/**
 * A host call's options object, copied (undefined: none, unless `required`). Anything else is
 * `INVALID_INPUT`, and so is a string `content` that holds a lone surrogate
 * (`memories.create`, `memories.update`).
 * @param {string} call
 * @param {unknown} options
 * @param {boolean} [required]
 * @returns {Record<string, any>}
 */
export function optionsArg(call, options, required = false) {
  if (options === undefined && !required) return {};
  if (!isPlainObject(options)) {
    throw new MemoryToolError("INVALID_INPUT", `${call}: the options must be an object.`);
  }
  /** @type {Record<string, any>} */
  const args = { .../** @type {object} */ (options) };
  if (typeof args.content === "string") refuseLoneSurrogate(call, args.content);
  return args;
}

/**
 * The options object of public method `method` (`optionsArg`'s copy), refused whole with the
 * core's text (`INVALID_INPUT`) when it holds an option the method does not take
 * (docs/TOOL.md#host-api-messages): a misspelt option is never dropped while the rest applies.
 * @param {string} method
 * @param {unknown} options
 * @param {boolean} [required]
 * @returns {Record<string, any>}
 */
export function methodOptions(method, options, required = false) {
  const args = optionsArg(method, options, required);
  const refusal = refuseUnknownOption(method, JSON.stringify(Object.keys(args)));
  if (refusal !== undefined) throw new MemoryToolError("INVALID_INPUT", refusal);
  return args;
}

/**
 * `versions.list` filters for the core: times may be Dates (sent as RFC 3339); an invalid
 * Date is `INVALID_INPUT`.
 * @param {unknown} filters
 * @returns {Record<string, any>}
 */
export function versionFilters(filters) {
  const args = methodOptions("versions.list", filters);
  for (const name of ["created_at_gte", "created_at_lte"]) {
    const value = args[name];
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) {
        throw new MemoryToolError("INVALID_INPUT", `versions.list: \`${name}\` is an invalid Date.`);
      }
      args[name] = value.toISOString();
    }
  }
  return args;
}

/**
 * An import's progress callback, called when the share of writes done grows by 1% or more
 * (and at 0 and at the end).
 * @param {(progress: { done: number, total: number }) => void} onProgress
 * @returns {(done: number, total: number) => void}
 */
export function throttled(onProgress) {
  let last = -1;
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done * 100) / total);
    if (done !== 0 && done !== total && percent === last) return;
    last = percent;
    onProgress({ done, total });
  };
}
