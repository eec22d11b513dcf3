// Loads the WebAssembly core once per page or process (lazily, on the first MemoryTool.open,
// MemoryStores.open or MemoryTool.preload), from the `wasm` option when one is given. Nothing
// is fetched when a module is evaluated: the page's modules all arrive before any of them runs,
// so a fetch started then would overlap none of them, and it would be a wasted request (a 404
// in the console, a CSP report) for every app that hands its own `wasm` to open
// (docs/BUNDLERS.md#a-fast-first-command).

import init, { Engine } from "../../pkg/memory_tool_wasm.js";

/** @typedef {import("./index.js").WasmSource} WasmSource */

/** @type {Promise<typeof Engine> | undefined} */
let loading;
/** Whether the module is instantiated, so the core's free functions can be called. */
let loaded = false;
/**
 * How a file: URL is read, where the bindings were loaded from disk: Node's `readFile`, given
 * by the "node" entry (index-node.js); else Node's builtin if this runtime has one (a test
 * environment that resolved the browser entry, say). Nothing here imports a Node module.
 * @type {((url: URL) => Promise<Uint8Array>) | undefined}
 */
let readFile;

/**
 * Sets how a file: URL is read (Node's `fs.promises.readFile`); the "node" entry calls it.
 * @param {(url: URL) => Promise<Uint8Array>} reader
 */
export function useFileReader(reader) {
  readFile = reader;
}

/**
 * The bytes of the file at `url`, for a runtime with a file system.
 * @param {URL} url a file: URL
 * @returns {Promise<Uint8Array>}
 */
function readWasmFile(url) {
  if (readFile) return readFile(url);
  const proc = /** @type {{ process?: { getBuiltinModule?: (id: string) => any } }} */ (globalThis).process;
  const fs = proc?.getBuiltinModule?.("node:fs/promises");
  if (!fs) {
    throw new Error(`memory-tool-wasm: cannot read ${url.href} here; pass the \`wasm\` option to open.`);
  }
  return fs.readFile(url);
}

/** Whether the core is loaded (after the first `MemoryTool.open` or `MemoryStores.open`). */
export function isLoaded() {
  return loaded;
}

/**
 * Resolves to the core's `Engine` class once the wasm module is instantiated, from `source`
 * (the `wasm` option) if given, else from the .wasm beside the bindings. The first load wins:
 * once the core is loading or loaded, a later `source` is not used. A failed load is not
 * cached, so a later call tries again.
 * @param {WasmSource} [source]
 * @returns {Promise<typeof Engine>}
 */
export function loadEngine(source) {
  loading ??= instantiate(source).catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * Starts loading the core now (`MemoryTool.preload`), so a later `open` finds it loaded or
 * under way. Resolves once it is loaded or its load failed, never rejecting: a failure is not
 * kept, so the next `open` tries again and rejects with what went wrong, as it does without a
 * preload.
 * @param {WasmSource} [source]
 * @returns {Promise<void>}
 */
export function preloadEngine(source) {
  return loadEngine(source).then(
    () => undefined,
    () => undefined,
  );
}

/** @param {WasmSource | undefined} source */
async function instantiate(source) {
  const url = source === undefined ? new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url) : asUrl(source);
  if (url && url.protocol === "file:" && isNode()) {
    // Node has no fetch for file: URLs; read the bytes ourselves.
    await init({ module_or_path: await readWasmFile(url) });
  } else if (source === undefined) {
    // The bindings fetch the .wasm from new URL(…, import.meta.url), which bundlers follow.
    await init();
  } else {
    await init({ module_or_path: /** @type {any} */ (source) });
  }
  loaded = true;
  return Engine;
}

/**
 * `source` as a URL if it is one (a URL, or a string that is a URL or a path relative to the
 * page), else undefined (a Response, bytes or a compiled module).
 * @param {WasmSource} source
 * @returns {URL | undefined}
 */
function asUrl(source) {
  if (source instanceof URL) return source;
  if (typeof source !== "string") return undefined;
  const base = /** @type {{ location?: { href?: string } }} */ (globalThis).location?.href;
  try {
    return new URL(source, base);
  } catch {
    return undefined;
  }
}

/**
 * Whether this is Node (or a runtime with Node's `fs`): then there is no fetch for a file:
 * URL. A browser page loads the .wasm over http(s); a jsdom test environment still loads it
 * from disk.
 */
function isNode() {
  const proc = /** @type {{ process?: { versions?: { node?: string } } }} */ (globalThis).process;
  return typeof proc?.versions?.node === "string";
}
