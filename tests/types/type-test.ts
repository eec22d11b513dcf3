// The hand-written declarations (src/js/index.d.ts, src/js/anthropic.d.ts) against the code they
// describe (src/js, typed by its JSDoc), in both directions: this file does not compile when
// the two drift apart. `tsc -p tests/types/tsconfig.json` checks it (the test command's
// typecheck step); it is never run.

import type * as Declared from "../../src/js/index.js";
import type * as DeclaredAnthropic from "../../src/js/anthropic.js";
import type * as Code from "#implementation/index.js";
import type * as CodeAnthropic from "#implementation/anthropic.js";
import type { LIMIT_NAMES, MOUNT_OPTION_NAMES, OPTION_NAMES } from "../../src/js/options.js";
import type { FIELD_NAMES, LIMIT_ALIASES } from "../../src/js/memory-stores.js";

/** A method as what it takes and what it gives, compared as values (not bivariantly). */
type Signature<F> = F extends (...args: infer P) => infer R ? { takes: P; gives: R } : F;
/** A type's members, each method as its `Signature`. */
type Surface<T> = { [K in keyof T]: Signature<T[K]> };
/**
 * A class's static side (without the prototype), each `open` giving the `Surface` of what it
 * opens: the code's class and the declared one are never the same type (private `#fields`
 * make a class nominal), only the same shape.
 */
type Statics<C> = { [K in keyof Omit<C, "prototype">]: Opener<C[K]> };
type Opener<F> = F extends (...args: infer P) => Promise<infer R> ? { takes: P; gives: Surface<R> } : Signature<F>;

/**
 * Compiles only when `A` and `B` are each assignable to the other; otherwise tsc says which
 * member differs, and how.
 */
type Both<A, B> = { codeIsDeclared: (code: A) => B; declaredIsCode: (declared: B) => A };
function same<A, B>(check: Both<A, B>): void {
  void check;
}
const identity = <T>(value: T) => value;
const both = { codeIsDeclared: identity, declaredIsCode: identity };

/**
 * The members of `T` that take or give `any` (which is assignable both ways to anything, so
 * would pass every check here): must be none on the code's side.
 */
type MembersWithAny<T> = {
  [K in keyof T]-?: IsAny<T[K]> extends true
    ? K
    : T[K] extends (...args: infer P) => infer R
      ? true extends IsAny<Awaited<R>> | { [I in keyof P]: IsAny<P[I]> }[number] ? K : never
      : never;
}[keyof T];
type IsAny<T> = 0 extends 1 & T ? true : false;

// Nothing the code exposes is typed `any`.
same<MembersWithAny<Code.MemoryTool>, never>(both);
same<MembersWithAny<typeof Code.MemoryTool>, never>(both);
same<MembersWithAny<Code.MemoryStores>, never>(both);
same<MembersWithAny<typeof Code.MemoryStores>, never>(both);
same<MembersWithAny<Code.MemoryToolError>, never>(both);
same<MembersWithAny<Code.IndexedDbStorage>, never>(both);
same<MembersWithAny<Code.InMemoryStorage>, never>(both);
same<MembersWithAny<typeof CodeAnthropic>, never>(both);

// The entries export the same values.
same<keyof typeof Code, keyof typeof Declared>(both);
same<keyof typeof CodeAnthropic, keyof typeof DeclaredAnthropic>(both);

// MemoryTool: its members and `open`.
same<Surface<Code.MemoryTool>, Surface<Declared.MemoryTool>>(both);
same<Statics<typeof Code.MemoryTool>, Statics<typeof Declared.MemoryTool>>(both);

// MemoryStores: its members and `open`.
same<Surface<Code.MemoryStores>, Surface<Declared.MemoryStores>>(both);
same<Statics<typeof Code.MemoryStores>, Statics<typeof Declared.MemoryStores>>(both);

// MemoryToolError: its members and its constructor. The details are copied onto an error at
// run time, where JavaScript has no optional property: `detail` and each detail property are
// compared as what reading them gives.
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type Details = "detail" | NamedKeys<Declared.MemoryToolErrorDetail>;
// (Not nothing: the rest is compared member by member.)
same<Extract<keyof Omit<Declared.MemoryToolError, Details>, "code" | "name">, "code" | "name">(both);
same<Surface<Omit<Code.MemoryToolError, Details>>, Surface<Omit<Declared.MemoryToolError, Details>>>(both);
same<Code.MemoryToolError["detail"], Declared.MemoryToolError["detail"]>(both);
same<ConstructorParameters<typeof Code.MemoryToolError>, ConstructorParameters<typeof Declared.MemoryToolError>>(both);

// The storages: their members and constructors; each is a MemoryStorage.
same<Surface<Code.IndexedDbStorage>, Surface<Declared.IndexedDbStorage>>(both);
same<ConstructorParameters<typeof Code.IndexedDbStorage>, ConstructorParameters<typeof Declared.IndexedDbStorage>>(both);
same<Surface<Code.InMemoryStorage>, Surface<Declared.InMemoryStorage>>(both);
same<ConstructorParameters<typeof Code.InMemoryStorage>, ConstructorParameters<typeof Declared.InMemoryStorage>>(both);
identity<Declared.MemoryStorage>(null as unknown as Code.IndexedDbStorage);
identity<Declared.MemoryStorage>(null as unknown as Code.InMemoryStorage);

// The anthropic entry's functions.
same<Signature<typeof CodeAnthropic.memoryTool>, Signature<typeof DeclaredAnthropic.memoryTool>>(both);
same<Signature<typeof CodeAnthropic.sdkHandlers>, Signature<typeof DeclaredAnthropic.sdkHandlers>>(both);

// The options the code accepts (it refuses any other name) are the ones declared.
same<(typeof OPTION_NAMES)[number], keyof Declared.MemoryToolOptions>(both);
same<(typeof MOUNT_OPTION_NAMES)[number], keyof Declared.MountOptions>(both);
same<(typeof LIMIT_NAMES)[number], keyof NonNullable<Declared.MemoryToolOptions["limits"]>>(both);
same<(typeof FIELD_NAMES)[number], keyof Declared.CreateStoreParams>(both);
same<keyof typeof LIMIT_ALIASES, keyof Declared.MemoryStoreLimitsInput>(both);
