// A fast first command (docs/BUNDLERS.md#a-fast-first-command), counted in Chromium, never
// timed: the main entry's browser file is one module; a page's <link rel="preload"> of the
// .wasm has it asked for before that module has even arrived (the module is held back until
// then), and the one preloaded response is the one the core uses (one .wasm request); importing
// the package fetches no .wasm, `MemoryTool.preload()` does, and `open` then fetches nothing
// more; a .wasm that cannot be had fails at `MemoryTool.open`, never at the import.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS, REPO } from "./browser-env.mjs";

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {import("playwright-core").BrowserContext} */ let context;
/** @type {string} */ let origin;
/** @type {string} */ let profile;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  assert.ok(existsSync(path.join(REPO, "dist", "memory-tool-wasm.js")), "the bundle is not built: run `npm run build` first");
  server = await startServer({ port: 0 });
  origin = `http://127.0.0.1:${server.port}`;
  profile = await mkdtemp(path.join(tmpdir(), "memory-tool-first-command-e2e-"));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/**
 * A new tab that records its requests (URL and resource type) and its page errors.
 * @returns {Promise<{ tab: import("playwright-core").Page, requests: Array<{ url: string, type: string }>, problems: string[] }>}
 */
async function recordedTab() {
  const tab = await context.newPage();
  /** @type {Array<{ url: string, type: string }>} */
  const requests = [];
  /** @type {string[]} */
  const problems = [];
  tab.on("request", (r) => requests.push({ url: new URL(r.url()).pathname, type: r.resourceType() }));
  tab.on("pageerror", (e) => problems.push(String(e)));
  return { tab, requests, problems };
}

/** @param {import("playwright-core").Page} tab */
const settled = (tab) => tab.waitForFunction(() => document.documentElement.dataset.state === "done", undefined, { timeout: 60_000 });

test("the main entry's browser file is one module; the page's preload asks for the .wasm before it arrives, once", async () => {
  const pkg = JSON.parse(await readFile(path.join(REPO, "package.json"), "utf8"));
  // The fixture's import map names this file: what a browser gets for "memory-tool-wasm".
  assert.equal(pkg.exports["."].default, "./dist/memory-tool-wasm.js");
  const { tab, requests, problems } = await recordedTab();
  try {
    /** @type {() => void} */
    let asked = () => {};
    const wasmAsked = new Promise((resolve) => (asked = () => resolve(true)));
    tab.on("request", (r) => {
      if (r.url().endsWith(".wasm")) asked();
    });
    let heldUntilWasm = false;
    // The module is held back until the .wasm has been asked for (20 s at most): if the .wasm
    // waited for the JavaScript, it is never asked for while the module is held.
    await tab.route("**/dist/memory-tool-wasm.js", async (route) => {
      heldUntilWasm = await Promise.race([wasmAsked, new Promise((resolve) => setTimeout(() => resolve(false), 20_000))]);
      await route.continue();
    });
    await tab.goto(`${origin}/tests/e2e/fixtures/first-command.html`);
    await settled(tab);
    const result = await tab.evaluate(() => /** @type {any} */ (window).result);
    assert.equal(result.error, undefined);
    assert.equal(result.isError, false);
    assert.match(result.firstLine, /^Here're the files and directories up to 2 levels deep in \/memories/);
    assert.equal(heldUntilWasm, true, "the .wasm was asked for only after the module arrived");
    const own = requests.filter((r) => !r.url.startsWith("/tests/e2e/fixtures/") && r.url !== "/favicon.ico");
    assert.deepEqual(
      own.filter((r) => r.type === "script").map((r) => r.url),
      ["/dist/memory-tool-wasm.js"],
    );
    // The preloaded response is the one the core compiled: no second download.
    assert.deepEqual(
      own.filter((r) => r.url.endsWith(".wasm")).map((r) => r.url),
      ["/pkg/memory_tool_wasm_bg.wasm"],
    );
    assert.deepEqual(problems, []);
  } finally {
    await tab.close();
  }
});

test("importing fetches no .wasm; MemoryTool.preload() does, and open then fetches nothing more", async () => {
  const { tab, requests, problems } = await recordedTab();
  try {
    await tab.goto(`${origin}/tests/e2e/fixtures/first-command-plain.html`);
    await settled(tab);
    // A round trip to the page, so a request made at the import would have been reported.
    await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    const wasm = () => requests.filter((r) => r.url.endsWith(".wasm")).length;
    assert.equal(wasm(), 0);
    assert.equal(await tab.evaluate(() => /** @type {any} */ (window).pkg.MemoryTool.preload()), undefined);
    assert.equal(wasm(), 1);
    const view = await tab.evaluate(async () => {
      const tool = await /** @type {any} */ (window).pkg.MemoryTool.open({ store: "preloaded" });
      const result = await tool.execute({ command: "view", path: "/memories" });
      tool.close();
      return result.isError;
    });
    assert.equal(view, false);
    assert.equal(wasm(), 1);
    assert.deepEqual(problems, []);
  } finally {
    await tab.close();
  }
});

test("a .wasm that is not there: the import succeeds, a preload resolves, and open rejects", async () => {
  const { tab, problems } = await recordedTab();
  try {
    await tab.goto(`${origin}/tests/e2e/fixtures/first-command-missing.html`);
    await settled(tab);
    const seen = await tab.evaluate(async () => {
      const { MemoryTool } = /** @type {any} */ (window).pkg;
      const wasm = "/pkg/missing_bg.wasm";
      const preloaded = await MemoryTool.preload({ wasm }).then(
        (/** @type {unknown} */ v) => `resolved ${v}`,
        (/** @type {unknown} */ e) => `rejected ${e}`,
      );
      const opened = await MemoryTool.open({ store: "missing", wasm }).then(
        () => "opened",
        (/** @type {any} */ e) => `rejected ${e?.name}`,
      );
      // Not kept: a later open with the .wasm that is there still loads.
      const later = await MemoryTool.open({ store: "missing" }).then(
        (/** @type {any} */ tool) => (tool.close(), "opened"),
        (/** @type {any} */ e) => `rejected ${e}`,
      );
      return { preloaded, opened, later };
    });
    assert.equal(seen.preloaded, "resolved undefined");
    assert.match(seen.opened, /^rejected \w*Error$/);
    assert.equal(seen.later, "opened");
    assert.deepEqual(problems, []);
  } finally {
    await tab.close();
  }
});
