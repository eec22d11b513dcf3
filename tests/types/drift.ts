// The type-level checks the type tests share: whether two types are each other's, member by
// member. Imported by type-test.ts and sync-type-test.ts; never run.

/** A method as what it takes and what it gives, compared as values (not bivariantly). */
export type Signature<F> = F extends (...args: infer P) => infer R ? { takes: P; gives: R } : F;
/** Whether `X` and `Y` are each assignable to the other. */
export type Mutual<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;
/**
 * The names of the members of `A` and `B` that differ: on one side only, or taking or giving
 * other types. Member by member, on purpose: tsc compares two instances of one generic type
 * by their type arguments, where methods are bivariant, and would miss a narrowed parameter.
 */
export type Drift<A, B> = {
  [K in keyof A | keyof B]: K extends keyof A
    ? K extends keyof B
      ? Mutual<Signature<A[K]>, Signature<B[K]>> extends true
        ? never
        : K
      : K
    : K;
}[keyof A | keyof B];
/** The members of `T` that take or give `any`, which `Mutual` cannot tell from anything. */
export type MembersWithAny<T> = {
  [K in keyof T]-?: IsAny<T[K]> extends true
    ? K
    : T[K] extends (...args: infer P) => infer R
      ? true extends IsAny<Awaited<R>> | { [I in keyof P]: IsAny<P[I]> }[number]
        ? K
        : never
      : never;
}[keyof T];
export type IsAny<T> = 0 extends 1 & T ? true : false;
/** A class's static side, without the prototype. */
export type Statics<C> = Omit<C, "prototype">;

/** Compiles only when `A` and `B` are each assignable to the other: say, `Drift<…>` and never. */
export function same<A, B>(check: { codeIsDeclared: (code: A) => B; declaredIsCode: (declared: B) => A }): void {
  void check;
}
export const identity = <T>(value: T) => value;
export const both = { codeIsDeclared: identity, declaredIsCode: identity };
