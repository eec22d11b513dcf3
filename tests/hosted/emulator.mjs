// A local emulator of the hosted memory stores API (`/v1/memory_stores/…`, beta header
// `agent-memory-2026-07-22`), for tests that drive it through the official SDK client
// (`new Anthropic({ apiKey: "test", baseURL: emulator.url })`).
//
// It follows the SDK's type definitions (`resources/beta/memory-stores/*`) and the hosted memory
// guide: the path grammar (1 to 20 segments, none empty, `.` or `..`; no control or format
// characters, no U+2028/U+2029; NFC; at most 1,024 bytes), 100 kB (102,400 bytes) per memory, a
// per-store memory cap (10,000 by default), `content_sha256` preconditions on update and
// `expected_content_sha256` on delete (409 `memory_precondition_failed_error`), path conflicts
// with an ancestor or descendant (409 `memory_path_conflict_error` naming it), `view`,
// `path_prefix`, `depth` and cursor paging (at most 100 per page, 20 with `view=full`), one
// immutable version per change (none for an update that changes nothing), redaction (never of a
// live memory's head), archived stores read-only, the beta header (and its 400 when both
// `agent-memory-2026-07-22` and `managed-agents-2026-04-01` are sent).
//
// Where the documents leave a choice open, the emulator's choice (each one a refusal the
// client must take as permanent, as the SDK's engine does for 400): content over 100 kB, an
// invalid path and a full store answer 400 `invalid_request_error`; a write to an archived store
// answers 409 `conflict_error`; redacting a live head answers 400 `invalid_request_error`.
// Listing order is path order (code units), which is "stable and server-defined".
//
// Fault injection: `inject({ match, times, status, retryAfter, latencyMs, drop })` answers the
// next `times` matching requests with an error status (and `retry-after`), delays them, or drops
// the connection before (`drop: "before"`, nothing done) or after the change was made
// (`drop: "after"`, the outcome unknown to the client). A hostile server is `respond` (any
// status, content type and body in place of the answer) or `rewrite` (the real answer, changed:
// an empty listing, a cursor that never ends, a content that does not match its sha). Every request is logged (`log`),
// so tests count requests and assert that no mutating request was sent.

import { createHash, randomBytes } from "node:crypto";
import http from "node:http";

export const BETA = "agent-memory-2026-07-22";
const OTHER_BETA = "managed-agents-2026-04-01";
export const MAX_MEMORY_BYTES = 102_400;
export const MAX_PATH_BYTES = 1024;
export const MAX_SEGMENTS = 20;
const BASIC_PAGE_MAX = 100;
const FULL_PAGE_MAX = 20;
const DEFAULT_PAGE = 20;

/** @param {string} text */
export function sha256(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Why `path` is not a valid memory path, or null when it is (the grammar of the SDK's
 * `MemoryCreateParams.path`).
 * @param {unknown} path
 * @returns {string | null}
 */
export function pathProblem(path) {
  if (typeof path !== "string") return "path must be a string";
  if (!path.startsWith("/")) return "path must start with /";
  if (Buffer.byteLength(path, "utf8") > MAX_PATH_BYTES) return `path must be at most ${MAX_PATH_BYTES} bytes`;
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(path)) {
    return "path must not contain control characters, format characters, or U+2028/U+2029";
  }
  if (path.normalize("NFC") !== path) return "path must be in Unicode Normalization Form C";
  const segments = path.slice(1).split("/");
  if (segments.length > MAX_SEGMENTS) return `path must have 1 to ${MAX_SEGMENTS} segments`;
  for (const s of segments) {
    if (s === "") return "path segments must not be empty";
    if (s === "." || s === "..") return "path segments must not be . or ..";
  }
  return null;
}

/** An API error: thrown by handlers, answered as `{type:"error", error}`. */
class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} type
   * @param {string} message
   * @param {Record<string, unknown>} [extra]
   */
  constructor(status, type, message, extra = {}) {
    super(message);
    this.status = status;
    this.type = type;
    this.extra = extra;
  }
}
const invalid = (/** @type {string} */ m) => new ApiError(400, "invalid_request_error", m);
const notFound = (/** @type {string} */ m) => new ApiError(404, "not_found_error", m);

