// What a page downloads: the .wasm and the JavaScript, raw and gzip -9 (GNU gzip, else node's
// zlib at level 9; each file compressed on its own, as a server sends them).
//
//   node bench/sizes.mjs     prints the rows as JSON

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** @param {string} rel a path from the repository root */
async function sizeOf(rel) {
  const file = path.join(REPO, rel);
  const bytes = await readFile(file);
  return { raw: bytes.length, gzip: gzip9(file, bytes) };
}

/**
 * The gzip -9 size: GNU gzip's own when it is installed (what `gzip -9` says, and what
 * scripts/build.sh prints), else node's zlib at level 9 (a few % larger).
 * @param {string} file
 * @param {Buffer} bytes
 */
function gzip9(file, bytes) {
  try {
    return execFileSync("gzip", ["-9", "-c", file], { maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "ignore"] }).length;
  } catch {
    return gzipSync(bytes, { level: 9 }).length;
  }
}

/**
 * @param {string} name
 * @param {string[]} files repository-relative paths
 */
async function row(name, files) {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const size = await sizeOf(file);
    raw += size.raw;
    gzip += size.gzip;
  }
  return { suite: "size", case: name, files, raw_bytes: raw, gzip_bytes: gzip };
}

/** @returns {Promise<Array<Record<string, unknown>>>} */
export async function measureSizes() {
  const adapter = (await readdir(path.join(REPO, "src/js")))
    .filter((name) => name.endsWith(".js"))
    .sort()
    .map((name) => `src/js/${name}`);
  const bindings = ["pkg/memory_tool_wasm.js"];
  return [
    await row(".wasm (pkg/memory_tool_wasm_bg.wasm)", ["pkg/memory_tool_wasm_bg.wasm"]),
    await row(`JS: adapter (src/js/*.js, ${adapter.length} files)`, adapter),
    await row("JS: bindings (pkg/memory_tool_wasm.js)", bindings),
    await row("JS: total", [...adapter, ...bindings]),
    // What the "browser" and "import" conditions give: the adapter's browser entry and the
    // bindings in one minified file (scripts/bundle.mjs).
    ...(existsSync(path.join(REPO, "dist/memory-tool-wasm.js"))
      ? [await row("JS: one-file browser entry (dist/memory-tool-wasm.js)", ["dist/memory-tool-wasm.js"])]
      : []),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await measureSizes()) console.log(JSON.stringify(r));
}
