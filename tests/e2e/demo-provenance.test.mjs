// End to end: the memory manager's second half. Where a memory came from (the head version's
// actor in the file's header and in its history, linked to the tool call's card when this
// page's agent wrote it: "the recorded model, in this conversation"); an edit as "you, in the
// editor"; a restore named as a restore (the package's `created_by.restored_from`); bulk
// selection by keyboard, with a count, export of the selection (a bundle that imports) and
// delete after a confirmation, each deleted memory restorable from its history; the overview of
// what the agent's memory holds, per mounted store.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { startDemo, openDemo, waitForTree, screenshot } from "./demo-lib.mjs";

const PROFILE = "/memories/profile.md";
const TRIP = "/memories/trips/lisbon.md";

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;
/** The tool_use id of the agent's call that created profile.md. */
let useId = "";

before(async () => {
  demo = await startDemo();
  page = await openDemo(demo.context, `${demo.base}?store=provenance&replayDelay=0`, demo.problems);
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

/** Opens a file of the tree and waits until its header says where it came from. @param {string} path */
async function open(path) {
  await page.locator(`#tree [data-testid="tree-file"][data-path="${path}"]`).click();
  await page.locator(`#viewer[data-path="${path}"]`).waitFor();
  await page.locator('#viewer [data-testid="viewer-origin"][data-version-id]').waitFor();
}

describe("where a memory came from", () => {
  it("names the agent's tool call and leads to its card in the conversation", async () => {
    await page.locator("#agent-play").click();
    await page.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
    await waitForTree(page, [PROFILE, TRIP]);
    await open(PROFILE);
    // The version records the tool_use id of the call that wrote it: the transcript card's.
    const versionActor = await page.evaluate(async () => {
      const { memory } = /** @type {any} */ (window).demo.session;
      const note = await memory.memories.getByPath("/profile.md");
      return (await memory.versions.get(note.memory_version_id)).created_by;
    });
    assert.equal(versionActor.type, "tool");
    assert.match(versionActor.tool_use_id, /^toolu_recorded_[a-z0-9]+_1_1_2_1$/);
    useId = versionActor.tool_use_id;
    const origin = page.locator('#viewer [data-testid="viewer-origin"]');
    // In words people use: who (the recorded model) and where (this conversation, a link to the call).
    assert.equal(await origin.textContent(), "Last change by the recorded model, in this conversation");
    assert.equal(await page.locator('#viewer [data-testid="viewer-origin-link"]').getAttribute("data-tool-use-id"), useId);
    assert.equal(await page.locator(`#transcript [data-testid="tool-call"][data-tool-use-id="${useId}"]`).count(), 1);

    // By keyboard: the link opens the card and puts focus on it.
    await page.locator('[data-testid="viewer-origin-link"]').focus();
    await page.keyboard.press("Enter");
    const focused = await page.evaluate(() => {
      const card = document.activeElement?.closest('[data-testid="tool-call"]');
      return card ? { id: card.getAttribute("data-tool-use-id"), open: card.hasAttribute("open") } : null;
    });
    assert.deepEqual(focused, { id: useId, open: true });
    assert.match((await page.locator(`#transcript [data-tool-use-id="${useId}"] .tool-label`).textContent()) ?? "", /^create \/memories\/profile\.md$/);
  });

  it("says so in the history, and a restore is called a restore", async () => {
    // A change in the editor, then the agent's version restored.
    await page.locator("#file-tab-edit").click();
    await page.locator('[data-testid="edit-content"]').fill("# About the user\n- eats fish\n");
    await page.locator('[data-testid="edit-save"]').click();
    await page.locator('[data-testid="edit-state"]', { hasText: "Saved as a new version" }).waitFor();
    await page.locator("#file-tab-history").click();
    await page.locator('#file-history [data-testid="version"]').nth(1).waitFor();
    const versions = page.locator('#file-history [data-testid="version"]');
    assert.equal(await versions.count(), 2);
    assert.match((await versions.nth(0).textContent()) ?? "", /^v2modified.*you, in the editor/);
    assert.match((await versions.nth(1).textContent()) ?? "", /^v1created.*the recorded model/);
    await versions.nth(1).click();
    await page.locator('#file-history [data-testid="version-origin-link"]').waitFor();
    assert.equal(await page.locator('#file-history [data-testid="version-origin-link"]').getAttribute("data-tool-use-id"), useId);
    assert.equal(
      (await page.locator('#file-history [data-testid="version-facts"]').textContent())?.replace(/^.*? · by /, ""),
      "the recorded model, in this conversation · at /memories/profile.md · sha256 " +
        (await page.locator('#file-history [data-testid="version-facts"]').textContent())?.split("sha256 ")[1],
    );

    await page.locator('[data-testid="restore-version"]').click();
    await page.locator('#file-history [data-testid="version"]').nth(2).waitFor();
    const head = versions.nth(0);
    assert.match((await head.textContent()) ?? "", /^v3restored v1current.*you/);
    assert.doesNotMatch((await head.textContent()) ?? "", /modified/);
    assert.match((await page.locator('#file-history [data-testid="version-title"]').textContent()) ?? "", /^Restored from v1 · memver_/);
    assert.match((await page.locator('#file-history [data-testid="version-facts"]').textContent()) ?? "", / · by you, restoring v1 · at /);
    await page.locator('#viewer [data-testid="viewer-origin"]', { hasText: "Last change: a restore, by you" }).waitFor();
    await screenshot(page, "37-manager-history-origin");
  });

  it("names a restore in another tab too: the version itself says what it restored", async () => {
    // The page keeps no record of its own: the name comes from the version's created_by.
    const actors = await page.evaluate(async (path) => {
      const memory = /** @type {any} */ (window).demo.session.memory;
      const { id } = await memory.memories.getByPath(path.replace(/^\/memories/, ""));
      return (await memory.versions.list({ memory_id: id })).data.map((/** @type {any} */ v) => ({ id: v.id, by: v.created_by }));
    }, PROFILE);
    assert.equal(actors[0].by.restored_from, actors[2].id);
    assert.deepEqual(Object.keys(await page.evaluate(() => ({ ...localStorage }))).filter((k) => k.startsWith("memory-tool-demo:restores")), []);
    const other = await openDemo(demo.context, `${demo.base}?store=provenance`, demo.problems, { newTab: true });
    await other.locator(`#tree [data-testid="tree-file"][data-path="${PROFILE}"]`).click();
    await other.locator("#file-tab-history").click();
    await other.locator('#file-history [data-testid="version"]').nth(2).waitFor();
    assert.match((await other.locator('#file-history [data-testid="version"]').nth(0).textContent()) ?? "", /^v3restored v1current/);
    // This tab's conversation is not there: the agent's call is named, without a link.
    await other.locator('#file-history [data-testid="version"]').nth(2).click();
    await other.locator('#file-history [data-testid="version-detail"] [data-testid="version-facts"]', { hasText: "no longer on this page" }).waitFor();
    await other.close();
  });
});

describe("a write that brings an older text back, not by a restore", () => {
  it("is called a modification back to that version's text", async () => {
    await page.evaluate(async () => {
      const { memory } = /** @type {any} */ (window).demo.session;
      const note = await memory.memories.getByPath("/profile.md");
      await memory.memories.update(note.id, { content: "# About the user\n- eats fish\n" });
    });
    await page.locator('#file-history [data-testid="version"]').nth(3).waitFor();
    const head = page.locator('#file-history [data-testid="version"]').nth(0);
    assert.match((await head.textContent()) ?? "", /^v4back to v2current.*you, in the editor/);
    await head.click();
    await page.locator('#file-history [data-testid="version-title"]', { hasText: "Modified, back to the text of v2" }).waitFor();
  });
});

describe("bulk selection", () => {
  it("ticks memories by keyboard, with a count", async () => {
    await seed([
      ["/notes/a.md", "alpha\n"],
      ["/notes/b.md", "beta\n"],
      ["/notes/c.md", "gamma, the longest of the notes\n"],
    ]);
    await waitForTree(page, ["/memories/notes/a.md", "/memories/notes/b.md", "/memories/notes/c.md", PROFILE, TRIP]);
    await page.locator("#pick-button").focus();
    await page.keyboard.press("Enter");
    assert.equal(await page.locator("#pick-button").getAttribute("aria-pressed"), "true");
    // Focus lands on the first checkbox; Space ticks it, Tab moves to the next file.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Select /memories/notes/a.md");
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab"); // the file's own button
    await page.keyboard.press("Tab"); // the next checkbox
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Select /memories/notes/b.md");
    await page.keyboard.press("Space");
    assert.equal(await page.locator("#bulk-count").textContent(), "2 selected");
    assert.equal(await page.locator("#bulk-delete").isDisabled(), false);
    await screenshot(page, "38-manager-bulk-select");
  });

  it("exports the selection as a bundle that imports into another store", async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#bulk-export").click()]);
    assert.equal(download.suggestedFilename(), "provenance-2-memories.json");
    const bundle = JSON.parse(await readFile(/** @type {string} */ (await download.path()), "utf8"));
    assert.deepEqual(bundle.memories.map((/** @type {any} */ m) => [m.path, m.content]), [
      ["/notes/a.md", "alpha\n"],
      ["/notes/b.md", "beta\n"],
    ]);
    assert.deepEqual([...new Set(bundle.versions.map((/** @type {any} */ v) => v.path))].sort(), ["/notes/a.md", "/notes/b.md"]);
    const imported = await page.evaluate(async (b) => {
      const { session, pkg } = /** @type {any} */ (window).demo;
      const store = await session.catalog.create({ name: "Bulk import target" });
      const tool = await pkg.MemoryTool.open({ storage: "indexeddb", mounts: [{ store: store.id }] });
      const result = await tool.import(b);
      const listing = await tool.memories.list();
      const paths = (Array.isArray(listing) ? listing : listing.data).map((/** @type {any} */ m) => m.path);
      tool.close();
      return { result, paths };
    }, bundle);
    assert.deepEqual(imported.paths, ["/notes/a.md", "/notes/b.md"]);
    assert.equal(imported.result.imported, 2);
  });

  it("deletes the selection after asking; each is restorable from its history", async () => {
    /** @type {string[]} */
    const asked = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.locator("#bulk-delete").click();
    assert.deepEqual(asked, [
      "Delete 2 memories (/memories/notes/a.md, /memories/notes/b.md)? Each goes to “Recently deleted”, where its history can restore it for 30 days.",
    ]);
    assert.equal((await page.locator('#tree [data-testid="tree-file"]').count()), 5, "nothing deleted when the answer is no");

    page.once("dialog", (dialog) => void dialog.accept());
    await page.locator("#bulk-delete").click();
    await waitForTree(page, ["/memories/notes/c.md", PROFILE, TRIP]);
    assert.equal(await page.locator("#bulk-count").textContent(), "None selected");
    await page.waitForFunction(() => document.activeElement?.id === "tree-search");
    const deleted = page.locator('#deleted [data-testid="deleted-file"]');
    await deleted.first().waitFor({ state: "attached" });
    assert.deepEqual((await deleted.evaluateAll((els) => els.map((e) => e.getAttribute("data-path")))).sort(), ["/memories/notes/a.md", "/memories/notes/b.md"]);

    // Restored like a single deletion: from its history.
    await page.locator("#deleted summary").click();
    await page.locator('#deleted [data-testid="deleted-file"][data-path="/memories/notes/a.md"]').click();
    await page.locator('#file-history [data-testid="version"]').nth(1).waitFor();
    await page.locator('#file-history [data-testid="version"]').nth(1).click();
    await page.locator('[data-testid="restore-version"]:not([disabled])').click();
    await waitForTree(page, ["/memories/notes/a.md", "/memories/notes/c.md", PROFILE, TRIP]);

    // Escape leaves bulk selection; focus goes back to its button.
    await page.locator("#bulk-all").focus();
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("#bulk-bar").isHidden(), true);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "pick-button");
    assert.equal(await page.locator("#tree input.pick").count(), 0);
  });
});

