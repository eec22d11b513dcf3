// End to end: the demo's first minute, as a visitor meets it. Offline, the recording never
// contradicts the visitor: words they type (other facts, other places, other dates) get no
// note and no answer with the recording's facts, in both recordings; the recording's own lines
// are played with "Play the next message", marked as the recording's; the project recording's
// words agree with what it did. With a key, a fresh conversation starts (empty box, starters)
// and the first message waits for the key's model list, or names the model it uses. The
// action is above the fold at 1280×800 and on a phone, beside the memory the model writes.
// The smaller points: the title, no model picker offline, no keyboard hint on a phone, the
// cursor still under reduced motion, the conversation's fate on reload said.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import {
  startDemo, openDemo, waitReady, waitForTree, screenshot, fakeMessagesApi, betaMessage, playNext, sendTyped, useApiKey, axeViolations, ARTIFACTS, LAPTOP, PHONE,
} from "./demo-lib.mjs";
import { recordedConversations } from "../../www/agent/scripted-model.js";

const API_KEY = "sk-ant-e2e-0123456789-abcdefghijklmnopqrstuvwxyz";
const [TRIP_1, TRIP_2, SESSION_1, SESSION_2] = recordedConversations();

/** The trip recording's facts: none may answer, or be written for, words that say otherwise. */
const TRIP_FACTS = /vegetarian|window seat|12[–-]16 May|12 to 16 May|2[–-]6 June|Alfama|Miradouro|Santa Luzia|tasting menu/i;
/** The project recording's. */
const PROJECT_FACTS = /recipe|ingredient/i;

/** @type {Awaited<ReturnType<typeof fakeMessagesApi>>} */ let api;
/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;

before(async () => {
  api = await fakeMessagesApi(() =>
    betaMessage({ id: "msg_fm", content: [{ type: "text", text: "Hello from the fake API.", citations: null }], stop_reason: "end_turn" }),
  );
  demo = await startDemo({ apiBaseUrl: api.baseURL });
});

after(async () => {
  await demo?.close();
  await api?.close();
});

/** The assistant texts of the conversation shown, in order. @param {import("playwright-core").Page} tab */
function assistantTexts(tab) {
  return tab.locator('#transcript [data-testid="assistant-text"]').evaluateAll((els) => els.map((e) => e.textContent ?? ""));
}

/** Every memory of the open store, path and text, through the page's host API. @param {import("playwright-core").Page} tab */
function notes(tab) {
  return tab.evaluate(async () => {
    const { memories } = /** @type {any} */ (window).demo.session.memory;
    const listing = await memories.list();
    const list = Array.isArray(listing) ? listing : listing.data;
    return Promise.all(list.map(async (/** @type {any} */ m) => ({ path: m.path, content: (await memories.get(m.id)).content ?? "" })));
  });
}

/** @param {string} text */
const quoted = (text) => text.split("\n").map((line) => `> ${line}`).join("\n");

/** Where an element is on screen. @param {import("playwright-core").Page} tab @param {string} selector */
function box(tab, selector) {
  return tab.locator(selector).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, visible: r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden" };
  });
}

const violations = axeViolations;

