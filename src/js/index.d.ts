// Type declarations for memory-tool-wasm (hand-written; the JavaScript beside them is the code).

// ---------------------------------------------------------------------------------------------
// Messages API shapes (the subset the memory tool reads and writes)

/** The tool definition to put in the Messages API's `tools` list. */
export interface MemoryToolParam {
  type: "memory_20250818";
  name: "memory";
}

/** A text content block. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** An image content block, as `view` returns for an image file. */
export interface ImageBlock {
  type: "image";
  source: {
    type: "base64";
    media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
    data: string;
  };
}

/** What a tool result carries: a text, or content blocks (an image). */
export type ToolResultContent = string | Array<TextBlock | ImageBlock>;

/** A `tool_use` block from an assistant message. */
export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/**
 * The `tool_result` block to send back in the next user message. It fits wherever a message's
 * content takes blocks: the SDK's `MessageParam` and `BetaMessageParam`, LangChain's
 * `new HumanMessage({ content })` (a type, not an interface, so that it also fits content
 * typed as blocks with any fields).
 */
export type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content: ToolResultContent;
  /** Present (and true) only for errors. */
  is_error?: true;
};

/**
 * Any content block of a message: the SDK's (`ContentBlock`, `BetaContentBlock`, their
 * `…Param` forms), LangChain's, or a plain object with a `type`. `runAll` picks the memory
 * `tool_use` blocks and skips the rest. (The first form takes interfaces such as the SDK's,
 * the second object literals with any fields.)
 */
export type ContentBlockLike =
  | { readonly type: string }
  | { readonly type: string; readonly [key: string]: unknown };

/**
 * A message whose content `runAll` reads: the SDK's `Message` and `BetaMessage` (what
 * `messages.create`, `finalMessage()` and the tool runner give), a `MessageParam`, LangChain's
 * `AIMessage`, or `{ role, content }`. A string content has no tool use.
 */
export type AssistantMessage =
  | { readonly content: string | ReadonlyArray<ContentBlockLike> }
  | { readonly content: string | ReadonlyArray<ContentBlockLike>; readonly [key: string]: unknown };

// ---------------------------------------------------------------------------------------------
// MemoryTool

/** Stable error codes: the core's, and the adapter's own. */
export type MemoryToolErrorCode =
  | "INVALID_INPUT"
  | "UNKNOWN_COMMAND"
  | "INVALID_PATH"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "PATH_CONFLICT"
  | "NO_MATCH"
  | "MULTIPLE_MATCHES"
  | "INVALID_RANGE"
  | "TOO_MANY_LINES"
  | "NOT_TEXT"
  | "READ_ONLY"
  | "LIMIT_EXCEEDED"
  | "ROOT_PROTECTED"
  | "PRECONDITION_FAILED"
  | "REDACT_HEAD"
  | "REDACTED"
  | "INVALID_BUNDLE"
  | "POLICY_REFUSED"
  | "TOO_MANY_MOUNTS"
  | "SLUG_CONFLICT"
  | "ARCHIVED"
  | "QUOTA_EXCEEDED"
  | "STORAGE_FAILED"
  | "STORE_VANISHED"
  | "DAMAGED"
  | "HISTORY_LIMIT_EXCEEDED"
  | "CONTENT_MISMATCH"
  | "INVALID_OPTIONS"
  | "INVALID_TOOL_USE"
  | "NOT_READY";

/**
 * Details some host errors carry (also copied onto the error itself):
 * `PRECONDITION_FAILED` has `current_content_sha256` and `expected_content_sha256`;
 * `PATH_CONFLICT` has `conflicting_path` and `conflicting_memory_id` (null when what is in
 * the way is a directory, not a memory); `REDACT_HEAD` has `memory_id`.
 */
export interface MemoryToolErrorDetail {
  current_content_sha256?: string;
  expected_content_sha256?: string;
  conflicting_memory_id?: string | null;
  conflicting_path?: string;
  memory_id?: string;
  [key: string]: unknown;
}

/** The error host-facing calls throw: a stable `code`, a message, and the core's details. */
export class MemoryToolError extends Error {
  constructor(
    code: string,
    message: string,
    options?: { cause?: unknown; detail?: Record<string, unknown> },
  );
  readonly name: "MemoryToolError";
  /** One of `MemoryToolErrorCode`. */
  code: MemoryToolErrorCode | (string & {});
  /** The core's details of a host error, when it has any. */
  detail?: MemoryToolErrorDetail;
  /** `PRECONDITION_FAILED`: the memory's sha now. */
  current_content_sha256?: string;
  /** `PRECONDITION_FAILED`: the sha the call expected. */
  expected_content_sha256?: string;
  /** `PATH_CONFLICT`: the memory in the way; null when a directory is. */
  conflicting_memory_id?: string | null;
  /** `PATH_CONFLICT`: the path in the way. */
  conflicting_path?: string;
  /** `REDACT_HEAD`: the live memory whose head the version is. */
  memory_id?: string;
}

/** Whether the model may write. */
export type MemoryAccess = "read_write" | "read_only";

/** One store to mount (`MemoryTool.open({ mounts })`). */
export interface MountOptions {
  /** The store's id (`memstore_…`, from `MemoryStores`). */
  store: string;
  /**
   * Default `"read_write"`. A `"read_only"` mount refuses every writing command with the text of
   * docs/TOOL.md#read-only-access, before touching storage. An archived store can only be mounted read-only.
   */
  access?: MemoryAccess;
  /** What the model should keep there and how; at most 4,096 characters. In `systemPrompt()`. */
  instructions?: string;
  /** This mount's expiry, as `MemoryToolOptions.expireAfterDays`. */
  expireAfterDays?: number;
}

/** A mounted store, as `MemoryTool.mounts` shows it. */
export interface MountInfo {
  /** The store's id (`memstore_…`); for a tool opened with `store`, that store's name. */
  store: string;
  name: string;
  /** The folder of the store under `/memories` with several mounts; `""` for a single store opened with `store`. */
  slug: string;
  /** Its tool path: `/memories/` for the only mount, `/memories/<slug>/` with several. */
  path: string;
  access: MemoryAccess;
  description: string;
  instructions: string;
  /** Archived stores are read-only for good: they are only ever mounted `read_only`. */
  archived: boolean;
}

/** Who is writing, for `beforeWrite`: the model (`tool`), the host API (`api`) or an import. */
export type WriteSource = "tool" | "api" | "import";

/** A write about to happen, as `beforeWrite` sees it. */
/** What a write does: the policy is asked about every kind. */
export type WriteOperation = "create" | "modify" | "rename" | "delete" | "restore" | "import";

