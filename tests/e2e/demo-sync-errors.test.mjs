// End to end: the sync panel's words, against the hosted memory stores emulator
// (tests/hosted/emulator.mjs): a base URL the page's Content-Security-Policy would block is
// refused before any request, with the reason and what to do; a refused key is said in words
// with what to do, never as the API's JSON, and the state line and the live line agree with it;
// what waits for the next pass is said (a change made here, and when a delete made here can go);
// counts in the singular ("1 conflict"); the last sync still shown after Stop; a memory pulled
// from the hosted store is named "synced from" that store in its history. axe-core finds
// nothing in the panel in its error state.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test --test-concurrency=1 tests/e2e/demo-sync-errors.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { startDemo, openDemo, screenshot, axeViolations } from "./demo-lib.mjs";
import { startEmulator } from "../hosted/emulator.mjs";
import { hostedAt, sdkClient } from "../hosted/devices.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** @type {Awaited<ReturnType<typeof startEmulator>>} */ let emu;
/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;
/** @type {ReturnType<typeof sdkClient>} */ let client;
let id = "";

before(async () => {
  emu = await startEmulator();
  client = sdkClient(emu);
  demo = await startDemo({ apiBaseUrl: emu.url });
  page = await openDemo(demo.context, `${demo.base}?store=sync-words`, demo.problems);
  await page.locator("#sync > summary").click();
  await page.locator("#sync-key").fill("sk-ant-e2e-sync-0123456789");
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

/** Clicks "Sync now" and waits until the pass was reported (or its failure). */
async function syncNow() {
  await page.locator("#sync-live").evaluate((e) => (e.textContent = ""));
  await page.locator("#sync-now").click();
  await page.waitForFunction(
    () => /^(Synced:|The last pass failed)/.test(document.getElementById("sync-live")?.textContent ?? "") || (document.getElementById("sync-problem")?.textContent ?? "") !== "",
  );
  await page.locator("#sync-now:not([disabled])").waitFor();
}

const text = (/** @type {string} */ selector) => page.locator(selector).textContent().then((t) => t ?? "");

describe("the sync panel says what happened, and what to do", () => {
  it("refuses a base URL the page's policy would block before any request, and says why", async () => {
    const blocked = "http://127.0.0.1:9";
    await page.locator("#sync-base").fill(`${blocked}/`);
    const requests = emu.log.length;
    await page.locator("#sync-list").click();
    await page.locator("#sync-problem", { hasText: "Content-Security-Policy" }).waitFor();
    const origin = new URL(demo.base).origin;
    assert.equal(
      await text("#sync-problem"),
      `This page's Content-Security-Policy lets it connect only to ${origin}, https://api.anthropic.com and ${emu.url}, so the browser would block ${blocked} before any request left. ` +
        `To use it, serve the demo for that address: ANTHROPIC_BASE_URL=${blocked} npm start.`,
    );
    assert.equal(emu.log.length, requests);
    assert.deepEqual(await axeViolations(page), []);
    // No request was tried: the browser logged no violation (demo-lib turns one into a page problem).
    assert.deepEqual(demo.problems, []);
  });

  it("a refused key: in words with what to do, no JSON; the state and the live line say the same", async () => {
    await page.locator("#sync-base").fill(emu.url);
    await page.locator("#sync-list").click();
    await page.locator("#sync-live", { hasText: "found." }).waitFor();
    await page.locator("#sync-create").click();
    await page.locator("#sync-live", { hasText: "Created the hosted store" }).waitFor();
    id = await page.locator("#sync-store").inputValue();
    await page.locator("#sync-start").click();
    await page.locator('#sync-status[data-state="idle"]').waitFor();

    emu.inject({ status: 401, times: 1000 });
    await syncNow();
    const words = `${emu.url} refused the API key (401: “injected 401”). Check the API key above (or the proxy), then press “Sync now” or start again.`;
    assert.equal(await text("#sync-problem"), `The pass failed: ${words}`);
    assert.equal(await page.locator("#sync-status").getAttribute("data-state"), "error");
    assert.equal(await text("#sync-state"), `error: ${words}`);
    assert.equal(await text("#sync-live"), `The last pass failed: ${words}`);
    assert.doesNotMatch(await text("#sync"), /\{"type"|"error":|Syncing “/);
    // axe, in the error state.
    await page.evaluate(await readFile(AXE, "utf8"));
    for (const scheme of /** @type {const} */ (["light", "dark"])) {
      await page.emulateMedia({ colorScheme: scheme });
      const found = await page.evaluate(async () => {
        const r = await /** @type {any} */ (window).axe.run(document, { resultTypes: ["violations"] });
        return r.violations.map((/** @type {any} */ v) => `${v.id}: ${v.nodes.map((/** @type {any} */ n) => n.target.join(" ")).join(" | ")}`);
      });
      assert.deepEqual(found, [], scheme);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.locator("#sync").screenshot({ path: "test-artifacts/e2e/77-sync-error.png" });
    emu.clearFaults();
    await syncNow();
    assert.equal(await page.locator("#sync-status").getAttribute("data-state"), "idle");
    assert.equal(await text("#sync-problem"), "");
    for (let i = demo.problems.length - 1; i >= 0; i--) if (/status of 401/.test(demo.problems[i])) demo.problems.splice(i, 1);
  });

  it("a change made here waits for the next pass, and the panel says so (not “0 to push”)", async () => {
    emu.clearFaults();
    await runTool({ command: "create", path: "/memories/here.md", file_text: "written here" });
    await page.locator("#sync-pending", { hasText: "made here since the last pass" }).waitFor();
    assert.match(await text("#sync-pending"), /^1 change to send, 0 changes to receive\. 1 change made here since the last pass goes out on the next one \(within 15 s of a change\)\.$/);
    await syncNow();
    assert.equal(emu.files(id)["/here.md"], "written here");
    assert.equal(await text("#sync-pending"), "0 changes to send, 0 changes to receive.");
  });

  it("a delete made here says when it can go to the hosted store", async () => {
    await runTool({ command: "delete", path: "/memories/here.md" });
    await page.locator("#sync-pending", { hasText: "delete" }).waitFor();
    assert.match(
      await text("#sync-pending"),
      /1 delete waiting\. A delete made here goes to the hosted store once it has stayed 30 s and a later pass still finds it: \/here\.md not before \d{1,2}:\d{2}:\d{2}/,
    );
  });

  it("one conflict is “1 conflict”; a pulled memory is named “synced from” its hosted store", async () => {
    await runTool({ command: "create", path: "/memories/both.md", file_text: "mine" });
    await syncNow();
    await runTool({ command: "str_replace", path: "/memories/both.md", old_str: "mine", new_str: "mine, edited" });
    const hosted = /** @type {any} */ (await hostedAt(client, id, "/both.md"));
    await client.beta.memoryStores.memories.update(hosted.id, { memory_store_id: id, content: "theirs" });
    await syncNow();
    assert.match(await text("#sync-live"), /^Synced: \d+ sent, \d+ received, 1 conflict, 0 refused\.$/);

    await page.locator('#tree [data-path="/memories/both.md"]').click();
    await page.locator("#file-tab-history").click();
    const head = page.locator('#file-history [data-testid="version"]').first();
    await head.waitFor();
    assert.match((await head.textContent()) ?? "", new RegExp(`synced from the hosted store “sync-words” \\(${id}\\)`));
    assert.doesNotMatch((await head.textContent()) ?? "", /host API/);
    await screenshot(page, "78-sync-named");
  });

  it("after Stop, the last sync is still shown", async () => {
    assert.notEqual(await text("#sync-last"), "never");
    await page.locator("#sync-stop").click();
    await page.locator('#sync-status[data-state="off"]').waitFor();
    // Stop runs a last pass: the time is that pass's, never "never".
    assert.match(await text("#sync-last"), /^\d{1,2}:\d{2}:\d{2}/);
    assert.ok(Date.parse((await page.locator("#sync-last").getAttribute("data-at")) ?? "") > 0);
    assert.equal(await text("#sync-state"), "off (stopped)");
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
