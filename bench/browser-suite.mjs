// Headless Chromium with IndexedDB: loads bench/page.html from the repository (served by
// scripts/serve.mjs) in Debian's Chromium through playwright-core, with a fresh persistent
// profile in a temp dir, and has the page time the commands itself (bench/page.mjs).
//
//   node bench/browser-suite.mjs [--runs N] [--warmup N] [--files N]   prints the rows as JSON
//
// The page is served cross-origin isolated (COOP/COEP added by request interception), so
// performance.now() ticks in 5 µs steps rather than 100 µs.

import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * @typedef {object} BrowserOptions
 * @property {number} [runs] measured runs per command (default 200)
 * @property {number} [warmup] runs before measuring (default 30)
 * @property {number} [files] files in the large store (default 10,000; 0 skips it)
 * @property {number} [fileBytes] bytes per file of the large store (default 2,048)
 * @property {number} [largeRuns] measured `view /memories` runs on the large store (default 30)
 * @property {(line: string) => void} [log] progress lines
 */

/**
 * @param {BrowserOptions} [options]
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, info: Record<string, unknown> }>}
 */
export async function runBrowserSuite({
  runs = 200,
  warmup = 30,
  files = 10_000,
  fileBytes = 2048,
  largeRuns = 30,
  log = () => {},
} = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const server = await startServer({ port: 0 });
  const origin = `http://127.0.0.1:${server.port}`;
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-bench-"));
  /** @type {import("playwright-core").BrowserContext | undefined} */
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    // Cross-origin isolation: a finer performance.now() (the server itself sets no such headers).
    await context.route(`${origin}/**`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: {
          ...response.headers(),
          "cross-origin-opener-policy": "same-origin",
          "cross-origin-embedder-policy": "require-corp",
        },
      });
    });
    const page = context.pages()[0] ?? (await context.newPage());
    /** @type {string[]} */
    const problems = [];
    page.on("pageerror", (error) => problems.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    await page.goto(`${origin}/bench/page.html`);
    await page.waitForFunction(() => "bench" in globalThis, null, { timeout: 30_000 }).catch(() => {
      throw new Error(`the bench page did not load: ${problems.join("; ") || "no error reported"}`);
    });

    const info = await page.evaluate(() => /** @type {any} */ (globalThis).bench.info());
    // The user agent's version is reduced (156.0.0.0); the browser itself says the full one.
    const cdp = await context.newCDPSession(page);
    const { product } = await cdp.send("Browser.getVersion");
    await cdp.detach();
    info.chromiumVersion = product.replace(/^[A-Za-z]+\//, "");

    log(`chromium: create / view / str_replace, ${runs} runs each`);
    /** @type {Array<Record<string, unknown>>} */
    const rows = await page.evaluate(
      (options) => /** @type {any} */ (globalThis).bench.commands(options),
      { runs, warmup },
    );
    if (files > 0) {
      log(`chromium: populating a ${files}-file store, then open and view /memories`);
      rows.push(
        ...(await page.evaluate(
          (options) => /** @type {any} */ (globalThis).bench.largeStore(options),
          { files, fileBytes, runs: largeRuns, warmup: 5 },
        )),
      );
    }
    return { rows: rows.map((row) => ({ suite: "chromium-indexeddb", ...row })), info };
  } finally {
    await context?.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({
    options: { runs: { type: "string" }, warmup: { type: "string" }, files: { type: "string" } },
  });
  const number = (/** @type {string | undefined} */ v) => (v === undefined ? undefined : Number(v));
  const { rows, info } = await runBrowserSuite({
    runs: number(values.runs),
    warmup: number(values.warmup),
    files: number(values.files),
    log: (line) => console.error(line),
  });
  console.error(JSON.stringify(info));
  for (const row of rows) console.log(JSON.stringify(row));
}
