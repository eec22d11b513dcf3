// Accessibility: axe-core over the demo page, on every tab, light and dark, desktop and phone,
// with content in it (a conversation with tool cards, a console result, a file's history, the
// export and storage section open). Zero violations is the bar; each one is listed with its nodes.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { startDemo, openDemo, screenshot, LAPTOP, PHONE } from "./demo-lib.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

before(async () => {
  demo = await startDemo();
  page = await openDemo(demo.context, `${demo.base}?store=axe&replayDelay=0`, demo.problems);
  // Content to check: a conversation (tool cards, one opened), a file in the viewer.
  await page.locator("#agent-send").click();
  await page.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
  await page.locator('#transcript [data-testid="tool-call"] > summary').first().click();
  await page.locator('#tree [data-path="/memories/profile.md"]').click();
  await page.locator('#viewer[data-path="/memories/profile.md"]').waitFor();
  await page.locator("#store-data > summary").click();
  // A console result (an error one), and the history of the open file.
  await page.locator("#tab-console").click();
  await page.locator("#example-picker").selectOption("error-missing");
  await page.locator("#run-button").click();
  await page.locator('#result:not([data-seq="0"])').waitFor();
  await page.locator("#file-tab-history").click();
  await page.locator('#file-history [data-testid="version"]').first().waitFor();
  // Not a <script> tag: the page's Content-Security-Policy refuses inline scripts. Evaluated
  // through the DevTools protocol, axe is not the page's script and the policy lets it be.
  await page.evaluate(await readFile(AXE, "utf8"));
});

after(async () => {
  await demo?.close();
});

/** axe's violations on the page as it is now, one line each. */
async function violations() {
  const found = await page.evaluate(async () => {
    const result = await /** @type {any} */ (window).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((/** @type {any} */ n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`),
    }));
  });
  return found.map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).join(" | ")}`);
}

describe("axe-core finds nothing", () => {
  for (const [size, viewport] of /** @type {const} */ ([["desktop", LAPTOP], ["phone", PHONE]])) {
    for (const scheme of /** @type {const} */ (["light", "dark"])) {
      for (const tab of ["agent", "console"]) {
        it(`${tab} tab, ${scheme}, ${size}`, async () => {
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme: scheme });
          await page.locator(`#tab-${tab}`).click();
          await page.locator(`#${tab}:not([hidden])`).waitFor();
          assert.deepEqual(await violations(), []);
          if (tab === "console" && scheme === "dark") await screenshot(page, `40-axe-console-${size}-dark`);
        });
      }
    }
  }

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
