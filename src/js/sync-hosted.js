// The hosted side of a sync: every request to the memory stores API goes through here, through
// the official SDK client the host passed (docs/SYNC.md#network): the SDK's own retries off,
// ours on (retry-after honoured and clamped, jitter, no blind retry of a create), and every
// answer checked before sync believes it. A listing that is not the API's answer (a sign-in
// page, `{}`), one that never ends (the same cursor again, more pages than a full store has),
// or a memory that is not what it claims is an error, never "empty" or "the same".

import { HOSTED_MAX_MEMORIES, errorTypeOf, retryAfterOf, statusOf } from "./sync-rules.js";

/** The hosted API's page sizes: `basic` pages carry up to 100 items, `full` ones 20. */
export const BASIC_PAGE = 100;
export const FULL_PAGE = 20;
/** Pages a listing may take beyond what a full store needs (a store may change meanwhile). */
const PAGE_SLACK = 5;
/** The longest wait a `retry-after` may ask for between attempts or passes (ms). */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** An answer of the hosted store that sync cannot believe (`code: "HOSTED_ANSWER"`). */
export class HostedAnswerError extends Error {
  /** @type {"HostedAnswerError"} */
  name = "HostedAnswerError";
  code = "HOSTED_ANSWER";
}

/**
 * @typedef {import("./sync-plan.js").HostedMemory} HostedMemory
 * @typedef {HostedMemory & { content: string }} FullMemory
 * @typedef {{ attempts: number, baseMs: number, maxMs: number }} RetryOptions
 */

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Whether a failure got no answer from the network (the connection, a timeout): the
 * `offline` kind. An error the SDK raised before sending (an id it refuses to put in a URL)
 * is not: it is that one request's problem.
 * @param {unknown} error
 */
export function isUnanswered(error) {
  if (statusOf(error) !== undefined) return false;
  const name = String(/** @type {any} */ (error)?.name ?? "");
  return name === "APIConnectionError" || name === "APIConnectionTimeoutError" || name === "TypeError" || name === "AbortError";
}

/**
 * A hosted memory item as the listing or a retrieve gives it, checked: the fields sync relies
 * on are there and well formed, else null.
 * @param {unknown} item
 * @returns {HostedMemory | null}
 */
function memoryOf(item) {
  const m = /** @type {any} */ (item);
  if (typeof m !== "object" || m === null || m.type !== "memory") return null;
  if (typeof m.id !== "string" || m.id === "" || typeof m.path !== "string" || !m.path.startsWith("/")) return null;
  if (typeof m.content_sha256 !== "string" || !SHA256.test(m.content_sha256)) return null;
  if (typeof m.memory_version_id !== "string" || m.memory_version_id === "") return null;
  return m;
}

/** One hosted store, through the SDK client, with sync's retries and checks. */
export class HostedStore {
  #client;
  #id;
  #retry;
  #signal;
  /** Requests sent, retries included. */
  requests = 0;
  /** The longest `retry-after` an answer asked for during the current pass (ms). */
  retryAfterMs = 0;

  /**
   * @param {any} client the SDK client (`beta.memoryStores`)
   * @param {string} memoryStoreId
   * @param {RetryOptions} retry
   * @param {AbortSignal} signal aborts every request and wait
   */
  constructor(client, memoryStoreId, retry, signal) {
    this.#client = client;
    this.#id = memoryStoreId;
    this.#retry = retry;
    this.#signal = signal;
  }

  /** Whether the hosted store is archived (read-only for good). */
  async archived() {
    /** @type {any} */
    const store = await this.#request("read", (o) => this.#client.beta.memoryStores.retrieve(this.#id, {}, o));
    if (typeof store !== "object" || store === null) throw new HostedAnswerError("the hosted store's description is not the memory stores API's answer");
    return store.archived_at !== null && store.archived_at !== undefined;
  }

