// The shared setup of the end-to-end tests that drive the harness page
// (tests/e2e/fixtures/harness.html) in headless Chromium: the repo's static server on a free
// port, one persistent browser profile, and tabs on the harness that record page errors.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";
export { CHROMIUM, CHROMIUM_ARGS };

/** The repository root. */
export const REPO = fileURLToPath(new URL("../..", import.meta.url));
const HARNESS = "/tests/e2e/fixtures/harness.html";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("playwright-core").BrowserContext} BrowserContext */

/**
 * A browser session on the harness: `start` and `stop` go to `before` and `after`; `origin`
 * and `context` are set once started; `pageProblems` collects every page error and
 * console error of its tabs (tests assert it stays empty).
 * @param {string} label names the temporary profile folder
 */
export function harnessSession(label) {
  const session = {
    origin: "",
    /** @type {BrowserContext | undefined} */ context: undefined,
    /** @type {string[]} */ pageProblems: [],
    /** @type {Awaited<ReturnType<typeof startServer>> | undefined} */ server: undefined,
    /** @type {string | undefined} */ profileDir: undefined,

    start: async () => {
      assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
      assert.ok(
        existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")),
        "the wasm is not built: run `npm run build` first",
      );
      session.server = await startServer({ port: 0 });
      session.origin = `http://127.0.0.1:${session.server.port}`;
      session.profileDir = await mkdtemp(path.join(tmpdir(), `memory-tool-${label}-e2e-`));
      session.context = await chromium.launchPersistentContext(session.profileDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
      });
    },

    stop: async () => {
      await session.context?.close();
      await session.server?.close();
      if (session.profileDir) await rm(session.profileDir, { recursive: true, force: true });
    },

    /** A new tab on the harness, once the package has loaded. */
    openHarness: async () => {
      const page = await /** @type {BrowserContext} */ (session.context).newPage();
      page.setDefaultTimeout(10_000);
      page.on("pageerror", (err) => session.pageProblems.push(`pageerror: ${err.message}`));
      page.on("console", (msg) => {
        if (msg.type() === "error") session.pageProblems.push(`console.error: ${msg.text()}`);
      });
      await page.goto(session.origin + HARNESS);
      await session.waitHarness(page);
      return page;
    },

    /** Waits until the harness in `page` has loaded the package (after a goto or reload). */
    waitHarness: async (/** @type {Page} */ page) => {
      await page.waitForFunction(() => document.documentElement.dataset.state !== "loading");
      const state = await page.evaluate(() => document.documentElement.dataset.state);
      if (state !== "ready") {
        assert.fail(`the harness did not load: ${await page.evaluate(() => document.documentElement.dataset.problem)}`);
      }
    },
  };
  return session;
}
