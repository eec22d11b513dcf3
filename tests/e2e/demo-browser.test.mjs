// End to end: the demo's memory browser in headless Chromium over real IndexedDB. A memory's
// history (every version, a line diff between any two), restoring and redacting versions, two
// tabs seeing each other's changes live, an edit conflict and its three ways out, export and
// import of a bundle, storage use and persistence, and the store picker.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { startDemo, openDemo, waitReady, treePaths, waitForTree, screenshot, sidewaysOverflow, ARTIFACTS, PHONE, LAPTOP } from "./demo-lib.mjs";

const TODO = "/memories/notes/todo.md";
const V1 = "# Todo\n- buy milk\n";
const V2 = "# Todo\n- buy oat milk\n";
const V3 = "# Todo\n- buy oat milk\n- call mum\n";

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;
/** @type {import("playwright-core").Page} */ let other;

before(async () => {
  demo = await startDemo();
  page = await openDemo(demo.context, demo.base, demo.problems);
  // Three versions of one memory, through the host API (as an app would write them).
  await host(page, async (memory) => {
    const note = await memory.memories.create({ path: "/notes/todo.md", content: "# Todo\n- buy milk\n" });
    const v2 = await memory.memories.update(note.id, { content: "# Todo\n- buy oat milk\n" });
    await memory.memories.update(note.id, { content: "# Todo\n- buy oat milk\n- call mum\n", precondition: { type: "content_sha256", content_sha256: v2.content_sha256 } });
    await memory.memories.create({ path: "/people/ada.md", content: "Ada likes tea.\n" });
  });
  await waitForTree(page, [TODO, "/memories/people/ada.md"]);
});

after(async () => {
  await demo?.close();
});

/**
 * Runs `body(memory)` in a tab, with the page's open MemoryTool (the host API).
 * @template T
 * @param {import("playwright-core").Page} tab
 * @param {(memory: any, arg: any) => Promise<T>} body
 * @param {unknown} [arg]
 * @returns {Promise<T>}
 */
function host(tab, body, arg) {
  return tab.evaluate(
    async ([source, value]) => {
      const run = new Function("memory", "arg", `return (${source})(memory, arg);`);
      return run(/** @type {any} */ (window).demo.session.memory, value);
    },
    [body.toString(), arg],
  );
}

/** The stored content of a memory by its store path. */
function stored(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ storePath) {
  return host(tab, async (memory, p) => (await memory.memories.getByPath(p)).content, storePath);
}

/** Opens a file's history tab and waits for it. */
async function openHistory(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ file) {
  await tab.locator(`#tree [data-path="${file}"]`).click();
  await tab.locator("#file-tab-history").click();
  await tab.locator(`#viewer[data-path="${file}"] [data-testid="version-detail"]`).waitFor();
}

/** The version rows, newest first: [operation, redacted, current]. */
function versionRows(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#file-history [data-testid="version"]').evaluateAll((rows) =>
    rows.map((r) => [r.getAttribute("data-operation"), r.getAttribute("data-redacted") === "true", r.textContent?.includes("current") ?? false]),
  );
}

/** Clicks version row `index` (0: newest) and waits until its detail is painted. */
async function pickVersion(/** @type {import("playwright-core").Page} */ tab, /** @type {number} */ index) {
  const row = tab.locator('#file-history [data-testid="version"]').nth(index);
  const id = await row.getAttribute("data-version-id");
  await row.click();
  await tab.locator(`#file-history [data-testid="version-detail"][data-version-id="${id}"]`).waitFor({ state: "attached" });
}

/** The diff shown: its lines by kind, and its summary. */
function shownDiff(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ testid) {
  return tab.locator(`[data-testid="${testid}"]`).evaluate((diff, id) => ({
    stats: diff.querySelector(`[data-testid="${id}-stats"]`)?.textContent,
    lines: [...diff.querySelectorAll(".diff-line")].map((l) => `${l.querySelector(".sign")?.textContent}${l.querySelector(".code")?.textContent}`),
  }), testid);
}