export interface PendingWrite {
  /**
   * The tool path written (`/memories/notes/a.md`; with several mounts, `/memories/<slug>/…`):
   * for a rename, the new path (each file of a directory rename is asked about).
   */
  path: string;
  /** The content about to be stored: text when it is UTF-8, else the bytes; null for a rename or delete. */
  content: string | Uint8Array | null;
  source: WriteSource;
  operation: WriteOperation;
  /** The path a rename (or a `memories.update` with a path) leaves. */
  oldPath?: string;
}

/**
 * What `beforeWrite` decides, synchronously:
 * - `undefined`, `true` or `"allow"`: write as asked;
 * - `false` or `{ refuse: reason }`: refuse (`POLICY_REFUSED`; the model reads
 *   `Error: Cannot write <path>: <reason>`);
 * - `{ rewrite: text or bytes }`, any other string, or bytes: write this content instead (an
 *   import refuses rewrites whole). A string that reads as a refusal (`"deny"`, `"refuse"`,
 *   `"reject"`, `"block"`, `"no"`, …) refuses the write instead of being stored; return
 *   `{ rewrite: "deny" }` to store such a word.
 */
export type WriteDecision =
  | undefined
  | boolean
  | "allow"
  | { refuse: string }
  | { rewrite: string | Uint8Array }
  | string
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView;

/**
 * The host's write policy, asked inside the write's transaction about every write of content
 * (tool commands, host API, imports). It must decide synchronously: a returned Promise
 * refuses the write ("beforeWrite must decide synchronously"), and so does a throw ("the write
 * policy failed: <message>").
 */
export type BeforeWrite = (write: PendingWrite) => WriteDecision;

/**
 * Where the core's .wasm comes from, for a bundler that does not emit the file the bindings
 * load with `new URL("memory_tool_wasm_bg.wasm", import.meta.url)` (esbuild, say): its URL
 * (`import wasm from "memory-tool-wasm/wasm"` with a file loader), a `Response` (or a promise
 * of one, `fetch(…)`), its bytes, or a compiled `WebAssembly.Module`. The core loads once per
 * page or process: the first `open` that loads it uses its `wasm`; later ones are not read.
 * Default: the .wasm beside the bindings (read from disk in Node).
 */
export type WasmSource =
  | GlobalType<"URL">
  | string
  | GlobalType<"Response">
  | PromiseLike<GlobalType<"Response">>
  | ArrayBuffer
  | ArrayBufferView
  | WasmModule;

/**
 * The instance type of the global class `Name` where the environment's types declare it (the
 * DOM lib, or Node's), else `never`: these declarations check in a project with neither.
 */
type GlobalType<Name extends string> = typeof globalThis extends { [K in Name]: { prototype: infer T } } ? T : never;
/** The global class `Name` itself where the environment's types declare it, else `never`. */
type GlobalClass<Name extends string> = typeof globalThis extends { [K in Name]: infer C } ? C : never;
/** `WebAssembly.Module` where the environment's types declare it, else `never`. */
type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer T } } } ? T : never;

/** Options of `MemoryTool.open`. */
export interface MemoryToolOptions {
  /**
   * The store's name (one IndexedDB database per store). Default `"memories"`. Names starting
   * with `"__"` are reserved. Not with `mounts`.
   */
  store?: string;
  /**
   * Named stores of the registry (`MemoryStores`) to mount, 1 to 8: one is `/memories`
   * itself, several are `/memories/<slug>/` each. Not with `store` or `access`. The other
   * options are the defaults of every mount (a store's own `limits` win).
   */
  mounts?: MountOptions[];
  /**
   * Where files live: `"indexeddb"`, `"memory"` (a fresh `InMemoryStorage`), or a storage
   * object. Default: `"indexeddb"` where `indexedDB` exists, else `"memory"`. With `mounts`,
   * the storage the `MemoryStores` were opened on.
   */
  storage?: "indexeddb" | "memory" | MemoryStorage;
  /** Default `"read_write"`. With `"read_only"` every writing command is refused. Not with `mounts`. */
  access?: MemoryAccess;
  /**
   * Refuse content that looks like it holds a credential (API keys, private keys, …), from
   * the tool, the host API and imports alike (`POLICY_REFUSED`). Default false.
   */
  secretFilter?: boolean;
  /** The host's write policy: see `BeforeWrite`. */
  beforeWrite?: BeforeWrite;
  /** Where the core's .wasm comes from: see `WasmSource`. */
  wasm?: WasmSource;
  limits?: {
    /** Largest file, in bytes. Default 102,400. */
    maxFileBytes?: number;
    /** Most files in the store. Default 10,000. */
    maxFiles?: number;
    /**
     * The history budget (docs/TOOL.md#history-budget): most versions one memory keeps, its
     * head included. Default 100; at least 1. A write past it prunes that memory's oldest
     * versions in the same transaction.
     */
    maxVersionsPerMemory?: number;
    /**
     * The history budget: most bytes of content one memory's versions hold (each stored
     * content counted once). Default 4,194,304 (4 MiB: 40 versions of a full 100 KB file). A
     * write past it prunes the oldest versions; a write whose own versions hold more fails
     * with `HISTORY_LIMIT_EXCEEDED` and changes nothing.
     */
    maxHistoryBytesPerMemory?: number;
  };
  /** Longest file view, in characters (code points) of numbered lines. Default 16,000; at least 100. */
  maxViewChars?: number;
  /** Let `create` overwrite an existing file instead of answering an error. Default false. */
  createOverwrites?: boolean;
  /**
   * How long a text that stopped being live (edited, renamed or deleted, by anyone or
   * anything) stays restorable, in days from then (fractions allowed). Default 30. Versions
   * past it are pruned when the store opens with `"read_write"` access, on the store's trusted
   * clock (open does not wait for it; the store's later transactions run after it), and on
   * `versions.prune()`; the head of a live memory and a kept version within the period are
   * always kept (docs/TOOL.md#retention).
   */
  retentionDays?: number;
  /**
   * Off by default. Memories neither viewed nor changed for this many whole days (1 to
   * 36,500) are deleted as a normal version (`created_by: { type: "expiry" }`), so they stay
   * restorable for `retentionDays` from then: in the background after the tool's first
   * command (never delaying it, on the date an earlier open also saw, in two steps that keep
   * whatever was used between them), and on `memories.expire()`. Never in read-only mounts or
   * archived stores. Last use is kept to a day's precision (docs/TOOL.md#last-use-and-expiry).
   */
  expireAfterDays?: number;
}

/**
 * Which mounted store a host call is for: a mounted store's id or slug. Default: the first
 * mount. (A tool opened with `store` takes that store's name.)
 */
export interface StoreOption {
  store?: string;
}

/** What `execute` resolves to. `code` is set on errors. */
export interface ExecuteResult {
  content: ToolResultContent;
  isError: boolean;
  code?: MemoryToolErrorCode;
}

