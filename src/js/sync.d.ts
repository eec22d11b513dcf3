// Type declarations for memory-tool-wasm/sync (hand-written; sync.js beside them is the code).

import type { MemoryTool } from "./index.js";

/**
 * The part of the official SDK client (`new Anthropic({ … })` from `@anthropic-ai/sdk`) that
 * sync uses: `beta.memoryStores` (structural, so the SDK stays an optional peer dependency).
 */
export interface MemoryStoresClient {
  beta: {
    memoryStores: {
      retrieve(memoryStoreId: string, params?: object, options?: object): PromiseLike<unknown>;
      memories: {
        list(memoryStoreId: string, params?: object, options?: object): PromiseLike<unknown>;
        retrieve(memoryId: string, params: object, options?: object): PromiseLike<unknown>;
        create(memoryStoreId: string, params: object, options?: object): PromiseLike<unknown>;
        update(memoryId: string, params: object, options?: object): PromiseLike<unknown>;
        delete(memoryId: string, params: object, options?: object): PromiseLike<unknown>;
      };
    };
  };
}

/** Options of `MemorySync.start`. */
export interface MemorySyncOptions {
  /** The SDK client: with the key (`dangerouslyAllowBrowser`), or `baseURL` of the app's own proxy. */
  client: MemoryStoresClient;
  /** The hosted store (`memstore_…`). */
  memoryStoreId: string;
  /** Default `"read_write"`. `"read_only"`: pull, never push or delete on the hosted side. */
  access?: "read_write" | "read_only";
  /** Which mount of the tool (id or slug). Default: the first. Each mount may have its own sync. */
  store?: string;
  /** At most one pass per interval after local changes. Default 15,000 ms. */
  intervalMs?: number;
  /** How often to look for hosted changes when nothing happens here. Default 60,000 ms (at least `intervalMs`). */
  pollMs?: number;
  /** How long a local delete must last (and a second pass see it) before the hosted delete. Default 30,000 ms. */
  deleteCorroborationMs?: number;
  /** The bound on `stop()`'s last pass. Default 30,000 ms. */
  stopTimeoutMs?: number;
  /** Retries of one request: attempts in all (default 4), backoff base and cap (500 ms, 30 s). */
  retry?: { attempts?: number; baseMs?: number; maxMs?: number };
}

/** What one pass did, by path. */
export interface SyncResult {
  /** False when the pass failed (see `error`) or was skipped. */
  ok: boolean;
  /** Why the pass did not run: `"standby"` (another tab syncs this store) or `"stopped"`. */
  skipped?: "standby" | "stopped";
  /** Why the pass failed (`"offline"`, or the request's error), else null. */
  error: string | null;
  /** Written here from the hosted store. */
  pulled: string[];
  /** Written to the hosted store from here. */
  pushed: string[];
  /** Deleted here because the hosted store deleted them. */
  deletedLocal: string[];
  /** Deleted on the hosted store after a corroborated local delete. */
  deletedHosted: string[];
  conflicts: SyncConflict[];
  /** Refused this pass (each reported once until the file changes). */
  refused: SyncRefusal[];
  /**
   * Memories whose fetch, push or delete failed this pass while the rest went on; retried next
   * pass (a hosted memory that fails three passes in a row with one text is then refused until
   * it changes).
   */
  failed: SyncFailure[];
  /** The local store was found wiped and downloaded again. */
  wiped: boolean;
  /**
   * The hosted store read empty, or lost more of the baseline than a pass may delete: no local
   * delete until a later pass, at least `deleteCorroborationMs` on, sees the same
   * (docs/SYNC.md#wipes).
   */
  suspectedWipe: boolean;
  /** Requests sent to the hosted store (retries included). */
  requests: number;
}

/** Both sides changed a memory: the hosted text is the head; the local one stays in its history. */
export interface SyncConflict {
  path: string;
  /** The local version holding the text that lost (restorable with `versions.restore`). */
  local_version_id: string | null;
  local_content_sha256: string;
  /** The hosted version now the head here too. */
  hosted_version_id: string;
  hosted_content_sha256: string;
}

/** A file one side refuses: `"hosted"` (not pushed) or `"local"` (not pulled). */
export interface SyncRefusal {
  side: "hosted" | "local";
  path: string;
  content_sha256: string;
  reason: string;
  /** The hosted answer's HTTP status, when a request was refused. */
  status?: number;
}

/** One memory a pass could not move. */
export interface SyncFailure {
  /** Where it failed: `"local"` for a pull (the hosted memory could not be fetched or believed), `"hosted"` for a push or delete. */
  side: "hosted" | "local";
  path: string;
  reason: string;
}

/**
 * The lifecycle: `held` is `idle` with local deletes held back by a suspected hosted wipe.
 */
export type SyncLifecycle = "idle" | "syncing" | "held" | "offline" | "error" | "standby" | "stopped";
/** @deprecated The old name of `SyncLifecycle`. */
export type SyncState = SyncLifecycle;

/** What `status` shows. */
export interface SyncStatus {
  state: SyncLifecycle;
  /** Whether this tab holds the syncing role for the store. */
  leader: boolean;
  /** The end of the last pass that succeeded (RFC 3339), or null. */
  lastSyncAt: string | null;
  lastError: string | null;
  /** What the last pass left to do: local changes to push, hosted ones to pull, deletes waiting. */
  pending: { push: number; pull: number; delete: number };
  /** The hosted store is archived: nothing is pushed. */
  hostedArchived: boolean;
  /** A suspected hosted wipe holding local deletes back, since when, or null. */
  suspectedWipe: { since: string; hostedCount: number; missing: number } | null;
}

export type SyncEvent =
  | { type: "status"; status: SyncStatus }
  | { type: "progress"; phase: "pull"; done: number; total: number }
  | ({ type: "conflict"; memoryStoreId: string } & SyncConflict)
  | ({ type: "refused"; memoryStoreId: string } & SyncRefusal)
  | { type: "wipe"; memoryStoreId: string; hostedCount: number }
  | { type: "suspected_wipe"; memoryStoreId: string; hostedCount: number; missing: number }
  | { type: "pass"; result: SyncResult };

/** The error `start` throws for bad options (`code: "INVALID_OPTIONS"`). */
export class MemorySyncError extends Error {
  constructor(code: string, message: string);
  readonly name: "MemorySyncError";
  code: string;
}

/** Keeps one local store in step with one hosted memory store (docs/SYNC.md). */
export class MemorySync {
  private constructor();
  /**
   * Starts syncing; resolves once this tab holds the syncing role for the store, or has queued
   * for it (`status.state === "standby"`). Throws `MemorySyncError` for bad options.
   */
  static start(memory: MemoryTool, options: MemorySyncOptions): Promise<MemorySync>;
  readonly memoryStoreId: string;
  /** A fresh copy of the status. */
  readonly status: SyncStatus;
  /** One pass now (after the running one); resolves with what it did. */
  now(): Promise<SyncResult>;
  /** Hears status changes, progress, conflicts, refusals, wipes and passes; returns the unsubscribe. */
  subscribe(listener: (event: SyncEvent) => void): () => void;
  /** A last pass bounded by `stopTimeoutMs`, then gives up the role; null when not the syncing tab. */
  stop(): Promise<SyncResult | null>;
}
