// The declarations of memory-tool-wasm/sync (src/js/sync.d.ts) against the code (src/js/sync.js,
// typed by its JSDoc), both ways, and against the official SDK's client: this file does not
// compile when they drift apart. `tsc -p tests/types/tsconfig.json` checks it; it is never run.

import Anthropic from "@anthropic-ai/sdk";
import * as Declared from "../../src/js/sync.js";
import type * as Code from "#implementation/sync.js";
import type { MemoryTool } from "../../src/js/index.js";

import { both, same, type Drift, type MembersWithAny, type Statics } from "./drift.js";

same<keyof typeof Code, keyof typeof Declared>(both);
same<Drift<Code.MemorySync, Declared.MemorySync>, never>(both);
// `start` takes the same (it gives each side's own class).
same<Parameters<typeof Code.MemorySync.start>, Parameters<typeof Declared.MemorySync.start>>(both);
same<Drift<Omit<Statics<typeof Code.MemorySync>, "start">, Omit<Statics<typeof Declared.MemorySync>, "start">>, never>(both);
same<Drift<Code.MemorySyncError, Declared.MemorySyncError>, never>(both);
same<MembersWithAny<Code.MemorySync>, never>(both);
same<MembersWithAny<Statics<typeof Code.MemorySync>>, never>(both);

// The official SDK's client is what `client` takes, in the browser and through a proxy.
declare const memory: MemoryTool;
async function usage(): Promise<void> {
  const client = new Anthropic({ apiKey: "k", dangerouslyAllowBrowser: true });
  const proxied = new Anthropic({ apiKey: null, baseURL: "https://app.example/anthropic" });
  const sync = await Declared.MemorySync.start(memory, {
    client,
    memoryStoreId: "memstore_x",
    access: "read_only",
    intervalMs: 15_000,
    deleteCorroborationMs: 30_000,
  });
  await Declared.MemorySync.start(memory, { client: proxied, memoryStoreId: "memstore_y", store: "notes" });
  const result: Declared.SyncResult = await sync.now();
  const paths: string[] = [...result.pulled, ...result.pushed, ...result.conflicts.map((c) => c.local_version_id ?? "")];
  void paths;
  const state: "idle" | "syncing" | "held" | "offline" | "error" | "standby" | "stopped" = sync.status.state;
  void state;
  const unsubscribe: () => void = sync.subscribe((event) => {
    if (event.type === "conflict") void event.hosted_version_id;
    if (event.type === "refused") void event.reason;
  });
  unsubscribe();
  // @ts-expect-error: access is read_write or read_only
  await Declared.MemorySync.start(memory, { client, memoryStoreId: "m", access: "write" });
  // @ts-expect-error: a client is required
  await Declared.MemorySync.start(memory, { memoryStoreId: "m" });
  await sync.stop();
}
void usage;
