// End to end: the recorded model's second scenario, the multi-session pattern. Session 1 sets up
// /memories/features.md and /memories/progress.md before any work; a new conversation (session
// 2) reads both first and resumes from what they say now (a feature the user ticked in the
// memory browser is skipped), then updates both before it ends; replaying session 1 on a
// project under way overwrites nothing. All through the SDK's tool runner, on IndexedDB.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startDemo, openDemo, waitForTree, screenshot } from "./demo-lib.mjs";
import { recordedConversations } from "../../www/agent/scripted-model.js";

const FEATURES = "/memories/features.md";
const PROGRESS = "/memories/progress.md";
const [, , SESSION_1, SESSION_2] = recordedConversations();

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

before(async () => {
  demo = await startDemo();
  page = await openDemo(demo.context, `${demo.base}?store=sessions&replayDelay=0`, demo.problems);
});

after(async () => {
  await demo?.close();
});

/** Sends what the composer holds; resolves with the status line once the run ended. */
async function send() {
  const runs = Number(await page.locator("#transcript").getAttribute("data-runs"));
  await page.locator("#agent-input").focus();
  await page.keyboard.press("Control+Enter");
  await page.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
  return page.locator("#agent-status").textContent();
}

/** The tool calls of the transcript, as `label status`. */
function calls() {
  return page
    .locator('#transcript [data-testid="tool-call"]')
    .evaluateAll((cards) => cards.map((c) => `${c.querySelector(".tool-label")?.textContent} ${c.getAttribute("data-status")}`));
}

/** The assistant's last text. */
async function lastText() {
  return (await page.locator('#transcript [data-testid="assistant-text"]').allTextContents()).at(-1);
}

/** A memory's content, through the host API. @param {string} path a store path */
function stored(path) {
  return page.evaluate(async (p) => (await /** @type {any} */ (window).demo.session.memory.memories.getByPath(p)).content, path);
}

describe("the multi-session pattern, recorded", () => {
  it("session 1 writes a feature list and a progress log before any work", async () => {
    await page.locator("#scenario-picker").focus();
    await page.locator("#scenario-picker").selectOption("project");
    assert.equal(await page.locator("#agent-input").inputValue(), SESSION_1.exchanges[0].user);
    assert.equal(await send(), "Done: 3 requests, 3 memory tool calls.");
    assert.deepEqual(await calls(), ["view /memories ok", `create ${FEATURES} ok`, `create ${PROGRESS} ok`]);
    await waitForTree(page, [FEATURES, PROGRESS]);
    assert.equal(
      await stored("/features.md"),
      "# Features\n- [ ] 1. Add a recipe (title, ingredients, steps)\n- [ ] 2. List the recipes\n- [ ] 3. Search recipes by ingredient\n",
    );
    assert.equal(
      await stored("/progress.md"),
      "# Progress\nA feature is done only once it works end to end.\n\n## Session 1\n" +
        "- Set up progress.md (this log) and features.md (what the app must do).\n- Next: Add a recipe (title, ingredients, steps).\n",
    );
    assert.match((await lastText()) ?? "", /^My memory is set up: features\.md lists 3 features, none done yet/);
  });

  it("session 2, a new conversation, resumes from what the notes say now and updates them at the end", async () => {
    // The user did feature 1 by hand and ticked it in the memory browser.
    await page.locator(`#tree [data-path="${FEATURES}"]`).click();
    await page.locator("#file-tab-edit").click();
    const editor = page.locator('[data-testid="edit-content"]');
    await editor.fill((await editor.inputValue()).replace("- [ ] 1.", "- [x] 1."));
    await page.locator('[data-testid="edit-save"]').click();
    await page.locator('[data-testid="edit-state"]', { hasText: "Saved as a new version" }).waitFor();

    await page.locator("#agent-new").click();
    assert.equal(await page.locator('#transcript [data-testid="tool-call"]').count(), 0, "a new conversation starts empty");
    assert.equal(await page.locator("#agent-input").inputValue(), SESSION_2.exchanges[0].user);
    assert.equal(await send(), "Done: 4 requests, 5 memory tool calls.");
    assert.deepEqual(await calls(), [
      "view /memories ok",
      `view ${PROGRESS} ok`,
      `view ${FEATURES} ok`,
      `str_replace ${FEATURES} ok`,
      `insert ${PROGRESS} ok`,
    ]);
    const texts = await page.locator('#transcript [data-testid="assistant-text"]').allTextContents();
    assert.equal(
      texts.at(-2),
      "My progress log ends with session 1, which said next: Add a recipe (title, ingredients, steps). The feature list has 1 of 3 done. " +
        "So this is session 2, and the feature to do is “2. List the recipes”. (In this recording the work itself is not done; the model records it as it would.) " +
        "It works end to end, so I'll mark it done and log the session before we stop.",
    );
    assert.equal(
      texts.at(-1),
      "Updated: features.md marks “2. List the recipes” done, and progress.md logs session 2, with “3. Search recipes by ingredient” next. The next session starts from there.",
    );
    assert.match(await stored("/features.md"), /- \[x\] 1\. .*\n- \[x\] 2\. List the recipes\n- \[ \] 3\./);
    assert.match(
      await stored("/progress.md"),
      /## Session 1\n.*\n- Next: Add a recipe \(title, ingredients, steps\)\.\n## Session 2\n- Done: 2\. List the recipes \(checked end to end\)\.\n- Next: 3\. Search recipes by ingredient\.\n$/,
    );
    await screenshot(page, "17-agent-session-resumed");
  });

  it("session 1 replayed on a project under way overwrites nothing; session 3 goes on", async () => {
    await page.locator("#agent-new").click();
    assert.equal(await page.locator("#agent-input").inputValue(), SESSION_1.exchanges[0].user);
    const before = [await stored("/features.md"), await stored("/progress.md")];
    assert.equal(await send(), "Done: 3 requests, 3 memory tool calls.");
    assert.deepEqual(await calls(), ["view /memories ok", `view ${PROGRESS} ok`, `view ${FEATURES} ok`]);
    assert.match((await lastText()) ?? "", /^A project is already under way here, so I haven't overwritten anything\. My progress log ends with session 2, which said next: 3\. Search recipes by ingredient\. The feature list has 2 of 3 done\./);
    assert.deepEqual([await stored("/features.md"), await stored("/progress.md")], before);

    await page.locator("#agent-new").click();
    assert.equal(await send(), "Done: 4 requests, 5 memory tool calls.");
    assert.match((await lastText()) ?? "", /logs session 3; every feature is done now\./);
    // Session 1 again (the scenario starts over), then a session with nothing left to do.
    await page.locator("#agent-new").click();
    assert.equal(await send(), "Done: 3 requests, 3 memory tool calls.");
    assert.match((await lastText()) ?? "", /The feature list has 3 of 3 done\./);
    await page.locator("#agent-new").click();
    assert.equal(await send(), "Done: 3 requests, 3 memory tool calls.");
    assert.match((await lastText()) ?? "", /Every feature on the list is done: there is nothing left to resume\./);
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