/** Options of `memories.list`. */
export interface ListOptions extends StoreOption {
  /** Only memories under this prefix; must start and end with `/` and matches whole segments. */
  path_prefix?: string;
  /** 0 or omitted: the whole subtree; 1: direct children, deeper entries as prefixes. */
  depth?: 0 | 1;
}

/** Times are RFC 3339 UTC with milliseconds (`2026-11-29T21:41:14.000Z`). */
export type Rfc3339 = string;

/**
 * A memory (the memory stores API's `memory`). Paths are store paths (`/notes/todo.md`, which
 * the tool sees as `/memories/notes/todo.md`).
 */
export interface MemorySummary {
  type: "memory";
  /** `mem_…`, kept across renames. */
  id: string;
  path: string;
  /** Lowercase hex SHA-256 of the stored bytes. */
  content_sha256: string;
  content_size_bytes: number;
  /** The head version (`memver_…`); null for a memory stored before versions existed. */
  memory_version_id: string | null;
  created_at: Rfc3339;
  updated_at: Rfc3339;
  /**
   * When the model last viewed or changed it, to a day's precision (a view records its use at
   * most once a day; `updated_at` when newer). What expiry counts from.
   */
  last_accessed_at: Rfc3339;
}

/**
 * A memory with its content: `content` is the text, or null for bytes that are not UTF-8,
 * which come as `content_base64`.
 */
export interface Memory extends MemorySummary {
  content: string | null;
  content_base64?: string;
}

/** A directory rolled up by `memories.list({ depth: 1 })`; its path ends with `/`. */
export interface MemoryPrefix {
  type: "memory_prefix";
  path: string;
}

/** What `memories.list` resolves to: memories (and, with depth 1, prefixes) in path order. */
export type MemoryList = Array<MemorySummary | MemoryPrefix>;

/** `memories.create` parameters. */
export interface CreateMemoryParams extends StoreOption {
  path: string;
  content: string;
  /**
   * The SHA-256 the content must have (a text that arrived from elsewhere): else
   * `CONTENT_MISMATCH`, and nothing is written.
   */
  content_sha256?: string;
}

/** A precondition of `memories.update`. */
export interface ContentSha256Precondition {
  type: "content_sha256";
  content_sha256: string;
}

/** `memories.update` parameters: a new path, new content, or both. */
export interface UpdateMemoryParams extends StoreOption {
  path?: string;
  content?: string;
  /**
   * Fails with `PRECONDITION_FAILED` (carrying `current_content_sha256`) unless the memory's
   * sha is this one, or the memory already is in the requested state.
   */
  precondition?: ContentSha256Precondition;
  /** The SHA-256 the new content must have: else `CONTENT_MISMATCH`, and nothing is written. */
  content_sha256?: string;
  /**
   * A version of this memory that the update sets aside and keeps restorable, whatever the
   * history budget, for the retention period (docs/TOOL.md#retention): what a merge of your
   * own replaces, as a sync conflict does.
   */
  keep_version_id?: string;
}

/** `memories.delete` options. */
export interface DeleteMemoryOptions extends StoreOption {
  /** Fails with `PRECONDITION_FAILED` unless the memory's sha is this one. */
  expected_content_sha256?: string;
}

/** What `memories.delete` resolves to. */
export interface MemoryDeleted {
  type: "memory_deleted";
  id: string;
}

/**
 * The host's memory API. Each call is on one store: with several mounts, the one its
 * `store` option names (default the first mount); paths are that store's own (`/notes/a.md`).
 */
export interface MemoriesApi {
  /** Lists memories; `INVALID_PATH` / `INVALID_INPUT` for a bad prefix or depth. */
  list(options?: ListOptions): Promise<MemoryList>;
  /** The memory with its content; `NOT_FOUND` if no memory has the id. */
  get(id: string, options?: StoreOption): Promise<Memory>;
  /** The memory at `path` with its content; `NOT_FOUND` if none is there. */
  getByPath(path: string, options?: StoreOption): Promise<Memory>;
  /** Creates a memory; never overwrites (`PATH_CONFLICT`, naming what is in the way). */
  create(params: CreateMemoryParams): Promise<Memory>;
  /** Moves and/or rewrites a memory, keeping its id. */
  update(id: string, params: UpdateMemoryParams): Promise<Memory>;
  /** Deletes a memory; its versions stay. */
  delete(id: string, options?: DeleteMemoryOptions): Promise<MemoryDeleted>;
  /** Says the memory is still wanted: its last use becomes now (an expiry counts from today). */
  keep(id: string, options?: StoreOption): Promise<MemorySummary>;
  /**
   * Deletes (or, with `dryRun`, lists) the memories neither viewed nor changed for
   * `olderThanDays` (default: the tool's `expireAfterDays`), as versions by `{ type: "expiry" }`.
   */
  expire(options?: ExpireOptions): Promise<ExpireResult>;
}

/** Options of `persist`. */
export interface PersistOptions {
  /** How long to wait for the browser's answer, in milliseconds (0 to 2,147,483,647; default 10,000). */
  timeoutMs?: number;
}

/** What `usage` resolves to. */
export interface StorageUsage {
  /** The store's memories and the bytes of their current contents (history not included). */
  files: number;
  bytes: number;
  /** The origin's usage and quota in bytes, as the browser estimates them; null if unknown. */
  origin: { usage: number; quota: number } | null;
  /** Whether the origin's storage is persisted (not evicted under pressure); null if unknown. */
  persisted: boolean | null;
}

/** What `check` and `repair` resolve to. */
export interface CheckResult {
  type: "store_check";
  /** File records in the store, readable or not (before a repair). */
  files: number;
  /** Whether what was found was mended. */
  repaired: boolean;
  /**
   * What cannot be trusted: `record`, a file record that cannot be read; `content`, a memory
   * whose content is missing; `sha256`, a content whose bytes no longer match the memory's
   * `content_sha256` (changed outside the package). After `repair`, `action` says what was
   * done: `removed` (the record), `deleted` (the memory, as a version: there was no text to
   * keep) or `kept` (the text as it is, recorded as a new version with its own hash).
   */
  damaged: Array<{
    path: string;
    problem: "record" | "content" | "sha256";
    memory_id?: string | null;
    action?: "removed" | "deleted" | "kept";
  }>;
}

/** `memories.expire` options. */
export interface ExpireOptions extends StoreOption {
  /** Whole days, 1 to 36,500; default the tool's (or mount's) `expireAfterDays`. */
  olderThanDays?: number;
  /** List what would go, change nothing. Default false. */
  dryRun?: boolean;
}

/** What `memories.expire` resolves to: the memories that went (or would go), in path order. */
export interface ExpireResult {
  type: "memories_expired";
  dry_run: boolean;
  /** Memories last used before this time are expired. */
  cutoff: Rfc3339;
  data: MemorySummary[];
}

