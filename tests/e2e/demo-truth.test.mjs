// End to end: the demo's offline agent tells the truth about its memory, and Send is one run.
// Each case is a situation the page invites: replaying the first conversation on a memory that
// already holds the notes, recalling notes the user edited in the memory browser, a memory
// mounted read only, a double click on Send, and what the page shows in the first moment
// after Send. Each tab has its own store (`?store=`), so the cases do not see each other.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startDemo, openDemo, waitReady, waitForTree, screenshot, playNext } from "./demo-lib.mjs";

const PROFILE = "/memories/profile.md";
const TRIP = "/memories/trips/lisbon.md";

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;

before(async () => {
  demo = await startDemo();
});

after(async () => {
  await demo?.close();
});

/** Plays the recording's next message and waits until the run ended; returns the status line. */
async function send(/** @type {import("playwright-core").Page} */ tab) {
  return playNext(tab);
}

/** The assistant's texts, in order. */
function assistantTexts(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#transcript [data-testid="assistant-text"]').evaluateAll((els) => els.map((e) => e.textContent ?? ""));
}

/** The tool call cards: label, status and result text. */
function toolCalls(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#transcript [data-testid="tool-call"]').evaluateAll((cards) =>
    cards.map((card) => ({
      label: card.querySelector(".tool-label")?.textContent ?? "",
      status: card.getAttribute("data-status"),
      result: [...card.querySelectorAll('[data-testid="tool-result-text"]')].map((e) => e.textContent).join("\n"),
    })),
  );
}

/** Plays conversation 1 (two exchanges) and conversation 2 in `tab`, from a fresh page. */
async function playAll(/** @type {import("playwright-core").Page} */ tab) {
  assert.match((await send(tab)) ?? "", /^Done/);
  assert.match((await send(tab)) ?? "", /^Done/);
  // The recording's next message is in a new conversation: its button starts it.
  assert.match((await send(tab)) ?? "", /^Done/);
}

/** Rewrites a memory through the page's own host API, as the memory browser's editor does. */
function rewrite(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ path, /** @type {string} */ content) {
  return tab.evaluate(
    async ([p, c]) => {
      const { memories } = /** @type {any} */ (window).demo.session.memory;
      const memory = await memories.getByPath(p);
      await memories.update(memory.id, { content: c });
    },
    [path, content],
  );
}

