// Shared by the demo's end-to-end tests (demo-agent, demo-browser): a headless Chromium with a
// fresh persistent profile (IndexedDB outlives pages and tabs), the demo server, opening the
// page and waiting until it is ready, page problems, and screenshots in test-artifacts/e2e/.

import assert from "node:assert/strict";
import { mkdtemp, mkdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const ARTIFACTS = path.join(REPO, "test-artifacts", "e2e");
export const LAPTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * Starts the server and a browser with a fresh profile.
 * @returns {Promise<{ context: import("playwright-core").BrowserContext, base: string, problems: string[], close: () => Promise<void> }>}
 *   `base` is the demo page's URL (http://127.0.0.1:PORT/www/); `problems` collects page errors.
 */
export async function startDemo() {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  assert.ok(existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")), "the wasm is not built: run `npm run build` first");
  await mkdir(ARTIFACTS, { recursive: true });
  const server = await startServer({ port: 0 });
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-demo-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: LAPTOP,
    colorScheme: "light",
    acceptDownloads: true,
  });
  /** @type {string[]} */
  const problems = [];
  return {
    context,
    // 127.0.0.1, not localhost: one origin for the whole run, so IndexedDB is one.
    base: `http://127.0.0.1:${server.port}/www/`,
    problems,
    close: async () => {
      await context.close();
      await server.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a tab (the context's blank first tab, or a new one) and waits until the demo is
 * ready; fails with the page's own words if it is not. Page errors go to `problems`.
 * @param {import("playwright-core").BrowserContext} context
 * @param {string} url
 * @param {string[]} problems
 * @param {{ newTab?: boolean }} [options]
 */
export async function openDemo(context, url, problems, { newTab = false } = {}) {
  const blank = context.pages().find((p) => p.url() === "about:blank");
  const tab = !newTab && blank ? blank : await context.newPage();
  tab.setDefaultTimeout(10_000);
  tab.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  tab.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console.error: ${msg.text()}`);
  });
  await tab.goto(url);
  await waitReady(tab);
  return tab;
}

/** Waits until start-up ended and the first tree has painted. */
export async function waitReady(/** @type {import("playwright-core").Page} */ tab) {
  await tab.waitForFunction(() => document.documentElement.dataset.state !== "loading");
  const state = await tab.evaluate(() => document.documentElement.dataset.state);
  if (state !== "ready") assert.fail(`the demo did not start: ${await tab.locator("#notice-text").textContent()}`);
  await tab.locator("#tree[data-refreshes]").waitFor({ state: "attached" });
}

/** Paths of the files the tree shows, in order. */
export function treePaths(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#tree [data-testid="tree-file"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));
}

/** Waits until the tree shows exactly `paths`. */
export async function waitForTree(/** @type {import("playwright-core").Page} */ tab, /** @type {string[]} */ paths) {
  await tab.waitForFunction(
    (want) =>
      JSON.stringify([...document.querySelectorAll('#tree [data-testid="tree-file"]')].map((e) => e.getAttribute("data-path"))) ===
      JSON.stringify(want),
    paths,
  );
}

/** A full-page screenshot in test-artifacts/e2e/. */
export async function screenshot(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ name) {
  await tab.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Whether the page scrolls sideways (it must not, at any width). */
export function sidewaysOverflow(/** @type {import("playwright-core").Page} */ tab) {
  return tab.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
