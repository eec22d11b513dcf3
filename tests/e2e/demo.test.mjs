// End to end: the demo page (www/) in headless Chromium, driven by playwright-core, against the
// real package and wasm over real IndexedDB. Commands go through the console UI; the exact
// tool_result texts (docs/TOOL.md#commands) are asserted; the store must survive a reload, a second tab and
// a browser restart with the same profile. Screenshots go to test-artifacts/e2e/.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, mkdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";
import { makePng } from "./png.mjs";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const ARTIFACTS = path.join(REPO, "test-artifacts", "e2e");
const LAPTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

// docs/TOOL.md#commands texts for the notes the tests write.
const TODO = "/memories/notes/todo.md";
const TODO_TEXT = "# Todo\n- buy milk\n- call mum";
const TODO_EDITED = "# Todo\n- buy oat milk\n- call mum";
const VIEW_TODO =
  `Here's the content of ${TODO} with line numbers:\n` + "     1\t# Todo\n     2\t- buy milk\n     3\t- call mum";
const VIEW_TODO_EDITED =
  `Here's the content of ${TODO} with line numbers:\n` + "     1\t# Todo\n     2\t- buy oat milk\n     3\t- call mum";
const LISTING_HEAD =
  "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:";

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {string} */ let profileDir;
/** @type {import("playwright-core").BrowserContext | undefined} */ let context;
/** @type {import("playwright-core").Page} */ let page;
/** @type {string[]} */ const pageProblems = [];
let demoUrl = "";
let pageUrl = "";

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  assert.ok(
    existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")),
    "the wasm is not built: run `npm run build` first",
  );
  await mkdir(ARTIFACTS, { recursive: true });
  server = await startServer({ port: 0 });
  // 127.0.0.1, not localhost: one origin for the whole run, so IndexedDB is the same store.
  // `#console`: these tests drive the tool console tab (demo-agent.test.mjs drives the agent).
  pageUrl = `http://127.0.0.1:${server.port}/www/`;
  demoUrl = `${pageUrl}#console`;
  profileDir = await mkdtemp(path.join(tmpdir(), "memory-tool-e2e-"));
  context = await launch();
  page = await openDemo(context);
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profileDir) await rm(profileDir, { recursive: true, force: true });
});

/** A Chromium with a persistent profile (so IndexedDB outlives pages and restarts). */
function launch() {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: LAPTOP,
    colorScheme: "light",
  });
}

/**
 * Opens the demo in a tab (the context's first blank one, or a new one) and waits until it is
 * ready; fails with the page's own words if it is not.
 * @param {import("playwright-core").BrowserContext} ctx
 * @param {{ newTab?: boolean }} [options]
 */
async function openDemo(ctx, { newTab = false } = {}) {
  const blank = ctx.pages().find((p) => p.url() === "about:blank");
  const tab = !newTab && blank ? blank : await ctx.newPage();
  tab.setDefaultTimeout(10_000);
  watch(tab);
  await tab.goto(demoUrl);
  await waitReady(tab);
  return tab;
}

/** Records uncaught errors and console errors; the suite fails on any. */
function watch(/** @type {import("playwright-core").Page} */ tab) {
  tab.on("pageerror", (err) => pageProblems.push(`pageerror: ${err.message}`));
  tab.on("console", (msg) => {
    if (msg.type() === "error") pageProblems.push(`console.error: ${msg.text()}`);
  });
}

async function waitReady(/** @type {import("playwright-core").Page} */ tab) {
  await tab.waitForFunction(() => document.documentElement.dataset.state !== "loading");
  const state = await tab.evaluate(() => document.documentElement.dataset.state);
  if (state !== "ready") {
    const notice = await tab.locator("#notice-text").textContent();
    assert.fail(`the demo did not start: ${notice}`);
  }
  // The first tree refresh has painted.
  await tab.locator('#tree[data-refreshes]').waitFor();
}

/**
 * Runs what the editor holds (Run button, or Ctrl+Enter) and returns what the result area shows.
 * @param {import("playwright-core").Page} tab
 * @param {{ keyboard?: boolean }} [options]
 */
async function runEditor(tab, { keyboard = false } = {}) {
  const result = tab.locator("#result");
  const seq = Number(await result.getAttribute("data-seq"));
  if (keyboard) {
    await tab.locator("#tool-input").focus();
    await tab.keyboard.press("Control+Enter");
  } else {
    await tab.locator("#run-button").click();
  }
  await tab.locator(`#result[data-seq="${seq + 1}"]`).waitFor();
  return readResult(tab);
}