/** What a version records. A rename is `modified` with the new path. */
export type VersionOperation = "created" | "modified" | "deleted";

/**
 * Who made a change. A tool opened with `mounts` also records its `session_id` (see
 * `MemoryTool.sessionId`) and, with several mounts, the `mount_path` it wrote through. A
 * restore adds `restored_from`, the version it brought back; expiry is `{ type: "expiry" }`.
 */
export type VersionActor =
  | { type: "tool"; tool_use_id: string | null; session_id?: string; mount_path?: string }
  | { type: "api"; session_id?: string; mount_path?: string; restored_from?: string }
  | { type: "import"; session_id?: string; mount_path?: string }
  | { type: "expiry"; session_id?: string; mount_path?: string }
  | { type: string; [key: string]: unknown };

/** An immutable entry of a store's history (the memory stores API's `memory_version`). */
export interface MemoryVersion {
  type: "memory_version";
  /** `memver_…`; ids sort in the order versions were written. */
  id: string;
  memory_id: string;
  operation: VersionOperation;
  /** The memory's path then; null once redacted. */
  path: string | null;
  /** Null for a deletion and once redacted. */
  content_sha256: string | null;
  content_size_bytes: number | null;
  created_at: Rfc3339;
  created_by: VersionActor | null;
  redacted_at: Rfc3339 | null;
  /**
   * When a sync conflict set this text aside, a restore brought it back, or
   * `memories.update({ keep_version_id })` kept it: the history budget never takes it, and it
   * stays restorable for `retentionDays` from then (docs/TOOL.md#retention). Absent otherwise.
   */
  kept_at?: Rfc3339;
  /** `versions.get` only: the text (null for bytes that are not UTF-8: see `content_base64`). */
  content?: string | null;
  content_base64?: string;
}

/** `versions.list` filters; versions come newest first. */
export interface VersionFilters extends StoreOption {
  memory_id?: string;
  operation?: VersionOperation;
  /** Only versions created at or after this time (a Date or RFC 3339 text). */
  created_at_gte?: Date | Rfc3339;
  /** Only versions created at or before this time. */
  created_at_lte?: Date | Rfc3339;
  /** Only versions whose path lies below this prefix (ends with `/`). */
  path_prefix?: string;
  /** 1 to 100; default 20. */
  limit?: number;
  /** The `next_page` of the previous page. */
  page?: string;
}

/** A page of versions. */
export interface VersionPage {
  data: MemoryVersion[];
  /** Pass as `page` for the next page; null on the last one. */
  next_page: string | null;
}

/** What `versions.prune` resolves to. */
export interface PruneResult {
  pruned_versions: number;
  freed_contents: number;
}

/** The history API; each call is on one store, as `MemoriesApi`'s are. */
export interface VersionsApi {
  /** Versions newest first, filtered and paged. */
  list(filters?: VersionFilters): Promise<VersionPage>;
  /** The version with its content; `NOT_FOUND` if none has the id. */
  get(id: string, options?: StoreOption): Promise<MemoryVersion>;
  /**
   * Clears a version's content, path, sha and size for good (the bytes go when no other
   * version holds them). `REDACT_HEAD` for the current version of a live memory.
   */
  redact(id: string, options?: StoreOption): Promise<MemoryVersion>;
  /**
   * Writes the version's content back as a new version of its memory; a deleted memory comes
   * back at the version's path (`PATH_CONFLICT` if that is taken). `REDACTED` for a redacted
   * version.
   */
  restore(id: string, options?: StoreOption): Promise<MemorySummary>;
  /** Deletes versions past the retention period, never a live memory's head. */
  prune(options?: StoreOption): Promise<PruneResult>;
}

/** A memory in a bundle. */
export interface BundleMemory {
  id: string;
  path: string;
  content: string | null;
  content_base64?: string;
  content_sha256: string;
  content_size_bytes: number;
  created_at: Rfc3339;
  updated_at: Rfc3339;
  /** When the memory was last used (optional; an import keeps it, never after its own clock). */
  last_accessed_at?: Rfc3339;
  /** With versions only: the memory's head. */
  memory_version_id?: string | null;
}

/** A version in a bundle (with its content, when it has any). */
export interface BundleVersion {
  id: string;
  memory_id: string;
  operation: VersionOperation;
  path: string | null;
  content: string | null;
  content_base64?: string;
  content_sha256: string | null;
  content_size_bytes: number | null;
  created_at: Rfc3339;
  created_by: VersionActor | null;
  redacted_at: Rfc3339 | null;
}

/** A whole store as JSON: what `export` gives and `import` takes. */
export interface Bundle {
  format: "memory-tool-wasm/bundle";
  format_version: 1;
  memories: BundleMemory[];
  /** With `include_versions`: the retained history, oldest first. */
  versions?: BundleVersion[];
  /**
   * From a damaged store only: what the export left out because it cannot be read (a
   * record, a memory's or a version's content). Ignored by import.
   */
  skipped?: Array<{ path?: string; version_id?: string; reason: string }>;
}

/**
 * The platform's `Blob` where the program's types have one (the DOM lib, Node's types), else
 * the part of it a bundle needs: the declarations also type-check with no lib at all.
 */
export type BlobLike = typeof globalThis extends { Blob: { prototype: infer B } }
  ? B
  : { readonly size: number; readonly type: string; text(): Promise<string> };

/** `exportBlob` options. */
export interface ExportBlobOptions extends ExportOptions {
  /** Called with 0 first, then about every 1% of the entries written, and at the end. */
  onProgress?: (progress: { done: number; total: number }) => void;
}

/** `export` options. */
export interface ExportOptions extends StoreOption {
  /** Include the retained history. Default false. */
  include_versions?: boolean;
}

/** What `import` does with a memory whose place (path or id) is taken. */
export type ImportConflictPolicy = "skip" | "overwrite" | "fail";

/** Progress of an import: storage writes done of the total. */
export interface ImportProgress {
  done: number;
  total: number;
}

/** `import` options. */
export interface ImportOptions extends StoreOption {
  /** Default `"fail"`: a conflict throws `PATH_CONFLICT` and nothing is imported. */
  onConflict?: ImportConflictPolicy;
  /** Called with 0 before writing, then as writes complete (about every 1%), and at the end. */
  onProgress?: (progress: ImportProgress) => void;
}

/** What `import` resolves to: memories by what happened to them, and versions added. */
export interface ImportResult {
  imported: number;
  overwritten: number;
  skipped: number;
  unchanged: number;
  versions: number;
}

/**
 * One committed change: a version written. Redacting a version is a change too
 * (`redacted: true`, no path).
 */
