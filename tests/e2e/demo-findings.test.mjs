// End to end: the memory browser's smaller promises, each once broken. Unsaved text survives
// the memory being deleted in another tab; the editor's Path field refuses a path outside
// /memories instead of quietly moving the memory under it; an upload asks before it replaces
// a file of the same name; an archived store offers no import; switching stores clears what
// was said about the last one.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startDemo, openDemo, waitForTree, screenshot } from "./demo-lib.mjs";

const NOTE = "/memories/note.md";

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;

before(async () => {
  demo = await startDemo();
});

after(async () => {
  await demo?.close();
});

/**
 * Runs `fn(memory, arg)` in the page with its open store's MemoryTool.
 * @template T
 * @param {import("playwright-core").Page} tab @param {(memory: any, arg: T) => Promise<unknown>} fn @param {T} [arg]
 */
function host(tab, fn, arg) {
  return tab.evaluate(([source, a]) => new Function("memory", "arg", `return (${source})(memory, arg)`)(/** @type {any} */ (window).demo.session.memory, a), [
    fn.toString(),
    arg,
  ]);
}

/** Opens the demo on `store` with one note in it, the note open in the editor. */
async function editing(/** @type {string} */ store) {
  const tab = await openDemo(demo.context, `${demo.base}?store=${store}`, demo.problems, { newTab: true });
  await host(tab, (memory) => memory.memories.create({ path: "/note.md", content: "first line\n" }));
  await waitForTree(tab, [NOTE]);
  await tab.locator(`#tree [data-path="${NOTE}"]`).click();
  await tab.locator(`#viewer[data-path="${NOTE}"]`).waitFor();
  await tab.locator("#file-tab-edit").click();
  await tab.locator('[data-testid="edit-content"]').waitFor();
  return tab;
}

