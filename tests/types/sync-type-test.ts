// The declarations of memory-tool-wasm/sync (src/js/sync.d.ts) against the code (src/js/sync.js,
// typed by its JSDoc), both ways, and against the official SDK's client: this file does not
// compile when they drift apart. `tsc -p tests/types/tsconfig.json` checks it; it is never run.

import Anthropic from "@anthropic-ai/sdk";
import * as Declared from "../../src/js/sync.js";
import type * as Code from "#implementation/sync.js";
import type { MemoryTool } from "../../src/js/index.js";

type Signature<F> = F extends (...args: infer P) => infer R ? { takes: P; gives: R } : F;
type Mutual<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;
/** The members of `A` and `B` that differ: on one side only, or taking or giving other types. */
type Drift<A, B> = {
  [K in keyof A | keyof B]: K extends keyof A
    ? K extends keyof B
      ? Mutual<Signature<A[K]>, Signature<B[K]>> extends true
        ? never
        : K
      : K
    : K;
}[keyof A | keyof B];
type IsAny<T> = 0 extends 1 & T ? true : false;
type MembersWithAny<T> = {
  [K in keyof T]-?: IsAny<T[K]> extends true
    ? K
    : T[K] extends (...args: infer P) => infer R
      ? true extends IsAny<Awaited<R>> | { [I in keyof P]: IsAny<P[I]> }[number]
        ? K
        : never
      : never;
}[keyof T];
type Statics<C> = Omit<C, "prototype">;
function same<A, B>(check: { codeIsDeclared: (code: A) => B; declaredIsCode: (declared: B) => A }): void {
  void check;
}
const identity = <T>(value: T) => value;
const both = { codeIsDeclared: identity, declaredIsCode: identity };

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
  const state: "idle" | "syncing" | "offline" | "error" | "standby" | "stopped" = sync.status.state;
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