/**
 * @typedef {{ id: string, path: string, content: string, sha: string, size: number,
 *   created_at: string, updated_at: string, version: string }} HostedMemory
 * @typedef {{ id: string, memory_id: string, operation: "created" | "modified" | "deleted",
 *   path: string | null, content: string | null, sha: string | null, size: number | null,
 *   created_at: string, created_by: Record<string, unknown>, redacted_at: string | null,
 *   redacted_by: Record<string, unknown> | null }} HostedVersion
 * @typedef {{ id: string, name: string, description: string, metadata: Record<string, string>,
 *   created_at: string, updated_at: string, archived_at: string | null,
 *   memories: Map<string, HostedMemory>, versions: HostedVersion[] }} HostedStore
 * @typedef {{ method: string, path: string, route: string, query: Record<string, string>,
 *   body: unknown, status: number | "dropped", mutating: boolean, at: number }} LoggedRequest
 * @typedef {{ match?: (r: { method: string, route: string, path: string, body: unknown, headers: import("node:http").IncomingHttpHeaders }) => boolean,
 *   times?: number, status?: number, retryAfter?: number, latencyMs?: number,
 *   drop?: "before" | "after",
 *   respond?: { status?: number, contentType?: string, body: string },
 *   rewrite?: (result: any, request: { method: string, route: string, path: string, query: Record<string, string> }) => any }} Fault
 */

/**
 * Starts the emulator on 127.0.0.1 (a free port unless given).
 * @param {{ port?: number, maxMemories?: number }} [options]
 */
