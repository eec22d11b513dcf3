// Type declarations for memory-tool-wasm/wasm: the core's .wasm file. Imported through a
// bundler's file or URL loader (esbuild `--loader:.wasm=file`, Vite `?url`) it is the file's
// URL, which the `wasm` option of `MemoryTool.open` takes.
declare const url: string;
export default url;
