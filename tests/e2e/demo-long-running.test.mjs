// End to end: the live agent (a key given) in a long conversation, against a fake Messages API
// reached through the SDK client's baseURL (the page's configured base URL). Every request
// carries context editing (`clear_tool_uses_20250919`) and its beta; when the API says it
// cleared old tool results, the transcript says so before that message; once a request's input
// passes the compaction threshold, the SDK tool runner compacts after the turn (a request with
// `compaction`, and the summary in place of the messages), the transcript shows it, and the next
// message goes on from the summary, with the memory tool still working.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startDemo, openDemo, waitForTree, screenshot, fakeMessagesApi, betaMessage, useApiKey } from "./demo-lib.mjs";
import { CONTEXT_MANAGEMENT, COMPACT_AT } from "../../www/agent/agent-loop.js";

const API_KEY = "sk-ant-e2e-0123456789-abcdefghijklmnopqrstuvwxyz";
const SUMMARY = "The user is planning a trip to Porto in October; memory holds nothing about it yet.";
const LISTING =
  "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories";

/** @type {Awaited<ReturnType<typeof fakeMessagesApi>>} */ let api;
/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

/** The fake API's answers, by request number. @param {any} body @param {number} n */
function answer(body, n) {
  switch (n) {
    case 1:
      return betaMessage({
        id: "msg_long_1",
        content: [
          { type: "text", text: "Let me look at my memory.", citations: null },
          { type: "tool_use", id: "toolu_long_1", name: "memory", input: { command: "view", path: "/memories" } },
        ],
        stop_reason: "tool_use",
        input_tokens: 1200,
      });
    case 2:
      // A long conversation: the API cleared an old tool result, and the input is past the
      // compaction threshold, so the runner compacts after this turn.
      return betaMessage({
        id: "msg_long_2",
        content: [{ type: "text", text: "Nothing yet. Porto in October it is.", citations: null }],
        stop_reason: "end_turn",
        input_tokens: COMPACT_AT + 500,
        context_management: { applied_edits: [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 1, cleared_input_tokens: 6200 }] },
      });
    case 3:
      assert.deepEqual(body.compaction, { type: "summarize" }, "request 3 is the compaction");
      return betaMessage({
        id: "msg_long_3",
        content: [{ type: "compaction", content: SUMMARY, encrypted_content: null }],
        stop_reason: "compaction",
        input_tokens: COMPACT_AT + 600,
      });
    case 4:
      return betaMessage({
        id: "msg_long_4",
        content: [
          {
            type: "tool_use",
            id: "toolu_long_4",
            name: "memory",
            input: { command: "create", path: "/memories/progress.md", file_text: "# Progress\n- Porto trip, October: planning\n" },
          },
        ],
        stop_reason: "tool_use",
        input_tokens: 900,
      });
    default:
      return betaMessage({
        id: `msg_long_${n}`,
        content: [{ type: "text", text: "Saved in /memories/progress.md.", citations: null }],
        stop_reason: "end_turn",
        input_tokens: 1000,
      });
  }
}

before(async () => {
  api = await fakeMessagesApi(answer);
  demo = await startDemo({ apiBaseUrl: api.baseURL });
  page = await openDemo(demo.context, `${demo.base}?store=long-running`, demo.problems);
  await useApiKey(page, API_KEY);
  await page.locator('#model-picker option[value="claude-e2e-model"]').waitFor({ state: "attached" });
  // The key goes where the page was configured to send requests, and the page says so.
  assert.equal(await page.locator("#key-note").textContent(), `Key kept in this tab's sessionStorage (gone when the tab closes); sent only to ${api.baseURL}.`);
  assert.match((await page.locator("#agent-mode").textContent()) ?? "", new RegExp(`goes to ${api.baseURL.replace(/[.]/g, "\\.")}; the memory itself`));
  // The recordings are for the keyless page: their picker goes while a key is given.
  assert.equal(await page.locator("#scenario-picker").isVisible(), false);
});