export interface ChangeEvent {
  type: "change";
  /** The store's name; for a tool opened with `mounts`, the store's id. */
  store: string;
  memory_id: string;
  /** The memory's path in this version; null when redacted. */
  path: string | null;
  /**
   * The version's operation; `"redacted"` when the change is the redaction of an earlier
   * version (`versions.redact`): its `path` is then null and no file changed.
   */
  operation: VersionOperation | "redacted";
  version_id: string;
  redacted: boolean;
  created_by: VersionActor | null;
  /** `"local"`: this context (tab, worker, process); `"remote"`: another tab or worker. */
  origin: "local" | "remote";
}

/**
 * The store held memories and its database is gone, deleted outside this package (another
 * tab, cleared site data, a browser that dropped a corrupt database): its commands fail with
 * `STORE_VANISHED` and nothing is recreated until the host calls `storage.startOver(store)`
 * (then imports a backup or syncs again). Said once per tool and store.
 */
export interface StoreVanishedEvent {
  type: "vanished";
  store: string;
  /** How many memories it was last seen holding, if known. */
  files: number | null;
  origin: "local" | "remote";
}

/** What `subscribe` listeners hear. */
export type StoreEvent = ChangeEvent | StoreVanishedEvent;

/** A `subscribe` listener. What it throws is reported, and harms nothing else. */
export type ChangeListener = (event: StoreEvent) => void;

/** Claude's memory tool (`memory_20250818`) over one store, or over several mounted stores. */
export class MemoryTool {
  private constructor();
  /**
   * Opens the memory tool over a store, or over the named stores of `mounts`. Rejects with
   * `INVALID_OPTIONS` for bad options; with `mounts`, `NOT_FOUND` (a store not in the
   * registry), `TOO_MANY_MOUNTS` (more than 8), `SLUG_CONFLICT` (two stores whose slugs
   * collide, naming both; or one store mounted twice), `ARCHIVED` (an archived store mounted
   * read_write); `STORAGE_FAILED` when a store cannot be opened.
   */
  static open(options?: MemoryToolOptions): Promise<MemoryTool>;
  /**
   * Starts loading the core's `.wasm` (download, compile, instantiate) now, so the first
   * `open` finds it loaded or on its way: for an app that opens its tool later than it
   * imports the package (docs/BUNDLERS.md#a-fast-first-command). The first load wins: a later
   * `open`'s `wasm` is then not read. Resolves once the core is loaded or its load failed; it
   * never rejects for a failed load (not kept: the next `open` tries again and rejects with
   * its own errors). Rejects with `INVALID_OPTIONS` for bad options.
   */
  static preload(options?: { wasm?: WasmSource }): Promise<void>;
  /** `{ type: "memory_20250818", name: "memory" }` (a fresh object each time). */
  readonly toolParam: MemoryToolParam;
  /** The store's name; with `mounts`, the first mount's store id (host calls' default). */
  readonly store: string;
  /** The access given at open; with `mounts`, the first mount's. */
  readonly access: MemoryAccess;
  /** The mounted stores, in mount order (one for a single store). */
  readonly mounts: ReadonlyArray<Readonly<MountInfo>>;
  /**
   * This tool's session id (`session_…`, random). With `mounts`, every version it writes
   * records it (`created_by.session_id`).
   */
  readonly sessionId: string;
  /**
   * The text to add to the system prompt: the memory tool, and each mount's path, name,
   * access, description and instructions.
   */
  systemPrompt(): string;
  /**
   * Runs one tool input in one transaction; resolves after it committed. Never rejects for
   * the model's mistakes or storage failures: those are `isError` results.
   */
  execute(input: unknown): Promise<ExecuteResult>;
  /**
   * Runs a memory `tool_use` block (the SDK's `ToolUseBlock` or `BetaToolUseBlock`, say);
   * throws `INVALID_TOOL_USE` for anything else.
   */
  run(toolUse: ToolUseBlock): Promise<ToolResultBlock>;
  /**
   * Runs every memory `tool_use` block of a message (the SDK's `Message` or `BetaMessage`,
   * LangChain's `AIMessage`), of its `content`, or of an array of blocks, in order; results in
   * the same order. A string content gives `[]`.
   */
  runAll(
    message: AssistantMessage | string | ReadonlyArray<ContentBlockLike>,
  ): Promise<ToolResultBlock[]>;
  /**
   * Creates or overwrites a file at a tool path (with several mounts, `/memories/<slug>/…`
   * says which store; a string is stored as UTF-8). Obeys paths, limits, access and the write
   * policy; throws `MemoryToolError` with the core's code otherwise.
   */
  writeFile(path: string, content: string | Uint8Array | ArrayBuffer | ArrayBufferView): Promise<void>;
  /** The host's memory API (docs/TOOL.md#memory-stores). Throws `MemoryToolError`s with the core's codes. */
  readonly memories: MemoriesApi;
  /** The history API. Throws `MemoryToolError`s with the core's codes. */
  readonly versions: VersionsApi;
  /** Per-store host state kept beside the memories (see `StateApi`). */
  readonly state: StateApi;
  /**
   * How much a store holds (its files and their bytes, from the store's metadata: no scan), and
   * what the browser says of the whole origin (`navigator.storage.estimate()`, `persisted()`;
   * null where there is no such API).
   */
  usage(options?: StoreOption): Promise<StorageUsage>;
  /**
   * Asks the browser to keep this origin's storage under pressure instead of evicting it
   * (`navigator.storage.persist()`), and settles within a bound whatever the browser does.
   * Browsers may grant it silently, prompt, or refuse. Resolves with `true` when the origin is
   * persisted (granted now or before), `false` when the browser refused or has no Storage API
   * (as in WebKitGTK), and `null` when it has not answered within `timeoutMs` (default 10,000
   * ms): Firefox asks the person with a prompt and waits, for ever if nobody answers. The
   * request then stays open and may still be granted: `usage().persisted` says so later.
   */
  persist(options?: PersistOptions): Promise<boolean | null>;
  /**
   * Finds what in a store cannot be read (malformed records, missing contents), reading no
   * content; changes nothing (docs/TOOL.md#damaged-records).
   */
  check(options?: StoreOption): Promise<CheckResult>;
  /** `check`, then removes what it found in one transaction (a missing content: deleted as a version). */
  repair(options?: StoreOption): Promise<CheckResult>;
  /**
   * `export`, written while it is read, as a Blob of the same JSON: one read-only transaction,
   * one entry in the core's memory at a time (for stores too big to hold whole).
   */
  exportBlob(options?: ExportBlobOptions): Promise<BlobLike>;
  /** Exports a store (with several mounts, `options.store`; default the first) as a bundle. */
  export(options?: ExportOptions): Promise<Bundle>;
  /**
   * Imports a bundle in one transaction (all or nothing), checking every sha first
   * (`INVALID_BUNDLE`). A JSON string is taken too. The bundle goes into the core a part at a
   * time, the page running between parts; calls made on this tool after this one still run
   * after it. Its lists are taken at the call; change none of their items until it settles.
   */
  import(bundle: Bundle | string, options?: ImportOptions): Promise<ImportResult>;
  /**
   * Hears every committed change of the tool's stores (every mount): from this context, and
   * (IndexedDB) from other tabs and workers of the origin. Returns the function that
   * unsubscribes.
   */
  subscribe(listener: ChangeListener): () => void;
  /**
   * Closes the store and ends its subscriptions; commands already running finish. Later tool
   * calls (`execute`, `run`, `runAll`) answer with a `STORAGE_FAILED` error result; later host
   * calls throw `STORAGE_FAILED`.
   */
  close(): void;
}