describe("the overview of the agent's memory", () => {
  it("gives each mounted store's files, size, last change and largest file", async () => {
    await page.locator("#overview > summary").click();
    const store = page.locator('#overview [data-testid="overview-store"][data-store="provenance"]');
    await store.waitFor();
    const sizes = await page.evaluate(async () => {
      const listing = await /** @type {any} */ (window).demo.session.memory.memories.list();
      const list = Array.isArray(listing) ? listing : listing.data;
      return list.map((/** @type {any} */ m) => [m.path, m.content_size_bytes, m.updated_at]);
    });
    const total = sizes.reduce((/** @type {number} */ n, /** @type {any[]} */ s) => n + s[1], 0);
    const largest = [...sizes].sort((a, b) => b[1] - a[1])[0];
    const newest = [...sizes].sort((a, b) => (a[2] < b[2] ? 1 : -1))[0];
    assert.equal(await store.locator('[data-testid="overview-files"]').textContent(), "4");
    assert.equal(await store.locator('[data-testid="overview-bytes"]').textContent(), `${total.toLocaleString("en-US")} bytes`);
    assert.equal(await store.locator('[data-testid="overview-largest"]').textContent(), `/memories${largest[0]}, ${largest[1].toLocaleString("en-US")} bytes`);
    assert.match((await store.locator('[data-testid="overview-newest"]').textContent()) ?? "", new RegExp(`^/memories${newest[0].replace(/\./g, "\\.")}, `));
    assert.equal(await page.locator("#overview-summary").textContent(), `1 store, 4 files, ${total.toLocaleString("en-US")} bytes`);

    // A change by the agent's memory (another store's too, once mounted) shows up by itself.
    const paints = Number(await page.locator("#overview").getAttribute("data-paints"));
    await seed([["/notes/d.md", "delta\n"]]);
    await page.waitForFunction((n) => Number(document.querySelector("#overview")?.getAttribute("data-paints")) > n, paints);
    await page.locator('#overview [data-testid="overview-files"]', { hasText: "5" }).waitFor();
    await screenshot(page, "39-manager-overview");
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