  /**
   * The hosted memories (not directory entries), page by page; a caller that stops early
   * requests no further page. Refuses what cannot be a listing: a page that is not the API's
   * JSON, a cursor seen before, more pages or memories than a full store holds, one path twice.
   * @param {"basic" | "full"} view
   * @returns {AsyncGenerator<HostedMemory | FullMemory>}
   */
  async *memories(view) {
    for await (const page of this.pages(view)) yield* page;
  }

  /**
   * The hosted memories page by page, checked as `memories` checks them; a caller that stops
   * early requests no further page, and one that asks for the next page before it is done
   * with this one has it fetched meanwhile.
   * @param {"basic" | "full"} view
   * @returns {AsyncGenerator<Array<HostedMemory | FullMemory>>}
   */
  async *pages(view) {
    const limit = view === "full" ? FULL_PAGE : BASIC_PAGE;
    const maxPages = Math.ceil(HOSTED_MAX_MEMORIES / limit) + PAGE_SLACK;
    const maxItems = HOSTED_MAX_MEMORIES + PAGE_SLACK * limit;
    /** @type {Set<string>} */
    const cursors = new Set();
    /** @type {Set<string>} */
    const paths = new Set();
    /** @type {string | null} */
    let cursor = null;
    for (let pages = 1; ; pages++) {
      if (pages > maxPages) throw new HostedAnswerError(`the hosted listing did not end after ${maxPages} pages`);
      const page = cursor;
      /** @type {any} */
      const result = await this.#request("read", (o) =>
        this.#client.beta.memoryStores.memories.list(this.#id, { view, limit, ...(page ? { page } : {}) }, o),
      );
      // The SDK's page reads a body that is not JSON (a sign-in page) as no data: look at the
      // answer itself.
      const body = result?.body;
      if (typeof body !== "object" || body === null || !Array.isArray(body.data)) {
        const type = result?.response?.headers?.get?.("content-type");
        throw new HostedAnswerError(`the hosted listing is not the memory stores API's answer${type ? ` (${type})` : ""}`);
      }
      /** @type {Array<HostedMemory | FullMemory>} */
      const out = [];
      for (const item of body.data) {
        if (/** @type {any} */ (item)?.type !== "memory") continue;
        const memory = memoryOf(item);
        if (!memory) throw new HostedAnswerError("the hosted listing holds a memory without a well-formed id, path, content_sha256 or memory_version_id");
        if (view === "full" && typeof (/** @type {any} */ (memory).content) !== "string") {
          // A full page must carry the text; the memory is fetched on its own instead.
          delete (/** @type {any} */ (memory).content);
        }
        if (paths.has(memory.path)) throw new HostedAnswerError(`the hosted listing names ${memory.path} twice`);
        paths.add(memory.path);
        if (paths.size > maxItems) throw new HostedAnswerError(`the hosted listing holds more than ${maxItems} memories`);
        out.push(memory);
      }
      yield out;
      const next = body.next_page;
      if (next === null || next === undefined || next === "") return;
      if (typeof next !== "string") throw new HostedAnswerError("the hosted listing's next_page is not a cursor");
      if (cursors.has(next)) throw new HostedAnswerError("the hosted listing gave a page cursor it had given before");
      cursors.add(next);
      cursor = next;
    }
  }

  /**
   * Every hosted memory, keyed by path.
   * @param {"basic" | "full"} view
   * @returns {Promise<Map<string, HostedMemory | FullMemory>>}
   */
  async list(view) {
    /** @type {Map<string, HostedMemory | FullMemory>} */
    const out = new Map();
    for await (const memory of this.memories(view)) out.set(memory.path, memory);
    return out;
  }

  /**
   * One memory with its content; null when it is gone (404). Throws HostedAnswerError when the
   * answer is not a memory with text.
   * @param {string} id
   * @returns {Promise<FullMemory | null>}
   */
  async retrieve(id) {
    /** @type {any} */
    let full;
    try {
      full = await this.#request("read", (o) =>
        this.#client.beta.memoryStores.memories.retrieve(id, { memory_store_id: this.#id, view: "full" }, o),
      );
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
    const memory = memoryOf(full);
    if (!memory) throw new HostedAnswerError("the hosted memory is not the memory stores API's answer");
    return /** @type {FullMemory} */ (memory);
  }

  /**
   * An update over the hosted sha it was based on.
   * @param {string} id @param {string} content @param {string} basedOn
   * @returns {Promise<HostedMemory>}
   */
  async update(id, content, basedOn) {
    const saved = await this.#request("idempotent", (o) =>
      this.#client.beta.memoryStores.memories.update(
        id,
        { memory_store_id: this.#id, content, precondition: { type: "content_sha256", content_sha256: basedOn } },
        o,
      ),
    );
    return this.#saved(saved);
  }

  /** @param {string} path @param {string} content @returns {Promise<HostedMemory>} */
  async create(path, content) {
    const saved = await this.#request("create", (o) => this.#client.beta.memoryStores.memories.create(this.#id, { path, content }, o));
    return this.#saved(saved);
  }

  /** A delete that holds only if the memory still has `expectedSha`. @param {string} id @param {string} expectedSha */
  async delete(id, expectedSha) {
    await this.#request("idempotent", (o) =>
      this.#client.beta.memoryStores.memories.delete(id, { memory_store_id: this.#id, expected_content_sha256: expectedSha }, o),
    );
  }

  /** @param {unknown} saved @returns {HostedMemory} */
  #saved(saved) {
    const memory = memoryOf(saved);
    if (!memory) throw new HostedAnswerError("the hosted store's answer to a write is not a memory");
    return memory;
  }

  /**
   * Sends one request (`send(requestOptions)`), retrying what is safe to retry: reads and
   * preconditioned writes after any failure without an answer and after 408/429/5xx; a create
   * only after an answer saying it was not done (429, 503, 529), never after a dropped
   * connection, whose outcome the next listing settles (docs/SYNC.md#network).
   * @template T
   * @param {"read" | "idempotent" | "create"} kind
   * @param {(options: object) => Promise<T>} send
   * @returns {Promise<T>}
   */
  async #request(kind, send) {
    for (let attempt = 1; ; attempt++) {
      if (this.#signal.aborted) throw abortError();
      this.requests++;
      try {
        return await send({ maxRetries: 0, signal: this.#signal });
      } catch (error) {
        const status = statusOf(error);
        const notDone = status === 429 || status === 503 || status === 529;
        const retryable =
          notDone || (kind !== "create" && (isUnanswered(error) || status === 408 || (status !== undefined && status >= 500 && status < 600)));
        if (!retryable || attempt >= this.#retry.attempts || this.#signal.aborted) throw error;
        const asked = retryAfterOf(error, Date.now());
        if (asked !== null) this.retryAfterMs = Math.max(this.retryAfterMs, Math.min(asked, MAX_RETRY_AFTER_MS));
        const backoff = Math.min(this.#retry.maxMs, this.#retry.baseMs * 2 ** (attempt - 1));
        const delay = asked !== null ? Math.min(asked, this.#retry.maxMs) : backoff / 2 + (Math.random() * backoff) / 2;
        await sleep(delay, this.#signal);
      }
    }
  }
}

/** What a request throws once the sync stopped. */
function abortError() {
  const error = new Error("the sync stopped");
  error.name = "AbortError";
  return error;
}

/**
 * Waits `ms`, or until `signal` aborts; leaves no listener behind either way.
 * @param {number} ms @param {AbortSignal} [signal]
 */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(undefined);
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve(undefined);
    };
    const timer = setTimeout(done, Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS));
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** @param {unknown} error */
export function isConflictError(error) {
  return statusOf(error) === 409 && errorTypeOf(error) === "conflict_error";
}
