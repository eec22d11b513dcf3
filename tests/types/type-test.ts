// The hand-written declarations (src/js/index.d.ts, src/js/anthropic.d.ts, src/js/ai-sdk.d.ts) against the code they
// describe (src/js, typed by its JSDoc), in both directions: this file does not compile when
// the two drift apart. `tsc -p tests/types/tsconfig.json` checks it (the test command's
// typecheck step); it is never run.

import type * as Declared from "../../src/js/index.js";
import type * as DeclaredAnthropic from "../../src/js/anthropic.js";
import type * as Code from "#implementation/index.js";
import type * as CodeAnthropic from "#implementation/anthropic.js";
import type * as DeclaredAiSdk from "../../src/js/ai-sdk.js";
import type * as CodeAiSdk from "#implementation/ai-sdk.js";
import type * as DeclaredContract from "../../src/js/storage-contract.js";
import type * as CodeContract from "#implementation/storage-contract.js";
import type { LIMIT_NAMES, MOUNT_OPTION_NAMES, OPTION_NAMES } from "../../src/js/options.js";
import type { FIELD_NAMES, STORE_LIMIT_NAMES } from "../../src/js/memory-stores.js";

import { both, identity, same, type Drift, type MembersWithAny, type Statics } from "./drift.js";

// The entries export the same values.
same<keyof typeof Code, keyof typeof Declared>(both);
same<keyof typeof CodeAnthropic, keyof typeof DeclaredAnthropic>(both);
same<keyof typeof CodeAiSdk, keyof typeof DeclaredAiSdk>(both);
same<keyof typeof CodeContract, keyof typeof DeclaredContract>(both);

// Nothing the code exposes takes or gives `any`.
same<MembersWithAny<Code.MemoryTool>, never>(both);
same<MembersWithAny<typeof Code.MemoryTool>, never>(both);
same<MembersWithAny<Code.MemoryStores>, never>(both);
same<MembersWithAny<typeof Code.MemoryStores>, never>(both);
same<MembersWithAny<Code.MemoryToolError>, never>(both);
same<MembersWithAny<Code.IndexedDbStorage>, never>(both);
same<MembersWithAny<Code.InMemoryStorage>, never>(both);
same<MembersWithAny<typeof CodeAnthropic>, never>(both);

// MemoryTool and MemoryStores: their members, and `open` (what it takes; it gives the class,
// whose members are compared: the code's class and the declared one are never one type,
// since private `#fields` make a class nominal).
same<Drift<Code.MemoryTool, Declared.MemoryTool>, never>(both);
same<Drift<Statics<typeof Code.MemoryTool>, Statics<typeof Declared.MemoryTool>>, "open">(both);
same<Parameters<typeof Code.MemoryTool.open>, Parameters<typeof Declared.MemoryTool.open>>(both);
same<ReturnType<typeof Code.MemoryTool.open>, Promise<Code.MemoryTool>>(both);
same<ReturnType<typeof Declared.MemoryTool.open>, Promise<Declared.MemoryTool>>(both);
same<Parameters<typeof Code.MemoryTool.preload>, Parameters<typeof Declared.MemoryTool.preload>>(both);
same<ReturnType<typeof Code.MemoryTool.preload>, ReturnType<typeof Declared.MemoryTool.preload>>(both);
same<Drift<Code.MemoryStores, Declared.MemoryStores>, never>(both);
same<Drift<Statics<typeof Code.MemoryStores>, Statics<typeof Declared.MemoryStores>>, "open">(both);
same<Parameters<typeof Code.MemoryStores.open>, Parameters<typeof Declared.MemoryStores.open>>(both);
same<ReturnType<typeof Code.MemoryStores.open>, Promise<Code.MemoryStores>>(both);
same<ReturnType<typeof Declared.MemoryStores.open>, Promise<Declared.MemoryStores>>(both);

// MemoryToolError: its members and its constructor. The details are copied onto an error at
// run time, where JavaScript has no optional property: `detail` and each detail property are
// compared as what reading them gives.
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type Details = "detail" | NamedKeys<Declared.MemoryToolErrorDetail>;
same<Drift<Omit<Code.MemoryToolError, Details>, Omit<Declared.MemoryToolError, Details>>, never>(both);
same<Extract<keyof Omit<Declared.MemoryToolError, Details>, "code" | "name">, "code" | "name">(both); // (not vacuous)
same<Code.MemoryToolError["detail"], Declared.MemoryToolError["detail"]>(both);
same<ConstructorParameters<typeof Code.MemoryToolError>, ConstructorParameters<typeof Declared.MemoryToolError>>(both);

// The storages: their members and constructors; each is a MemoryStorage.
same<Drift<Code.IndexedDbStorage, Declared.IndexedDbStorage>, never>(both);
same<ConstructorParameters<typeof Code.IndexedDbStorage>, ConstructorParameters<typeof Declared.IndexedDbStorage>>(both);
same<Drift<Code.InMemoryStorage, Declared.InMemoryStorage>, never>(both);
same<ConstructorParameters<typeof Code.InMemoryStorage>, ConstructorParameters<typeof Declared.InMemoryStorage>>(both);
identity<Declared.MemoryStorage>(null as unknown as Code.IndexedDbStorage);
identity<Declared.MemoryStorage>(null as unknown as Code.InMemoryStorage);
same<Drift<Code.KeyValueStorage, Declared.KeyValueStorage>, never>(both);
same<ConstructorParameters<typeof Code.KeyValueStorage>, ConstructorParameters<typeof Declared.KeyValueStorage>>(both);
identity<Declared.MemoryStorage>(null as unknown as Code.KeyValueStorage);
same<MembersWithAny<Code.KeyValueStorage>, never>(both);

// The storage contract's suite: what it takes and gives.
same<ReturnType<typeof CodeContract.keyValueContract>, ReturnType<typeof DeclaredContract.keyValueContract>>(both);
same<Parameters<typeof CodeContract.keyValueContract>[0], Parameters<typeof DeclaredContract.keyValueContract>[0]>(both);
same<Parameters<typeof CodeContract.storageContract>[0], Parameters<typeof DeclaredContract.storageContract>[0]>(both);
same<Parameters<typeof CodeContract.keyValueContract>[1], Parameters<typeof DeclaredContract.keyValueContract>[1]>(both);

// The anthropic entry's functions.
same<Drift<typeof CodeAnthropic, typeof DeclaredAnthropic>, never>(both);
// The AI SDK entry's functions.
same<Drift<typeof CodeAiSdk, typeof DeclaredAiSdk>, never>(both);

// The options the code accepts (it refuses any other name) are the ones declared.
same<(typeof OPTION_NAMES)[number], keyof Declared.MemoryToolOptions>(both);
same<(typeof MOUNT_OPTION_NAMES)[number], keyof Declared.MountOptions>(both);
same<(typeof LIMIT_NAMES)[number], keyof NonNullable<Declared.MemoryToolOptions["limits"]>>(both);
same<(typeof FIELD_NAMES)[number], keyof Declared.CreateStoreParams>(both);
same<(typeof STORE_LIMIT_NAMES)[number], keyof Declared.MemoryStoreLimitsInput>(both);

// With the DOM lib, `exportBlob` resolves to the platform's Blob (a download or an upload takes it).
export const exportsABlob: (memory: Declared.MemoryTool) => Promise<Blob> = (memory) => memory.exportBlob();
