// Shared by the demo's end-to-end tests (demo-agent, demo-browser): a headless Chromium with a
// fresh persistent profile (IndexedDB outlives pages and tabs), the demo server, opening the
// page and waiting until it is ready, page problems (Content-Security-Policy violations among
// them), screenshots in test-artifacts/e2e/, and a fake Messages API for the live agent.

import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtemp, mkdir, readFile, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const ARTIFACTS = path.join(REPO, "test-artifacts", "e2e");
export const LAPTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * Starts the server and a browser with a fresh profile.
 * @param {{ apiBaseUrl?: string }} [options]  `apiBaseUrl`: where the live agent's requests go
 *   (served as the page's configured base URL, and allowed by its Content-Security-Policy)
 * @returns {Promise<{ context: import("playwright-core").BrowserContext, base: string, problems: string[], close: () => Promise<void> }>}
 *   `base` is the demo page's URL (http://127.0.0.1:PORT/www/); `problems` collects page errors.
 */
export async function startDemo({ apiBaseUrl } = {}) {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  assert.ok(existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")), "the wasm is not built: run `npm run build` first");
  await mkdir(ARTIFACTS, { recursive: true });
  const server = await startServer({ port: 0, apiBaseUrl });
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-demo-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: LAPTOP,
    colorScheme: "light",
    acceptDownloads: true,
  });
  // Every Content-Security-Policy violation is a page problem, in every demo test. (An init
  // script runs before the page's own, and is not subject to its policy.)
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`securitypolicyviolation: ${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"}`);
    });
  });
  /** @type {string[]} */
  const problems = [];
  return {
    context,
    // 127.0.0.1, not localhost: one origin for the whole run, so IndexedDB is one.
    base: `http://127.0.0.1:${server.port}/www/`,
    problems,
    close: async () => {
      await context.close();
      await server.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a tab (the context's blank first tab, or a new one) and waits until the demo is
 * ready; fails with the page's own words if it is not. Page errors go to `problems`.
 * @param {import("playwright-core").BrowserContext} context
 * @param {string} url
 * @param {string[]} problems
 * @param {{ newTab?: boolean }} [options]
 */
export async function openDemo(context, url, problems, { newTab = false } = {}) {
  const blank = context.pages().find((p) => p.url() === "about:blank");
  const tab = !newTab && blank ? blank : await context.newPage();
  tab.setDefaultTimeout(10_000);
  tab.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  tab.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console.error: ${msg.text()}`);
  });
  await tab.goto(url);
  await waitReady(tab);
  return tab;
}

/** Waits until start-up ended and the first tree has painted. */
export async function waitReady(/** @type {import("playwright-core").Page} */ tab) {
  await tab.waitForFunction(() => document.documentElement.dataset.state !== "loading");
  const state = await tab.evaluate(() => document.documentElement.dataset.state);
  if (state !== "ready") assert.fail(`the demo did not start: ${await tab.locator("#notice-text").textContent()}`);
  await tab.locator("#tree[data-refreshes]").waitFor({ state: "attached" });
}

/**
 * Offline: plays the recording's next message with its button (as a visitor does) and waits
 * until the run ended; resolves with the status line.
 * @param {import("playwright-core").Page} tab
 */
export async function playNext(tab) {
  const runs = Number(await tab.locator("#transcript").getAttribute("data-runs"));
  await tab.locator("#agent-play").click();
  await tab.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
  return tab.locator("#agent-status").textContent();
}

/**
 * Types `text` into the message box and sends it (Send, or Ctrl+Enter with `keyboard`); waits
 * until the run ended and resolves with the status line.
 * @param {import("playwright-core").Page} tab @param {string} text @param {{ keyboard?: boolean }} [options]
 */
export async function sendTyped(tab, text, { keyboard = false } = {}) {
  const runs = Number(await tab.locator("#transcript").getAttribute("data-runs"));
  await tab.locator("#agent-input").fill(text);
  if (keyboard) {
    await tab.locator("#agent-input").focus();
    await tab.keyboard.press("Control+Enter");
  } else {
    await tab.locator("#agent-send").click();
  }
  await tab.locator(`#transcript[data-runs="${runs + 1}"]`).waitFor({ state: "attached" });
  return tab.locator("#agent-status").textContent();
}

/**
 * Gives the page an API key as a visitor does: opens "Use your own key", types it, presses Enter.
 * @param {import("playwright-core").Page} tab @param {string} key
 */
export async function useApiKey(tab, key) {
  if ((await tab.locator("#own-key").getAttribute("open")) === null) await tab.locator("#own-key > summary").click();
  await tab.locator("#api-key").fill(key);
  await tab.locator("#api-key").press("Enter");
}

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * axe-core's violations on the page as it is now, one line each (none is the bar). axe is
 * evaluated through the DevTools protocol: the page's Content-Security-Policy refuses a <script>.
 * @param {import("playwright-core").Page} tab
 */
export async function axeViolations(tab) {
  if (!(await tab.evaluate(() => "axe" in window))) await tab.evaluate(await readFile(AXE, "utf8"));
  return tab.evaluate(async () => {
    const result = await /** @type {any} */ (window).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((/** @type {any} */ v) => `${v.id} (${v.impact}): ${v.nodes.map((/** @type {any} */ n) => n.target.join(" ")).join(" | ")}`);
  });
}

/** Paths of the files the tree shows, in order. */
export function treePaths(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#tree [data-testid="tree-file"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));
}

/** Waits until the tree shows exactly `paths`. */
export async function waitForTree(/** @type {import("playwright-core").Page} */ tab, /** @type {string[]} */ paths) {
  await tab.waitForFunction(
    (want) =>
      JSON.stringify([...document.querySelectorAll('#tree [data-testid="tree-file"]')].map((e) => e.getAttribute("data-path"))) ===
      JSON.stringify(want),
    paths,
  );
}

/**
 * A full-page screenshot in test-artifacts/e2e/, of a state that axe-core then checks: every
 * state a demo test names is one a visitor can reach, so each must have no violation.
 */
export async function screenshot(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ name) {
  await tab.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  const violations = await axeViolations(tab);
  if (violations.length > 0) throw new Error(`axe-core in state ${name}: ${violations.join("; ")}`);
}

/** Whether the page scrolls sideways (it must not, at any width). */
export function sidewaysOverflow(/** @type {import("playwright-core").Page} */ tab) {
  return tab.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaMessage} BetaMessage */
/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaContentBlock} BetaContentBlock */
/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaRawMessageStreamEvent} BetaRawMessageStreamEvent */
/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaContextManagementResponse} BetaContextManagementResponse */
/** @typedef {import("@anthropic-ai/sdk/resources/beta/messages/messages").BetaStopReason} BetaStopReason */