export async function startEmulator(options = {}) {
  const maxMemories = options.maxMemories ?? 10_000;
  /** @type {Map<string, HostedStore>} */
  const stores = new Map();
  /** @type {LoggedRequest[]} */
  const log = [];
  /** @type {Array<Fault & { left: number }>} */
  const faults = [];
  let counter = 0;
  const nextId = (/** @type {string} */ prefix) =>
    `${prefix}_01${(++counter).toString(36).padStart(10, "0")}${randomBytes(4).toString("hex")}`;
  const now = () => new Date().toISOString();

  /** @param {string} id */
  const storeOf = (id) => {
    const store = stores.get(id);
    if (!store) throw notFound(`memory store ${id} not found`);
    return store;
  };
  /** @type {WeakMap<HostedStore, { size: number, version: number, list: HostedMemory[] }>} */
  const sortedCache = new WeakMap();
  /**
   * The store's memories in path order, sorted again only after a change (a listing pages
   * through it: one sort per change, not per page).
   * @param {HostedStore} store
   */
  const sortedMemories = (store) => {
    const cached = sortedCache.get(store);
    if (cached && cached.version === counter) return cached.list;
    const list = [...store.memories.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    sortedCache.set(store, { size: list.length, version: counter, list });
    return list;
  };
  /** @param {HostedStore} store */
  const writable = (store) => {
    if (store.archived_at !== null) {
      throw new ApiError(409, "conflict_error", `memory store ${store.id} is archived and read-only`);
    }
  };
  /** @param {HostedStore} s */
  const storeJson = (s) => ({
    type: "memory_store",
    id: s.id,
    name: s.name,
    description: s.description,
    metadata: s.metadata,
    created_at: s.created_at,
    updated_at: s.updated_at,
    archived_at: s.archived_at,
  });
  /** @param {HostedStore} store @param {HostedMemory} m @param {boolean} full */
  const memoryJson = (store, m, full) => ({
    type: "memory",
    id: m.id,
    memory_store_id: store.id,
    path: m.path,
    content_sha256: m.sha,
    content_size_bytes: m.size,
    created_at: m.created_at,
    updated_at: m.updated_at,
    memory_version_id: m.version,
    content: full ? m.content : null,
  });
  /** @param {HostedStore} store @param {HostedVersion} v @param {boolean} full */
  const versionJson = (store, v, full) => ({
    type: "memory_version",
    id: v.id,
    memory_id: v.memory_id,
    memory_store_id: store.id,
    operation: v.operation,
    path: v.path,
    content_sha256: v.sha,
    content_size_bytes: v.size,
    content: full ? v.content : null,
    created_at: v.created_at,
    created_by: v.created_by,
    redacted_at: v.redacted_at,
    redacted_by: v.redacted_by,
  });
  /** @param {string} view @param {boolean} fallback */
  const isFull = (view, fallback) => {
    if (view === undefined) return fallback;
    if (view !== "basic" && view !== "full") throw invalid("view must be basic or full");
    return view === "full";
  };
  /**
   * The memory whose path is `path` or an ancestor or descendant of it, other than `except`.
   * @param {HostedStore} store @param {string} path @param {string | null} except
   */
  const conflictOf = (store, path, except) => {
    for (const m of store.memories.values()) {
      if (m.id === except) continue;
      if (m.path === path || m.path.startsWith(path + "/") || path.startsWith(m.path + "/")) return m;
    }
    return null;
  };
  /** @param {unknown} content */
  const checkContent = (content) => {
    if (typeof content !== "string") throw invalid("content must be a string");
    if (Buffer.byteLength(content, "utf8") > MAX_MEMORY_BYTES) {
      throw invalid(`content must be at most ${MAX_MEMORY_BYTES} bytes`);
    }
  };
  /** @param {unknown} path */
  const checkPath = (path) => {
    const problem = pathProblem(path);
    if (problem) throw invalid(problem);
  };
  /**
   * @param {HostedStore} store @param {HostedMemory} m
   * @param {"created" | "modified" | "deleted"} operation @param {Record<string, unknown>} actor
   */
  const addVersion = (store, m, operation, actor) => {
    const deleted = operation === "deleted";
    /** @type {HostedVersion} */
    const v = {
      id: nextId("memver"),
      memory_id: m.id,
      operation,
      path: m.path,
      content: deleted ? null : m.content,
      sha: deleted ? null : m.sha,
      size: deleted ? null : m.size,
      created_at: now(),
      created_by: actor,
      redacted_at: null,
      redacted_by: null,
    };
    store.versions.push(v);
    m.version = v.id;
    return v;
  };
  /**
   * A page of `items` (sorted) after the cursor `page`, of at most `limit`.
   * @template T @param {T[]} items @param {(t: T) => string} keyOf
   * @param {Record<string, string>} q @param {number} max
   */
  const paged = (items, keyOf, q, max) => {
    let limit = DEFAULT_PAGE;
    if (q.limit !== undefined) {
      limit = Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1) throw invalid("limit must be a positive integer");
    }
    limit = Math.min(limit, max);
    let start = 0;
    if (q.page) {
      let after;
      try {
        after = Buffer.from(q.page, "base64url").toString("utf8");
      } catch {
        throw invalid("page is not a valid cursor");
      }
      start = items.findIndex((t) => keyOf(t) > after);
      if (start < 0) start = items.length;
    }
    const data = items.slice(start, start + limit);
    const more = start + limit < items.length;
    return {
      data,
      next_page: more ? Buffer.from(keyOf(data[data.length - 1]), "utf8").toString("base64url") : null,
    };
  };

  /** @type {Array<[string, RegExp, (r: any) => any, string]>} */
  const routes = [];
  /** @param {string} method @param {string} pattern @param {(ctx: any) => unknown} fn */
  const route = (method, pattern, fn) =>
    routes.push([method, new RegExp("^" + pattern.replace(/:(\w+)/g, "(?<$1>[^/]+)") + "$"), fn, pattern]);

  route("POST", "/v1/memory_stores", ({ body, actor }) => {
    void actor;
    if (typeof body.name !== "string" || body.name.length === 0) throw invalid("name is required");
    const t = now();
    /** @type {HostedStore} */
    const s = {
      id: nextId("memstore"),
      name: body.name,
      description: typeof body.description === "string" ? body.description : "",
      metadata: body.metadata ?? {},
      created_at: t,
      updated_at: t,
      archived_at: null,
      memories: new Map(),
      versions: [],
    };
    stores.set(s.id, s);
    return storeJson(s);
  });
  route("GET", "/v1/memory_stores", ({ query }) => {
    const all = [...stores.values()].filter((s) => query.include_archived === "true" || s.archived_at === null);
    const page = paged(all, (s) => s.id, query, BASIC_PAGE_MAX);
    return { data: page.data.map(storeJson), next_page: page.next_page };
  });
  route("GET", "/v1/memory_stores/:store", ({ params }) => storeJson(storeOf(params.store)));
  route("POST", "/v1/memory_stores/:store", ({ params, body }) => {
    const s = storeOf(params.store);
    writable(s);
    if (typeof body.name === "string") s.name = body.name;
    if (typeof body.description === "string" || body.description === null) s.description = body.description ?? "";
    if (body.metadata) s.metadata = { ...s.metadata, ...body.metadata };
    s.updated_at = now();
    return storeJson(s);
  });
  route("DELETE", "/v1/memory_stores/:store", ({ params }) => {
    storeOf(params.store);
    stores.delete(params.store);
    return { type: "memory_store_deleted", id: params.store };
  });
  route("POST", "/v1/memory_stores/:store/archive", ({ params }) => {
    const s = storeOf(params.store);
    if (s.archived_at === null) s.archived_at = s.updated_at = now();
    return storeJson(s);
  });

  route("POST", "/v1/memory_stores/:store/memories", ({ params, body, query, actor }) => {
    const s = storeOf(params.store);
    const full = isFull(query.view, false);
    writable(s);
    checkPath(body.path);
    const content = body.content ?? "";
    checkContent(content);
    const other = conflictOf(s, body.path, null);
    if (other) {
      throw new ApiError(409, "memory_path_conflict_error", `path ${body.path} conflicts with ${other.path}`, {
        conflicting_path: other.path,
        conflicting_memory_id: other.id,
      });
    }
    if (s.memories.size >= maxMemories) {
      throw invalid(`memory store ${s.id} holds the maximum of ${maxMemories} memories`);
    }
    const t = now();
    /** @type {HostedMemory} */
    const m = {
      id: nextId("mem"),
      path: body.path,
      content,
      sha: sha256(content),
      size: Buffer.byteLength(content, "utf8"),
      created_at: t,
      updated_at: t,
      version: "",
    };
    s.memories.set(m.id, m);
    addVersion(s, m, "created", actor);
    return memoryJson(s, m, full);
  });
  route("GET", "/v1/memory_stores/:store/memories", ({ params, query }) => {
    const s = storeOf(params.store);
    const full = isFull(query.view, false);
    const prefix = query.path_prefix ?? "/";
    if (!prefix.startsWith("/") || !prefix.endsWith("/")) throw invalid("path_prefix must start and end with /");
    const depth = query.depth === undefined ? 0 : Number(query.depth);
    if (depth !== 0 && depth !== 1) throw invalid("depth must be 0 or 1");
    /** @type {Array<{ key: string, memory?: HostedMemory }>} */
    const items = [];
    const prefixes = new Set();
    for (const m of sortedMemories(s)) {
      if (!m.path.startsWith(prefix)) continue;
      const rest = m.path.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (depth === 1 && slash >= 0) {
        const p = prefix + rest.slice(0, slash + 1);
        if (!prefixes.has(p)) {
          prefixes.add(p);
          items.push({ key: p });
        }
      } else items.push({ key: m.path, memory: m });
    }
    if (depth === 1) items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const page = paged(items, (i) => i.key, query, full ? FULL_PAGE_MAX : BASIC_PAGE_MAX);
    return {
      data: page.data.map((i) => (i.memory ? memoryJson(s, i.memory, full) : { type: "memory_prefix", path: i.key })),
      next_page: page.next_page,
    };
  });
  route("GET", "/v1/memory_stores/:store/memories/:memory", ({ params, query }) => {
    const s = storeOf(params.store);
    const m = s.memories.get(params.memory);
    if (!m) throw notFound(`memory ${params.memory} not found`);
    return memoryJson(s, m, isFull(query.view, true));
  });
  route("POST", "/v1/memory_stores/:store/memories/:memory", ({ params, body, query, actor }) => {
    const s = storeOf(params.store);
    const full = isFull(query.view, false);
    writable(s);
    const m = s.memories.get(params.memory);
    if (!m) throw notFound(`memory ${params.memory} not found`);
    const content = body.content ?? null;
    const path = body.path ?? null;
    if (content !== null) checkContent(content);
    if (path !== null) checkPath(path);
    const nextContent = content ?? m.content;
    const nextPath = path ?? m.path;
    const same = nextContent === m.content && nextPath === m.path;
    const pre = body.precondition;
    if (pre !== undefined && pre !== null) {
      if (pre.type !== "content_sha256") throw invalid("precondition.type must be content_sha256");
      if (pre.content_sha256 !== undefined && pre.content_sha256 !== m.sha && !same) {
        throw new ApiError(
          409,
          "memory_precondition_failed_error",
          `the memory's content_sha256 is not ${pre.content_sha256}`,
        );
      }
    }
    if (same) return memoryJson(s, m, full);
    if (nextPath !== m.path) {
      const other = conflictOf(s, nextPath, m.id);
      if (other) {
        throw new ApiError(409, "memory_path_conflict_error", `path ${nextPath} conflicts with ${other.path}`, {
          conflicting_path: other.path,
          conflicting_memory_id: other.id,
        });
      }
    }
    m.content = nextContent;
    m.path = nextPath;
    m.sha = sha256(nextContent);
    m.size = Buffer.byteLength(nextContent, "utf8");
    m.updated_at = now();
    addVersion(s, m, "modified", actor);
    return memoryJson(s, m, full);
  });
  route("DELETE", "/v1/memory_stores/:store/memories/:memory", ({ params, query, actor }) => {
    const s = storeOf(params.store);
    writable(s);
    const m = s.memories.get(params.memory);
    if (!m) throw notFound(`memory ${params.memory} not found`);
    if (query.expected_content_sha256 !== undefined && query.expected_content_sha256 !== m.sha) {
      throw new ApiError(
        409,
        "memory_precondition_failed_error",
        `the memory's content_sha256 is not ${query.expected_content_sha256}`,
      );
    }
    s.memories.delete(m.id);
    addVersion(s, m, "deleted", actor);
    return { type: "memory_deleted", id: m.id };
  });

  route("GET", "/v1/memory_stores/:store/memory_versions", ({ params, query }) => {
    const s = storeOf(params.store);
    const full = isFull(query.view, false);
    const gte = query["created_at[gte]"];
    const lte = query["created_at[lte]"];
    const items = s.versions
      .map((v, i) => ({ v, i }))
      .filter(
        ({ v }) =>
          (query.memory_id === undefined || v.memory_id === query.memory_id) &&
          (query.operation === undefined || v.operation === query.operation) &&
          (query.session_id === undefined || v.created_by.session_id === query.session_id) &&
          (query.api_key_id === undefined || v.created_by.api_key_id === query.api_key_id) &&
          (gte === undefined || v.created_at >= new Date(gte).toISOString()) &&
          (lte === undefined || v.created_at <= new Date(lte).toISOString()),
      )
      .reverse();
    // Newest first: the cursor key counts down with the write order.
    const keyed = items.map(({ v, i }) => ({ v, key: String(1e15 - i).padStart(16, "0") }));
    const page = paged(keyed, (k) => k.key, query, full ? FULL_PAGE_MAX : BASIC_PAGE_MAX);
    return { data: page.data.map((k) => versionJson(s, k.v, full)), next_page: page.next_page };
  });
  route("GET", "/v1/memory_stores/:store/memory_versions/:version", ({ params, query }) => {
    const s = storeOf(params.store);
    const v = s.versions.find((x) => x.id === params.version);
    if (!v) throw notFound(`memory version ${params.version} not found`);
    return versionJson(s, v, isFull(query.view, true));
  });
  route("POST", "/v1/memory_stores/:store/memory_versions/:version/redact", ({ params, actor }) => {
    const s = storeOf(params.store);
    writable(s);
    const v = s.versions.find((x) => x.id === params.version);
    if (!v) throw notFound(`memory version ${params.version} not found`);
    const live = s.memories.get(v.memory_id);
    if (live && live.version === v.id) {
      throw invalid(`memory version ${v.id} is the current head of memory ${live.id}; write a new version first`);
    }
    if (v.redacted_at === null) {
      v.redacted_at = now();
      v.redacted_by = actor;
      v.content = v.path = v.sha = v.size = null;
    }
    return versionJson(s, v, false);
  });

  /** @param {http.IncomingMessage} req */
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      /** @type {Buffer[]} */
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      req.on("error", reject);
    });

  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-expose-headers": "retry-after, request-id",
    "access-control-max-age": "600",
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://emulator");
    const method = req.method ?? "GET";
    if (method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
      });
      res.end();
      return;
    }
    const raw = await readBody(req);
    /** @type {any} */
    let body = {};
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
    }
    /** @type {Record<string, string>} */
    const query = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const path = url.pathname;
    let matched = null;
    for (const [m, re, fn, pattern] of routes) {
      const found = m === method && re.exec(path);
      if (found) {
        // `route` is the pattern as registered: "/v1/memory_stores/:store/memories".
        matched = { fn, params: found.groups ?? {}, route: pattern };
        break;
      }
    }
    const mutating = method !== "GET";
    /** @type {LoggedRequest} */
    const entry = { method, path, route: matched?.route ?? "", query, body, status: 0, mutating, at: Date.now() };
    log.push(entry);
    const requestId = `req_${randomBytes(8).toString("hex")}`;
    /** @param {number} status @param {unknown} json @param {Record<string, string>} [headers] */
    const send = (status, json, headers = {}) => {
      entry.status = status;
      res.writeHead(status, { ...cors, "content-type": "application/json", "request-id": requestId, ...headers });
      res.end(JSON.stringify(json));
    };
    /** @param {ApiError} e @param {Record<string, string>} [headers] */
    const sendError = (e, headers) =>
      send(e.status, { type: "error", error: { type: e.type, message: e.message, ...e.extra }, request_id: requestId }, headers);

    const fault = faults.find((f) => f.left > 0 && (!f.match || f.match({ method, route: entry.route, path, body, headers: req.headers })));
    if (fault) fault.left--;
    if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
    if (fault?.drop === "before") {
      entry.status = "dropped";
      req.socket.destroy();
      return;
    }
    if (fault?.respond) {
      // A hostile answer: whatever status, type and body the test gives (a sign-in page, `{}`).
      entry.status = fault.respond.status ?? 200;
      res.writeHead(entry.status, { ...cors, "content-type": fault.respond.contentType ?? "application/json", "request-id": requestId });
      res.end(fault.respond.body);
      return;
    }
    if (fault?.status) {
      const headers = fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {};
      const type =
        fault.status === 429 ? "rate_limit_error" : fault.status === 529 ? "overloaded_error" : "api_error";
      sendError(new ApiError(fault.status, type, `injected ${fault.status}`), headers);
      return;
    }

    try {
      const beta = String(req.headers["anthropic-beta"] ?? "").split(",").map((s) => s.trim());
      if (!req.headers["x-api-key"] && !req.headers.authorization) {
        throw new ApiError(401, "authentication_error", "x-api-key header is required");
      }
      if (beta.includes(BETA) && beta.includes(OTHER_BETA)) {
        throw invalid(`send either ${BETA} or ${OTHER_BETA} with memory store requests, not both`);
      }
      if (!beta.includes(BETA) && !beta.includes(OTHER_BETA)) {
        throw invalid(`this endpoint is in beta: send anthropic-beta: ${BETA}`);
      }
      if (body === undefined) throw invalid("the request body is not JSON");
      if (!matched) throw notFound(`no route ${method} ${path}`);
      const key = String(req.headers["x-api-key"] ?? req.headers.authorization);
      const actor = { type: "api_actor", api_key_id: `apikey_${sha256(key).slice(0, 16)}` };
      const result = matched.fn({ params: matched.params, query, body, actor });
      if (fault?.drop === "after") {
        entry.status = "dropped";
        req.socket.destroy();
        return;
      }
      send(200, fault?.rewrite ? fault.rewrite(result, { method, route: entry.route, path, query }) : result);
    } catch (e) {
      if (e instanceof ApiError) sendError(e);
      else sendError(new ApiError(500, "api_error", String(e)));
    }
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());

  return {
    url: `http://127.0.0.1:${address.port}`,
    log,
    /** Requests that could change something (every method but GET), in order. */
    mutations: () => log.filter((r) => r.mutating),
    clearLog: () => void (log.length = 0),
    /** @param {Fault} fault */
    inject: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    clearFaults: () => void (faults.length = 0),
    /**
     * A store's live memories as `{ path: content }`, read without a request (for assertions).
     * @param {string} storeId
     */
    files: (storeId) =>
      Object.fromEntries(
        [...storeOf(storeId).memories.values()].map((m) => [m.path, m.content]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      ),
    /**
     * A store's live memories as `{ path: memory id }`, read without a request (for assertions
     * about which memory a path holds).
     * @param {string} storeId
     */
    ids: (storeId) => Object.fromEntries([...storeOf(storeId).memories.values()].map((m) => [m.path, m.id])),
    /**
     * Fills a store with `files` without requests (for benchmarks of big stores): each memory
     * made as a create would make it, with its version.
     * @param {string} storeId @param {Record<string, string>} files
     */
    seed: (storeId, files) => {
      const s = storeOf(storeId);
      const t = now();
      const actor = { type: "api_actor", api_key_id: "apikey_seed" };
      for (const [path, content] of Object.entries(files)) {
        checkPath(path);
        checkContent(content);
        /** @type {HostedMemory} */
        const m = { id: nextId("mem"), path, content, sha: sha256(content), size: Buffer.byteLength(content, "utf8"), created_at: t, updated_at: t, version: "" };
        s.memories.set(m.id, m);
        addVersion(s, m, "created", actor);
      }
    },
    /** A store's versions, oldest first, without a request. @param {string} storeId */
    versions: (storeId) => storeOf(storeId).versions.slice(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/** @typedef {Awaited<ReturnType<typeof startEmulator>>} Emulator */
