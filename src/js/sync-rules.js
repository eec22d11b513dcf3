// What the hosted memory stores API accepts, checked before sending so a file it would refuse
// costs no request (docs/SYNC.md#refusals), and how its answers are read.

/** The hosted limit on one memory's content, in UTF-8 bytes. */
export const HOSTED_MAX_BYTES = 102_400;
/** The most memories one hosted store holds. */
export const HOSTED_MAX_MEMORIES = 10_000;
/** The hosted limits on a path. */
export const HOSTED_MAX_PATH_BYTES = 1024;
export const HOSTED_MAX_SEGMENTS = 20;

const encoder = new TextEncoder();

/**
 * Why the hosted store would refuse `path`, or null (the path grammar of the SDK's
 * `MemoryCreateParams.path`: 1 to 20 segments, none empty, `.` or `..`; no control or format
 * characters, no U+2028/U+2029; NFC; at most 1,024 bytes).
 * @param {string} path
 * @returns {string | null}
 */
export function hostedPathProblem(path) {
  if (encoder.encode(path).length > HOSTED_MAX_PATH_BYTES) {
    return `the path is over the hosted limit of ${HOSTED_MAX_PATH_BYTES} bytes`;
  }
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(path)) {
    return "the path holds a control or format character (such as ZWJ or ZWNJ), which hosted paths refuse";
  }
  if (path.normalize("NFC") !== path) return "the path is not in Unicode Normalization Form C";
  const segments = path.slice(1).split("/");
  if (segments.length > HOSTED_MAX_SEGMENTS) {
    return `the path has ${segments.length} segments; hosted paths have at most ${HOSTED_MAX_SEGMENTS}`;
  }
  if (segments.some((s) => s === "" || s === "." || s === "..")) return "the path has an empty, . or .. segment";
  return null;
}

/**
 * Why the hosted store would refuse this content, or null.
 * @param {{ content: string | null, content_size_bytes: number }} memory
 * @returns {string | null}
 */
export function hostedContentProblem(memory) {
  if (memory.content === null) return "the file is not UTF-8 text; hosted memories hold text only";
  if (memory.content_size_bytes > HOSTED_MAX_BYTES) {
    return `the file is ${memory.content_size_bytes} bytes; hosted memories hold at most ${HOSTED_MAX_BYTES}`;
  }
  return null;
}

/**
 * The HTTP status of an SDK error, or undefined when no answer came (a dropped connection, a
 * timeout, an abort).
 * @param {unknown} error
 * @returns {number | undefined}
 */
export function statusOf(error) {
  const status = /** @type {any} */ (error)?.status;
  return typeof status === "number" ? status : undefined;
}

/**
 * The `error.type` of an SDK error's body (`memory_precondition_failed_error`, …), or "".
 * @param {unknown} error
 * @returns {string}
 */
export function errorTypeOf(error) {
  const body = /** @type {any} */ (error)?.error;
  return String(body?.error?.type ?? body?.type ?? "");
}

/**
 * How long the answer asks to wait before retrying, in ms (`retry-after-ms`, or `retry-after`
 * in seconds or as an HTTP date), or null.
 * @param {unknown} error
 * @param {number} now
 * @returns {number | null}
 */
export function retryAfterOf(error, now) {
  const headers = /** @type {any} */ (error)?.headers;
  const get = (/** @type {string} */ name) => (typeof headers?.get === "function" ? headers.get(name) : headers?.[name]);
  const ms = Number.parseFloat(get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = get("retry-after");
  if (value === undefined || value === null || value === "") return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/**
 * Whether a refusal is one the hosted store would repeat for the same content: a bad request,
 * a body too large, an archived store (`conflict_error`), a full store.
 * @param {unknown} error
 */
export function isPermanentRefusal(error) {
  const status = statusOf(error);
  if (status === 400 || status === 413 || status === 422 || status === 403) return true;
  return status === 409 && errorTypeOf(error) === "conflict_error";
}
