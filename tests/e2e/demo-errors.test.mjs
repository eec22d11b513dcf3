// End to end: the live agent's errors, as a person meets them (against a local fake Messages
// API the page was served for). An API error says what happened and what to do, in the
// conversation's list as a list item (its alert inside it), with the API's own words and no
// JSON; a stream cut after a tool call ran marks the half answer as cut and offers Retry, which
// goes on from the tool results; a connection that fails names the endpoint the page talks to,
// not "the Anthropic API". axe-core finds nothing in any of these states.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { startDemo, openDemo, screenshot, fakeMessagesApi, betaMessage, useApiKey, sendTyped, waitForTree, axeViolations, PHONE, LAPTOP } from "./demo-lib.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const API_KEY = "sk-ant-e2e-0123456789-abcdefghijklmnopqrstuvwxyz";

/** What the fake answers next: set by each test. @type {(body: any, n: number) => any} */
let next = () => betaMessage({ id: "msg_x", content: [{ type: "text", text: "ok", citations: null }], stop_reason: "end_turn" });

/** @type {Awaited<ReturnType<typeof fakeMessagesApi>>} */ let api;
/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;

before(async () => {
  api = await fakeMessagesApi((body, n) => next(body, n));
  demo = await startDemo({ apiBaseUrl: api.baseURL });
  page = await openDemo(demo.context, `${demo.base}?store=errors`, demo.problems);
  await useApiKey(page, API_KEY);
  await page.locator('#model-picker option[value="claude-e2e-model"]').waitFor({ state: "attached" });
});

after(async () => {
  await demo?.close();
  await api?.close();
});

/** axe's violations on the page as it is now, light and dark, laptop and phone. */
async function violationsEverywhere() {
  await page.evaluate(await readFile(AXE, "utf8"));
  /** @type {string[]} */
  const found = [];
  for (const [size, viewport] of /** @type {const} */ ([["laptop", LAPTOP], ["phone", PHONE]])) {
    for (const scheme of /** @type {const} */ (["light", "dark"])) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      const v = await page.evaluate(async () => {
        const result = await /** @type {any} */ (window).axe.run(document, { resultTypes: ["violations"] });
        return result.violations.map((/** @type {any} */ x) => `${x.id} (${x.impact}): ${x.nodes.map((/** @type {any} */ n) => n.target.join(" ")).join(" | ")}`);
      });
      found.push(...v.map((x) => `${size} ${scheme}: ${x}`));
    }
  }
  await page.setViewportSize(LAPTOP);
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

/** Takes the browser's own log lines of failed requests out of the page problems (expected here). @param {RegExp} pattern */
function expectLogged(pattern) {
  for (let i = demo.problems.length - 1; i >= 0; i--) if (pattern.test(demo.problems[i])) demo.problems.splice(i, 1);
}

