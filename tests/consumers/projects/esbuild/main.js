// The consumer page's script (browser-app.js, moved to consumer-app.js by the test, as the
// recipe's own program takes app.js) with docs/BUNDLERS.md's esbuild recipe: the .wasm as a file
// asset, resolved against the bundle's URL, so the page may live outside the output folder.
import wasm from "memory-tool-wasm/wasm";
import { run } from "./consumer-app.js";
run({ wasm: new URL(wasm, import.meta.url) });