/**
 * A whole Messages API response (beta), every field the SDK's `BetaMessage` has.
 * @param {{ id: string, content: BetaContentBlock[], stop_reason: BetaStopReason, input_tokens?: number,
 *   output_tokens?: number, context_management?: BetaContextManagementResponse | null, model?: string }} fields
 * @returns {BetaMessage}
 */
export function betaMessage({ id, content, stop_reason, input_tokens = 100, output_tokens = 20, context_management = null, model = "claude-e2e-model" }) {
  return {
    id,
    type: "message",
    role: "assistant",
    model,
    container: null,
    content,
    context_management,
    diagnostics: null,
    stop_details: null,
    stop_reason,
    stop_sequence: null,
    usage: {
      cache_creation: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      fallback_credit: null,
      inference_geo: null,
      input_tokens,
      iterations: null,
      output_tokens,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: "standard",
      speed: null,
    },
  };
}

/**
 * The server-sent events the Messages API streams for `message`: `message_start` (no content
 * yet), each block started, its deltas, stopped, then `message_delta` (stop reason, usage,
 * context management) and `message_stop`.
 * @param {BetaMessage} message
 * @returns {BetaRawMessageStreamEvent[]}
 */
export function betaStreamEvents(message) {
  /** @type {BetaRawMessageStreamEvent[]} */
  const events = [
    {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, context_management: null, usage: { ...message.usage, output_tokens: 1 } },
    },
  ];
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } });
      for (const piece of block.text.match(/\S+\s*|\s+/g) ?? []) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    } else if (block.type === "tool_use") {
      events.push({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    } else if (block.type === "compaction") {
      events.push({ type: "content_block_start", index, content_block: { type: "compaction", content: null, encrypted_content: null } });
      events.push({ type: "content_block_delta", index, delta: { type: "compaction_delta", content: block.content, encrypted_content: block.encrypted_content } });
    } else {
      throw new Error(`betaStreamEvents: no events for a ${block.type} block`);
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({
    type: "message_delta",
    delta: { container: null, stop_details: null, stop_reason: message.stop_reason, stop_sequence: null },
    usage: {
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      fallback_credit: null,
      input_tokens: message.usage.input_tokens,
      iterations: null,
      output_tokens: message.usage.output_tokens,
      output_tokens_details: null,
      server_tool_use: null,
    },
    context_management: message.context_management,
  });
  events.push({ type: "message_stop" });
  return events;
}

/**
 * A fake Messages API on 127.0.0.1, for the live agent through the SDK client's `baseURL`:
 * answers each POST /v1/messages with `answer(body, n)` (n from 1), streamed when asked, and
 * records every request; lists one model (`claude-e2e-model`) at GET /v1/models, after
 * `modelsDelayMs` (a slow list, as a real one can be); CORS as the real API answers a browser
 * (preflight, exposed request-id). An answer `{ message, cutAfter: k }` streams the first `k`
 * events of the message and then drops the connection (a stream cut mid-answer); `{ drop: true }`
 * drops it before answering; `{ status, type, message }` answers an API error.
 * `models({ delayMs, status })` changes how the model list answers from then on (a status
 * other than 200 answers an API error).
 * @param {(body: any, n: number) => BetaMessage | { message: BetaMessage, cutAfter: number } | { drop: true } | { status: number, type: string, message: string }} answer
 * @param {{ modelsDelayMs?: number }} [options]
 * @returns {Promise<{ baseURL: string, requests: Array<{ headers: import("node:http").IncomingHttpHeaders, body: any }>, modelRequests: () => number,
 *   models: (how: { delayMs?: number, status?: number }) => void, close: () => Promise<void> }>}
 */
export async function fakeMessagesApi(answer, { modelsDelayMs = 0 } = {}) {
  let modelRequests = 0;
  const modelsAnswer = { delayMs: modelsDelayMs, status: 200 };
  /** @type {Array<{ headers: import("node:http").IncomingHttpHeaders, body: any }>} */
  const requests = [];
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-expose-headers": "request-id",
  };
  const server = createServer(async (req, res) => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const pathname = new URL(req.url ?? "/", "http://fake").pathname;
    if (req.method === "GET" && pathname === "/v1/models") {
      modelRequests += 1;
      if (modelsAnswer.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, modelsAnswer.delayMs));
      if (modelsAnswer.status !== 200) {
        res.writeHead(modelsAnswer.status, { ...cors, "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "the model list is down" } }));
        return;
      }
      /** @type {import("@anthropic-ai/sdk/resources/models").ModelInfo} */
      const model = {
        id: "claude-e2e-model",
        type: "model",
        display_name: "Claude E2E",
        created_at: "2026-01-01T00:00:00Z",
        capabilities: null,
        deprecated_at: null,
        lifecycle: "active",
        line: null,
        max_input_tokens: 200000,
        max_tokens: 64000,
        retires_at: null,
      };
      res.writeHead(200, { ...cors, "content-type": "application/json" });
      res.end(JSON.stringify({ data: [model], has_more: false, first_id: model.id, last_id: model.id }));
      return;
    }
    if (req.method !== "POST" || pathname !== "/v1/messages") {
      res.writeHead(404, { ...cors, "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `fake: no ${req.method} ${pathname}` } }));
      return;
    }
    const body = JSON.parse(raw);
    requests.push({ headers: req.headers, body });
    const answered = /** @type {any} */ (answer(body, requests.length));
    const headers = { ...cors, "request-id": `req_fake_${requests.length}` };
    if (answered.drop === true) {
      req.socket.destroy();
      return;
    }
    if (typeof answered.status === "number") {
      res.writeHead(answered.status, { ...headers, "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: answered.type, message: answered.message }, request_id: headers["request-id"] }));
      return;
    }
    const message = "cutAfter" in answered ? answered.message : answered;
    if ("cutAfter" in answered) {
      // Part of the stream, then the connection goes: the browser reads a body that never ends well.
      res.writeHead(200, { ...headers, "content-type": "text/event-stream" });
      const events = betaStreamEvents(message).slice(0, answered.cutAfter);
      res.write(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
      setTimeout(() => res.socket?.destroy(), 100);
      return;
    }
    if (body.stream === true) {
      res.writeHead(200, { ...headers, "content-type": "text/event-stream" });
      res.end(betaStreamEvents(message).map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
    } else {
      res.writeHead(200, { ...headers, "content-type": "application/json" });
      res.end(JSON.stringify(message));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    modelRequests: () => modelRequests,
    models: (how) => Object.assign(modelsAnswer, how),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/** Where `moveClock` keeps the days the page's clock is moved by (localStorage, so every tab shares it). */
export const CLOCK_KEY = "e2e:clock-offset-days";

/**
 * Lets a test move the clock of every page of `context`: Date.now() (what the package takes its
 * time from) returns the real time plus the days `setClock` last stored, read on each call, so a
 * move needs no reload.
 * @param {import("playwright-core").BrowserContext} context
 */
export function moveClock(context) {
  return context.addInitScript(
    ({ key, day }) => {
      const real = Date.now.bind(Date);
      Date.now = () => real() + (Number(localStorage.getItem(key)) || 0) * day;
    },
    { key: CLOCK_KEY, day: 24 * 3600 * 1000 },
  );
}

/** Moves the clock of every tab (after `moveClock`) to `days` after the real now. @param {import("playwright-core").Page} tab @param {number} days */
export async function setClock(tab, days) {
  await tab.evaluate(({ key, days }) => localStorage.setItem(key, String(days)), { key: CLOCK_KEY, days });
}

/**
 * Reloads the page `days` after the real now, as a returning visitor would after an earlier
 * visit that day: the store's housekeeping (retention, expiry) acts on a time an earlier open
 * also saw (docs/TOOL.md#a-clock-that-can-be-trusted), so the demo is first opened in another
 * tab (it witnesses the date), and the page reloaded a quarter of an hour later acts on it.
 * Resolves once the page is ready again.
 * @param {import("playwright-core").Page} tab @param {number} days
 */
export async function reopenAt(tab, days) {
  await setClock(tab, days);
  const other = await tab.context().newPage();
  await other.goto(tab.url());
  await waitReady(other);
  await other.close();
  await setClock(tab, days + 15 / (24 * 60));
  await tab.reload();
  await waitReady(tab);
}

/**
 * Deletes the database of the store `tab` shows, as another tab would: from a second page of the
 * same browser (a plain file of the origin, not the demo, so nothing reopens it).
 * @param {import("playwright-core").Page} tab @param {string} base the demo's URL
 */
export async function deleteStoreFromAnotherTab(tab, base) {
  const id = await tab.evaluate(() => /** @type {any} */ (window).demo.session.store.id);
  const other = await tab.context().newPage();
  await other.goto(`${base}style.css`);
  await other.evaluate(
    (name) =>
      new Promise((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = () => resolve(null);
        request.onerror = () => reject(request.error);
      }),
    `memory-tool-wasm:${id}`,
  );
  await other.close();
}
