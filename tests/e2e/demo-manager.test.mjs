// End to end: the memory browser as a memory manager. A new file from the browser, straight
// into the editor; search across paths and texts with the matches marked; the most recently
// changed first; delete (to "Recently deleted", restorable) and download one memory; a big
// store starts with its folders folded; the summary says what the store holds.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { startDemo, openDemo, waitForTree, treePaths, screenshot } from "./demo-lib.mjs";

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

before(async () => {
  demo = await startDemo();
  page = await openDemo(demo.context, `${demo.base}?store=manager`, demo.problems);
});

after(async () => {
  await demo?.close();
});

/** Writes memories through the page's host API. @param {Array<[string, string]>} notes */
function seed(notes) {
  return page.evaluate(async (list) => {
    const { memories } = /** @type {any} */ (window).demo.session.memory;
    for (const [path, content] of list) await memories.create({ path, content });
  }, notes);
}

describe("the memory manager", () => {
  it("creates a file from the browser and opens it in the editor, by keyboard", async () => {
    await page.locator("#new-file-button").focus();
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "new-file-path");
    await page.keyboard.type("shopping.md");
    await page.keyboard.press("Enter");
    assert.match((await page.locator("#new-file-problem").textContent()) ?? "", /^$|starts with/);
    await waitForTree(page, ["/memories/shopping.md"]);
    await page.locator('#viewer[data-path="/memories/shopping.md"]').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "edit-content");
    await page.keyboard.type("- oat milk\n- bread\n");
    await page.keyboard.press("Control+s");
    await page.locator('[data-testid="edit-state"]', { hasText: "Saved as a new version" }).waitFor();
  });

  it("searches paths and texts, with the matches marked", async () => {
    await seed([
      ["/recipes/pancakes.md", "# Pancakes\n- 2 eggs\n- 250 ml milk\n"],
      ["/people/milka.md", "# Milka\n- likes tea\n"],
      ["/trips/lisbon.md", "# Lisbon\n- dates: 2–6 June\n"],
    ]);
    await waitForTree(page, ["/memories/people/milka.md", "/memories/recipes/pancakes.md", "/memories/shopping.md", "/memories/trips/lisbon.md"]);
    await page.locator("#tree-search").fill("MILK");
    await page.locator('#tree[data-search="MILK"]').waitFor({ state: "attached" });
    assert.deepEqual(await treePaths(page), ["/memories/people/milka.md", "/memories/recipes/pancakes.md", "/memories/shopping.md"]);
    assert.equal(await page.locator("#search-status").textContent(), "3 of 4 files match “MILK”.");
    assert.deepEqual(await page.locator("#tree mark").allTextContents(), ["milk", "Milk", "milk", "milk"]);
    assert.deepEqual(await page.locator('#tree [data-testid="search-snippet"]').allTextContents(), ["# Milka", "- 250 ml milk", "- oat milk"]);
    await screenshot(page, "35-manager-search");
    await page.locator("#tree-search").fill("nothing-like-this");
    await page.locator('#tree [data-testid="flat-empty"]').waitFor();
    await page.locator("#tree-search").fill("");
  });

  it("shows the most recently changed first, and says what the store holds", async () => {
    await page.locator("#tree-sort").selectOption("recent");
    await page.locator('#tree [data-testid="flat-list"]').waitFor();
    assert.deepEqual(await treePaths(page), [
      "/memories/trips/lisbon.md",
      "/memories/people/milka.md",
      "/memories/recipes/pancakes.md",
      "/memories/shopping.md",
    ]);
    assert.match((await page.locator("#store-summary").textContent()) ?? "", /^4 files, [\d,]+ bytes in all; last changed: \/memories\/trips\/lisbon\.md, /);
    await page.locator("#tree-sort").selectOption("tree");
  });

  it("downloads one memory, and deletes one to “Recently deleted”, restorable", async () => {
    await page.locator('#tree [data-path="/memories/recipes/pancakes.md"]').click();
    await page.locator('#viewer[data-path="/memories/recipes/pancakes.md"]').waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator('[data-testid="file-download"]').click()]);
    assert.equal(download.suggestedFilename(), "pancakes.md");
    assert.equal(await readFile(/** @type {string} */ (await download.path()), "utf8"), "# Pancakes\n- 2 eggs\n- 250 ml milk\n");

    /** @type {string[]} */
    const asked = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.locator('[data-testid="file-delete"]').click();
    await waitForTree(page, ["/memories/people/milka.md", "/memories/shopping.md", "/memories/trips/lisbon.md"]);
    assert.deepEqual(asked, ["Delete /memories/recipes/pancakes.md? It goes to “Recently deleted”, where its history can restore it for 30 days."]);
    // Focus lands in the browser's search, not on <body>.
    await page.waitForFunction(() => document.activeElement?.id === "tree-search");
    await page.locator('#deleted [data-testid="deleted-file"][data-path="/memories/recipes/pancakes.md"]').waitFor({ state: "attached" });
  });

  it("a big store starts with its folders folded", async () => {
    await seed(Array.from({ length: 60 }, (_, i) => [`/bulk/f${String(i).padStart(2, "0")}.md`, `${i}\n`]));
    // Wait for the listing with all of them (the tree repaints as the writes arrive).
    await page.waitForFunction(() => document.querySelectorAll('#tree [data-testid="tree-file"]').length === 63);
    assert.equal(await page.locator('#tree details[data-path="/memories/bulk"]').getAttribute("open"), null);
    // The search still finds what is inside.
    await page.locator("#tree-search").fill("f42");
    await page.locator('#tree[data-search="f42"]').waitFor({ state: "attached" });
    assert.deepEqual(await treePaths(page), ["/memories/bulk/f42.md"]);
    await page.locator("#tree-search").fill("");
    await screenshot(page, "36-manager-folded");
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
