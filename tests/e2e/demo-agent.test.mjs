// End to end: the demo's agent panel in headless Chromium. Without a key, the recording's
// lines are played with "Play the next message" (marked as the recording's, never put in the
// box as the visitor's), the recorded model answers through the official SDK's tool runner
// (`memoryTool(memory)` from memory-tool-wasm/anthropic), and its memory tool calls run for
// real against the page's IndexedDB: the notes appear in the tree, and a new conversation
// recalls them. With a key, the
// same panel talks to the Messages API (routed here to recorded answers, so the test stays
// offline): the browser-access header, streaming, the key kept in sessionStorage only. Mounts:
// two stores, one read-only, and the system prompt that describes them.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startDemo, openDemo, waitReady, treePaths, waitForTree, screenshot, sidewaysOverflow, betaMessage, useApiKey, PHONE, LAPTOP } from "./demo-lib.mjs";
import { recordedConversations, sseEvents } from "../../www/agent/scripted-model.js";

const LISTING_HEAD =
  "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:";
const PROFILE = "/memories/profile.md";
const TRIP = "/memories/trips/lisbon.md";
const TRIP_FINAL = "# Lisbon trip\n- dates: 2–6 June\n- hotel: Alfama Guesthouse (booked)\n- status: booked\n";
const TRIP_VIEW_FINAL =
  `Here's the content of ${TRIP} with line numbers:\n` +
  "     1\t# Lisbon trip\n     2\t- dates: 2–6 June\n     3\t- hotel: Alfama Guesthouse (booked)\n     4\t- status: booked\n     5\t";
const SCRIPT = recordedConversations();
const API_KEY = "sk-ant-e2e-0123456789-abcdefghijklmnopqrstuvwxyz";

/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

before(async () => {
  demo = await startDemo();
  page = await openDemo(demo.context, `${demo.base}?replayDelay=0`, demo.problems);
});

after(async () => {
  await demo?.close();
});

/**
 * Offline, plays the recording's next message (its button, clicked or pressed from the
 * keyboard); live, sends what the box holds. Waits until the run ended; returns the status line.
 */
async function send(/** @type {import("playwright-core").Page} */ tab, { keyboard = false } = {}) {
  const runs = Number(await tab.locator("#transcript").getAttribute("data-runs"));
  const live = (await tab.locator("#agent").getAttribute("data-mode")) === "live";
  const button = tab.locator(live ? "#agent-send" : "#agent-play");
  if (keyboard) {
    await button.focus();
    await tab.keyboard.press("Enter");
  } else {
    await button.click();
  }
  await tab.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
  return tab.locator("#agent-status").textContent();
}

/** The tool call cards of the transcript, in order, as shown. */
function toolCalls(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#transcript [data-testid="tool-call"]').evaluateAll((cards) =>
    cards.map((card) => ({
      label: card.querySelector(".tool-label")?.textContent,
      status: card.getAttribute("data-status"),
      result: [...card.querySelectorAll('[data-testid="tool-result-text"]')].map((e) => e.textContent).join("\n"),
    })),
  );
}

/** The assistant's texts, in order. */
function assistantTexts(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#transcript [data-testid="assistant-text"]').evaluateAll((els) => els.map((e) => e.textContent));
}

