// The demo's first scenario in Chromium, Firefox and WebKit: the page loads (under its
// Content-Security-Policy, from scripts/serve.mjs), the recorded conversation can be started
// with no key, and the memory files it writes appear in the tree. Kept small on purpose: the
// demo's own tests (tests/e2e/demo-*.test.mjs, Chromium) check it in depth; this one says it
// works in every engine. Its selectors are all in DEMO, to follow the demo when it changes.
//
// Run: node --test --test-concurrency=1 tests/engines/demo.test.mjs

import assert from "node:assert/strict";
import { test } from "node:test";
import { eachEngine } from "./lib.mjs";

/** Everything this test knows of the demo page. */
const DEMO = {
  /** The page, with the recorded model answering at once. */
  url: "/www/?replayDelay=0",
  /** The button that plays the recording's next message (offline, the recorded scenario's first one). */
  send: "#agent-play",
  /** Files the store tree shows (each with data-path). */
  treeFile: '#tree [data-testid="tree-file"]',
  /** The line that says how a run ended. */
  status: "#agent-status",
};

eachEngine("the demo", (env) => {
  test("loads, runs the recorded conversation's first exchange, and its notes appear in the tree", async () => {
    const tab = /** @type {import("./drivers.mjs").Browser} */ (env.browser);
    const page = await tab.newTab(env.origin + DEMO.url);
    const got = await page.run(async (DEMO) => {
      const w = /** @type {any} */ (window);
      const problems = [];
      addEventListener("error", (e) => problems.push(`error: ${e.message}`));
      document.addEventListener("securitypolicyviolation", (e) => problems.push(`securitypolicyviolation: ${e.effectiveDirective}`));
      const until = async (/** @type {() => any} */ ok, /** @type {string} */ what, ms = 30_000) => {
        const deadline = Date.now() + ms;
        while (!ok()) {
          if (Date.now() > deadline) throw new Error(`the demo: ${what} (state ${document.documentElement.dataset.state}: ${document.querySelector("#notice-text")?.textContent ?? ""})`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await until(() => document.documentElement.dataset.state !== "loading", "never finished loading");
      const state = document.documentElement.dataset.state;
      if (state !== "ready") return { state, notice: document.querySelector("#notice-text")?.textContent ?? "" };
      const send = /** @type {HTMLButtonElement} */ (document.querySelector(DEMO.send));
      await until(() => send && !send.disabled, "the play button never became enabled");
      const before = document.querySelectorAll(DEMO.treeFile).length;
      send.click();
      await until(() => document.querySelectorAll(DEMO.treeFile).length > before, "no memory file appeared in the tree");
      await until(() => /^Done/.test(document.querySelector(DEMO.status)?.textContent ?? ""), "the run never ended");
      return {
        state,
        before,
        files: [...document.querySelectorAll(DEMO.treeFile)].map((e) => e.getAttribute("data-path")),
        status: document.querySelector(DEMO.status)?.textContent,
        problems: [...problems, ...(w.problems ?? [])],
      };
    }, DEMO);
    assert.equal(got.state, "ready", `the demo did not start: ${got.notice}`);
    assert.equal(got.before, 0);
    assert.ok(got.files.length >= 1 && got.files.every((/** @type {unknown} */ p) => typeof p === "string" && p.startsWith("/memories/")), JSON.stringify(got.files));
    assert.match(got.status, /^Done: \d+ requests?, \d+ memory tool calls?\.$/);
    assert.deepEqual(got.problems, []);
    await page.close();
  });
});
