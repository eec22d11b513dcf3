#!/usr/bin/env node
// The README's screenshot of the demo: serves the demo (scripts/serve.mjs) in headless Chromium
// with a fresh profile, plays the recording's first two messages ("Trip notes, recalled later":
// the model takes its notes, then edits one, with one mistake it recovers from) in the page's
// IndexedDB, opens the trip note in the memory browser, and saves the first screen a visitor
// sees at 1280×800: the conversation with its Play button and message box beside the memory.
//
//   node scripts/screenshot.mjs [FILE]        (default docs/demo.png; needs the built wasm)
//
// It fails, writing nothing, when the demo shows a page error or does not reach that state.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { REPO_ROOT, startServer } from "./serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.mjs";

/** The screenshot's size in pixels. */
export const SIZE = Object.freeze({ width: 1280, height: 800 });

/** The window the visitor has: the page is laid out and drawn at that size. */
const VIEWPORT = SIZE;

/** The note the screenshot shows open, as the recorded model leaves it. */
export const TRIP = "/memories/trips/lisbon.md";

/**
 * Takes the screenshot into `file`.
 * @param {string} file
 * @returns {Promise<{ bytes: number, status: string[], tree: string[], viewer: string }>} what the page showed
 */
export async function screenshotDemo(file) {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  assert.ok(existsSync(path.join(REPO_ROOT, "pkg", "memory_tool_wasm_bg.wasm")), "the wasm is not built: run `npm run build` first");
  const server = await startServer({ port: 0 });
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-screenshot-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    colorScheme: "light",
  });
  /** @type {string[]} */
  const problems = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console.error: ${msg.text()}`);
    });
    await page.goto(`http://127.0.0.1:${server.port}/www/?replayDelay=0`);
    await page.waitForFunction(() => document.documentElement.dataset.state !== "loading");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.state), "ready", "the demo started");

    // The recording's two exchanges: notes taken, then a failed edit, a look and the fixes.
    const status = [];
    for (let run = 1; run <= 2; run++) {
      await page.locator("#agent-play").click();
      await page.locator(`#transcript[data-runs="${run}"]`).waitFor({ state: "attached" });
      status.push((await page.locator("#agent-status").textContent()) ?? "");
    }
    await page.locator(`#tree [data-path="${TRIP}"]`).click();
    await page.locator(`#viewer[data-path="${TRIP}"]`).waitFor();
    const tree = await page.locator('#tree [data-testid="tree-file"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-path") ?? ""));
    const viewer = (await page.locator('#viewer [data-testid="viewer-text"]').textContent()) ?? "";

    // The second exchange in view: the visitor's correction, the failed edit and its fix.
    await page.locator("#transcript-log").evaluate((log) => {
      const second = /** @type {HTMLElement} */ (log.querySelectorAll('[data-testid="msg-user"]')[1]);
      log.scrollTop = second.offsetTop - log.offsetTop - 8;
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    // The tree's highlight of what just changed has faded, as it does for a visitor a moment later.
    await page.waitForTimeout(2700);
    assert.deepEqual(problems, [], "the demo showed no error");
    await page.screenshot({ path: file });
    return { bytes: (await readFile(file)).length, status, tree, viewer };
  } finally {
    await context.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = path.resolve(process.argv[2] ?? path.join(REPO_ROOT, "docs", "demo.png"));
  const shown = await screenshotDemo(file);
  console.log(`screenshot: ${path.relative(process.cwd(), file)}  ${SIZE.width}×${SIZE.height}, ${shown.bytes} bytes; ${shown.status.join(" / ")}; tree ${shown.tree.join(", ")}`);
}