/** What the result area shows now (it is painted in one go, so nothing is waited for). */
async function readResult(/** @type {import("playwright-core").Page} */ tab) {
  const shown = await tab.locator("#result").evaluate((result) => {
    const text = (/** @type {string} */ id) => result.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
    return {
      texts: [...result.querySelectorAll('[data-testid="result-text"]')].map((e) => e.textContent ?? ""),
      status: text("result-status"),
      json: text("result-json"),
      problem: text("result-problem"),
    };
  });
  return { ...shown, text: shown.texts.join("\n"), json: shown.json === null ? null : JSON.parse(shown.json) };
}

/** Types a tool input (or tool_use block) into the editor and runs it. */
async function runInput(/** @type {import("playwright-core").Page} */ tab, /** @type {unknown} */ input, options = {}) {
  await tab.locator("#tool-input").fill(typeof input === "string" ? input : JSON.stringify(input, null, 2));
  return runEditor(tab, options);
}

/** Picks an example from the picker and runs it. */
async function runExample(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ id) {
  await tab.locator("#example-picker").selectOption(id);
  return runEditor(tab);
}

/**
 * Asserts a whole tool_result as shown: the readable text, the badge, and the JSON.
 * @param {Awaited<ReturnType<typeof readResult>>} shown
 * @param {{ content: string, isError: boolean, toolUseId?: string }} expected
 */
function assertToolResult(shown, { content, isError, toolUseId }) {
  assert.equal(shown.problem, null, `unexpected problem: ${shown.problem}`);
  assert.equal(shown.text, content);
  assert.equal(shown.status, isError ? "is_error: true" : "success");
  assert.ok(shown.json, "the tool_result JSON is shown");
  assert.equal(shown.json.type, "tool_result");
  assert.equal(shown.json.content, content);
  if (isError) assert.equal(shown.json.is_error, true);
  else assert.ok(shown.json.is_error === undefined || shown.json.is_error === false, "no is_error on success");
  if (toolUseId) assert.equal(shown.json.tool_use_id, toolUseId);
  else assert.match(shown.json.tool_use_id, /^toolu_demo_\d{3}$/);
  const extra = Object.keys(shown.json).filter((k) => !["type", "tool_use_id", "content", "is_error"].includes(k));
  assert.deepEqual(extra, [], "a tool_result has no other fields");
}

