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

/** The `tool_result` block to send back in the next user message. */
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: ToolResultContent;
  /** Present (and true) only for errors. */
  is_error?: true;
}

/** Any content block of a message; `runAll` picks the memory `tool_use` blocks. */
export interface ContentBlockLike {
  type: string;
  [key: string]: unknown;
}

/** An assistant message, as the Messages API returns it. */
export interface AssistantMessage {
  role?: string;
  content: string | ReadonlyArray<ContentBlockLike>;
  [key: string]: unknown;
}

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
  | "QUOTA_EXCEEDED"
  | "STORAGE_FAILED"
  | "INVALID_OPTIONS"
  | "INVALID_TOOL_USE";

/** The error host-facing calls throw: a stable `code` and a message. */
export class MemoryToolError extends Error {
  constructor(code: string, message: string, options?: { cause?: unknown });
  readonly name: "MemoryToolError";
  /** One of `MemoryToolErrorCode`. */
  code: MemoryToolErrorCode | (string & {});
}

/** Whether the model may write. */
export type MemoryAccess = "read_write" | "read_only";

/** Options of `MemoryTool.open`. */
export interface MemoryToolOptions {
  /** The store's name (one IndexedDB database per store). Default `"memories"`. */
  store?: string;
  /**
   * Where files live: `"indexeddb"`, `"memory"` (a fresh `InMemoryStorage`), or a storage
   * object. Default: `"indexeddb"` where `indexedDB` exists, else `"memory"`.
   */
  storage?: "indexeddb" | "memory" | MemoryStorage;
  /** Default `"read_write"`. With `"read_only"` every writing command is refused. */
  access?: MemoryAccess;
  limits?: {
    /** Largest file, in bytes. Default 102,400. */
    maxFileBytes?: number;
    /** Most files in the store. Default 10,000. */
    maxFiles?: number;
  };
  /** Longest file view, in characters (code points) of numbered lines. Default 16,000; at least 100. */
  maxViewChars?: number;
  /** Let `create` overwrite an existing file instead of answering an error. Default false. */
  createOverwrites?: boolean;
}

/** What `execute` resolves to. `code` is set on errors. */
export interface ExecuteResult {
  content: ToolResultContent;
  isError: boolean;
  code?: MemoryToolErrorCode;
}

/** Options of `memories.list`. */
export interface ListOptions {
  /** Only memories under this prefix; must end with `/`. */
  path_prefix?: string;
  /** 0 or omitted: the whole subtree; 1: direct children, deeper entries as prefixes. */
  depth?: 0 | 1;
}

/** A memory as `memories.list` reports it. */
export interface MemorySummary {
  type: "memory";
  id: string;
  path: string;
  content_sha256: string;
  content_size_bytes: number;
  created_at: string;
  updated_at: string;
}

/** A directory rolled up by `memories.list({ depth: 1 })`. */
export interface MemoryPrefix {
  type: "memory_prefix";
  path: string;
}

/** What `memories.list` resolves to: memories (and, with depth 1, prefixes) in path order. */
export type MemoryList = Array<MemorySummary | MemoryPrefix>;

/** Claude's memory tool (`memory_20250818`) over one store. */
export class MemoryTool {
  private constructor();
  /**
   * Opens the memory tool over a store. Rejects with `INVALID_OPTIONS` for bad options and
   * `STORAGE_FAILED` when the store cannot be opened.
   */
  static open(options?: MemoryToolOptions): Promise<MemoryTool>;
  /** `{ type: "memory_20250818", name: "memory" }` (a fresh object each time). */
  readonly toolParam: MemoryToolParam;
  /** The store's name. */
  readonly store: string;
  /** The access given at open. */
  readonly access: MemoryAccess;
  /**
   * Runs one tool input in one transaction; resolves after it committed. Never rejects for
   * the model's mistakes or storage failures: those are `isError` results.
   */
  execute(input: unknown): Promise<ExecuteResult>;
  /** Runs a memory `tool_use` block; throws `INVALID_TOOL_USE` for anything else. */
  run(toolUse: ToolUseBlock): Promise<ToolResultBlock>;
  /** Runs every memory `tool_use` block of a message, in order; results in the same order. */
  runAll(
    message: AssistantMessage | ReadonlyArray<ContentBlockLike>,
  ): Promise<ToolResultBlock[]>;
  /**
   * Creates or overwrites a file (a string is stored as UTF-8). Obeys paths, limits and
   * access; throws `MemoryToolError` with the core's code otherwise.
   */
  writeFile(path: string, content: string | Uint8Array | ArrayBuffer | ArrayBufferView): Promise<void>;
  /** Host-facing views of the store. */
  readonly memories: {
    /** Lists memories; throws `MemoryToolError` for bad options. */
    list(options?: ListOptions): Promise<MemoryList>;
  };
  /** Closes the store; commands already running finish, later calls throw. */
  close(): void;
}

