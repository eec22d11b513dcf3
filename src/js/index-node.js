// memory-tool-wasm under the "node" condition: the same entry as index.js, plus how Node reads
// the core's .wasm from disk (Node has no fetch for file: URLs). Only this file imports a Node
// module, so nothing Node-only is reachable from the browser entry a bundler or a page loads.

// @ts-ignore: Node's own types are not part of this browser-first type check.
import { readFile } from "node:fs/promises";
import { useFileReader } from "./wasm.js";

useFileReader(readFile);

export * from "./index.js";
