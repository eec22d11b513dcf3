// End to end: the recorded model's second scenario, the multi-session pattern. Session 1 sets up
// /memories/features.md and /memories/progress.md before any work; a new conversation (session
// 2) reads both first and resumes from what they say now (a feature the user ticked in the
// memory browser is skipped), then logs the session as it went: this recording writes no code,
// so it marks nothing done and never claims a check it did not make; replaying session 1 on a
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

/** Plays the recording's next message from the keyboard; resolves with the status line once the run ended. */
async function send() {
  const runs = Number(await page.locator("#transcript").getAttribute("data-runs"));
  await page.locator("#agent-play").focus();
  await page.keyboard.press("Enter");
  await page.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
  return page.locator("#agent-status").textContent();
}

/** The recording's next message, as the page shows it. */
function nextLine() {
  return page.locator('[data-testid="next-line-text"]').textContent();
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
    assert.equal(await nextLine(), `“${SESSION_1.exchanges[0].user}”`);
    assert.equal(await send(), "Done: 3 requests, 3 memory tool calls.");
    assert.deepEqual(await calls(), ["view /memories ok", `create ${FEATURES} ok`, `create ${PROGRESS} ok`]);
    assert.equal((await page.locator('#transcript [data-testid="assistant-text"]').allTextContents())[1], "My memory is empty: no project under way. I'll write the feature list and a progress log before any work, so that a later session can resume from them.");
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
    assert.equal(await nextLine(), `“${SESSION_2.exchanges[0].user}”`);
    const before = await stored("/features.md");
    assert.equal(await send(), "Done: 4 requests, 4 memory tool calls.");
    assert.deepEqual(await calls(), [
      "view /memories ok",
      `view ${PROGRESS} ok`,
      `view ${FEATURES} ok`,
      `insert ${PROGRESS} ok`,
    ]);
    const texts = await page.locator('#transcript [data-testid="assistant-text"]').allTextContents();
    assert.equal(
      texts.at(-2),
      "My progress log ends with session 1, which said next: Add a recipe (title, ingredients, steps). The feature list has 1 of 3 done. " +
        "So this is session 2, and the feature to do is “2. List the recipes”. This recording writes no code, so the feature is not built " +
        "and cannot be checked end to end: I won't mark it done. I'll log the session as it really went.",
    );
    assert.equal(
      texts.at(-1),
      "Logged session 2 in progress.md: “2. List the recipes” stays open, and features.md is unchanged, because nothing was built or checked in this recording. " +
        "A session that builds the feature marks it done once it works end to end; this one starts from the log.",
    );
    // Its words agree with what it did: nothing claimed done, nothing marked done.
    for (const text of texts) assert.doesNotMatch(text, /It works end to end|mark it done and|checked end to end\)/);
    assert.equal(await stored("/features.md"), before);
    assert.match(
      await stored("/progress.md"),
      /## Session 1\n.*\n- Next: Add a recipe \(title, ingredients, steps\)\.\n## Session 2\n- Picked: 2\. List the recipes\.\n- Not done: no code was written in this recorded session, so nothing was checked end to end; the feature stays open\.\n- Next: 2\. List the recipes\.\n$/,
    );
    assert.doesNotMatch(await stored("/progress.md"), /Done:/);
    await screenshot(page, "17-agent-session-resumed");
  });

  it("session 1 replayed on a project under way overwrites nothing; session 3 goes on from the log", async () => {
    await page.locator("#agent-new").click();
    assert.equal(await nextLine(), `“${SESSION_1.exchanges[0].user}”`);
    const before = [await stored("/features.md"), await stored("/progress.md")];
    assert.equal(await send(), "Done: 3 requests, 3 memory tool calls.");
    assert.deepEqual(await calls(), ["view /memories ok", `view ${PROGRESS} ok`, `view ${FEATURES} ok`]);
    assert.match((await lastText()) ?? "", /^A project is already under way here, so I haven't overwritten anything\. My progress log ends with session 2, which said next: 2\. List the recipes\. The feature list has 1 of 3 done\./);
    assert.deepEqual([await stored("/features.md"), await stored("/progress.md")], before);

    // The user ticks feature 2 (they built and checked it); session 3 moves on to feature 3.
    await page.locator(`#tree [data-path="${FEATURES}"]`).click();
    await page.locator("#file-tab-edit").click();
    const editor = page.locator('[data-testid="edit-content"]');
    await editor.fill((await editor.inputValue()).replace("- [ ] 2.", "- [x] 2."));
    await page.locator('[data-testid="edit-save"]').click();
    await page.locator('[data-testid="edit-state"]', { hasText: "Saved as a new version" }).waitFor();
    await page.locator("#agent-new").click();
    assert.equal(await send(), "Done: 4 requests, 4 memory tool calls.");
    assert.match((await lastText()) ?? "", /^Logged session 3 in progress\.md: “3\. Search recipes by ingredient” stays open/);
    // With every feature ticked, there is nothing left to resume.
    await page.locator("#file-tab-edit").click();
    await editor.fill((await editor.inputValue()).replace("- [ ] 3.", "- [x] 3."));
    await page.locator('[data-testid="edit-save"]').click();
    await page.locator('[data-testid="edit-state"]', { hasText: "Saved as a new version" }).waitFor();
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