describe("the agent panel", () => {
  it("runs the recorded model through the SDK's tool runner; its notes appear in the tree", async () => {
    assert.match((await page.locator("#agent-mode").textContent()) ?? "", /^Offline: a recorded model answers/);
    // Offline there is no model to pick: the recording answers.
    assert.equal(await page.locator("#model-picker").isVisible(), false);
    const [first, second] = SCRIPT[0].exchanges;
    // The recording's line is shown as the recording's, not typed into the visitor's box.
    assert.equal(await page.locator("#agent-input").inputValue(), "");
    assert.equal(await page.locator('[data-testid="next-line-text"]').textContent(), `“${first.user}”`);
    assert.deepEqual(await treePaths(page), []);

    assert.equal(await send(page), "Done: 3 requests, 3 memory tool calls.");
    assert.deepEqual(await toolCalls(page), [
      { label: "view /memories", status: "ok", result: `${LISTING_HEAD}\n0B\t/memories` },
      { label: `create ${PROFILE}`, status: "ok", result: `File created successfully at: ${PROFILE}` },
      { label: `create ${TRIP}`, status: "ok", result: `File created successfully at: ${TRIP}` },
    ]);
    assert.deepEqual(await assistantTexts(page), [
      "I'll check my memory first.",
      "Nothing about you yet, so I'll write down what you told me: one note about you, one about the trip.",
      "Noted: you're vegetarian, you like a window seat, and your Lisbon trip runs from 12 to 16 May. I'll remember this the next time we talk.",
    ]);
    // The tree heard the agent's changes by itself.
    await waitForTree(page, [PROFILE, TRIP]);
    assert.deepEqual(
      await page.locator('#transcript [data-testid="msg-user"] .msg-text').allTextContents(),
      [first.user],
    );
    assert.deepEqual(await page.locator('#transcript [data-testid="msg-user"] .who').allTextContents(), ["The recording's visitor"]);

    // A card opens from the keyboard and shows the input and the exact result.
    const card = page.locator('#transcript [data-testid="tool-call"]').nth(1);
    await card.locator(":scope > summary").focus();
    await page.keyboard.press("Enter");
    assert.equal(await card.getAttribute("open"), "");
    assert.deepEqual(JSON.parse((await card.locator('[data-testid="tool-input"]').textContent()) ?? ""), {
      command: "create",
      path: PROFILE,
      file_text: "# About the user\n- vegetarian\n- prefers a window seat on flights\n",
    });
    await screenshot(page, "10-agent-first-exchange");

    // The second exchange: a failed edit (is_error, in the words of docs/TOOL.md#str_replace), a look, the fixes.
    assert.equal(await page.locator('[data-testid="next-line-text"]').textContent(), `“${second.user}”`);
    assert.equal(await send(page, { keyboard: true }), "Done: 4 requests, 5 memory tool calls.");
    const calls = (await toolCalls(page)).slice(3);
    assert.deepEqual(
      calls.map((c) => [c.label, c.status]),
      [
        [`str_replace ${TRIP}`, "error"],
        [`view ${TRIP}`, "ok"],
        [`str_replace ${TRIP}`, "ok"],
        [`insert ${TRIP}`, "ok"],
        [`str_replace ${TRIP}`, "ok"],
      ],
    );
    assert.equal(calls[0].result, `No replacement was performed, old_str \`- dates: 12-16 May\` did not appear verbatim in ${TRIP}.`);
    assert.equal(
      calls[1].result,
      `Here's the content of ${TRIP} with line numbers:\n     1\t# Lisbon trip\n     2\t- dates: 12–16 May\n     3\t- status: planning\n     4\t`,
    );
    assert.equal(calls[3].result, `The file ${TRIP} has been edited.`);

    // The file as the model now sees it.
    await page.locator(`#tree [data-path="${TRIP}"]`).click();
    await page.locator(`#viewer[data-path="${TRIP}"]`).waitFor();
    assert.equal(await page.locator('#viewer [data-testid="viewer-text"]').textContent(), TRIP_VIEW_FINAL);
    // This conversation's lines are played: the next one is in a new conversation, and says so.
    assert.equal(await page.locator("#agent-input").inputValue(), "");
    assert.equal(await page.locator('[data-testid="next-line-title"]').textContent(), "The recording goes on in a new conversation");
    assert.equal(await page.locator('[data-testid="next-line-text"]').textContent(), `“${SCRIPT[1].exchanges[0].user}”`);
    assert.equal(await page.locator("#agent-play").textContent(), "Play it in a new conversation");
    await screenshot(page, "11-agent-edits-and-tree");
  });

  it("a new conversation starts empty and recalls the notes from memory alone", async () => {
    await page.locator("#agent-new").click();
    assert.equal(await page.locator('#transcript [data-testid="tool-call"]').count(), 0);
    const [recall] = SCRIPT[1].exchanges;
    assert.equal(await page.locator('[data-testid="next-line-text"]').textContent(), `“${recall.user}”`);
    assert.equal(await send(page), "Done: 3 requests, 3 memory tool calls.");
    const calls = await toolCalls(page);
    assert.deepEqual(
      calls.map((c) => [c.label, c.status]),
      [
        ["view /memories", "ok"],
        [`view ${PROFILE}`, "ok"],
        [`view ${TRIP}`, "ok"],
      ],
    );
    assert.equal(calls[2].result, TRIP_VIEW_FINAL);
    const texts = await assistantTexts(page);
    assert.equal(
      texts[texts.length - 1],
      "From my notes: your Lisbon trip (dates: 2–6 June; hotel: Alfama Guesthouse (booked); status: booked), " +
        "and about you: vegetarian; prefers a window seat on flights. For your first evening, on 2 June, " +
        "try a vegetarian tasting menu within walking distance of the Alfama Guesthouse, then a sunset walk up to the Miradouro de Santa Luzia.",
    );
    assert.equal(
      await page.locator('#transcript [data-testid="msg-user"]').count(),
      1,
      "the new conversation carries none of the first one",
    );
    await screenshot(page, "12-agent-recall");
  });

  it("keeps the memories across a reload", async () => {
    await page.reload();
    await waitReady(page);
    assert.deepEqual(await treePaths(page), [PROFILE, TRIP]);
    const stored = await page.evaluate(
      async (path) => (await /** @type {any} */ (window).demo.session.memory.memories.getByPath(path)).content,
      "/trips/lisbon.md",
    );
    assert.equal(stored, TRIP_FINAL);
  });

  it("with an API key: streams from the Messages API with the browser-access header, the key only in sessionStorage", async () => {
    /** @type {Array<{ url: string, headers: Record<string, string>, body: any }>} */
    const requests = [];
    /** @type {string[]} */
    const consoleTexts = [];
    page.on("console", (msg) => consoleTexts.push(msg.text()));
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "*",
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-expose-headers": "request-id",
    };
    const turns = [
      betaMessage({
        id: "msg_live_1",
        content: [
          { type: "text", text: "Saving that.", citations: null },
          { type: "tool_use", id: "toolu_live_1", name: "memory", input: { command: "create", path: "/memories/live.md", file_text: "from the API\n" } },
          // A model that files the user's key away: the agent's memory refuses it (secretFilter).
          { type: "tool_use", id: "toolu_live_2", name: "memory", input: { command: "create", path: "/memories/key.md", file_text: `key: ${API_KEY}\n` } },
        ],
        stop_reason: "tool_use",
        input_tokens: 10,
        output_tokens: 10,
      }),
      betaMessage({
        id: "msg_live_2",
        content: [{ type: "text", text: "Done: it is in /memories/live.md.", citations: null }],
        stop_reason: "end_turn",
        input_tokens: 10,
        output_tokens: 10,
      }),
    ];
    let status = 200;
    await page.route("https://api.anthropic.com/**", async (route) => {
      const request = route.request();
      if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
      requests.push({ url: request.url(), headers: await request.allHeaders(), body: request.postDataJSON() });
      if (request.url().includes("/v1/models")) {
        return route.fulfill({
          status: 200,
          headers: { ...cors, "content-type": "application/json" },
          body: JSON.stringify({
            data: [
              { type: "model", id: "claude-e2e-model", display_name: "Claude E2E", created_at: "2026-01-01T00:00:00Z" },
              { type: "model", id: "claude-e2e-small", display_name: "Claude E2E Small", created_at: "2026-01-01T00:00:00Z" },
            ],
            has_more: false,
            first_id: "claude-e2e-model",
            last_id: "claude-e2e-small",
          }),
        });
      }
      if (status !== 200) {
        return route.fulfill({
          status,
          headers: { ...cors, "content-type": "application/json" },
          body: JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }),
        });
      }
      const turn = turns[requests.filter((r) => r.url.includes("/v1/messages")).length - 1];
      return route.fulfill({ status: 200, headers: { ...cors, "content-type": "text/event-stream" }, body: sseEvents(turn).join("") });
    });

    // A key of the wrong shape is refused in words.
    await page.locator("#own-key > summary").click();
    await page.locator("#api-key").fill("not a key");
    await page.locator("#key-use").click();
    assert.equal(await page.locator("#key-note").textContent(), "The key has spaces or line breaks in it; paste it again.");

    await useApiKey(page, API_KEY);
    assert.match((await page.locator("#agent-mode").textContent()) ?? "", /^Live: Claude answers, with your key \(sk-ant-…wxyz\)/);
    assert.equal(await page.locator("#api-key").inputValue(), "", "the field is emptied");
    // The models come from the API.
    await page.locator('#model-picker option[value="claude-e2e-small"]').waitFor({ state: "attached" });
    await page.locator("#model-picker").selectOption("claude-e2e-model");

    await page.locator("#agent-input").fill("Remember that this came from the API.");
    assert.equal(await send(page), "Done: 2 requests, 2 memory tool calls.");
    const messages = requests.filter((r) => r.url.includes("/v1/messages"));
    assert.equal(messages.length, 2);
    for (const request of messages) {
      // The SDK (1.14) sends the key as a bearer token.
      assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
      assert.equal(request.headers["anthropic-dangerous-direct-browser-access"], "true");
      assert.equal(request.body.model, "claude-e2e-model");
      assert.equal(request.body.stream, true);
      assert.deepEqual(request.body.tools, [{ type: "memory_20250818", name: "memory" }]);
      assert.match(request.body.system, /You have persistent memory through the `memory` tool/);
    }
    assert.deepEqual(messages[1].body.messages.at(-1), {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_live_1", content: "File created successfully at: /memories/live.md" },
        {
          type: "tool_result",
          tool_use_id: "toolu_live_2",
          content: "Error: Cannot write /memories/key.md: the content looks like it holds an Anthropic API key; memories must not store secrets",
          is_error: true,
        },
      ],
    });
    await waitForTree(page, ["/memories/live.md", PROFILE, TRIP]);
    assert.deepEqual(await assistantTexts(page), ["Saving that.", "Done: it is in /memories/live.md."]);

    // Where the key is: this tab's sessionStorage, nowhere else, and never in the console.
    const stored = await page.evaluate(() => ({
      session: JSON.stringify({ ...sessionStorage }),
      local: JSON.stringify({ ...localStorage }),
      url: location.href,
    }));
    assert.ok(stored.session.includes(API_KEY));
    assert.ok(!stored.local.includes(API_KEY));
    assert.ok(!stored.url.includes(API_KEY));
    assert.ok(!consoleTexts.some((t) => t.includes(API_KEY)), "the key is never logged");
    await screenshot(page, "13-agent-live-key");

    // A refused key is said in words, in the conversation.
    status = 401;
    await page.locator("#agent-input").fill("Again?");
    assert.equal(await send(page), "The run failed (see the conversation).");
    assert.equal(
      await page.locator('#transcript [data-testid="problem-words"]').last().textContent(),
      "The Anthropic API refused the API key (401: “invalid x-api-key”). Check the key under “Your key”, or forget it to go back to the recording.",
    );
    assert.equal(await page.locator("#agent-input").inputValue(), "Again?", "the unanswered message is back in the box");

    // The browser logs the refused request itself; that one is expected.
    const logged = demo.problems.findIndex((p) => p.includes("status of 401"));
    assert.ok(logged >= 0);
    demo.problems.splice(logged, 1);

    await page.locator("#own-key > summary").click();
    await page.locator("#key-forget").click();
    assert.match((await page.locator("#agent-mode").textContent()) ?? "", /^Offline:/);
    assert.ok(!(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).includes(API_KEY));
    await page.unroute("https://api.anthropic.com/**");
  });

  it("mounts two stores, one read only: the model writes in its folder and the system prompt says so", async () => {
    // A second store, from the picker; the browser switches to it.
    await page.locator("#store-new-button").click();
    await page.locator("#new-store-name").fill("Travel");
    await page.locator("#new-store-description").fill("Trips, bookings and travel preferences.");
    await page.locator('[data-testid="store-create-submit"]').click();
    await page.locator("#store-name", { hasText: "Travel" }).waitFor();
    await waitForTree(page, []);

    // Mount "demo" too, read only.
    await page.locator("#agent-memory > summary").click();
    const demoRow = page.locator('#mounts-list .mount', { has: page.locator('[data-store="demo"]') });
    await demoRow.locator('[data-testid="mount-check"]').check();
    await demoRow.locator('[data-testid="mount-access"]').selectOption("read_only");
    const travelRow = page.locator('#mounts-list .mount', { has: page.locator('[data-store="Travel"]') });
    await travelRow.locator('[data-testid="mount-instructions"]').fill("Keep one note per trip under trips/.");
    await travelRow.locator('[data-testid="mount-instructions"]').blur();
    assert.equal(await page.locator("#mounts-summary").textContent(), "Travel (read and write), demo (read only)");
    await page.locator("#system-prompt > summary").click();
    await page.locator('[data-testid="system-prompt"]', { hasText: "/memories/demo/" }).waitFor();
    assert.equal(
      await page.locator('[data-testid="system-prompt"]').textContent(),
      "You have persistent memory through the `memory` tool. Its files live under /memories, in these memory stores:\n\n" +
        '- /memories/travel/ — "Travel" (read and write)\n' +
        "  Description: Trips, bookings and travel preferences.\n" +
        "  Instructions: Keep one note per trip under trips/.\n" +
        '- /memories/demo/ — "demo" (read only: you can view it but not change it)\n\n' +
        "View your memory before you start a task, and keep what you learn there, in the store it belongs to.",
    );
    await screenshot(page, "14-agent-mounts");

    // The recorded model keeps its notes in the writable store's folder.
    await page.locator("#agent-new").click();
    assert.equal(await send(page), "Done: 3 requests, 3 memory tool calls.");
    const calls = await toolCalls(page);
    assert.deepEqual(
      calls.map((c) => [c.label, c.status]),
      [
        ["view /memories/travel", "ok"],
        ["create /memories/travel/profile.md", "ok"],
        ["create /memories/travel/trips/lisbon.md", "ok"],
      ],
    );
    // The browser shows the Travel store, where they landed.
    await waitForTree(page, [PROFILE, TRIP]);

    // Read only means read only: the demo store refuses a write in the words of docs/TOOL.md#read-only-access.
    const refused = await page.evaluate(async () => {
      const { session } = /** @type {any} */ (window).demo;
      const stores = await session.catalog.list();
      const demoStore = stores.find((/** @type {any} */ s) => s.name === "demo");
      const travel = stores.find((/** @type {any} */ s) => s.name === "Travel");
      const tool = await session.catalog.openForAgent([
        { store: travel.id, access: "read_write", instructions: "" },
        { store: demoStore.id, access: "read_only", instructions: "" },
      ]);
      const result = await tool.memory.execute({ command: "create", path: "/memories/demo/x.md", file_text: "x" });
      tool.memory.close();
      return result.content;
    });
    assert.equal(refused, "Error: Cannot create /memories/demo/x.md: this memory is read-only");
  });

  it("stops a run on Escape; the recording's unanswered line is offered again, not put in the box", async () => {
    // Another tab, on its own store, with the recorded model streaming at a readable pace.
    const slow = await openDemo(demo.context, `${demo.base}?store=stop-test&replayDelay=150`, demo.problems, { newTab: true });
    const message = await slow.locator('[data-testid="next-line-text"]').textContent();
    await slow.locator("#agent-play").click();
    await slow.locator('#agent[data-state="running"]').waitFor({ state: "attached" });
    await slow.locator('#transcript [data-testid="tool-call"]').first().waitFor();
    // Escape stops the run (focus is on Stop while it runs).
    assert.equal(await slow.evaluate(() => document.activeElement?.id), "agent-stop");
    await slow.keyboard.press("Escape");
    await slow.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
    assert.equal(await slow.locator("#agent-status").textContent(), "Stopped.");
    assert.deepEqual(
      await slow.locator('#transcript [data-testid="tool-call"]').evaluateAll((cards) => cards.map((c) => c.getAttribute("data-status"))),
      ["stopped"],
    );
    assert.deepEqual(await slow.locator('#transcript [data-testid="msg-note"]').allTextContents(), [
      "Stopped. Tool calls already run stay done; the rest did not run.",
      "The recording's message was not answered: “Play the next message” plays it again.",
    ]);
    // The recording's line is not put in the visitor's box: Play plays it again.
    assert.equal(await slow.locator("#agent-input").inputValue(), "");
    assert.equal(await slow.locator('[data-testid="next-line-text"]').textContent(), message);
    assert.deepEqual(await treePaths(slow), [], "the stopped call never ran");
    await slow.close();
  });

  it("fits a phone's width, light and dark", async () => {
    await page.setViewportSize(PHONE);
    assert.ok((await sidewaysOverflow(page)) <= 0, "the page scrolls sideways at phone width");
    await screenshot(page, "15-agent-phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "16-agent-phone-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(LAPTOP);
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
