// The package's own rules the demo shows (a store name's folder, a size as listings write it),
// once app.js has loaded the package: the demo keeps no copies of them. The package is loaded
// dynamically so the page can say in words when it cannot be.

/** @type {typeof import("memory-tool-wasm") | undefined} */
let loaded;

/** Keeps the loaded package. @param {typeof import("memory-tool-wasm")} pkg */
export function usePackage(pkg) {
  loaded = pkg;
}

/** The folder a store named `name` mounts at (the package's `slugOf`). @param {string} name */
export function slugOf(name) {
  return pkg().slugOf(name);
}

/** `bytes` as directory listings write a size (the package's `formatSize`). @param {number} bytes */
export function formatSize(bytes) {
  return pkg().formatSize(bytes);
}

function pkg() {
  if (!loaded) throw new Error("memory-tool-wasm is not loaded yet");
  return loaded;
}
