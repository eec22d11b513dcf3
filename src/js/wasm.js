// Loads the WebAssembly core once per page or process (lazily, on the first MemoryTool.open).

import init, { Engine } from "../../pkg/memory_tool_wasm.js";

/** @type {Promise<typeof Engine> | undefined} */
let loading;
/** Whether the module is instantiated, so the core's free functions can be called. */
let loaded = false;

/** Whether the core is loaded (after the first `MemoryTool.open` or `MemoryStores.open`). */
export function isLoaded() {
  return loaded;
}

/**
 * Resolves to the core's `Engine` class once the wasm module is instantiated. A failed load
 * is not cached, so a later call tries again.
 * @returns {Promise<typeof Engine>}
 */
export function loadEngine() {
  loading ??= instantiate().catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function instantiate() {
  if (isNode()) {
    // Node has no fetch for file: URLs; read the bytes beside the bindings ourselves.
    // @ts-ignore: Node's own types are not part of this browser-first type check.
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ "node:fs/promises");
    const bytes = await readFile(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
    await init({ module_or_path: bytes });
  } else {
    // The bindings fetch the .wasm from new URL(…, import.meta.url), which bundlers follow.
    await init();
  }
  loaded = true;
  return Engine;
}

/**
 * Whether the bindings were loaded from disk by Node (or a runtime with Node's `fs`): then
 * there is no fetch for the .wasm's file: URL. A browser page loads them over http(s); a
 * jsdom test environment still loads them from disk.
 */
function isNode() {
  const proc = /** @type {{ process?: { versions?: { node?: string } } }} */ (globalThis).process;
  return typeof proc?.versions?.node === "string" && import.meta.url.startsWith("file:");
}
