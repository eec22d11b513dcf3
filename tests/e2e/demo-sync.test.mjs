// The demo's "Sync with a hosted memory store" panel, against the hosted memory stores emulator
// (tests/hosted/emulator.mjs) in this process: the page is served for the emulator's origin
// (ANTHROPIC_BASE_URL's role, so its Content-Security-Policy lets the SDK reach it), the panel
// lists and creates a hosted store, starts sync on the open store, sends a memory written in the
// demo, receives one written on the hosted side into the memory browser, shows a conflict whose
// "Restore my version" brings the local text back, lists a refused file once, stops; axe finds
// nothing in the panel.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test --test-concurrency=1 tests/e2e/demo-sync.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { startDemo, openDemo, screenshot, ARTIFACTS } from "./demo-lib.mjs";
import { startEmulator } from "../hosted/emulator.mjs";
import { hostedAt, sdkClient } from "../hosted/devices.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** @type {Awaited<ReturnType<typeof startEmulator>>} */ let emu;
/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;
/** @type {ReturnType<typeof sdkClient>} */ let client;

before(async () => {
  emu = await startEmulator();
  client = sdkClient(emu);
  demo = await startDemo({ apiBaseUrl: emu.url });
  page = await openDemo(demo.context, `${demo.base}?store=sync`, demo.problems);
});

after(async () => {
  await demo?.close();
  await emu?.close();
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

/** Clicks "Sync now" and waits for the pass to be reported. */
async function syncNow() {
  await page.locator("#sync-live").evaluate((e) => (e.textContent = ""));
  await page.locator("#sync-now").click();
  await page.waitForFunction(() => /^Synced:/.test(document.getElementById("sync-live")?.textContent ?? ""));
}

describe("the demo's hosted sync panel", () => {
  /** @type {string} */ let id = "";

  it("lists and creates a hosted store, then starts syncing the open store", async () => {
    await client.beta.memoryStores.create({ name: "already there" });
    await page.locator("#sync > summary").click();
    assert.equal(await page.locator("#sync-base").inputValue(), emu.url, "the base URL the page was served for");
    // Keyboard only: type the key, Enter lists the stores.
    await page.locator("#sync-key").focus();
    await page.keyboard.type("sk-ant-e2e-sync-0123456789");
    await page.keyboard.press("Enter");
    await page.locator("#sync-live", { hasText: "1 hosted store found." }).waitFor();
    await page.locator("#sync-create").click();
    await page.locator("#sync-live", { hasText: "Created the hosted store" }).waitFor();
    id = await page.locator("#sync-store").inputValue();
    assert.match(id, /^memstore_/);
    assert.equal(await page.locator("#sync-store option").count(), 2);
    assert.equal(await page.evaluate(() => sessionStorage.getItem("memory-tool-wasm-demo:sync-api-key")), "sk-ant-e2e-sync-0123456789");
    await page.locator("#sync-start").click();
    await page.locator('#sync-status[data-state="idle"]').waitFor();
    assert.equal(await page.locator("#sync-now").isEnabled(), true);
    assert.equal(await page.locator("#sync-start").isEnabled(), false);
  });

  it("a memory written in the demo reaches the hosted store on Sync now", async () => {
    await runTool({ command: "create", path: "/memories/from-demo.md", file_text: "written in the demo" });
    await syncNow();
    assert.equal(emu.files(id)["/from-demo.md"], "written in the demo");
    assert.notEqual(await page.locator("#sync-last").textContent(), "never");
  });

  it("a hosted change shows in the memory browser after Sync now", async () => {
    await client.beta.memoryStores.memories.create(id, { path: "/from-hosted.md", content: "written on the hosted side" });
    await syncNow();
    await page.locator('#tree [data-path="/memories/from-hosted.md"]').waitFor();
    await page.locator('#tree [data-path="/memories/from-hosted.md"]').click();
    await page.locator("#file-view", { hasText: "written on the hosted side" }).waitFor();
  });

  it("a conflict is listed, and Restore my version brings the local text back and sends it", async () => {
    await runTool({ command: "str_replace", path: "/memories/from-demo.md", old_str: "written in the demo", new_str: "my local edit" });
    const hosted = /** @type {any} */ (await hostedAt(client, id, "/from-demo.md"));
    await client.beta.memoryStores.memories.update(hosted.id, { memory_store_id: id, content: "their hosted edit" });
    await syncNow();
    const item = page.locator('#sync-conflicts [data-testid="sync-conflict"][data-path="/from-demo.md"]');
    await item.waitFor();
    const text = () => page.evaluate(async () => (await /** @type {any} */ (window).demo.session.memory.memories.getByPath("/from-demo.md")).content);
    assert.equal(await text(), "their hosted edit");
    await screenshot(page, "60-sync-panel-conflict");
    await page.locator("#sync").screenshot({ path: path.join(ARTIFACTS, "61-sync-panel.png") });
    await item.getByRole("button", { name: "Restore my version of /from-demo.md" }).click();
    await item.filter({ hasText: "Restored" }).waitFor();
    assert.equal(await text(), "my local edit");
    await syncNow();
    assert.equal(emu.files(id)["/from-demo.md"], "my local edit");
  });

  it("a file the hosted store refuses is listed once under Refused, and not sent", async () => {
    await runTool({ command: "create", path: "/memories/a\u200db.md", file_text: "a zero-width joiner in the path" });
    await syncNow();
    await page.locator('#sync-refused [data-testid="sync-refusal"]').waitFor();
    assert.equal(await page.locator('#sync-refused [data-testid="sync-refusal"]').getAttribute("data-path"), "/a\u200db.md");
    await syncNow();
    assert.equal(await page.locator('#sync-refused [data-testid="sync-refusal"]').count(), 1, "reported once");
    assert.equal(emu.files(id)["/a\u200db.md"], undefined);
  });

  it("axe finds nothing in the panel, light and dark", async () => {
    // Evaluated through the DevTools protocol: the page's policy refuses a <script> tag.
    await page.evaluate(await readFile(AXE, "utf8"));
    for (const scheme of /** @type {const} */ (["light", "dark"])) {
      await page.emulateMedia({ colorScheme: scheme });
      const found = await page.evaluate(async () => {
        const r = await /** @type {any} */ (window).axe.run(document.getElementById("sync"), { resultTypes: ["violations"] });
        return r.violations.map((/** @type {any} */ v) => `${v.id}: ${v.nodes.map((/** @type {any} */ n) => n.target.join(" ")).join(" | ")}`);
      });
      assert.deepEqual(found, [], scheme);
    }
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("Stop ends the sync; the page logged no errors", async () => {
    await page.locator("#sync-stop").click();
    await page.locator('#sync-status[data-state="off"]').waitFor();
    assert.equal(await page.locator("#sync-start").isEnabled(), true);
    assert.deepEqual(demo.problems, []);
  });
});