describe("the offline agent follows what its memory says", () => {
  it("replayed on a memory that already holds the notes, it reads them: no “Nothing about you yet”, no failed create", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=truth-replay&replayDelay=0`, demo.problems, { newTab: true });
    await playAll(tab);
    // The scenario starts over: the first recording, now on a memory that holds its notes.
    assert.match((await send(tab)) ?? "", /^Done/);
    const texts = await assistantTexts(tab);
    assert.ok(!texts.some((t) => /Nothing about you yet/.test(t)), texts.join("\n"));
    assert.equal(texts[1], "My memory already holds profile.md and trips/lisbon.md. I'll read them before I write anything.");
    const calls = await toolCalls(tab);
    assert.deepEqual(
      calls.map((c) => [c.label, c.status]),
      [
        ["view /memories", "ok"],
        [`view ${PROFILE}`, "ok"],
        [`view ${TRIP}`, "ok"],
        [`str_replace ${TRIP}`, "ok"],
        [`str_replace ${TRIP}`, "ok"],
      ],
    );
    assert.match(texts[2], /they said “dates: 2–6 June”, “status: booked”/);
    await screenshot(tab, "30-truth-replay-on-full-memory");

    // Where replaying makes no sense, the page offers an empty memory: a new store, nothing deleted.
    // (After a reload the first recording comes next again.)
    await tab.reload();
    await waitReady(tab);
    await tab.locator('[data-testid="start-over"]:not([hidden])').waitFor();
    await tab.locator('[data-testid="start-over-button"]').click();
    await tab.locator("#store-name", { hasText: "Fresh start" }).waitFor();
    await waitForTree(tab, []);
    // The offer goes once the empty store is open (waited for: under load the page may hide it
    // a moment after the tree is drawn).
    await tab.locator('[data-testid="start-over"]').waitFor({ state: "hidden", timeout: 10_000 });
    assert.match((await send(tab)) ?? "", /^Done/);
    assert.equal((await assistantTexts(tab))[1], "Nothing about you yet, so I'll write down what you told me: one note about you, one about the trip.");
    const stores = await tab.evaluate(async () => (await /** @type {any} */ (window).demo.session.catalog.list()).map((s) => s.name));
    assert.ok(stores.includes("truth-replay") && stores.includes("Fresh start"), stores.join(", "));
    await tab.close();
  });

  it("recalls the notes as the user edited them in the memory browser", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=truth-edited&replayDelay=0`, demo.problems, { newTab: true });
    assert.match((await send(tab)) ?? "", /^Done/);
    assert.match((await send(tab)) ?? "", /^Done/);
    await rewrite(tab, "/profile.md", "# About the user\n- eats fish and meat\n- prefers an aisle seat\n");
    await rewrite(tab, "/trips/lisbon.md", "# Lisbon trip\n- dates: 9–13 July\n- hotel: Casa do Castelo\n- status: booked\n");
    assert.match((await send(tab)) ?? "", /^Done/);
    const answer = (await assistantTexts(tab)).at(-1) ?? "";
    assert.match(answer, /eats fish and meat/);
    assert.match(answer, /9–13 July/);
    assert.match(answer, /Casa do Castelo/);
    for (const stale of [/vegetarian/, /2 June/, /Alfama/, /window/]) assert.doesNotMatch(answer, stale, answer);
    await screenshot(tab, "31-truth-edited-recall");
    await tab.close();
  });

  it("with its only memory read only, it says it cannot save, never “Noted”", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=truth-read-only&replayDelay=0`, demo.problems, { newTab: true });
    await tab.locator("#agent-memory > summary").click();
    const row = tab.locator("#mounts-list .mount", { has: tab.locator('[data-store="truth-read-only"]') });
    await row.locator('[data-testid="mount-access"]').selectOption("read_only");
    await tab.locator("#mounts-summary", { hasText: "truth-read-only (read only)" }).waitFor();
    assert.match((await send(tab)) ?? "", /^Done/);
    const calls = await toolCalls(tab);
    assert.deepEqual(
      calls.map((c) => [c.label, c.status]),
      [
        ["view /memories", "ok"],
        [`create ${PROFILE}`, "error"],
        [`create ${TRIP}`, "error"],
      ],
    );
    const answer = (await assistantTexts(tab)).at(-1) ?? "";
    assert.doesNotMatch(answer, /Noted|I'll remember this/);
    assert.match(answer, /^I couldn't save what you told me: this memory is read-only/);
    await screenshot(tab, "32-truth-read-only");
    await tab.close();
  });
});

describe("the agent's memory in a conversation", () => {
  it("says so in the conversation when the store it works on changes mid-way", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=truth-switch&replayDelay=0`, demo.problems, { newTab: true });
    assert.match((await send(tab)) ?? "", /^Done/);
    // The user picks another store in the memory browser; the agent's mounts follow it.
    await tab.evaluate(async () => {
      const { session } = /** @type {any} */ (window).demo;
      const other = await session.catalog.create({ name: "truth-switch-other", description: "" });
      await session.switchTo(other);
    });
    await tab.locator("#mounts-summary", { hasText: "truth-switch-other" }).waitFor();
    assert.match((await send(tab)) ?? "", /^Done|failed/);
    assert.deepEqual(await tab.locator('#transcript [data-testid="msg-note"]').allTextContents(), [
      "The agent's memory changed in this conversation: it was truth-switch (read and write), it is now truth-switch-other (read and write).",
    ]);
    await tab.close();
  });
});

describe("Send is one run", () => {
  it("a double click on Play starts one run: one message, one answer, no card left writing", async () => {
    // A fresh tab: the SDK may still be loading when the clicks land.
    const tab = await openDemo(demo.context, `${demo.base}?store=truth-double&replayDelay=0`, demo.problems, { newTab: true });
    await tab.locator("#agent-play").dblclick();
    await tab.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
    // Give a second run, if one started, the time to show itself.
    await tab.waitForTimeout(500);
    assert.equal(await tab.locator("#transcript").getAttribute("data-runs"), "1");
    assert.equal(await tab.locator('#transcript [data-testid="msg-user"]').count(), 1);
    assert.equal(await tab.locator("#agent-status").textContent(), "Done: 3 requests, 3 memory tool calls.");
    const calls = await toolCalls(tab);
    assert.deepEqual(
      calls.map((c) => c.status),
      ["ok", "ok", "ok"],
    );
    await screenshot(tab, "33-truth-double-click");
    await tab.close();
  });

  it("the message shows the moment Play (or Send) is pressed, with a loading line", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=truth-feedback&replayDelay=0`, demo.problems, { newTab: true });
    const seen = await tab.evaluate(() => {
      /** @type {HTMLButtonElement} */ (document.querySelector("#agent-play")).click();
      // Read in the same task as the click: before anything Send awaits.
      return {
        users: document.querySelectorAll('#transcript [data-testid="msg-user"]').length,
        status: document.querySelector("#agent-status")?.textContent,
        sendDisabled: /** @type {HTMLButtonElement} */ (document.querySelector("#agent-send")).disabled,
        playDisabled: /** @type {HTMLButtonElement} */ (document.querySelector("#agent-play")).disabled,
      };
    });
    assert.deepEqual(seen, { users: 1, status: "Loading the SDK and the agent's memory…", sendDisabled: true, playDisabled: true });
    await tab.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
    await tab.close();
  });

  it("logged no errors in the pages", () => {
    assert.deepEqual(demo.problems, []);
  });
});