// ---------------------------------------------------------------------------------------------
// Storage interface (docs/ARCHITECTURE.md): implement it for your own backend.

/** A file's metadata as stored; `path` is the key, times are epoch milliseconds. */
export interface FileRecord {
  path: string;
  id: string;
  size: number;
  sha256: string;
  createdAt: number;
  updatedAt: number;
}

export type TransactionMode = "readonly" | "readwrite";

/** A storage backend: opens named stores. */
export interface MemoryStorage {
  /** Opens (or creates) the named store; resolves when ready. */
  open(store: string): Promise<StoreHandle>;
}

/** An open store. */
export interface StoreHandle {
  /**
   * Runs `body` inside one transaction; resolves after commit, rejects after abort (with a
   * `MemoryToolError` for storage failures, or with what `body` or a callback threw).
   */
  transaction(mode: TransactionMode, body: (tx: StorageTx) => void): Promise<void>;
  close(): void;
}

/**
 * The requests of one transaction. Callbacks may run synchronously or later; the body must
 * not await anything else.
 */
export interface StorageTx {
  /** The record stored under `path`, or null. */
  getFile(path: string, cb: (record: FileRecord | null) => void): void;
  /** Every record with key in `[path + "/", path + "0")`, in key order. */
  getSubtree(path: string, cb: (records: FileRecord[]) => void): void;
  /** Whether any key lies in `[path + "/", path + "0")`. */
  hasChildren(path: string, cb: (yes: boolean) => void): void;
  /** The number of file records. */
  countFiles(cb: (n: number) => void): void;
  /** The content stored under `id`, or undefined. */
  getContent(id: string, cb: (bytes: Uint8Array | undefined) => void): void;
  putFile(record: FileRecord): void;
  deleteFile(path: string): void;
  putContent(id: string, bytes: Uint8Array): void;
  deleteContent(id: string): void;
}

/** Options of `IndexedDbStorage`. */
export interface IndexedDbStorageOptions {
  /** Database name prefix; the database is `dbPrefix + store`. Default `"memory-tool-wasm:"`. */
  dbPrefix?: string;
  /** The IndexedDB factory. Default `globalThis.indexedDB`. */
  indexedDB?: IDBFactory;
  /** The `IDBKeyRange` class that goes with `indexedDB`. Default `globalThis.IDBKeyRange`. */
  IDBKeyRange?: typeof IDBKeyRange;
  /**
   * Transaction durability. Default `"default"` (the browser's choice): a committed command
   * survives reloads and other tabs see it; `"strict"` also waits for the disk flush.
   */
  durability?: "default" | "strict" | "relaxed";
}

/** Storage in the page's IndexedDB: one database per store, one transaction per command. */
export class IndexedDbStorage implements MemoryStorage {
  constructor(options?: IndexedDbStorageOptions);
  open(store: string): Promise<StoreHandle>;
}

/**
 * Storage in plain Maps (Node, workers, tests). Stores opened from one instance share its
 * data; it lives as long as the instance.
 */
export class InMemoryStorage implements MemoryStorage {
  constructor();
  open(store: string): Promise<StoreHandle>;
}