describe("the memory browser keeps its promises", () => {
  it("unsaved text stays when the memory is deleted in another tab, with the choice to save it anew", async () => {
    const tab = await editing("findings-deleted");
    const content = tab.locator('[data-testid="edit-content"]');
    await content.fill("first line\nmy unsaved second line\n");
    const other = await openDemo(demo.context, `${demo.base}?store=findings-deleted`, demo.problems, { newTab: true });
    await host(other, async (memory) => memory.memories.delete((await memory.memories.getByPath("/note.md")).id));
    await other.close();
    await waitForTree(tab, []);
    await tab.locator('[data-testid="conflict"]:not([hidden])').waitFor();
    assert.equal(await tab.locator("#conflict-title").textContent(), "This memory was deleted meanwhile");
    assert.equal(await content.isVisible(), true, "the editor is still there");
    assert.equal(await tab.locator('[data-testid="edit-banner"]').isHidden(), true, "no stale 'changed' warning beside it");
    assert.equal(await content.inputValue(), "first line\nmy unsaved second line\n");
    await screenshot(tab, "34-deleted-meanwhile");
    await tab.locator('[data-testid="deleted-save-new"]').click();
    await waitForTree(tab, [NOTE]);
    const saved = await host(tab, async (memory) => (await memory.memories.getByPath("/note.md")).content);
    assert.equal(saved, "first line\nmy unsaved second line\n");
    await tab.close();
  });

  it("the Path field refuses a path outside /memories, in words, and moves nothing", async () => {
    const tab = await editing("findings-path");
    await tab.locator('[data-testid="edit-path"]').fill("/etc/passwd");
    await tab.locator('[data-testid="edit-save"]').click();
    assert.match(
      (await tab.locator('[data-testid="edit-state"]').textContent()) ?? "",
      /^Not saved: a memory's path starts with \/memories\/ \(for example \/memories\/etc\/passwd\)\.$/,
    );
    assert.equal(await tab.evaluate(() => document.activeElement?.id), "edit-path");
    const paths = await host(tab, async (memory) => (await memory.memories.list()).map((/** @type {any} */ m) => m.path));
    assert.deepEqual(paths, ["/note.md"]);
    await tab.close();
  });

  it("an upload asks before it replaces a file of the same name", async () => {
    const tab = await editing("findings-upload");
    await tab.locator("#upload-dir").fill("/memories/");
    /** @type {string[]} */
    const asked = [];
    tab.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await tab.locator("#upload-input").setInputFiles({ name: "note.md", mimeType: "text/markdown", buffer: Buffer.from("uploaded\n") });
    await tab.locator("#activity", { hasText: "Not uploaded" }).waitFor();
    assert.deepEqual(asked, [`${NOTE} already exists. Replace it with the uploaded “note.md”? Its current text stays in the history.`]);
    assert.equal(await host(tab, async (memory) => (await memory.memories.getByPath("/note.md")).content), "first line\n");
    tab.once("dialog", (dialog) => void dialog.accept());
    await tab.locator("#upload-input").setInputFiles({ name: "note.md", mimeType: "text/markdown", buffer: Buffer.from("uploaded\n") });
    await tab.waitForFunction(async () => {
      const m = await /** @type {any} */ (window).demo.session.memory.memories.getByPath("/note.md");
      return m.content === "uploaded\n";
    });
    await tab.close();
  });

  it("an archived store offers no import or upload; another store's status lines do not linger", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=findings-archive`, demo.problems, { newTab: true });
    await tab.locator("#store-data > summary").click();
    await tab.locator("#export-button").click();
    await tab.locator("#bundle-status", { hasText: "Exported" }).waitFor();
    // Archive it (the page's own catalog, as the picker's Archive button does), then reopen it.
    await tab.evaluate(async () => {
      const { session } = /** @type {any} */ (window).demo;
      const archived = await session.catalog.archive(session.store.id);
      await session.switchTo(archived);
    });
    await tab.locator("#upload-button:disabled").waitFor({ state: "attached" });
    assert.equal(await tab.locator("#import-button").isDisabled(), true, "no import into an archived store");
    assert.equal(await tab.locator("#upload-dir").isDisabled(), true);
    assert.equal(await tab.locator("#bundle-status").textContent(), "", "what was said about the store before is gone");
    await tab.close();
  });

  it("a restore by keyboard keeps focus in the history, and the history says what came back", async () => {
    const tab = await editing("findings-restore");
    await host(tab, async (memory) => {
      const note = await memory.memories.getByPath("/note.md");
      await memory.memories.update(note.id, { content: "second text\n" });
    });
    await tab.locator("#file-tab-history").click();
    const versions = tab.locator('#file-history [data-testid="version"]');
    await versions.nth(1).waitFor();
    await versions.nth(1).focus(); // v1, "created"
    await tab.keyboard.press("Enter");
    await tab.locator('#file-history [data-testid="version"].selected', { hasText: "v1" }).waitFor();
    await tab.locator('[data-testid="restore-version"]').focus();
    await tab.keyboard.press("Enter");
    await versions.nth(2).waitFor();
    await tab.waitForFunction(() => document.activeElement !== document.body);
    const focus = await tab.evaluate(() => ({
      inHistory: Boolean(document.activeElement?.closest("#file-history")),
      version: document.activeElement?.closest("[data-version-id]") ? document.activeElement.textContent : null,
    }));
    assert.equal(focus.inHistory, true, "focus stays in the history after the restore");
    assert.match(focus.version ?? "", /^v3/);
    // Named as the restore it was (the page records its own restores), not "modified".
    assert.match((await versions.nth(0).locator(".op").textContent()) ?? "", /^restored v1$/);
    await tab.close();
  });

  it("Escape closes the new-store form and the import question; focus goes back to what opened them", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=findings-escape`, demo.problems, { newTab: true });
    await tab.locator("#store-new-button").focus();
    await tab.keyboard.press("Enter");
    assert.equal(await tab.evaluate(() => document.activeElement?.id), "new-store-name");
    await tab.keyboard.type("Half typed");
    await tab.keyboard.press("Escape");
    assert.equal(await tab.locator("#store-create").isHidden(), true);
    assert.equal(await tab.evaluate(() => document.activeElement?.id), "store-new-button");

    await tab.locator("#store-data > summary").click();
    await host(tab, (memory) => memory.memories.create({ path: "/a.md", content: "a\n" }));
    const bundle = JSON.stringify(await host(tab, (memory) => memory.export({})));
    await tab.locator("#import-input").setInputFiles({ name: "b.json", mimeType: "application/json", buffer: Buffer.from(bundle) });
    const question = tab.locator('[data-testid="import-confirm"]');
    await question.waitFor();
    await tab.keyboard.press("Escape");
    assert.equal(await question.isHidden(), true);
    assert.equal(await tab.evaluate(() => document.activeElement?.id), "import-button");
    await tab.close();
  });

  it("with no IndexedDB, the notice says so (not that a store id was not found)", async () => {
    const tab = await demo.context.newPage();
    await tab.addInitScript(() => Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true }));
    await tab.goto(`${demo.base}?store=findings-no-idb`);
    await tab.waitForFunction(() => document.documentElement.dataset.state === "failed");
    const text = (await tab.locator("#notice-text").textContent()) ?? "";
    assert.doesNotMatch(text, /not found|memstore_/i, text);
    assert.match(text, /^This browser gives the page no IndexedDB/);
    await tab.close();
  });

  it("logged no errors in the pages", () => {
    assert.deepEqual(demo.problems, []);
  });
});