describe("the live agent's errors", () => {
  it("an API error: what happened and what to do, the API's words without JSON, a list item that axe accepts", async () => {
    next = () => ({ status: 529, type: "overloaded_error", message: "Overloaded" });
    assert.equal(await sendTyped(page, "Are you there?"), "The run failed (see the conversation).");
    const problem = page.locator('#transcript [data-testid="msg-problem"]').last();
    assert.equal(await problem.evaluate((e) => e.tagName), "LI");
    assert.equal(await problem.getAttribute("role"), null, "the list item stays a list item");
    assert.equal(await problem.locator('[role="alert"]').count(), 1);
    assert.equal(
      await problem.locator('[data-testid="problem-words"]').textContent(),
      `${api.baseURL} is overloaded (529: “Overloaded”). Wait a little. Press Retry to send it again.`,
    );
    assert.doesNotMatch((await problem.textContent()) ?? "", /[{}]|"type"/);
    assert.deepEqual(await violationsEverywhere(), []);
    await screenshot(page, "75-errors-api");
    // Retry sends the unanswered message again.
    next = () => betaMessage({ id: "msg_ok", content: [{ type: "text", text: "Here now.", citations: null }], stop_reason: "end_turn" });
    const runs = Number(await page.locator("#transcript").getAttribute("data-runs"));
    await problem.locator('[data-testid="retry"]').click();
    await page.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
    assert.equal(await page.locator("#agent-status").textContent(), "Done: 1 request, 0 memory tool calls.");
    assert.deepEqual(api.requests.at(-1)?.body.messages, [{ role: "user", content: "Are you there?" }]);
    expectLogged(/status of 529/);
  });

  it("a stream cut after a tool call ran: the half answer is marked cut, and Retry goes on from the tool results", async () => {
    await page.locator("#agent-new").click();
    const before = api.requests.length;
    next = (_body, n) => {
      const k = n - before;
      if (k === 1) {
        return betaMessage({
          id: "msg_cut_1",
          content: [{ type: "tool_use", id: "toolu_cut_1", name: "memory", input: { command: "create", path: "/memories/cut.md", file_text: "kept\n" } }],
          stop_reason: "tool_use",
        });
      }
      if (k === 2) {
        // message_start, the text block's start, two words: then the connection goes.
        return { message: betaMessage({ id: "msg_cut_2", content: [{ type: "text", text: "Saved it. Now the part about", citations: null }], stop_reason: "end_turn" }), cutAfter: 4 };
      }
      return betaMessage({ id: "msg_cut_3", content: [{ type: "text", text: "Saved it in /memories/cut.md.", citations: null }], stop_reason: "end_turn" });
    };
    assert.equal(await sendTyped(page, "Save a note."), "The answer was cut off: the connection dropped (see the conversation).");
    await waitForTree(page, ["/memories/cut.md"]);
    const cut = page.locator('#transcript [data-testid="assistant-text"]').last();
    assert.equal(await cut.textContent(), "Saved it. [cut off here: the connection dropped]");
    assert.equal(await cut.evaluate((e) => e.classList.contains("streaming")), false, "no cursor left blinking");
    const problem = page.locator('#transcript [data-testid="msg-problem"]').last();
    assert.equal(
      await problem.locator('[data-testid="problem-words"]').textContent(),
      `The connection to ${api.baseURL} dropped in the middle of the answer, which is cut off where it stopped; the 1 tool call that ran stays done, in memory. Press Retry to ask the model to go on.`,
    );
    assert.deepEqual(await violationsEverywhere(), []);
    await screenshot(page, "76-errors-stream-cut");

    const runs = Number(await page.locator("#transcript").getAttribute("data-runs"));
    await problem.locator('[data-testid="retry"]').click();
    await page.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
    assert.equal(await page.locator("#agent-status").textContent(), "Done: 1 request, 0 memory tool calls.");
    // The retry carries the conversation up to the tool result, and no second copy of the message.
    const messages = api.requests.at(-1)?.body.messages;
    assert.deepEqual(messages.map((/** @type {any} */ m) => m.role), ["user", "assistant", "user"]);
    assert.deepEqual(messages[2].content, [{ type: "tool_result", tool_use_id: "toolu_cut_1", content: "File created successfully at: /memories/cut.md" }]);
    assert.equal((await page.locator('#transcript [data-testid="assistant-text"]').allTextContents()).at(-1), "Saved it in /memories/cut.md.");
    expectLogged(/ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_EMPTY_RESPONSE|net::/);
  });

  it("a connection that fails names the endpoint the page talks to, and what to do", async () => {
    next = () => ({ drop: true });
    assert.equal(await sendTyped(page, "Hello?"), "The run failed (see the conversation).");
    const problem = page.locator('#transcript [data-testid="msg-problem"]').last();
    const words = ((await problem.textContent()) ?? "").replace(/Retry$/, "");
    assert.match(words, new RegExp(`^Could not reach ${api.baseURL.replace(/[.]/g, "\\.")} \\(`));
    assert.match(words, /Check the network and the address\. Press Retry to send it again\.$/);
    assert.doesNotMatch(words, /Anthropic API/);
    assert.equal(await page.locator("#agent-input").inputValue(), "Hello?", "the message is back in the box");
    assert.deepEqual(await axeViolations(page), []);
    expectLogged(/ERR_EMPTY_RESPONSE|net::|Failed to load resource/);
  });

  it("logged no other errors in the page", () => {
    assert.deepEqual(demo.problems, []);
  });
});
