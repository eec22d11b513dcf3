// The README's esbuild recipe: the .wasm as a file asset, handed over by the `wasm` option.
import wasm from "memory-tool-wasm/wasm";
import { run } from "./app.js";
run({ wasm });
