// Package-internal: the key of the MemoryTool method that runs a host call as another actor
// (the one sync uses to write with a hosted actor, docs/SYNC.md#what-the-local-history-records).
// The adapter owns it; sync imports it, never the other way. Not exported from the package's
// entries.

/**
 * `memory[HOST_CALL_AS](call, options, extra)` runs the host call `call` ("memories.create",
 * "memories.update", "memories.delete") with `options` (its `store` option included), and the
 * versions it writes record `created_by` as the host actor (`type: "api"`) with `extra`'s fields.
 */
// A registered symbol: the one-file build (dist/) a page's main import gives and the source
// modules the sync entry imports are two copies of this module, which must agree on the key
// (docs/ARCHITECTURE.md#cold-start). Not a secret: a symbol key is listed by
// Object.getOwnPropertySymbols either way.
export const HOST_CALL_AS = Symbol.for("memory-tool-wasm.hostCallAs");