describe("the memory browser", () => {
  it("shows every version of a memory, and a line diff between any two", async () => {
    await openHistory(page, TODO);
    assert.deepEqual(await versionRows(page), [
      ["modified", false, true],
      ["modified", false, false],
      ["created", false, false],
    ]);
    // The newest against the one before: one line added.
    assert.deepEqual(await shownDiff(page, "version-diff"), {
      stats: "1 line added, 0 removed",
      lines: [" # Todo", " - buy oat milk", "+- call mum", " "],
    });
    assert.match((await page.locator('[data-testid="head-note"]').textContent()) ?? "", /current version/);
    assert.equal(await page.locator('[data-testid="restore-version"]').isDisabled(), true);
    assert.equal(await page.locator('[data-testid="redact-version"]').isDisabled(), true);

    await pickVersion(page, 1);
    assert.deepEqual((await shownDiff(page, "version-diff")).lines, [" # Todo", "−- buy milk", "+- buy oat milk", " "]);
    // Compared with the current version instead.
    await page.locator("#compare-with").selectOption("head");
    await page.locator('[data-testid="version-diff-stats"]', { hasText: "0 lines added, 1 removed" }).waitFor();
    // The content itself, with line numbers.
    await page.locator('[data-testid="history-mode-content"]').click();
    await page.locator('[data-testid="version-content"]').waitFor();
    assert.deepEqual(
      await page.locator('[data-testid="version-content"] .line').evaluateAll((ls) => ls.map((l) => l.textContent)),
      ["1# Todo", "2- buy oat milk", "3"],
    );
    await page.locator('[data-testid="history-mode-changes"]').click();
    await screenshot(page, "20-history-diff");
  });

  it("restores an old version as a new version", async () => {
    await pickVersion(page, 2); // v1, "created"
    await page.locator('[data-testid="restore-version"]').click();
    await page.locator('#file-history [data-testid="version"]').nth(3).waitFor();
    assert.deepEqual(await versionRows(page), [
      ["modified", false, true],
      ["modified", false, false],
      ["modified", false, false],
      ["created", false, false],
    ]);
    assert.equal(await page.locator("#activity").textContent(), `Restored: ${TODO} is back to v1, as a new version.`);
    assert.equal(await stored(page, "/notes/todo.md"), V1);
    // The new head against v3: the restore undid both edits.
    await page.locator('[data-testid="version-diff-stats"]', { hasText: "1 line added, 2 removed" }).waitFor();
    assert.deepEqual((await shownDiff(page, "version-diff")).lines, [" # Todo", "−- buy oat milk", "−- call mum", "+- buy milk", " "]);
    // As the model sees it now.
    await page.locator("#file-tab-view").click();
    await page.locator('#file-view [data-testid="viewer-text"]', { hasText: "- buy milk" }).waitFor();
    assert.equal(
      await page.locator('#file-view [data-testid="viewer-text"]').textContent(),
      `Here's the content of ${TODO} with line numbers:\n     1\t# Todo\n     2\t- buy milk\n     3\t`,
    );
  });

  it("redacts a version for good, never the current one; a reload keeps it so", async () => {
    await page.locator("#file-tab-history").click();
    await page.locator('#file-history [data-testid="version"]').nth(3).waitFor();
    await pickVersion(page, 2); // v2, "buy oat milk"
    const versionId = await page.locator('#file-history [data-testid="version"]').nth(2).getAttribute("data-version-id");
    // Answered as it opens: a dialog blocks the page until it is.
    const asked = new Promise((resolve) => page.once("dialog", (d) => void d.accept().then(() => resolve(d.message()))));
    await page.locator('[data-testid="redact-version"]').click();
    assert.equal(await asked, "Redact v2? Its content, path and hash are erased for good. This cannot be undone.");
    await page.locator('#file-history [data-testid="version"][data-redacted="true"]').waitFor();
    assert.deepEqual((await versionRows(page)).map((r) => r[1]), [false, false, true, false]);
    assert.match((await page.locator('[data-testid="version-detail"]').textContent()) ?? "", /Its content, path and hash were erased for good\./);
    const version = await host(page, async (memory, id) => memory.versions.get(id), versionId);
    assert.equal(version.content ?? null, null);
    assert.equal(version.path, null);
    assert.equal(version.content_sha256, null);
    assert.ok(version.redacted_at);
    await screenshot(page, "21-history-redacted");

    await page.reload();
    await waitReady(page);
    await openHistory(page, TODO);
    assert.deepEqual(await versionRows(page), [
      ["modified", false, true],
      ["modified", false, false],
      ["modified", true, false],
      ["created", false, false],
    ]);
  });

  it("two tabs see each other's changes live", async () => {
    other = await openDemo(demo.context, demo.base, demo.problems, { newTab: true });
    await page.locator(`#tree [data-path="${TODO}"]`).click();
    await page.locator("#file-tab-view").click();
    await page.locator('#file-view [data-testid="viewer-text"]').waitFor();

    // The other tab edits the open file: this tab's viewer follows, and says where it came from.
    await host(other, async (memory) => {
      const note = await memory.memories.getByPath("/notes/todo.md");
      await memory.memories.update(note.id, { content: "# Todo\n- buy milk\n- book flights\n" });
    });
    await page.waitForFunction(() => document.querySelector('#file-view [data-testid="viewer-text"]')?.textContent?.includes("book flights"));
    assert.equal(await page.locator("#activity").textContent(), `Changed in another tab: ${TODO} (modified).`);

    // A new memory there appears here; deleted there, it is listed as recently deleted here.
    await host(other, async (memory) => memory.memories.create({ path: "/notes/new.md", content: "new\n" }));
    await waitForTree(page, ["/memories/notes/new.md", TODO, "/memories/people/ada.md"]);
    await host(other, async (memory) => memory.memories.delete((await memory.memories.getByPath("/notes/new.md")).id));
    await waitForTree(page, [TODO, "/memories/people/ada.md"]);
    await page.locator('#deleted [data-testid="deleted-file"][data-path="/memories/notes/new.md"]').waitFor({ state: "attached" });
    // And the other way round.
    await host(page, async (memory) => memory.memories.create({ path: "/from-first-tab.md", content: "hello\n" }));
    await waitForTree(other, ["/memories/from-first-tab.md", TODO, "/memories/people/ada.md"]);
    await screenshot(page, "22-two-tabs");
  });

  it("offers a clear choice on an edit conflict: keep editing, reload theirs, or overwrite", async () => {
    await page.locator("#file-tab-edit").click();
    const content = page.locator('[data-testid="edit-content"]');
    await content.waitFor();
    const theirs = (/** @type {string} */ text) =>
      host(other, async (memory, t) => {
        const note = await memory.memories.getByPath("/notes/todo.md");
        await memory.memories.update(note.id, { content: t });
      }, text);

    // Not editing yet: a change elsewhere is simply taken in.
    await theirs("# Todo\n- theirs 1\n");
    await page.locator('[data-testid="edit-state"]', { hasText: "Updated to the version just saved elsewhere." }).waitFor();
    assert.equal(await content.inputValue(), "# Todo\n- theirs 1\n");

    // Editing: a warning first, then the save is refused and the choice offered.
    await content.fill("# Todo\n- mine 1\n");
    await theirs("# Todo\n- theirs 2\n");
    await page.locator('[data-testid="edit-banner"]:not([hidden])').waitFor();
    assert.equal(await page.locator('[data-testid="edit-banner"]').textContent(), "Changed in another tab while you edit: saving will ask what to do.");
    await page.locator('[data-testid="edit-save"]').click();
    await page.locator('[data-testid="conflict"]:not([hidden])').waitFor();
    assert.equal(await page.locator("#conflict-title").textContent(), "This memory changed while you were editing");
    assert.deepEqual((await shownDiff(page, "conflict-diff")).lines, [" # Todo", "−- theirs 2", "+- mine 1", " "]);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "conflict-reload", "focus moves to the choice");
    assert.equal(await stored(page, "/notes/todo.md"), "# Todo\n- theirs 2\n", "nothing was overwritten");
    await screenshot(page, "23-edit-conflict");

    // 1. Keep editing: merge by hand; the next save goes through.
    await page.locator('[data-testid="conflict-keep"]').click();
    assert.equal(await page.locator('[data-testid="conflict"]').isHidden(), true);
    await content.fill("# Todo\n- theirs 2\n- mine 1\n");
    await page.keyboard.press("Control+s");
    await page.locator('[data-testid="edit-state"]', { hasText: "Saved as a new version" }).waitFor();
    assert.equal(await stored(page, "/notes/todo.md"), "# Todo\n- theirs 2\n- mine 1\n");

    // 2. Reload theirs: my edit is dropped.
    await content.fill("# Todo\n- mine 2\n");
    await theirs("# Todo\n- theirs 3\n");
    await page.locator('[data-testid="edit-banner"]:not([hidden])').waitFor();
    await page.locator('[data-testid="edit-save"]').click();
    await page.locator('[data-testid="conflict"]:not([hidden])').waitFor();
    await page.locator('[data-testid="conflict-reload"]').click();
    assert.equal(await content.inputValue(), "# Todo\n- theirs 3\n");
    assert.equal(await page.locator('[data-testid="edit-state"]').textContent(), "Reloaded their version; your edit was dropped.");

    // 3. Overwrite with mine.
    await content.fill("# Todo\n- mine 3\n");
    await theirs("# Todo\n- theirs 4\n");
    await page.locator('[data-testid="edit-banner"]:not([hidden])').waitFor();
    await page.locator('[data-testid="edit-save"]').click();
    await page.locator('[data-testid="conflict"]:not([hidden])').waitFor();
    await page.locator('[data-testid="conflict-overwrite"]').click();
    await page.locator('[data-testid="edit-state"]', { hasText: "Saved as a new version" }).waitFor();
    assert.equal(await stored(page, "/notes/todo.md"), "# Todo\n- mine 3\n");
    await other.close();
  });

  it("exports a bundle with its history and imports it into a new store, with progress", async () => {
    await page.locator("#store-data > summary").click();
    const download = page.waitForEvent("download");
    await page.locator("#export-button").click();
    const file = await download;
    assert.match(file.suggestedFilename(), /^demo-\d{4}-\d{2}-\d{2}\.memories\.json$/);
    const saved = path.join(ARTIFACTS, "demo-bundle.json");
    await file.saveAs(saved);
    const bundle = JSON.parse(await readFile(saved, "utf8"));
    assert.equal(bundle.format, "memory-tool-wasm/bundle");
    assert.deepEqual(bundle.memories.map((/** @type {any} */ m) => m.path).sort(), ["/from-first-tab.md", "/notes/todo.md", "/people/ada.md"]);
    assert.ok(bundle.versions.length >= 10, `the history is in the bundle (${bundle.versions.length} versions)`);
    assert.match((await page.locator("#bundle-status").textContent()) ?? "", /^Exported 3 memories, \d+ versions as demo-.+\.memories\.json \([\d,]+ bytes\)\.$/);

    // A new store, from the picker.
    await page.locator("#store-new-button").click();
    await page.locator("#new-store-name").fill("Imported");
    await page.locator('[data-testid="store-create-submit"]').click();
    await page.locator("#store-name", { hasText: "Imported" }).waitFor();
    await waitForTree(page, []);

    await page.locator("#import-input").setInputFiles(saved);
    await page.locator("#import-confirm", { hasText: "demo-bundle.json" }).waitFor();
    assert.equal(
      await page.locator("#import-confirm p").first().textContent(),
      `“demo-bundle.json” holds 3 memories and ${bundle.versions.length} versions of history. Import into “Imported”?`,
    );
    await page.locator('[data-testid="import-go"]').click();
    await page.locator("#bundle-status", { hasText: "Import done" }).waitFor();
    assert.equal(
      await page.locator("#bundle-status").textContent(),
      `Import done: 3 imported; ${bundle.versions.length} versions of history added.`,
    );
    const [done, total] = ((await page.locator("#bundle").getAttribute("data-progress")) ?? "").split("/").map(Number);
    assert.ok(total > 0 && done === total, "progress reached the end");
    await waitForTree(page, ["/memories/from-first-tab.md", TODO, "/memories/people/ada.md"]);
    await openHistory(page, TODO);
    assert.equal((await versionRows(page)).length, bundle.versions.filter((/** @type {any} */ v) => v.memory_id === bundle.memories.find((/** @type {any} */ m) => m.path === "/notes/todo.md").id).length);
    await screenshot(page, "24-export-import");

    // Files that are not bundles are refused in words, and nothing changes.
    await writeFile(path.join(ARTIFACTS, "not-a-bundle.json"), "{ nope");
    await page.locator("#import-input").setInputFiles(path.join(ARTIFACTS, "not-a-bundle.json"));
    await page.locator("#bundle-status", { hasText: "is not a bundle" }).waitFor();
    assert.match((await page.locator("#bundle-status").textContent()) ?? "", /^“not-a-bundle\.json” is not a bundle: it is not JSON \(.+\)\.$/);
    const damaged = { ...bundle, memories: bundle.memories.map((/** @type {any} */ m, /** @type {number} */ i) => (i === 0 ? { ...m, content: `${m.content}tampered` } : m)) };
    await writeFile(path.join(ARTIFACTS, "damaged-bundle.json"), JSON.stringify(damaged));
    await page.locator("#store-select").selectOption({ label: "demo" });
    await page.locator("#store-name", { hasText: "demo" }).waitFor();
    await page.locator("#import-input").setInputFiles(path.join(ARTIFACTS, "damaged-bundle.json"));
    await page.locator("#import-confirm", { hasText: "damaged-bundle.json" }).waitFor();
    await page.locator('[data-testid="import-go"]').click();
    await page.locator("#bundle-status", { hasText: "Nothing was imported" }).waitFor();
    assert.match((await page.locator("#bundle-status").textContent()) ?? "", /^Nothing was imported: the bundle is damaged \(.+\)\.$/);
  });

  it("creates stores only with usable names, and switches between them", async () => {
    await page.locator("#store-new-button").click();
    const problem = page.locator("#store-create-problem");
    const tryName = async (/** @type {string} */ name) => {
      await page.locator("#new-store-name").fill(name);
      await page.locator('[data-testid="store-create-submit"]').click();
      return problem.textContent();
    };
    assert.equal(await tryName(""), "Give the store a name.");
    assert.equal(await tryName("Imported"), "A store named “Imported” exists already.");
    assert.equal(await tryName("imported!"), "“imported!” would share the folder /memories/imported/ with “Imported”; pick another name.");
    assert.equal(await tryName("***"), "The name needs at least one letter or digit: it names the store's folder.");
    await page.locator("#store-create-cancel").click();

    await page.locator("#store-select").selectOption({ label: "Imported" });
    await page.locator("#store-name", { hasText: "Imported" }).waitFor();
    assert.match(page.url(), /\?store=Imported$/);
    await page.reload();
    await waitReady(page);
    assert.equal(await page.locator("#store-name").textContent(), "Imported");
    assert.deepEqual(await treePaths(page), ["/memories/from-first-tab.md", TODO, "/memories/people/ada.md"]);
  });

  it("fits a phone's width", async () => {
    await page.setViewportSize(PHONE);
    await openHistory(page, TODO);
    assert.ok((await sidewaysOverflow(page)) <= 0, "the page scrolls sideways at phone width");
    await page.locator("#memory-panel").scrollIntoViewIfNeeded();
    await screenshot(page, "26-history-phone");
    await page.setViewportSize(LAPTOP);
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
