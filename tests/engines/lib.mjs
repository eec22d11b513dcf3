// Shared by the cross-engine suite (tests/engines/*.test.mjs): the repository's server, one
// browser per engine per file (tests/engines/drivers.mjs), the package's page
// (tests/engines/page.html) opened and waited for, and what each engine answered, kept so a
// test can compare Firefox's and WebKit's answers with Chromium's.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe } from "node:test";
import { startServer } from "../../scripts/serve.mjs";
import { ENGINES, launch } from "./drivers.mjs";

export { ENGINES };
export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const PAGE = "/tests/engines/page.html";

/** Answers by engine, by the test's own key: `answers.get("chromium").get(key)`. */
const answers = new Map(ENGINES.map((engine) => [engine, new Map()]));

/**
 * Keeps what `engine` answered under `key`, and compares it with Chromium's when Chromium ran
 * first (it runs first whenever it runs: ENGINES' order).
 * @param {string} engine @param {string} key @param {unknown} value
 */
export function sameAsChromium(engine, key, value) {
  answers.get(engine)?.set(key, value);
  if (engine === "chromium" || !answers.get("chromium")?.has(key)) return;
  assert.deepEqual(value, answers.get("chromium")?.get(key), `${engine} answered otherwise than Chromium (${key})`);
}

/**
 * A `describe` per engine, each with its own browser (started with `options`) and the server:
 * `body(env)` declares the tests; `env.browser`, `env.origin` are set once started.
 * @param {string} title
 * @param {(env: Env) => void} body
 * @param {{ engines?: string[], prefs?: Record<string, string | number | boolean> }} [options]
 */
export function eachEngine(title, body, options = {}) {
  for (const engine of options.engines ?? ENGINES) {
    if (!ENGINES.includes(engine)) continue;
    describe(`${engine}: ${title}`, () => {
      /** @type {Env} */
      const env = { engine, browser: undefined, origin: "", server: undefined, open: async () => assert.fail("not started") };
      before(async () => {
        assert.ok(existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")), "the wasm is not built: run `npm run build` first");
        env.server = await startServer({ port: 0 });
        env.origin = `http://127.0.0.1:${env.server.port}`;
        env.browser = await launch(engine, { prefs: options.prefs });
        env.open = (query = "") => openPage(/** @type {import("./drivers.mjs").Browser} */ (env.browser), env.origin + PAGE + query);
      });
      after(async () => {
        await env.browser?.close();
        await env.server?.close();
      });
      body(env);
    });
  }
}

/**
 * @typedef {object} Env
 * @property {string} engine
 * @property {import("./drivers.mjs").Browser | undefined} browser
 * @property {string} origin
 * @property {Awaited<ReturnType<typeof startServer>> | undefined} server
 * @property {(query?: string) => Promise<import("./drivers.mjs").Tab>} open  a new tab on the page, loaded
 */

/**
 * A new tab on `url`, once the package has loaded there.
 * @param {import("./drivers.mjs").Browser} browser @param {string} url
 */
export async function openPage(browser, url) {
  const tab = await browser.newTab(url);
  await waitReady(tab);
  return tab;
}

/** Waits until the page has loaded the package (after a goto or reload); fails with its words. */
export async function waitReady(/** @type {import("./drivers.mjs").Tab} */ tab) {
  const { state, problem } = await tab.run(async () => {
    const deadline = Date.now() + 30_000;
    while (document.documentElement.dataset.state === "loading" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return { state: document.documentElement.dataset.state, problem: document.documentElement.dataset.problem ?? null };
  });
  assert.equal(state, "ready", `the page did not load the package: ${problem}`);
}

/** The page's own record of its errors (classic WebDriver hears no console). */
export const problemsOf = (/** @type {import("./drivers.mjs").Tab} */ tab) => tab.run(() => /** @type {any} */ (window).problems);