after(async () => {
  await demo?.close();
  await api?.close();
});

/** Sends `text` and waits until the run ended; returns the status line. @param {string} text */
async function send(text) {
  const runs = Number(await page.locator("#transcript").getAttribute("data-runs"));
  await page.locator("#agent-input").fill(text);
  await page.locator("#agent-send").click();
  await page.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
  return page.locator("#agent-status").textContent();
}

describe("a long conversation with Claude", () => {
  it("sends context editing with every request, through the configured base URL", async () => {
    assert.equal(await send("I'm planning a trip to Porto in October."), "Done: 3 requests, 1 memory tool call.");
    const [first, second] = api.requests;
    for (const request of [first, second]) {
      assert.deepEqual(request.body.context_management, CONTEXT_MANAGEMENT);
      assert.equal(request.headers["anthropic-beta"], "context-management-2025-06-27,compact-2026-09-04");
      assert.equal(request.headers["x-api-key"] ?? request.headers.authorization?.replace(/^Bearer /, ""), API_KEY);
    }
    assert.deepEqual(second.body.messages.at(-1), {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_long_1", content: LISTING }],
    });
  });

  it("says in the transcript when the API cleared old tool results", async () => {
    const notes = await page.locator('#transcript [data-testid="context-cleared"]').allTextContents();
    assert.deepEqual(notes, [
      "Context cleared: before the model read this request, the API cleared 1 old tool result (6,200 input tokens). " +
        "What they showed is still in memory: the model can view it again.",
    ]);
    // The note sits just before the message that request produced.
    const next = await page.locator('#transcript [data-testid="context-cleared"] + li').getAttribute("data-turn");
    assert.equal(next, "2");
  });

  it("compacts after the turn whose input passed the threshold, and shows the summary", async () => {
    const compaction = api.requests[2].body;
    assert.equal(compaction.context_management, undefined, "a compaction request goes without context editing");
    assert.deepEqual(
      compaction.messages.map((/** @type {any} */ m) => m.role),
      ["user", "assistant", "user", "assistant"],
      "the whole conversation is summarised",
    );
    const item = page.locator('#transcript [data-testid="context-compacted"]');
    assert.equal(await item.count(), 1);
    await item.locator("summary").click();
    assert.equal(await item.locator('[data-testid="compaction-summary"]').textContent(), SUMMARY);
    // The compaction request left no empty assistant bubble.
    assert.equal(await page.locator('#transcript [data-testid="msg-assistant"]').count(), 2);
    await screenshot(page, "50-agent-context-compacted");
  });

  it("goes on from the summary: the next message is sent after it, and the memory tool still runs", async () => {
    assert.equal(await send("Start a progress note for it."), "Done: 2 requests, 1 memory tool call.");
    const next = api.requests[3].body;
    assert.deepEqual(next.messages, [
      { role: "assistant", content: [{ type: "compaction", content: SUMMARY, encrypted_content: null }] },
      { role: "user", content: "Start a progress note for it." },
    ]);
    assert.deepEqual(next.context_management, CONTEXT_MANAGEMENT);
    assert.deepEqual(api.requests[4].body.messages.at(-1), {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_long_4", content: "File created successfully at: /memories/progress.md" }],
    });
    await waitForTree(page, ["/memories/progress.md"]);
    assert.equal(api.requests.length, 5, "no second compaction: the inputs stayed under the threshold");
    // The version records Claude's tool_use id; the browser leads from the file to that call.
    await page.locator('#tree [data-path="/memories/progress.md"]').click();
    await page.locator('#viewer [data-testid="viewer-origin"]', { hasText: "Last change by the model, in this conversation" }).waitFor();
    await page.locator('[data-testid="viewer-origin-link"][data-tool-use-id="toolu_long_4"]').click();
    assert.equal(await page.evaluate(() => document.activeElement?.closest('[data-testid="tool-call"]')?.getAttribute("data-tool-use-id")), "toolu_long_4");
    await screenshot(page, "51-agent-after-compaction");
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
