// Accessibility: axe-core over the demo page, on every tab, light and dark, desktop and phone,
// with content in it (a conversation with tool cards and the notes of context editing and
// compaction, a console result, a file's history with where each version came from, bulk
// selection on, the overview of the agent's memory with a store checked and the site's storage,
// the expiry section with memories due within a week, the export and storage section open), then
// offline again after a reload (the recording's next line, the key form open, the notice of
// memories expired as the store opened), and with the alert of a store deleted outside the page.
// (The error states are checked where the tests reach them: demo-errors, demo-sync-errors.) Zero violations is the bar; each one
// is listed with its nodes.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { startDemo, openDemo, screenshot, fakeMessagesApi, betaMessage, LAPTOP, PHONE, moveClock, setClock, reopenAt, deleteStoreFromAnotherTab, useApiKey } from "./demo-lib.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** @type {Awaited<ReturnType<typeof fakeMessagesApi>>} */ let api;
/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

before(async () => {
  // The live agent's answer: a request whose context the API edited, past the compaction threshold.
  api = await fakeMessagesApi((body) =>
    body.compaction
      ? betaMessage({ id: "msg_axe_c", content: [{ type: "compaction", content: "The user asked for a summary test.", encrypted_content: null }], stop_reason: "compaction" })
      : betaMessage({
          id: "msg_axe_1",
          content: [{ type: "text", text: "Noted.", citations: null }],
          stop_reason: "end_turn",
          input_tokens: 200000,
          context_management: { applied_edits: [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 2, cleared_input_tokens: 8000 }] },
        }),
  );
  demo = await startDemo({ apiBaseUrl: api.baseURL });
  await moveClock(demo.context);
  page = await openDemo(demo.context, `${demo.base}?store=axe&replayDelay=0`, demo.problems);
  // Content to check: a conversation (tool cards, one opened), a file in the viewer.
  await page.locator("#agent-play").click();
  await page.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
  await page.locator('#transcript [data-testid="tool-call"] > summary').first().click();
  await page.locator('#tree [data-path="/memories/profile.md"]').click();
  await page.locator('#viewer[data-path="/memories/profile.md"]').waitFor();
  await page.locator("#store-data > summary").click();
  // Where the open file came from (a link to the tool call), bulk selection with one ticked, the overview.
  await page.locator('#viewer [data-testid="viewer-origin-link"]').waitFor();
  await page.locator("#pick-button").click();
  await page.locator("#tree input.pick").first().check();
  await page.locator("#overview > summary").click();
  await page.locator('#overview [data-testid="overview-store"]').waitFor();
  await page.locator('#overview [data-testid="check-store"]').click();
  await page.locator('#overview [data-testid="check-result"]').waitFor();
  // 25 days on: the agent's notes are due to expire within a week.
  await setClock(page, 25);
  await page.locator("#expiry > summary").click();
  await page.locator("#refresh-button").click();
  await page.locator('#expiry [data-testid="expiry-soon"] [data-testid="expiry-keep"]').first().waitFor();
  // A live exchange: the notes of context editing and compaction in the conversation.
  await useApiKey(page, "sk-ant-e2e-0123456789-abcdefghijklmnopqrstuvwxyz");
  await page.locator('#model-picker option[value="claude-e2e-model"]').waitFor({ state: "attached" });
  await page.locator("#agent-input").fill("A long conversation.");
  await page.locator("#agent-send").click();
  await page.locator('#transcript[data-runs="2"]').waitFor({ state: "attached" });
  await page.locator('#transcript [data-testid="context-compacted"] summary').click();
  await page.locator('#transcript [data-testid="context-cleared"]').waitFor();
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
  await api?.close();
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
          if (tab === "agent") await screenshot(page, `41-axe-agent-${size}-${scheme}`);
        });
      }
    }
  }

  it("offline again after a reload: the recording's next line, the key form open, the notice of memories expired as the store opened", async () => {
    await page.locator("#tab-agent").click();
    if ((await page.locator("#own-key").getAttribute("open")) === null) await page.locator("#own-key > summary").click();
    await page.locator("#key-forget").click();
    // 60 days on, the notes written on day 0 expire when the store opens.
    await reopenAt(page, 60);
    await page.locator('[data-testid="expired-notice"]').waitFor();
    await page.locator('[data-testid="reloaded-note"]').waitFor();
    await page.locator("#own-key > summary").click();
    await page.evaluate(await readFile(AXE, "utf8"));
    for (const [size, viewport] of /** @type {const} */ ([["desktop", LAPTOP], ["phone", PHONE]])) {
      for (const scheme of /** @type {const} */ (["light", "dark"])) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        assert.deepEqual(await violations(), [], `${scheme}, ${size}`);
        await screenshot(page, `43-axe-offline-${size}-${scheme}`);
      }
    }
    await page.setViewportSize(LAPTOP);
    await page.emulateMedia({ colorScheme: "light" });
    // A memory again, for the next case: only a store that held memories is said to have vanished.
    await page.evaluate(() => /** @type {any} */ (window).demo.session.memory.memories.create({ path: "/again.md", content: "- written after the expiry\n" }));
    await page.locator('#tree [data-path="/memories/again.md"]').waitFor();
  });

  it("with the alert of a store deleted outside the page, light and dark, desktop and phone", async () => {
    await deleteStoreFromAnotherTab(page, demo.base);
    await page.locator("#tab-agent").click();
    await page.locator("#refresh-button").click();
    await page.locator('[data-testid="vanished"]').waitFor();
    for (const [size, viewport] of /** @type {const} */ ([["desktop", LAPTOP], ["phone", PHONE]])) {
      for (const scheme of /** @type {const} */ (["light", "dark"])) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        assert.deepEqual(await violations(), [], `${scheme}, ${size}`);
        if (scheme === "dark") await screenshot(page, `42-axe-vanished-${size}-dark`);
      }
    }
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