// ---------------------------------------------------------------------------------------------
// Storage interface (docs/ARCHITECTURE.md): implement it for your own backend.

/** A file's metadata as stored; `path` is the key, times are epoch milliseconds. */
export interface FileRecord {
  path: string;
  /** The memory id (unique: the `id` index). */
  id: string;
  size: number;
  sha256: string;
  createdAt: number;
  updatedAt: number;
  /** The head version id; absent or null in records stored before versions existed. */
  version?: string | null;
  /** The key of the bytes in the content store; absent in old records: then the memory id. */
  content?: string;
  /** When the model last viewed or changed it (epoch ms, a day's precision); absent in old records. */
  accessedAt?: number;
  /**
   * At most how many versions of this memory are stored, and the bytes their contents hold
   * (docs/TOOL.md#history-budget): kept by the writes that check the history budget, so the
   * next needs no read of them. Both or neither; a storage keeps them as it keeps the rest.
   */
  historyVersions?: number;
  historyBytes?: number;
}

/** A version as stored; `id` is the key. */
export interface VersionRecord {
  id: string;
  memoryId: string;
  operation: VersionOperation;
  path: string | null;
  size: number | null;
  sha256: string | null;
  /** The key of the bytes; left out (not null) when there are none, so indexes skip it. */
  content?: string;
  createdAt: number;
  createdBy: VersionActor | null;
  redactedAt: number | null;
}

export type TransactionMode = "readonly" | "readwrite";

/** A storage backend: opens named stores. */
export interface MemoryStorage {
  /** Opens (or creates) the named store; resolves when ready. */
  open(store: string): Promise<StoreHandle>;
  /**
   * Deletes the named store and all its data; handles open on it should refuse later
   * transactions. Needed by `MemoryStores.delete`; does nothing for a store that does not exist.
   */
  destroy?(store: string): Promise<void>;
}

/**
 * Which MemoryTools hear a store's change events. Tools whose handles give the same `key`
 * object and `name` share listeners in this context; with `channel`, events also go to other
 * tabs and workers over `BroadcastChannel(channel)`.
 */
export interface EventScope {
  key: object;
  name: string;
  channel?: string | null;
}

/** An open store. */
/**
 * `MemoryTool.state`: small per-store JSON values the host keeps in the store's own database
 * (sync baselines and the like). Not memories: no versions, no events, never shown to the model.
 */
export interface StateApi {
  /** The value stored under `name`, or undefined. */
  get(name: string, options?: StoreOption): Promise<unknown>;
  /** Stores a copy of `value` (JSON data) under `name`; `INVALID_INPUT` for anything else. */
  set(name: string, value: unknown, options?: StoreOption): Promise<void>;
  /** Deletes the value under `name` (nothing if there is none). */
  delete(name: string, options?: StoreOption): Promise<void>;
}

export interface StoreHandle {
  /**
   * Runs `body` inside one transaction; resolves after commit, rejects after abort (with a
   * `MemoryToolError` for storage failures, or with what `body` or a callback threw).
   */
  transaction(mode: TransactionMode, body: (tx: StorageTx) => void, options?: TransactionOptions): Promise<void>;
  close(): void;
  /**
   * Optional: where change events go. Without it, MemoryTools opened from one storage object
   * with one store name share them, in this context only.
   */
  readonly eventScope?: EventScope;
}

/**
 * The requests of one transaction. Callbacks may run synchronously or later; the body must
 * not await anything else.
 */
/** What the package tells a storage of a transaction it asks for. */
export interface TransactionOptions {
  /**
   * The kinds of read the transaction will issue, at most (a view's: `file`, `headContent`,
   * `content`, `listing`; the `StorageTx` methods that answer them: `getFile`,
   * `getHeadContent`, `getContent`, `getListing` or `getSubtree`). A storage may open only
   * what those need; absent, any read may come.
   */
  reads?: string[];
}

