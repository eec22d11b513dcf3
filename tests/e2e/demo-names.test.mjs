// End to end: every change named in the words people use, in the memory browser's history and
// in the open file's header. A rename (a `modified` version whose path differs from the one
// before) is a rename, not "Modified · No changes: the texts are the same"; the tool console is
// "you, in the tool console"; an edit "you, in the editor"; the model's call "the recorded
// model, in this conversation", linked to its card. (Sync's names are in demo-sync-errors,
// expiry's and repair's in demo-lifecycle; the words themselves in demo-words.)
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startDemo, openDemo, waitForTree, screenshot, playNext, axeViolations } from "./demo-lib.mjs";

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

before(async () => {
  demo = await startDemo();
  page = await openDemo(demo.context, `${demo.base}?store=names&replayDelay=0`, demo.problems);
});

after(async () => {
  await demo?.close();
});

/** Runs one tool command in the demo's console. @param {object} input */
async function runTool(input) {
  await page.locator("#tab-console").click();
  const seq = await page.locator("#result").getAttribute("data-seq");
  await page.locator("#tool-input").fill(JSON.stringify(input));
  await page.locator("#run-button").click();
  await page.locator(`#result:not([data-seq="${seq}"])`).waitFor();
  await page.locator("#tab-agent").click();
}

/** Opens a file's history; resolves with its versions' lines, newest first. @param {string} path @param {number} count */
async function historyOf(path, count) {
  await page.locator(`#tree [data-testid="tree-file"][data-path="${path}"]`).click();
  await page.locator(`#viewer[data-path="${path}"]`).waitFor();
  await page.locator("#file-tab-history").click();
  await page.locator('#file-history [data-testid="version"]').nth(count - 1).waitFor();
  return page.locator('#file-history [data-testid="version"]').allTextContents();
}

describe("every change named", () => {
  it("a rename is shown as a rename, with both paths; the console is “you, in the tool console”", async () => {
    await runTool({ command: "create", path: "/memories/draft.md", file_text: "- an idea\n" });
    await runTool({ command: "rename", old_path: "/memories/draft.md", new_path: "/memories/ideas/kept.md" });
    await waitForTree(page, ["/memories/ideas/kept.md"]);
    const versions = await historyOf("/memories/ideas/kept.md", 2);
    assert.match(versions[0], /^v2renamedcurrent.*you, in the tool console/);
    assert.doesNotMatch(versions[0], /modified/);
    assert.match(
      (await page.locator('#file-history [data-testid="version-title"]').textContent()) ?? "",
      /^Renamed from \/memories\/draft\.md to \/memories\/ideas\/kept\.md · memver_/,
    );
    // Its changes: the rename, said; not "no changes".
    assert.equal(
      await page.locator('#file-history [data-testid="version-diff-same"]').textContent(),
      "Renamed from /memories/draft.md to /memories/ideas/kept.md; the text is the same.",
    );
    assert.doesNotMatch((await page.locator("#file-history").textContent()) ?? "", /No changes: the texts are the same/);
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "79-names-rename");
  });

  it("a rename that changed the text too says both", async () => {
    await page.evaluate(async () => {
      const { memories } = /** @type {any} */ (window).demo.session.memory;
      const m = await memories.getByPath("/ideas/kept.md");
      await memories.update(m.id, { path: "/ideas/better.md", content: "- a better idea\n" });
    });
    await waitForTree(page, ["/memories/ideas/better.md"]);
    const versions = await historyOf("/memories/ideas/better.md", 3);
    assert.match(versions[0], /^v3renamedcurrent.*you, in the editor/);
    await page.locator('#file-history [data-testid="version"]').first().click();
    await page.locator('#file-history [data-testid="version-title"]', { hasText: "Renamed from /memories/ideas/kept.md to /memories/ideas/better.md, and its text changed" }).waitFor();
    assert.equal(await page.locator('#file-history [data-testid="version-diff-stats"]').textContent(), "1 line added, 1 removed");
  });

  it("the model's call is “the recorded model, in this conversation”, leading to its card", async () => {
    assert.match((await playNext(page)) ?? "", /^Done/);
    await waitForTree(page, ["/memories/ideas/better.md", "/memories/profile.md", "/memories/trips/lisbon.md"]);
    await page.locator('#tree [data-path="/memories/profile.md"]').click();
    await page.locator('#viewer [data-testid="viewer-origin"][data-version-id]').waitFor();
    assert.equal(await page.locator('#viewer [data-testid="viewer-origin"]').textContent(), "Last change by the recorded model, in this conversation");
    await page.locator('#viewer [data-testid="viewer-origin-link"]').click();
    assert.match((await page.evaluate(() => document.activeElement?.closest('[data-testid="tool-call"]')?.querySelector(".tool-label")?.textContent)) ?? "", /^create \/memories\/profile\.md$/);
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
