// The browser entry as one ESM file: dist/memory-tool-wasm.js, esbuild's bundle of
// src/js/index.js and the wasm-bindgen bindings (pkg/memory_tool_wasm.js), so a page or a
// bundler loads one module where the sources are two dozen (docs/ARCHITECTURE.md#cold-start).
// The .wasm stays beside the bindings, in pkg/: the bundle names it relative to itself,
// `new URL("../pkg/memory_tool_wasm_bg.wasm", import.meta.url)`, which browsers resolve and
// bundlers follow. Run by scripts/build.sh after the wasm build.
//
//   node scripts/bundle.mjs     writes dist/memory-tool-wasm.js, prints its size

import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const OUT = path.join(REPO, "dist", "memory-tool-wasm.js");
const WASM_URL = 'new URL("../pkg/memory_tool_wasm_bg.wasm", import.meta.url)';

/** Where each source names the .wasm, relative to itself; the bundle names it from dist/. */
const WASM_REFERENCES = new Map([
  [path.join(REPO, "pkg", "memory_tool_wasm.js"), /new URL\((['"])memory_tool_wasm_bg\.wasm\1, import\.meta\.url\)/g],
  [path.join(REPO, "src", "js", "wasm.js"), /new URL\((['"])\.\.\/\.\.\/pkg\/memory_tool_wasm_bg\.wasm\1, import\.meta\.url\)/g],
]);

/** @type {import("esbuild").Plugin} */
const wasmFromDist = {
  name: "wasm-from-dist",
  setup(esbuild) {
    esbuild.onLoad({ filter: /(memory_tool_wasm|wasm)\.js$/ }, async (args) => {
      const pattern = WASM_REFERENCES.get(path.resolve(args.path));
      if (!pattern) return undefined;
      const text = await readFile(args.path, "utf8");
      const rewritten = text.replace(pattern, WASM_URL);
      if (rewritten === text) throw new Error(`bundle: ${path.relative(REPO, args.path)} no longer names the .wasm as expected`);
      return { contents: rewritten, loader: "js" };
    });
  },
};

const result = await build({
  entryPoints: [path.join(REPO, "src", "js", "index.js")],
  outfile: OUT,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  // Class and function names stay (MemoryToolError's, in stack traces).
  keepNames: true,
  legalComments: "none",
  banner: { js: "// memory-tool-wasm: the browser entry in one file (scripts/bundle.mjs); the sources are in src/js/." },
  metafile: true,
  logLevel: "warning",
  plugins: [wasmFromDist],
});
const bytes = Object.values(result.metafile.outputs)[0]?.bytes ?? 0;
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`bundle: ${path.relative(REPO, OUT)}  ${bytes} bytes from ${inputs} modules`);