describe("offline, the recording never contradicts the visitor", () => {
  it("the trip recording: typed facts, places and dates of the visitor's own get no note and no answer of the recording's", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-trip&replayDelay=0`, demo.problems, { newTab: true });
    // The issue's own example: the recording's first line, with other dates, food and seat.
    const typed = [
      "Hi! I'm planning a trip to Lisbon from 20 to 25 May. I eat meat and I always pick an aisle seat. Please remember that.",
      "I'm off to Tokyo from 3 to 9 October.\nI'm vegan, and I sit by the aisle.",
      "Change of plan: the trip moved to 1–3 March, and I've booked the Hotel Zurique.",
    ];
    for (const [i, text] of typed.entries()) {
      assert.match((await sendTyped(tab, text)) ?? "", /^Done/);
      const answer = (await assistantTexts(tab)).join("\n");
      assert.doesNotMatch(answer, TRIP_FACTS, `answer to typed message ${i + 1}: ${answer}`);
      if (!/Lisbon/.test(text)) assert.doesNotMatch(answer, /Lisbon/, answer);
      for (const note of await notes(tab)) assert.doesNotMatch(note.content, TRIP_FACTS, `${note.path}: ${note.content}`);
    }
    // What it did write is the visitor's words, as typed, and nothing else of the recording's.
    const written = await notes(tab);
    assert.deepEqual(written.map((n) => n.path), ["/typed-messages.md"]);
    for (const text of typed) assert.ok(written[0].content.includes(quoted(text)), written[0].content);
    const answers = await assistantTexts(tab);
    assert.match(answers[0], /^I'm the offline recording, not a language model: I can't understand what you wrote, so I take no facts from it/);
    assert.match(answers.at(-1) ?? "", /^Added: your message is at the end of typed-messages\.md, word for word\./);
    assert.deepEqual(await tab.locator('#transcript [data-testid="msg-user"] .who').allTextContents(), ["You", "You", "You"]);
    assert.deepEqual(await violations(tab), []);
    await screenshot(tab, "70-first-minute-typed");

    // The recording's own line, played as the recording's: it knows none of the typed words.
    assert.equal(await tab.locator('[data-testid="next-line-text"]').textContent(), `“${TRIP_1.exchanges[0].user}”`);
    assert.match((await playNext(tab)) ?? "", /^Done/);
    assert.equal(await tab.locator('#transcript [data-testid="msg-user"][data-from="recording"] .who').textContent(), "The recording's visitor");
    // Its look at memory says truly what is there (the typed note), then it takes the recording's notes.
    assert.match((await assistantTexts(tab)).at(-2) ?? "", /^My memory holds typed-messages\.md, but no profile\.md or trips\/lisbon\.md/);

    // In the recall, a question about another place gets no Lisbon dinner.
    await tab.locator("#agent-new").click();
    assert.match((await sendTyped(tab, "Any dinner ideas for my first evening in Tokyo?")) ?? "", /^Done/);
    const recall = (await assistantTexts(tab)).join("\n");
    assert.doesNotMatch(recall, TRIP_FACTS, recall);
    assert.doesNotMatch(recall, /Lisbon/, recall);
    await tab.close();
  });

  it("the project recording: a project of the visitor's own gets no recipe app", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-project&replayDelay=0`, demo.problems, { newTab: true });
    await tab.locator("#scenario-picker").selectOption("project");
    assert.match((await sendTyped(tab, "Let's build a chess engine in Rust over several sessions. Set up your memory first.")) ?? "", /^Done/);
    await tab.locator("#agent-new").click();
    assert.match((await sendTyped(tab, "Let's continue with the chess engine: the move generator is next.")) ?? "", /^Done/);
    const answer = (await assistantTexts(tab)).join("\n");
    assert.doesNotMatch(answer, PROJECT_FACTS, answer);
    const written = await notes(tab);
    assert.deepEqual(written.map((n) => n.path), ["/typed-messages.md"], "no features.md or progress.md of the recording's");
    for (const note of written) assert.doesNotMatch(note.content, PROJECT_FACTS);
    await tab.close();
  });

  it("the project recording's words agree with what it did and with what its memory holds", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-honest&replayDelay=0`, demo.problems, { newTab: true });
    // The trip's notes first: session 1 then finds profile.md and trips/ in its memory.
    assert.match((await playNext(tab)) ?? "", /^Done/);
    await tab.locator("#scenario-picker").selectOption("project");
    assert.match((await playNext(tab)) ?? "", /^Done/);
    const first = await assistantTexts(tab);
    assert.ok(!first.some((t) => /^Nothing yet/.test(t)), first.join("\n"));
    assert.match(first[1], /^No project under way: my memory holds profile\.md and trips\/, but no progress log or feature list\./);

    const features = (await notes(tab)).find((n) => n.path === "/features.md")?.content;
    await tab.locator("#agent-new").click();
    assert.match((await playNext(tab)) ?? "", /^Done/);
    assert.equal(await tab.locator('#transcript [data-testid="msg-user"] .msg-text').textContent(), SESSION_2.exchanges[0].user);
    const second = (await assistantTexts(tab)).join("\n");
    // No work was done in the recording: it never says it works, nor marks it done.
    assert.doesNotMatch(second, /It works end to end|I'll mark it done|marks “.*” done/, second);
    assert.match(second, /I won't mark it done/);
    const after = await notes(tab);
    assert.equal(after.find((n) => n.path === "/features.md")?.content, features, "features.md is unchanged");
    const progress = after.find((n) => n.path === "/progress.md")?.content ?? "";
    assert.doesNotMatch(progress, /Done:|checked end to end\)/, progress);
    assert.match(progress, /## Session 2\n- Picked: 1\. Add a recipe \(title, ingredients, steps\)\.\n- Not done: /);
    await tab.close();
  });
});

describe("with a key, a conversation with Claude starts afresh", () => {
  // Each test sets how the model list answers; the next starts from a prompt, working list.
  afterEach(() => api.models({ delayMs: 0, status: 200 }));

  it("no recording in the transcript or the box, two or three starters, and the first message waits for the key's models", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-live&replayDelay=0`, demo.problems, { newTab: true });
    assert.match((await playNext(tab)) ?? "", /^Done/);
    api.models({ delayMs: 4000 });
    const before = api.requests.length;
    await useApiKey(tab, API_KEY);
    assert.equal(await tab.locator('#transcript [data-testid="msg-user"]').count(), 0, "the recording's conversation is not carried over");
    assert.equal(await tab.locator("#transcript").textContent().then((t) => /recording/i.test(t ?? "")), false);
    assert.equal(await tab.locator("#agent-input").inputValue(), "", "the box is empty");
    assert.equal(await tab.locator("#next-line").isVisible(), false);
    const starters = await tab.locator('[data-testid="starter"]').allTextContents();
    assert.ok(starters.length >= 2 && starters.length <= 3, starters.join(" | "));
    // A starter fills the box (it sends nothing).
    await tab.locator('[data-testid="starter"]').first().click();
    assert.equal(await tab.locator("#agent-input").inputValue(), starters[0]);
    assert.equal(api.requests.length, before);
    await screenshot(tab, "71-first-minute-live-fresh");

    // Sent before the model list arrived: it waits, and goes with a model the key may use.
    await tab.locator("#agent-send").click();
    await tab.locator("#agent-status", { hasText: "Waiting for the list of models your key may use…" }).waitFor();
    assert.equal(api.requests.length, before, "nothing is sent with a model nobody chose");
    await tab.locator('#transcript[data-runs="2"]').waitFor({ state: "attached" });
    assert.equal(api.requests.length, before + 1);
    assert.equal(api.requests.at(-1)?.body.model, "claude-e2e-model");
    assert.deepEqual(api.requests.at(-1)?.body.messages, [{ role: "user", content: starters[0] }]);
    assert.deepEqual(await violations(tab), []);
    await tab.close();
  });

  it("when the model list cannot be read, the page names the model Send uses", async () => {
    api.models({ status: 500 });
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-live-2&replayDelay=0`, demo.problems, { newTab: true });
    await useApiKey(tab, API_KEY);
    // Said where the visitor sees it: which model Send will use.
    await tab.locator("#agent", { hasText: "Send uses Claude Sonnet 5.5 (claude-sonnet-5-5)" }).waitFor({ state: "attached" });
    await tab.locator("#model-note", { hasText: "Could not list the models" }).waitFor();
    assert.match(
      (await tab.locator("#model-note").textContent()) ?? "",
      new RegExp(`^Could not list the models for this key \\(${api.baseURL.replace(/[.]/g, "\\.")} answered 500: “the model list is down”\\)\\. Send uses Claude Sonnet 5\\.5 \\(claude-sonnet-5-5\\); pick another under Model`),
    );
    assert.match((await sendTyped(tab, "Hello.")) ?? "", /^Done/);
    assert.equal(api.requests.at(-1)?.body.model, "claude-sonnet-5-5");
    assert.deepEqual(await violations(tab), []);
    await tab.close();
    // The browser logs each refused listing itself: expected here.
    for (let i = demo.problems.length - 1; i >= 0; i--) if (/status of 500/.test(demo.problems[i])) demo.problems.splice(i, 1);
  });
});

describe("the action is above the fold, beside the memory", () => {
  it("at 1280×800: Play, the box and Send on screen with the memory's files, before and after a note is written", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-fold&replayDelay=0`, demo.problems, { newTab: true });
    await tab.setViewportSize({ width: 1280, height: 800 });
    for (const selector of ["#agent-send", "#agent-input", "#tree", "#agent-play"]) {
      const b = await box(tab, selector);
      assert.ok(b.visible && b.top >= 0 && b.bottom <= 800, `${selector} is on the first screen: ${JSON.stringify(b)}`);
    }
    assert.match((await playNext(tab)) ?? "", /^Done/);
    await waitForTree(tab, ["/memories/profile.md", "/memories/trips/lisbon.md"]);
    for (const selector of ["#agent-send", '#tree [data-path="/memories/trips/lisbon.md"]', "#agent-play"]) {
      const b = await box(tab, selector);
      assert.ok(b.visible && b.top >= 0 && b.bottom <= 800, `${selector} after the notes: ${JSON.stringify(b)}`);
    }
    assert.equal(await tab.evaluate(() => window.scrollY), 0, "nothing had to scroll");
    assert.deepEqual(await violations(tab), []);
    await screenshot(tab, "72-first-minute-laptop");
    await tab.close();
  });

  it("on a phone: Play and Send on screen, with a memory chip naming the files the model wrote", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-phone&replayDelay=0`, demo.problems, { newTab: true });
    await tab.setViewportSize(PHONE);
    for (const selector of ["#agent-send", "#agent-play", "#memory-chip"]) {
      const b = await box(tab, selector);
      assert.ok(b.visible && b.top >= 0 && b.bottom <= PHONE.height, `${selector} is on the first screen: ${JSON.stringify(b)}`);
    }
    assert.equal(await tab.locator("#memory-chip").textContent(), "Memory · 0 files");
    assert.match((await playNext(tab)) ?? "", /^Done/);
    await tab.locator("#memory-chip", { hasText: "2 files" }).waitFor();
    assert.match((await tab.locator("#memory-chip").textContent()) ?? "", /^Memory · 2 files · latest: (profile\.md|trips\/lisbon\.md)$/);
    // The conversation grew; the box stays on screen while it scrolls by.
    await tab.evaluate(() => window.scrollTo(0, document.querySelector("#transcript-log")?.getBoundingClientRect().bottom ?? 0));
    for (const selector of ["#agent-send", "#agent-play", "#memory-chip"]) {
      const b = await box(tab, selector);
      assert.ok(b.visible && b.top >= 0 && b.bottom <= PHONE.height, `${selector} while the conversation scrolls: ${JSON.stringify(b)}`);
    }
    await tab.evaluate(() => window.scrollTo(0, 0));
    await screenshot(tab, "73-first-minute-phone");
    await tab.emulateMedia({ colorScheme: "dark" });
    assert.deepEqual(await violations(tab), []);
    await tab.screenshot({ path: `${ARTIFACTS}/74-first-minute-phone-dark.png` });
    // The chip leads to the memory: the panel, focused.
    await tab.locator("#memory-chip").click();
    assert.equal(await tab.evaluate(() => document.activeElement?.id), "memory-panel");
    const tree = await box(tab, "#tree");
    assert.ok(tree.top >= 0 && tree.top < PHONE.height, `the tree is in view: ${JSON.stringify(tree)}`);
    await tab.emulateMedia({ colorScheme: "light" });
    await tab.close();
  });
});

describe("the smaller points", () => {
  it("the title names the store once; offline shows no model picker; a phone shows no keyboard hint", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?replayDelay=0`, demo.problems, { newTab: true });
    assert.equal(await tab.title(), "“demo” · memory-tool-wasm");
    assert.equal(await tab.locator("#model-picker").isVisible(), false, "offline, no model is offered: the recording answers");
    assert.equal(await tab.locator('[data-testid="send-shortcut"]').isVisible(), true);
    await tab.setViewportSize(PHONE);
    assert.equal(await tab.locator('[data-testid="send-shortcut"]').isVisible(), false, "no Ctrl/⌘+Enter on a phone");
    await tab.setViewportSize(LAPTOP);
    await tab.close();
  });

  it("the streaming cursor does not blink under reduced motion", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-motion&replayDelay=250`, demo.problems, { newTab: true });
    await tab.emulateMedia({ reducedMotion: "reduce" });
    await tab.locator("#agent-input").fill("Something to stream.");
    await tab.locator("#agent-send").click();
    const streaming = tab.locator("#transcript .msg-text.streaming").first();
    await streaming.waitFor();
    assert.equal(await streaming.evaluate((e) => getComputedStyle(e, "::after").animationName), "none");
    await tab.emulateMedia({ reducedMotion: "no-preference" });
    assert.equal(await streaming.evaluate((e) => getComputedStyle(e, "::after").animationName), "blink");
    await tab.locator("#agent-stop").click();
    await tab.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
    await tab.close();
  });

  it("says the conversation lives in this tab, and after a reload that it went", async () => {
    const tab = await openDemo(demo.context, `${demo.base}?store=fm-reload&replayDelay=0`, demo.problems, { newTab: true });
    const fate = "The conversation lives in this tab only: a reload starts a new one. What the model wrote stays in memory.";
    assert.equal(await tab.locator('#transcript [data-testid="conversation-fate"]').count(), 1, "the page says what a reload does");
    assert.equal(await tab.locator('#transcript [data-testid="conversation-fate"]').textContent(), fate);
    assert.match((await playNext(tab)) ?? "", /^Done/);
    assert.equal(await tab.locator('#transcript [data-testid="conversation-fate"]').textContent(), fate, "said at the top of the conversation");
    await tab.reload();
    await waitReady(tab);
    assert.equal(
      await tab.locator('#transcript [data-testid="reloaded-note"]').textContent(),
      "The conversation before the reload is gone (it lived in this tab only); what the model wrote is still in memory.",
    );
    await tab.close();
  });

  it("logged no errors in the pages", () => {
    assert.deepEqual(demo.problems, []);
  });
});
