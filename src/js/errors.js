// The one error type of the package, the one place where storage failures (IndexedDB's
// DOMExceptions above all) become our stable codes, and the error a host call throws for the
// core's error outcome. Imports nothing, so every entry (anthropic.js too) may use it. The
// texts the model reads, storage failures' too, are the core's (src/format/texts.rs).

/**
 * The mark of this package's errors, on MemoryToolError.prototype: a registered symbol, so
 * every copy of the package in a page (its one-file build, dist/, beside the source modules a
 * subpath entry imports: docs/ARCHITECTURE.md#cold-start) knows the others' errors.
 */
const BRAND = Symbol.for("memory-tool-wasm.MemoryToolError");

/** Properties of an error that details never overwrite. */
const OWN = new Set(["name", "message", "code", "stack", "cause", "detail"]);

/**
 * An error for the host application (never for the model): a stable `code` and a message.
 * Codes: the core's (`INVALID_PATH`, `NOT_FOUND`, `READ_ONLY`, `LIMIT_EXCEEDED`,
 * `HISTORY_LIMIT_EXCEEDED`, `CONTENT_MISMATCH`,
 * `PRECONDITION_FAILED`, `PATH_CONFLICT`, `REDACT_HEAD`, `POLICY_REFUSED`, and for stores and
 * mounts `TOO_MANY_MOUNTS`, `SLUG_CONFLICT`, `ARCHIVED`, …), plus `QUOTA_EXCEEDED` and
 * `STORAGE_FAILED` for storage, `INVALID_OPTIONS` for `MemoryTool.open` (and
 * `MemoryStores.open`) and `INVALID_TOOL_USE` for `run`/`runAll`. Some host errors carry details from the core
 * (`current_content_sha256`, `conflicting_memory_id`, `conflicting_path`, `memory_id`, …):
 * in `detail`, and each also as a property of the error.
 */
export class MemoryToolError extends Error {
  /** Always "MemoryToolError" (set first thing after `super`, as the constructor did). @readonly */
  name = /** @type {const} */ ("MemoryToolError");

  /**
   * @param {string} code stable error code
   * @param {string} message what went wrong, for the host's developer
   * @param {{ cause?: unknown, detail?: Record<string, unknown> }} [options]
   */
  constructor(code, message, options) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    /** @type {string} */
    this.code = code;
    const detail = options?.detail;
    if (detail !== undefined) {
      /** @type {Record<string, unknown> | undefined} */
      this.detail = detail;
      for (const [key, value] of Object.entries(detail)) {
        if (!OWN.has(key)) /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (this))[key] = value;
      }
    }
  }

  /**
   * `error instanceof MemoryToolError` holds for an error of any copy of the package (see
   * BRAND); for a subclass, `instanceof` is the usual prototype check.
   * @param {unknown} value
   * @returns {boolean}
   */
  static [Symbol.hasInstance](value) {
    if (this !== MemoryToolError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && /** @type {Record<symbol, unknown>} */ (value)[BRAND] === true;
  }
}
Object.defineProperty(MemoryToolError.prototype, BRAND, { value: true });

/** The codes the adapter gives to failures of storage itself. */
const STORAGE_CODES = new Set(["QUOTA_EXCEEDED", "STORAGE_FAILED", "STORE_VANISHED"]);

/**
 * Whether `error` is a storage failure already given one of our storage codes.
 * @param {unknown} error
 * @returns {error is MemoryToolError}
 */
export function isStorageError(error) {
  return error instanceof MemoryToolError && STORAGE_CODES.has(error.code);
}

/**
 * Turns anything a storage threw or rejected with into a `MemoryToolError` with code
 * `QUOTA_EXCEEDED` or `STORAGE_FAILED`. A `MemoryToolError` passes through unchanged.
 * @param {unknown} error a DOMException from IndexedDB, or whatever a custom storage threw
 * @returns {MemoryToolError}
 */
export function toStorageError(error) {
  if (error instanceof MemoryToolError) return error;
  const name = errorName(error);
  const detail = describe(error);
  if (isQuotaError(error, name)) {
    return new MemoryToolError(
      "QUOTA_EXCEEDED",
      `The browser's storage quota is full; nothing was changed (${detail}).`,
      { cause: error },
    );
  }
  if (name === "VersionError") {
    return new MemoryToolError(
      "STORAGE_FAILED",
      "This memory store was upgraded by a newer version of memory-tool-wasm and cannot be " +
        `opened by this one; update memory-tool-wasm (${detail}).`,
      { cause: error },
    );
  }
  // InvalidStateError (closed connection), TransactionInactiveError, AbortError,
  // UnknownError (disk or browser trouble) and anything else a storage may throw.
  return new MemoryToolError(
    "STORAGE_FAILED",
    `The memory store could not be reached; nothing was changed (${detail}).`,
    { cause: error },
  );
}

/**
 * The error a host call throws for an error outcome of the core: the core's code (default
 * `INVALID_INPUT`), its text as the core says it to the host (docs/TOOL.md#host-api-messages),
 * and its details (an object `value`) on the error.
 * @param {{ content: unknown, code?: string, value?: unknown }} outcome
 * @returns {MemoryToolError}
 */
export function hostError(outcome) {
  const text = typeof outcome.content === "string" ? outcome.content : JSON.stringify(outcome.content);
  const value = outcome.value;
  const detail =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? /** @type {Record<string, unknown>} */ (value)
      : undefined;
  return new MemoryToolError(outcome.code ?? "INVALID_INPUT", text, { detail });
}

/**
 * The message of anything thrown: an Error's `message`, else the value as a string.
 * @param {unknown} error
 * @returns {string}
 */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * @param {unknown} error
 * @param {string} name
 */
function isQuotaError(error, name) {
  return (
    name === "QuotaExceededError" ||
    name === "NS_ERROR_DOM_QUOTA_REACHED" || // older Firefox
    (error instanceof Error && "code" in error && error.code === 22) // legacy DOMException code
  );
}

/** @param {unknown} error */
function errorName(error) {
  return error instanceof Error || (typeof error === "object" && error !== null && "name" in error)
    ? String(/** @type {{ name: unknown }} */ (error).name)
    : "";
}

/** @param {unknown} error */
function describe(error) {
  if (error === null || error === undefined) return "no error given";
  if (typeof error === "object" && "message" in error) {
    const name = errorName(error);
    const message = String(/** @type {{ message: unknown }} */ (error).message);
    return name && message ? `${name}: ${message}` : name || message || "unknown error";
  }
  return String(error);
}