export interface StorageTx {
  /** The record stored under `path`, or null. */
  getFile(path: string, cb: (record: FileRecord | null) => void): void;
  /** Every record with key in `[path + "/", path + "0")`, in key order. */
  getSubtree(path: string, cb: (records: FileRecord[]) => void): void;
  /**
   * The listing entries of the files with key in `[path + "/", path + "0")`:
   * `` `${record.path}\u0000${record.size}` `` each, in any order. Optional: without it the
   * adapter reads `getSubtree` and makes the entries itself (what a directory view needs is
   * every path and size below it, so a storage that can read those without the records makes
   * listings faster).
   */
  getListing?(path: string, cb: (entries: string[]) => void): void;
  /** Whether any key lies in `[path + "/", path + "0")`. */
  hasChildren(path: string, cb: (yes: boolean) => void): void;
  /** The number of file records. */
  countFiles(cb: (n: number) => void): void;
  /** The content stored under `id`, or undefined. */
  getContent(id: string, cb: (bytes: Uint8Array | undefined) => void): void;
  /**
   * Optional: the content with the highest key among those in `[path + "\u0000", path +
   * "\u0001")`, with that key (both undefined when there is none). The core keys a head's
   * bytes by its file key, `\0` and its version id, and asks this in the round that reads the
   * record, so a view or an edit is one round; it uses the bytes only when the record names
   * that key. Without it, the core reads the key the record names in a second round.
   */
  getHeadContent?(path: string, cb: (key: string | undefined, bytes: Uint8Array | undefined) => void): void;
  /**
   * Optional: up to `limit` file records in key order after path `after` (null: from the
   * first), for a storage that reads a store a page at a time (the streamed export; without
   * it, one `getSubtree("")`).
   */
  getFilesAfter?(after: string | null, limit: number, cb: (records: FileRecord[]) => void): void;
  /**
   * Optional: the contents stored under `ids`, in their order (undefined where none), for a
   * storage that reads many at once faster than one by one (the streamed export's chunks).
   */
  getContents?(ids: string[], cb: (values: Array<Uint8Array | undefined>) => void): void;
  /** The record whose memory id is `id` (the `id` index), or null. */
  getFileById(id: string, cb: (record: FileRecord | null) => void): void;
  /** The version record `id`, or null. */
  getVersion(id: string, cb: (record: VersionRecord | null) => void): void;
  /**
   * Up to `limit` version records, newest (highest id) first; only of memory `memoryId` if
   * not null; only ids below `below` if not null.
   */
  getVersionsDesc(
    memoryId: string | null,
    below: string | null,
    limit: number,
    cb: (records: VersionRecord[]) => void,
  ): void;
  /** Every version record with id below `id`, oldest first. */
  getVersionsBelow(id: string, cb: (records: VersionRecord[]) => void): void;
  /** Optional: up to `limit` versions in id order after `after` (null: the first on); the streamed export's pages of history. */
  getVersionsAfter?(after: string | null, limit: number, cb: (records: VersionRecord[]) => void): void;
  /**
   * Every version record of memory `memoryId`, oldest first (the history budget,
   * docs/TOOL.md#history-budget). Optional: without it, `getVersionsDesc` answers.
   */
  getHistory?(memoryId: string, cb: (records: VersionRecord[]) => void): void;
  /** The ids of the versions whose `content` is `key`. */
  getVersionIdsWithContent(key: string, cb: (ids: string[]) => void): void;
  /**
   * The highest version id the store has held, or null: a deleted version's id still counts,
   * so the ids of later versions stay above every id ever given out.
   */
  getNewestVersionId(cb: (id: string | null) => void): void;
  /** Every version id. */
  getVersionIds(cb: (ids: string[]) => void): void;
  /**
   * Puts a file record. `previousSize` is the size of the record it replaces at that path,
   * or null when none was there (what a storage that keeps derived keys, like IndexedDB's
   * listing, needs without a read).
   */
  putFile(record: FileRecord, previousSize: number | null): void;
  /**
   * Deletes the file record at `path`, of `size` bytes. `tree` is set when the command
   * deletes every file below that directory key (a directory delete or rename), so a
   * storage may drop what it derives for the whole directory at once.
   */
  deleteFile(path: string, size: number, tree?: string): void;
  putContent(id: string, bytes: Uint8Array): void;
  deleteContent(id: string): void;
  putVersion(record: VersionRecord): void;
  deleteVersion(id: string): void;
  /**
   * Optional: called after a command's last write, so a storage that keeps derived records
   * (IndexedDB's store metadata: file count, bytes, newest version id) writes them once.
   * `putNothing`: the transaction only deletes, and must put no record at all (a delete at
   * full quota, docs/TOOL.md#delete-at-full-quota): drop the derived records rather than
   * write them, and count them again later.
   */
  finish?(options?: { putNothing?: boolean }): void;
  /** Optional (required by `MemoryTool.usage`): the file count and the bytes of the files. */
  getUsage?(cb: (usage: { files: number; bytes: number }) => void): void;
  /**
   * Optional: whether the store is archived (every write refused with `ARCHIVED`, however it
   * was opened). A storage without it is never archived in itself; mounts still refuse.
   */
  isArchived?(cb: (yes: boolean) => void): void;
  /** Optional: marks the store archived at `at` (epoch ms), for good (`MemoryStores.archive`). */
  setArchived?(at: number): void;
  /**
   * Optional (required by `MemoryTool.state`): the host's per-store state under `name`, or
   * undefined. Values are JSON data.
   */
  getState?(name: string, cb: (value: unknown) => void): void;
  /** Optional (required by `MemoryTool.state`): stores `value` under `name`. */
  putState?(name: string, value: unknown): void;
  /** Optional (required by `MemoryTool.state`): deletes the state under `name`. */
  deleteState?(name: string): void;
  /**
   * Optional: what the store remembers of the time, as `putClock` left it, or undefined
   * (docs/TOOL.md#a-clock-that-can-be-trusted). Without it every open acts as a store's first.
   */
  getClock?(cb: (clock: unknown) => void): void;
  /** Optional: stores what the store remembers of the time. */
  putClock?(clock: { seen: number; acting: number }): void;
}

/** Options of `IndexedDbStorage`. */
export interface IndexedDbStorageOptions {
  /** Database name prefix; the database is `dbPrefix + store`. Default `"memory-tool-wasm:"`. */
  dbPrefix?: string;
  /** The IndexedDB factory. Default `globalThis.indexedDB`. */
  indexedDB?: GlobalType<"IDBFactory">;
  /** The `IDBKeyRange` class that goes with `indexedDB`. Default `globalThis.IDBKeyRange`. */
  IDBKeyRange?: GlobalClass<"IDBKeyRange">;
  /**
   * Transaction durability. Default `"default"` (the browser's choice): a committed command
   * survives reloads and other tabs see it; `"strict"` also waits for the disk flush.
   */
  durability?: "default" | "strict" | "relaxed";
}

/**
 * Storage in the page's IndexedDB: one database per store (schema version 3: `files`,
 * `contents`, `versions`, `listing`; older databases are upgraded in place on open), one
 * transaction per command. Change events cross tabs and workers on the BroadcastChannel
 * named like the database (`dbPrefix + store`).
 */
export class IndexedDbStorage implements MemoryStorage {
  constructor(options?: IndexedDbStorageOptions);
  open(store: string): Promise<StoreHandle>;
  /**
   * Deletes the store's database. Handles of this context open on it are closed for good;
   * rejects with `STORAGE_FAILED` if another tab holds it open with an old version of the
   * package (it is deleted once that tab lets go).
   */
  destroy(store: string): Promise<void>;
  /**
   * After `STORE_VANISHED` (the store's database, which held memories, was deleted outside
   * this package): lets the next open or command create it again, empty. Import a backup or
   * sync again afterwards.
   */
  startOver(store: string): Promise<void>;
}

/**
 * The folder a store named `name` mounts at, `/memories/<slug>/` (docs/TOOL.md#stores-and-slugs):
 * letters and digits of any script, lowercased, other runs as one `-`; empty when the name has
 * no letter or digit. Needs the core: throws `NOT_READY` before a `MemoryTool` or
 * `MemoryStores` has opened.
 */
export function slugOf(name: string): string;

/**
 * `bytes` as directory listings write a size (docs/TOOL.md#sizes): `44B`, `1.0K`, `1.2M`.
 * Needs the core: throws `NOT_READY` before a `MemoryTool` or `MemoryStores` has opened.
 */
export function formatSize(bytes: number): string;

/**
 * Storage in plain Maps (Node, workers, tests): `KeyValueStorage` over a sorted map. Stores
 * opened from one instance share its data; it lives as long as the instance. Change events
 * stay in this context.
 */
export class InMemoryStorage implements MemoryStorage {
  constructor();
  open(store: string): Promise<StoreHandle>;
  /** Drops the store's data; handles open on it refuse later transactions. */
  destroy(store: string): Promise<void>;
}

