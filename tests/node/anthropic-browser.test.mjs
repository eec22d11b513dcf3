// memory-tool-wasm/anthropic in a real browser: headless Chromium loads the SDK, the package and
// the replay fixtures as plain ES modules (an import map, no bundler), then runs the recorded
// conversation through the SDK's tool runner against the page's IndexedDB, once with whole
// responses and once streamed. Skipped when Chromium or the built wasm is missing.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";
import { FINAL_PATHS, NOTE_VIEW, answersFor } from "./fixtures/anthropic-conversation.mjs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
const why = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is missing`
  : !built
    ? "pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`"
    : null;
if (why) console.error(`\n*** anthropic-browser.test.mjs: ${why}. SKIPPING the browser run of the SDK. ***\n`);

const TURNS = JSON.parse(readFileSync(new URL("./fixtures/anthropic-turns.json", import.meta.url), "utf8")).turns;
const ANSWERS = answersFor(TURNS);

const SDK = "/node_modules/@anthropic-ai/sdk";
/**
 * How a page with no bundler loads the SDK: its ESM files, their one ESM dependency, the
 * browser versions of the two files its package.json `browser` field swaps (bundlers do that
 * by themselves), and a stand-in for `standardwebhooks` (CommonJS only; this page verifies no
 * webhooks).
 */
const IMPORT_MAP = {
  imports: {
    "memory-tool-wasm": "/src/js/index.js",
    "memory-tool-wasm/anthropic": "/src/js/anthropic.js",
    "@anthropic-ai/sdk": `${SDK}/index.mjs`,
    "@anthropic-ai/sdk/lib/tools/ToolError": `${SDK}/lib/tools/ToolError.mjs`,
    "@opentelemetry/api": "/node_modules/@opentelemetry/api/dist/index.mjs",
    standardwebhooks: "data:text/javascript,export class Webhook { constructor() { throw new Error('no webhooks here'); } }",
    [`${SDK}/internal/node.mjs`]: `${SDK}/internal/node.browser.mjs`,
    [`${SDK}/tools/agent-toolset/node.mjs`]: `${SDK}/tools/agent-toolset/node.browser.mjs`,
  },
};

/** The page: runs the conversation twice (whole, streamed), each over a fresh IndexedDB store. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>anthropic entry</title>
<script type="importmap">${JSON.stringify(IMPORT_MAP)}</script>
<script type="module">
import Anthropic from "@anthropic-ai/sdk";
import { MemoryTool, IndexedDbStorage } from "memory-tool-wasm";
import { memoryTool } from "memory-tool-wasm/anthropic";
import { replayFetch } from "/tests/node/fixtures/replay-fetch.mjs";
import { MODEL, pngBytes } from "/tests/node/fixtures/anthropic-conversation.mjs";

async function converse(turns, stream) {
  const replay = replayFetch(turns);
  const client = new Anthropic({ apiKey: "test", fetch: replay.fetch, dangerouslyAllowBrowser: true, maxRetries: 0 });
  const memory = await MemoryTool.open({ store: "sdk-" + (stream ? "streamed" : "whole") });
  await memory.writeFile("/memories/diagram.png", pngBytes());
  const final = await client.beta.messages.toolRunner({
    model: MODEL, max_tokens: 1024, stream,
    messages: [{ role: "user", content: "Please remember the deadline." }],
    tools: [memoryTool(memory)],
  });
  const result = {
    requests: replay.requests.map((r) => ({ body: r.body, browserAccess: r.headers.get("anthropic-dangerous-direct-browser-access") })),
    final: final.content,
    paths: (await memory.memories.list()).map((m) => m.path),
    note: await memory.execute({ command: "view", path: "/memories/notes/project.md" }),
  };
  memory.close();
  return result;
}

try {
  const turns = (await (await fetch("/tests/node/fixtures/anthropic-turns.json")).json()).turns;
  window.result = { whole: await converse(turns, false), streamed: await converse(turns, true), indexedDB: typeof indexedDB };
} catch (error) {
  window.result = { error: String(error?.stack ?? error) };
}
</script>`;

let server;
let browser;

before(async () => {
  if (why) return;
  const { chromium } = await import("playwright-core");
  server = await startServer({ port: 0 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("the SDK's tool runner with memoryTool(memory) over IndexedDB, in Chromium", { skip: why ?? false }, async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  const origin = new URL(server.url).origin;
  await page.route(`${origin}/anthropic-entry.html`, (route) =>
    route.fulfill({ contentType: "text/html; charset=utf-8", body: PAGE }),
  );
  await page.goto(`${origin}/anthropic-entry.html`);
  const result = await (await page.waitForFunction(() => window.result, null, { timeout: 30_000 })).jsonValue();
  assert.deepEqual(problems, []);
  assert.equal(result.error, undefined, result.error);
  assert.equal(result.indexedDB, "object");

  for (const mode of ["whole", "streamed"]) {
    const run = result[mode];
    assert.equal(run.requests.length, 3, mode);
    for (const request of run.requests) {
      assert.equal(request.browserAccess, "true", `${mode}: the SDK's browser header`);
      assert.equal(request.body.stream, mode === "streamed");
    }
    assert.deepEqual(run.requests[0].body.tools, [{ type: "memory_20250818", name: "memory" }]);
    assert.deepEqual(run.requests[1].body.messages, [ANSWERS[0]], mode);
    assert.deepEqual(run.requests[2].body.messages, [ANSWERS[1]], mode);
    assert.deepEqual(run.final, TURNS[2].content, mode);
    assert.deepEqual(run.paths, FINAL_PATHS, mode);
    assert.deepEqual(run.note, { content: NOTE_VIEW, isError: false }, mode);
  }
  await page.close();
});
