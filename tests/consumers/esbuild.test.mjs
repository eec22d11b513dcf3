// esbuild, default browser platform, over the package's own source: the browser build takes the
// main entry's browser file (the one-file build, dist/) and reaches no Node module (the "node"
// condition of package.json's exports is Node's alone), the .wasm comes
// from the "./wasm" export as a file asset and reaches the core by the `wasm` option, resolved
// against the bundle, and the page, in a folder of its own outside the output folder, runs in
// Chromium over IndexedDB, across a reload.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, rm, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { REPO, runInChromium } from "./lib.mjs";

const APP = path.join(REPO, "tests/consumers/esbuild");

test("esbuild bundles the browser entry with no Node module, and the page runs in Chromium", async () => {
  const site = await mkdtemp(path.join(tmpdir(), "memory-tool-esbuild-"));
  const out = path.join(site, "dist");
  try {
    const built = await build({
      entryPoints: [path.join(APP, "app.js")],
      bundle: true,
      format: "esm",
      outdir: out,
      loader: { ".wasm": "file" },
      logLevel: "silent",
      metafile: true,
      // The repository resolves "memory-tool-wasm" as a self-reference, as a consumer's
      // node_modules would.
      absWorkingDir: REPO,
    });
    const inputs = Object.keys(built.metafile.inputs);
    assert.deepEqual(inputs.filter((p) => p.includes("node:") || p.endsWith("index-node.js")), []);
    // The main entry's browser file: the one-file build, not the source modules.
    assert.ok(inputs.includes("dist/memory-tool-wasm.js"), `the browser build takes the one-file build: ${inputs}`);
    assert.deepEqual(inputs.filter((p) => p.startsWith("src/js/")), []);
    const files = await readdir(out);
    assert.ok(files.some((f) => f.endsWith(".wasm")), `the .wasm is emitted: ${files}`);
    // The page is not in dist/ (where a path relative to the page would find the .wasm).
    await mkdir(path.join(site, "pages/deep"), { recursive: true });
    await cp(path.join(APP, "index.html"), path.join(site, "pages/deep/index.html"));

    const { results, problems } = await runInChromium(site, "/pages/deep/index.html", 2);
    assert.deepEqual(problems, []);
    for (const result of results) assert.equal(result.error, undefined, result.error);
    const [first, second] = results;
    assert.equal(first.before.content, "The path /memories/note.md does not exist. Please provide a valid path.");
    assert.equal(first.before.isError, true);
    assert.equal(first.bad.content, "Error: Path must be /memories or start with /memories/, got: /etc/passwd");
    assert.equal(first.bad.isError, true);
    assert.equal(first.after.isError, false);
    assert.match(first.after.content, /kept across reloads/);
    assert.deepEqual(second.before, first.after, "the reload reads what IndexedDB kept");
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});
