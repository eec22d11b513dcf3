// Shared by the consumer tests: headless Chromium on a page served from a folder on 127.0.0.1,
// reporting what the page put in `window.result`.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Serves `root` on 127.0.0.1, opens `page` (a path under it) in a fresh Chromium profile,
 * and gives the page's `window.result` once `<html data-state="done">`; `loads` times in a row
 * (reloads in the same profile). Page errors and failed requests are collected in `problems`.
 * @param {string} root
 * @param {string} page
 * @param {number} [loads]
 */
export async function runInChromium(root, page, loads = 1) {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const server = await startServer({ port: 0, root });
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-consumer-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const problems = [];
  const results = [];
  try {
    const tab = await context.newPage();
    tab.setDefaultTimeout(20_000);
    tab.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    tab.on("requestfailed", (req) => problems.push(`requestfailed: ${req.url()}`));
    tab.on("response", (res) => {
      if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
    });
    for (let i = 0; i < loads; i++) {
      if (i === 0) await tab.goto(`http://127.0.0.1:${server.port}${page}`);
      else await tab.reload();
      await tab.waitForFunction(() => document.documentElement.dataset.state === "done");
      results.push(await tab.evaluate(() => /** @type {any} */ (window).result));
    }
  } finally {
    await context.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
  return { results, problems };
}