/** Paths of the files the tree shows, in order. */
function treePaths(/** @type {import("playwright-core").Page} */ tab) {
  return tab.locator('#tree [data-testid="tree-file"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));
}

async function screenshot(/** @type {import("playwright-core").Page} */ tab, /** @type {string} */ name) {
  await tab.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * A small, valid RGBA PNG (a gradient with a diagonal stripe).
 * @param {number} width
 * @param {number} height
 */
function gradientPng(width, height) {
  return makePng(width, height, (x, y) => {
    const stripe = Math.abs(x - y * (width / height)) < 3;
    return stripe
      ? [255, 160, 0, 255]
      : [Math.round((x / width) * 80), Math.round((y / height) * 120) + 60, 200, 255];
  });
}

describe("the demo page", () => {
  it("opens on an empty IndexedDB store and names it", async () => {
    assert.equal(await page.locator("#store-name").textContent(), "demo");
    assert.equal(await page.locator("#store-summary").textContent(), "Empty.");
    assert.deepEqual(await treePaths(page), []);
    const shown = await runExample(page, "view-root");
    assertToolResult(shown, { content: `${LISTING_HEAD}\n0B\t/memories`, isError: false });
    await screenshot(page, "01-empty-store");
  });

  it("creates, views and edits a note through the console, with the exact texts", async () => {
    assertToolResult(await runExample(page, "create"), {
      content: `File created successfully at: ${TODO}`,
      isError: false,
    });
    await page.locator(`#tree [data-path="${TODO}"]`).waitFor();
    assertToolResult(await runExample(page, "view-file"), { content: VIEW_TODO, isError: false });
    assertToolResult(await runExample(page, "view-range"), {
      content: `Here's the content of ${TODO} with line numbers:\n     2\t- buy milk\n     3\t- call mum`,
      isError: false,
    });
    await screenshot(page, "02-console-view");

    // str_replace typed by hand, run with the keyboard.
    const edited = await runInput(
      page,
      { command: "str_replace", path: TODO, old_str: "buy milk", new_str: "buy oat milk" },
      { keyboard: true },
    );
    assertToolResult(edited, {
      content:
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" +
        "     1\t# Todo\n     2\t- buy oat milk\n     3\t- call mum",
      isError: false,
    });

    // A whole tool_use block keeps its id.
    const size = Buffer.byteLength(TODO_EDITED);
    const listed = await runInput(page, {
      type: "tool_use",
      id: "toolu_e2e_list",
      name: "memory",
      input: { command: "view", path: "/memories" },
    });
    assertToolResult(listed, {
      content: `${LISTING_HEAD}\n${size}B\t/memories\n${size}B\t/memories/notes/\n${size}B\t${TODO}`,
      isError: false,
      toolUseId: "toolu_e2e_list",
    });
  });

  it("shows model errors as is_error results, in the words of docs/TOOL.md", async () => {
    const traversal = await runExample(page, "error-traversal");
    assertToolResult(traversal, {
      content: "Error: Path /memories/../secrets.txt would escape /memories directory",
      isError: true,
    });
    assert.equal(await page.locator('#result [data-is-error="true"]').count(), 1);
    await screenshot(page, "03-console-error");

    assertToolResult(await runExample(page, "error-view-range"), {
      content:
        "Error: Invalid `view_range`: [10, 12]. Its first element `10` should be within the range of lines of the file: [1, 3]",
      isError: true,
    });
    assertToolResult(await runExample(page, "error-missing"), {
      content: "The path /memories/nope.md does not exist. Please provide a valid path.",
      isError: true,
    });
    assertToolResult(await runExample(page, "error-multiple"), {
      content: "No replacement was performed. Multiple occurrences of old_str `- ` in lines: 2, 3. Please ensure it is unique",
      isError: true,
    });
    assertToolResult(await runExample(page, "error-exists"), {
      content: `Error: File ${TODO} already exists`,
      isError: true,
    });
    assertToolResult(await runInput(page, 5), { content: "Error: Tool input must be a JSON object", isError: true });

    // Not JSON at all: said in words, nothing sent.
    const bad = await runInput(page, '{"command": "view", path: }');
    assert.equal(bad.json, null);
    assert.match(bad.problem ?? "", /^The editor does not hold valid JSON: /);

    // None of the errors changed the file.
    assertToolResult(await runExample(page, "view-file"), { content: VIEW_TODO_EDITED, isError: false });
  });

  it("lists the store in the tree and shows a file as the model sees it", async () => {
    await runInput(page, { command: "create", path: "/memories/people/ada.md", file_text: "Ada likes tea.\n" });
    await page.locator('#tree [data-path="/memories/people/ada.md"]').waitFor();
    assert.deepEqual(await treePaths(page), ["/memories/notes/todo.md", "/memories/people/ada.md"]);
    const size = Buffer.byteLength(TODO_EDITED);
    assert.equal(await page.locator(`#tree [data-path="${TODO}"] .size`).textContent(), `${size}B`);
    assert.equal(await page.locator("#store-summary").textContent(), `2 files, ${size + 15} bytes in all; last changed: /memories/people/ada.md, just now.`);

    await page.locator(`#tree [data-path="${TODO}"]`).click();
    await page.locator(`#viewer[data-path="${TODO}"]`).waitFor();
    assert.equal(await page.locator('#viewer [data-testid="viewer-text"]').textContent(), VIEW_TODO_EDITED);

    // Keyboard: Tab past the "people/" folder to its file, Enter opens it.
    await page.locator(`#tree [data-path="${TODO}"]`).focus();
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "people/15B");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.locator('#viewer[data-path="/memories/people/ada.md"]').waitFor();
    assert.equal(
      await page.locator('#viewer [data-testid="viewer-text"]').textContent(),
      "Here's the content of /memories/people/ada.md with line numbers:\n     1\tAda likes tea.\n     2\t",
    );

    // An edit from the console shows up in the open viewer.
    await runInput(page, { command: "insert", path: "/memories/people/ada.md", insert_line: 0, insert_text: "# Ada" });
    await page.waitForFunction(
      () => document.querySelector('#viewer [data-testid="viewer-text"]')?.textContent?.includes("     1\t# Ada"),
    );
    assert.equal(
      await page.locator('#viewer [data-testid="viewer-text"]').textContent(),
      "Here's the content of /memories/people/ada.md with line numbers:\n     1\t# Ada\n     2\tAda likes tea.\n     3\t",
    );
    await screenshot(page, "04-tree-and-viewer");
  });

  it("keeps the store across a reload and in a second tab", async () => {
    await page.reload();
    await waitReady(page);
    assert.deepEqual(await treePaths(page), ["/memories/notes/todo.md", "/memories/people/ada.md"]);
    assertToolResult(await runExample(page, "view-file"), { content: VIEW_TODO_EDITED, isError: false });
    await screenshot(page, "05-after-reload");

    const second = await openDemo(/** @type {import("playwright-core").BrowserContext} */ (context), { newTab: true });
    assert.deepEqual(await treePaths(second), ["/memories/notes/todo.md", "/memories/people/ada.md"]);
    assertToolResult(
      await runInput(second, { command: "str_replace", path: TODO, old_str: "call mum", new_str: "call mum back" }),
      {
        content:
          "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" +
          "     1\t# Todo\n     2\t- buy oat milk\n     3\t- call mum back",
        isError: false,
      },
    );
    await second.close();
    // The first tab reads the second tab's edit.
    assertToolResult(await runExample(page, "view-file"), {
      content: VIEW_TODO_EDITED.replace("call mum", "call mum back"),
      isError: false,
    });
  });

  it("keeps the store when the browser restarts with the same profile", async () => {
    await context?.close();
    context = await launch();
    page = await openDemo(context);
    assert.deepEqual(await treePaths(page), ["/memories/notes/todo.md", "/memories/people/ada.md"]);
    assertToolResult(await runExample(page, "view-file"), {
      content: VIEW_TODO_EDITED.replace("call mum", "call mum back"),
      isError: false,
    });
  });

  it("opens another store with ?store=, apart from the first", async () => {
    const other = await /** @type {import("playwright-core").BrowserContext} */ (context).newPage();
    other.setDefaultTimeout(10_000);
    watch(other);
    await other.goto(`${pageUrl}?store=${encodeURIComponent("work notes")}#console`);
    await waitReady(other);
    assert.equal(await other.locator("#store-name").textContent(), "work notes");
    assert.deepEqual(await treePaths(other), []);
    assertToolResult(await runInput(other, { command: "create", path: "/memories/w.md", file_text: "w" }), {
      content: "File created successfully at: /memories/w.md",
      isError: false,
    });
    await other.close();
    assertToolResult(await runInput(page, { command: "view", path: "/memories/w.md" }), {
      content: "The path /memories/w.md does not exist. Please provide a valid path.",
      isError: true,
    });
  });

  it("uploads an image with writeFile and views it as an image block", async () => {
    const png = gradientPng(96, 64);
    const imagePath = "/memories/uploads/stripe.png";
    await page.locator("#upload-input").setInputFiles({ name: "stripe.png", mimeType: "image/png", buffer: png });
    await page.locator(`#tree [data-path="${imagePath}"]`).waitFor();
    assert.equal(
      await page.locator(`#tree [data-path="${imagePath}"] .size`).textContent(),
      png.length < 1024 ? `${png.length}B` : `${(png.length / 1024).toFixed(1)}K`,
    );

    // The upload opens in the viewer as an image.
    await page.locator(`#viewer[data-path="${imagePath}"] [data-testid="viewer-image"]`).waitFor();
    const viewerImage = page.locator('#viewer [data-testid="viewer-image"]');
    assert.equal(await viewerImage.getAttribute("src"), `data:image/png;base64,${png.toString("base64")}`);
    await page.waitForFunction(() => {
      const img = /** @type {HTMLImageElement | null} */ (document.querySelector('#viewer [data-testid="viewer-image"]'));
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    assert.deepEqual(
      await viewerImage.evaluate((img) => [/** @type {HTMLImageElement} */ (img).naturalWidth, /** @type {HTMLImageElement} */ (img).naturalHeight]),
      [96, 64],
    );
    await screenshot(page, "06-image-in-viewer");

    // Through the console, the tool_result's content is one image block.
    const shown = await runInput(page, { command: "view", path: imagePath });
    assert.equal(shown.status, "success");
    assert.equal(shown.texts.length, 0);
    assert.ok(shown.json);
    assert.equal(shown.json.type, "tool_result");
    assert.ok(shown.json.is_error === undefined || shown.json.is_error === false);
    assert.equal(shown.json.content.length, 1);
    assert.equal(shown.json.content[0].type, "image");
    assert.equal(shown.json.content[0].source.type, "base64");
    assert.equal(shown.json.content[0].source.media_type, "image/png");
    assert.match(
      (await page.locator("#result .raw-json summary").textContent()) ?? "",
      /^tool_result JSON \(image data shortened here; Copy JSON copies it whole\)$/,
    );
    assert.equal(
      await page.locator('#result [data-testid="result-image"]').getAttribute("src"),
      `data:image/png;base64,${png.toString("base64")}`,
    );

    // Too big for the default per-file limit: said in words, nothing stored.
    const big = Buffer.alloc(200_000, 7);
    await page.locator("#upload-input").setInputFiles({ name: "big.bin", mimeType: "application/octet-stream", buffer: big });
    await page.locator("#notice:not([hidden])").waitFor();
    assert.equal(
      await page.locator("#notice-text").textContent(),
      "Could not upload “big.bin” to /memories/uploads/big.bin: Cannot write /memories/uploads/big.bin: " +
        "200,000 bytes is over the limit of 102,400 bytes per file [LIMIT_EXCEEDED]",
    );
    await screenshot(page, "06b-upload-refused");
    await page.locator("#notice-dismiss").click();
    await page.locator("#notice").waitFor({ state: "hidden" });
    assert.equal(await page.locator('#tree [data-path="/memories/uploads/big.bin"]').count(), 0);

    // A text command on it is refused in words.
    assertToolResult(
      await runInput(page, { command: "str_replace", path: imagePath, old_str: "PNG", new_str: "JPG" }),
      { content: `Error: The file ${imagePath} is not a text file`, isError: true },
    );
  });

  it("fits a phone's width", async () => {
    await page.setViewportSize(PHONE);
    await page.locator(`#tree [data-path="${TODO}"]`).click();
    await page.locator(`#viewer[data-path="${TODO}"]`).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at phone width`);
    await screenshot(page, "07-phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "08-phone-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(LAPTOP);
  });

  it("says in words when the package cannot be loaded", async () => {
    const ctx = /** @type {import("playwright-core").BrowserContext} */ (context);
    const broken = await ctx.newPage();
    await broken.route("**/pkg/memory_tool_wasm.js", (route) => route.fulfill({ status: 404, body: "not built" }));
    await broken.goto(demoUrl);
    await broken.waitForFunction(() => document.documentElement.dataset.state === "failed");
    assert.match(
      (await broken.locator("#notice-text").textContent()) ?? "",
      /^The package could not be loaded \(.+\)\. Has the WebAssembly been built\? Run npm start, which builds it and serves this page\.$/,
    );
    assert.equal(await broken.locator("#notice").isVisible(), true);
    assert.equal(await broken.locator("#run-button").isDisabled(), true);
    await screenshot(broken, "09-package-missing");
    await broken.close();
  });

  it("clears the store after a confirmation; the deleted memories keep their history", async () => {
    const question = "Delete all 3 files in the store “demo”? Each goes to “Recently deleted”, where its history can restore it for 30 days.";
    // Dismissing the confirmation keeps everything. (Each dialog is answered as it opens: it
    // blocks the page until it is.)
    const refused = new Promise((resolve) =>
      page.once("dialog", (d) => void d.dismiss().then(() => resolve({ type: d.type(), message: d.message() }))),
    );
    await page.locator("#clear-button").click();
    assert.deepEqual(await refused, { type: "confirm", message: question });
    assert.deepEqual(await treePaths(page), [
      "/memories/notes/todo.md",
      "/memories/people/ada.md",
      "/memories/uploads/stripe.png",
    ]);

    const accepted = new Promise((resolve) => page.once("dialog", (d) => void d.accept().then(resolve)));
    await page.locator("#clear-button").click();
    await accepted;
    // Each deletion is a change event; the tree settles empty.
    await page.locator("#store-summary", { hasText: /^Empty\.$/ }).waitFor();
    assert.deepEqual(await treePaths(page), []);
    assertToolResult(await runExample(page, "view-root"), { content: `${LISTING_HEAD}\n0B\t/memories`, isError: false });
    // Listed as recently deleted, each with its history.
    await page.locator('#deleted [data-testid="deleted-file"]').first().waitFor({ state: "attached" });
    assert.deepEqual(
      await page.locator('#deleted [data-testid="deleted-file"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-path")).sort()),
      ["/memories/notes/todo.md", "/memories/people/ada.md", "/memories/uploads/stripe.png"],
    );
  });

  it("logged no errors in the page", () => {
    assert.deepEqual(pageProblems, []);
  });
});