/**
 * A key-value store of your own, for `KeyValueStorage` (docs/STORAGE.md): opens named
 * stores of string keys.
 */
export interface KeyValueBackend {
  /** Opens (or creates) the named store; resolves when ready. */
  open(name: string): Promise<KeyValueStore>;
  /**
   * Optional: drops the named store and all its keys. Without it, `KeyValueStorage.destroy`
   * deletes every key of the store in one transaction.
   */
  destroy?(name: string): Promise<void>;
}

/** One open store of a `KeyValueBackend`. */
export interface KeyValueStore {
  /**
   * Runs `body` inside one transaction (docs/STORAGE.md#transactions): requests made in
   * `body` or in a callback of one of its requests belong to it, run in the order made, and
   * their callbacks come in that order; a read sees every earlier write of the transaction.
   * Resolves once every request and callback is done and the writes are committed. If `body`
   * or a callback throws, or a request fails, no write of the transaction stays, and the
   * promise rejects with that error. Transactions of one store do not interleave their effects.
   */
  transaction(mode: TransactionMode, body: (tx: KeyValueTx) => void): Promise<void>;
  close(): void;
  /** Optional: where change events go (see `StoreHandle.eventScope`). */
  readonly eventScope?: EventScope;
}

/**
 * The five requests of a key-value transaction. Keys are strings, ordered by UTF-16 code
 * units (JavaScript's `<`, IndexedDB's order). Values are what the package puts: plain JSON
 * data and `Uint8Array`s; a read gives back an equal value. Callbacks may run synchronously
 * or later.
 */
export interface KeyValueTx {
  /** The value under `key`, or undefined. */
  get(key: string, cb: (value: unknown) => void): void;
  /**
   * The entries with key in `[lower, upper)`, in key order (highest first with `reverse`), at
   * most `limit` of them; `[key, value]` each.
   */
  getRange(
    lower: string,
    upper: string,
    options: { limit?: number; reverse?: boolean },
    cb: (entries: Array<[string, unknown]>) => void,
  ): void;
  /** Stores `value` under `key`. Throws in a readonly transaction. */
  put(key: string, value: unknown): void;
  /** Deletes the value under `key`, if any. */
  delete(key: string): void;
  /** Deletes every key in `[lower, upper)`. */
  deleteRange(lower: string, upper: string): void;
}

/**
 * The storage interface over a key-value store of your own: five requests to write
 * (docs/STORAGE.md), every index, figure and listing the core reads kept by this class as
 * ordinary keys, in the same transaction as the change they follow.
 */
export class KeyValueStorage implements MemoryStorage {
  constructor(backend: KeyValueBackend);
  open(store: string): Promise<StoreHandle>;
  /**
   * The backend's `destroy`, else every key of the store deleted; handles this storage
   * opened on it refuse later transactions.
   */
  destroy(store: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Named stores (the registry that `MemoryTool.open({ mounts })` mounts from)

/** A store's own limits; `null`: the tool's (or the default). */
export interface MemoryStoreLimits {
  max_file_bytes: number | null;
  max_files: number | null;
  /** The store's own history budget (docs/TOOL.md#history-budget); present only when set. */
  max_versions_per_memory?: number;
  max_history_bytes_per_memory?: number;
}

/** A named store (the memory stores API's `memory_store`). */
export interface MemoryStore {
  type: "memory_store";
  /** `memstore_…`; also the name of the store in the storage (its IndexedDB database). */
  id: string;
  name: string;
  description: string;
  /** Its folder with several mounts: `/memories/<slug>/` ("Demo Memory" → `demo-memory`). */
  slug: string;
  created_at: Rfc3339;
  updated_at: Rfc3339;
  /** Set once archived: read-only for good. */
  archived_at: Rfc3339 | null;
  limits: MemoryStoreLimits;
}

/**
 * Limits to set, named as the store's record names them (`MemoryStore["limits"]`, so a store's
 * limits can be passed back as they are); `null` goes back to the default. The camelCase names
 * of `MemoryTool.open({ limits })` are refused here, with a message naming the right one.
 */
export interface MemoryStoreLimitsInput {
  max_file_bytes?: number | null;
  max_files?: number | null;
  /** The history budget (docs/TOOL.md#history-budget): at least 1. */
  max_versions_per_memory?: number | null;
  max_history_bytes_per_memory?: number | null;
}

/** `MemoryStores.create` parameters. */
export interface CreateStoreParams {
  /** 1 to 255 characters, with a letter or digit (it makes the slug). */
  name: string;
  /** At most 4,096 characters; shown to the model by `systemPrompt()`. */
  description?: string;
  limits?: MemoryStoreLimitsInput;
}

/** `MemoryStores.update` fields: any of a create's. */
export type UpdateStoreParams = Partial<CreateStoreParams>;

/** `MemoryStores.list` options. */
export interface ListStoresOptions {
  /** Include archived stores. Default false. */
  includeArchived?: boolean;
}

/** What `MemoryStores.delete` resolves to. */
export interface MemoryStoreDeleted {
  type: "memory_store_deleted";
  id: string;
}

/** Options of `MemoryStores.open`. */
export interface MemoryStoresOptions {
  /**
   * `"indexeddb"`, `"memory"` or a storage object: the same one the `MemoryTool.open` calls
   * that mount its stores are given. Default: `"indexeddb"` where it exists, else `"memory"`.
   */
  storage?: "indexeddb" | "memory" | MemoryStorage;
  /** Where the core's .wasm comes from: see `WasmSource`. */
  wasm?: WasmSource;
}

/**
 * The registry of named stores of a storage (kept in its store `"__stores__"`). Methods throw
 * `MemoryToolError`s with the core's codes (`NOT_FOUND`, `ARCHIVED`, `INVALID_INPUT`, …).
 */
export class MemoryStores {
  private constructor();
  static open(options?: MemoryStoresOptions): Promise<MemoryStores>;
  /** Creates a store; its id is `memstore_…`. */
  create(params: CreateStoreParams): Promise<MemoryStore>;
  /** The stores, oldest first; archived ones only with `includeArchived`. */
  list(options?: ListStoresOptions): Promise<MemoryStore[]>;
  /** `NOT_FOUND` if no store has the id. */
  get(id: string): Promise<MemoryStore>;
  /** `ARCHIVED` once archived. */
  update(id: string, fields: UpdateStoreParams): Promise<MemoryStore>;
  /** Read-only for good: mountable `read_only` only; archiving again changes nothing. */
  archive(id: string): Promise<MemoryStore>;
  /**
   * Deletes the store's record, then its data (every memory and version: `storage.destroy`).
   * MemoryTools of this context that have it open fail from then on.
   */
  delete(id: string): Promise<MemoryStoreDeleted>;
  /** Closes the registry; later calls throw. */
  close(): void;
}
