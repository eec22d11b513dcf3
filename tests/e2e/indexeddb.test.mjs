// End to end: the package itself (no demo UI) in headless Chromium over REAL IndexedDB.
// A bare harness page (tests/e2e/fixtures/harness.html) imports /src/js/index.js as an app
// would; the test drives it with page.evaluate and asserts the texts of docs/TOOL.md#commands and docs/TOOL.md#atomicity-and-concurrency exactly:
// a full command sequence, persistence across reloads and browser restarts, serializability
// of concurrent commands from two tabs, atomicity of failing commands (checked byte for byte
// against the raw database), runAll, read-only access, images, and another tab upgrading or
// deleting the database under an open MemoryTool.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test --test-concurrency=1 tests/e2e/indexeddb.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";
import { makePng } from "./png.mjs";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** The database of a store (storage-indexeddb.js: `dbPrefix + store`, default prefix). */
const DB_PREFIX = "memory-tool-wasm:";
const HARNESS = "/tests/e2e/fixtures/harness.html";
const TEST_TIMEOUT = 30_000;

const LISTING_HEAD = (/** @type {string} */ p) =>
  `Here're the files and directories up to 2 levels deep in ${p}, excluding hidden items and node_modules:`;
const FILE_HEAD = (/** @type {string} */ p) => `Here's the content of ${p} with line numbers:`;
const SNIPPET_HEAD =
  "The memory file has been edited. Here is the snippet showing the change (with line numbers):";
/** Numbered lines as `view` shows them: 6 columns, a TAB, the line. */
const numbered = (/** @type {string[]} */ lines, first = 1) =>
  lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join("\n");

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("playwright-core").BrowserContext} BrowserContext */
/** @typedef {{ content: any, isError: boolean, code?: string, keys: string[] }} Result */

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
let origin = "";
/** @type {string[]} */ const profileDirs = [];
/** @type {BrowserContext | undefined} */ let context;
/** @type {string[]} */ const pageProblems = [];

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  assert.ok(
    existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")),
    "the wasm is not built: run `npm run build` first",
  );
  server = await startServer({ port: 0 });
  // 127.0.0.1, not localhost: one origin for the whole run, so every tab sees the same databases.
  origin = `http://127.0.0.1:${server.port}`;
  context = await launch(await freshProfile());
});

after(async () => {
  await context?.close();
  await server?.close();
  for (const dir of profileDirs) await rm(dir, { recursive: true, force: true });
});

async function freshProfile() {
  const dir = await mkdtemp(path.join(tmpdir(), "memory-tool-idb-e2e-"));
  profileDirs.push(dir);
  return dir;
}

/** A Chromium with a persistent profile: IndexedDB outlives pages and browser restarts. */
function launch(/** @type {string} */ profileDir) {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Opens the harness in a new tab of `ctx` and waits until the package has loaded. */
async function openHarness(/** @type {BrowserContext} */ ctx) {
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (err) => pageProblems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") pageProblems.push(`console.error: ${msg.text()}`);
  });
  await page.goto(origin + HARNESS);
  await waitHarness(page);
  return page;
}

async function waitHarness(/** @type {Page} */ page) {
  await page.waitForFunction(() => document.documentElement.dataset.state !== "loading");
  const state = await page.evaluate(() => document.documentElement.dataset.state);
  if (state !== "ready") {
    assert.fail(`the harness did not load: ${await page.evaluate(() => document.documentElement.dataset.problem)}`);
  }
}

/** MemoryTool.open in the page, kept there under `key`; fails the test if it throws. */
async function openTool(/** @type {Page} */ page, /** @type {string} */ key, /** @type {object} */ options) {
  const opened = await page.evaluate(([k, o]) => harness.open(k, o), /** @type {const} */ ([key, options]));
  assert.ok(!("thrown" in opened), `MemoryTool.open failed: ${JSON.stringify(opened)}`);
  return opened;
}

/** memory.execute(input) in the page. @returns {Promise<Result>} */
function exec(/** @type {Page} */ page, /** @type {string} */ key, /** @type {unknown} */ input) {
  return page.evaluate(([k, i]) => harness.execute(k, i), /** @type {const} */ ([key, input]));
}

/** memory.memories.list(options) in the page (an error comes back as data). */
function list(/** @type {Page} */ page, /** @type {string} */ key, /** @type {object} */ options = {}) {
  return page.evaluate(([k, o]) => harness.list(k, o), /** @type {const} */ ([key, options]));
}

/** The store's database, read straight from IndexedDB, as JSON text. */
function dump(/** @type {Page} */ page, /** @type {string} */ store) {
  return page.evaluate((s) => harness.dump(s), store);
}

/**
 * Asserts one execute() result exactly: content, isError, the error code when given, and that
 * a success carries no `code` (the result's keys are exactly content and isError).
 * @param {Result} result
 * @param {{ content: unknown, isError?: boolean, code?: string }} expected
 * @param {string} [what]
 */
function assertResult(result, { content, isError = false, code }, what = "") {
  assert.deepEqual(result.content, content, what);
  assert.equal(result.isError, isError, `isError of ${what || JSON.stringify(content)}`);
  if (isError) {
    assert.deepEqual(result.keys, ["content", "isError", "code"], what);
    if (code) assert.equal(result.code, code, `code of ${what || JSON.stringify(content)}`);
  } else {
    assert.deepEqual(result.keys, ["content", "isError"], what);
  }
}

/** Runs `steps` ([input, expected]) in order through execute, asserting each result. */
async function runSteps(
  /** @type {Page} */ page,
  /** @type {string} */ key,
  /** @type {Array<[unknown, { content: unknown, isError?: boolean, code?: string }]>} */ steps,
) {
  for (const [input, expected] of steps) {
    assertResult(await exec(page, key, input), expected, JSON.stringify(input));
  }
}

/** Everything observable about a store: raw database, host listing, model listing. */
async function snapshot(/** @type {Page} */ page, /** @type {string} */ key, /** @type {string} */ store) {
  return {
    raw: await dump(page, store),
    list: await list(page, key),
    view: (await exec(page, key, { command: "view", path: "/memories" })).content,
  };
}

/**
 * A small, valid RGBA PNG of patterned bytes.
 * @param {number} width
 * @param {number} height
 */
function patternPng(width, height) {
  return makePng(width, height, (_x, _y, i) =>
    /** @type {[number, number, number, number]} */ ([0, 1, 2, 3].map((c) => ((i + c) * 37) & 0xff)),
  );
}

describe("the package over real IndexedDB in headless Chromium", { timeout: 120_000 }, () => {
  it("runs a full command sequence (docs/TOOL.md#commands) with the exact texts", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness(/** @type {BrowserContext} */ (context));
    await openTool(page, "m", { store: "e2e-sequence", storage: "indexeddb" });
    const NOTES = "/memories/projects/alpha/notes.md";

    await runSteps(page, "m", [
      [{ command: "view", path: "/memories" }, { content: `${LISTING_HEAD("/memories")}\n0B\t/memories` }],
      [
        { command: "create", path: NOTES, file_text: "# Alpha\nline two\nline three\nline four\nline five" },
        { content: `File created successfully at: ${NOTES}` },
      ],
      [
        { command: "create", path: "/memories/projects/alpha/deep/more.md", file_text: "more" },
        { content: "File created successfully at: /memories/projects/alpha/deep/more.md" },
      ],
      [
        { command: "create", path: "/memories/projects/beta.md", file_text: "beta\n" },
        { content: "File created successfully at: /memories/projects/beta.md" },
      ],
      [
        { command: "create", path: "/memories/projects/node_modules/x.js", file_text: "y" },
        { content: "File created successfully at: /memories/projects/node_modules/x.js" },
      ],
      [
        { command: "create", path: "/memories/top.txt", file_text: "hello\n" },
        { content: "File created successfully at: /memories/top.txt" },
      ],
      [
        { command: "create", path: "/memories/Zeta.md", file_text: "z" },
        { content: "File created successfully at: /memories/Zeta.md" },
      ],
      [
        { command: "create", path: "/memories/.secret", file_text: "s" },
        { content: "File created successfully at: /memories/.secret" },
      ],
      // Two levels deep, pre-order, UTF-16 order ("Z" < "p"), hidden and node_modules left
      // out but counted in their directories' sizes (65 = 47 + 4 + 5 + 1 + 6 + 1 + 1).
      [
        { command: "view", path: "/memories" },
        {
          content: [
            LISTING_HEAD("/memories"),
            "65B\t/memories",
            "1B\t/memories/Zeta.md",
            "57B\t/memories/projects/",
            "51B\t/memories/projects/alpha/",
            "5B\t/memories/projects/beta.md",
            "6B\t/memories/top.txt",
          ].join("\n"),
        },
      ],
      [
        { command: "view", path: "/memories/projects/" },
        {
          content: [
            LISTING_HEAD("/memories/projects/"),
            "57B\t/memories/projects",
            "51B\t/memories/projects/alpha/",
            "4B\t/memories/projects/alpha/deep/",
            "47B\t/memories/projects/alpha/notes.md",
            "5B\t/memories/projects/beta.md",
          ].join("\n"),
        },
      ],
      [
        { command: "view", path: NOTES },
        {
          content: `${FILE_HEAD(NOTES)}\n${numbered(["# Alpha", "line two", "line three", "line four", "line five"])}`,
        },
      ],
      [
        { command: "view", path: NOTES, view_range: [2, 3] },
        { content: `${FILE_HEAD(NOTES)}\n${numbered(["line two", "line three"], 2)}` },
      ],
      [
        { command: "view", path: NOTES, view_range: [4, -1] },
        { content: `${FILE_HEAD(NOTES)}\n${numbered(["line four", "line five"], 4)}` },
      ],
      [
        { command: "view", path: "/memories/top.txt" },
        { content: `${FILE_HEAD("/memories/top.txt")}\n${numbered(["hello", ""])}` },
      ],
      [
        { command: "view", path: "/memories/.secret" },
        { content: `${FILE_HEAD("/memories/.secret")}\n${numbered(["s"])}` },
      ],
      // The snippet runs from 2 lines before the change to 2 lines past the inserted text.
      [
        { command: "str_replace", path: NOTES, old_str: "line three", new_str: "line 3\nline 3b" },
        {
          content: `${SNIPPET_HEAD}\n${numbered(["# Alpha", "line two", "line 3", "line 3b", "line four", "line five"])}`,
        },
      ],
      // new_str omitted: old_str is deleted.
      [
        { command: "str_replace", path: "/memories/top.txt", old_str: "ll" },
        { content: `${SNIPPET_HEAD}\n${numbered(["heo", ""])}` },
      ],
      [
        { command: "insert", path: NOTES, insert_line: 1, insert_text: "inserted\n" },
        { content: `The file ${NOTES} has been edited.` },
      ],
      [
        { command: "insert", path: NOTES, insert_line: 7, insert_text: "tail" },
        { content: `The file ${NOTES} has been edited.` },
      ],
      [
        { command: "view", path: NOTES },
        {
          content: `${FILE_HEAD(NOTES)}\n${numbered([
            "# Alpha",
            "inserted",
            "line two",
            "line 3",
            "line 3b",
            "line four",
            "line five",
            "tail",
          ])}`,
        },
      ],
      [
        { command: "rename", old_path: "/memories/projects", new_path: "/memories/archive" },
        { content: "Successfully renamed /memories/projects to /memories/archive" },
      ],
      [
        { command: "view", path: "/memories" },
        {
          content: [
            LISTING_HEAD("/memories"),
            "81B\t/memories",
            "1B\t/memories/Zeta.md",
            "75B\t/memories/archive/",
            "69B\t/memories/archive/alpha/",
            "5B\t/memories/archive/beta.md",
            "4B\t/memories/top.txt",
          ].join("\n"),
        },
      ],
      [
        { command: "view", path: "/memories/projects" },
        { content: "The path /memories/projects does not exist. Please provide a valid path.", isError: true, code: "NOT_FOUND" },
      ],
      [
        { command: "view", path: "/memories/archive/alpha/notes.md", view_range: [8, 8] },
        { content: `${FILE_HEAD("/memories/archive/alpha/notes.md")}\n${numbered(["tail"], 8)}` },
      ],
      [
        { command: "delete", path: "/memories/archive/alpha" },
        { content: "Successfully deleted /memories/archive/alpha" },
      ],
      [
        { command: "rename", old_path: "/memories/top.txt", new_path: "/memories/new/dir/top.txt" },
        { content: "Successfully renamed /memories/top.txt to /memories/new/dir/top.txt" },
      ],
      [
        { command: "view", path: "/memories" },
        {
          content: [
            LISTING_HEAD("/memories"),
            "12B\t/memories",
            "1B\t/memories/Zeta.md",
            "6B\t/memories/archive/",
            "5B\t/memories/archive/beta.md",
            "4B\t/memories/new/",
            "4B\t/memories/new/dir/",
          ].join("\n"),
        },
      ],
      [
        { command: "create", path: "/memories/multi.md", file_text: "x x\ny x" },
        { content: "File created successfully at: /memories/multi.md" },
      ],
    ]);

    // Errors: exact texts, and none of them changes the store.
    const before = await snapshot(page, "m", "e2e-sequence");
    await runSteps(page, "m", [
      [
        { command: "view", path: "/memories/nope" },
        { content: "The path /memories/nope does not exist. Please provide a valid path.", isError: true, code: "NOT_FOUND" },
      ],
      [
        { command: "view", path: "/memories/Zeta.md", view_range: [0, 0] },
        {
          content:
            "Error: Invalid `view_range`: [0, 0]. Its second element `0` (line 0) should be larger or equal than its first `0` (line 1)",
          isError: true,
          code: "INVALID_RANGE",
        },
      ],
      [
        { command: "view", path: "/memories/Zeta.md", view_range: [2, 3] },
        {
          content:
            "Error: Invalid `view_range`: [2, 3]. Its first element `2` should be within the range of lines of the file: [1, 1]",
          isError: true,
          code: "INVALID_RANGE",
        },
      ],
      [
        { command: "create", path: "/memories/Zeta.md", file_text: "again" },
        { content: "Error: File /memories/Zeta.md already exists", isError: true, code: "ALREADY_EXISTS" },
      ],
      [
        { command: "create", path: "/memories/archive", file_text: "a directory" },
        { content: "Error: File /memories/archive already exists", isError: true, code: "ALREADY_EXISTS" },
      ],
      [
        { command: "create", path: "/memories/dir/", file_text: "" },
        { content: "Error: Cannot create /memories/dir/: a file path must not end with '/'", isError: true },
      ],
      [
        { command: "create", path: "/memories/Zeta.md/x.md", file_text: "" },
        { content: "Error: Cannot create /memories/Zeta.md/x.md: /memories/Zeta.md is a file", isError: true },
      ],
      [
        { command: "str_replace", path: "/memories/Zeta.md", old_str: "zzz", new_str: "q" },
        {
          content: "No replacement was performed, old_str `zzz` did not appear verbatim in /memories/Zeta.md.",
          isError: true,
          code: "NO_MATCH",
        },
      ],
      [
        { command: "str_replace", path: "/memories/multi.md", old_str: "x", new_str: "q" },
        {
          content:
            "No replacement was performed. Multiple occurrences of old_str `x` in lines: 1, 1, 2. Please ensure it is unique",
          isError: true,
          code: "MULTIPLE_MATCHES",
        },
      ],
      [
        { command: "str_replace", path: "/memories/archive", old_str: "a", new_str: "b" },
        { content: "Error: The path /memories/archive does not exist. Please provide a valid path.", isError: true },
      ],
      [
        { command: "insert", path: "/memories/missing.md", insert_line: 0, insert_text: "x" },
        { content: "Error: The path /memories/missing.md does not exist", isError: true, code: "NOT_FOUND" },
      ],
      [
        { command: "insert", path: "/memories/multi.md", insert_line: 9, insert_text: "x" },
        {
          content:
            "Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 2]",
          isError: true,
          code: "INVALID_RANGE",
        },
      ],
      [
        { command: "delete", path: "/memories/" },
        { content: "Error: Cannot delete the /memories directory itself", isError: true, code: "ROOT_PROTECTED" },
      ],
      [
        { command: "delete", path: "/memories/gone" },
        { content: "Error: The path /memories/gone does not exist", isError: true, code: "NOT_FOUND" },
      ],
      [
        { command: "rename", old_path: "/memories", new_path: "/memories/x" },
        { content: "Error: Cannot rename the /memories directory itself", isError: true, code: "ROOT_PROTECTED" },
      ],
      [
        { command: "rename", old_path: "/memories/multi.md", new_path: "/memories/Zeta.md" },
        { content: "Error: The destination /memories/Zeta.md already exists", isError: true, code: "ALREADY_EXISTS" },
      ],
      [
        { command: "rename", old_path: "/memories/archive", new_path: "/memories/archive/sub" },
        { content: "Error: Cannot move /memories/archive into itself", isError: true },
      ],
      [
        { command: "view", path: "/memories/../etc/passwd" },
        { content: "Error: Path /memories/../etc/passwd would escape /memories directory", isError: true, code: "INVALID_PATH" },
      ],
      [
        { command: "view", path: "/memories_backup/x" },
        {
          content: "Error: Path must be /memories or start with /memories/, got: /memories_backup/x",
          isError: true,
          code: "INVALID_PATH",
        },
      ],
      [
        { command: "create", path: "/memories/%2e%2e/x", file_text: "" },
        {
          content:
            "Error: Invalid path /memories/%2e%2e/x: percent-encoded '.', '/', '\\' or control characters are not allowed",
          isError: true,
          code: "INVALID_PATH",
        },
      ],
      [
        { command: "toString", path: "/memories" },
        {
          content:
            "Error: Unknown command `toString`. Valid commands are: view, create, str_replace, insert, delete, rename",
          isError: true,
          code: "UNKNOWN_COMMAND",
        },
      ],
      [
        { command: "create", path: "/memories/a.md" },
        { content: "Error: Missing required parameter `file_text` for command `create`", isError: true, code: "INVALID_INPUT" },
      ],
      [
        { command: "insert", path: "/memories/multi.md", insert_line: "1", insert_text: "x" },
        { content: "Error: Parameter `insert_line` must be an integer", isError: true, code: "INVALID_INPUT" },
      ],
      [null, { content: "Error: Tool input must be a JSON object", isError: true, code: "INVALID_INPUT" }],
    ]);
    assert.deepEqual(await snapshot(page, "m", "e2e-sequence"), before, "no error changed the store");

    // The host's listing agrees with the model's (memory-store paths: relative to /memories).
    const listed = await list(page, "m");
    assert.deepEqual(
      listed.map((/** @type {any} */ item) => [item.type, item.path, item.content_size_bytes]),
      [
        ["memory", "/.secret", 1],
        ["memory", "/Zeta.md", 1],
        ["memory", "/archive/beta.md", 5],
        ["memory", "/archive/node_modules/x.js", 1],
        ["memory", "/multi.md", 7],
        ["memory", "/new/dir/top.txt", 4],
      ],
    );
    assert.deepEqual(
      (await list(page, "m", { path_prefix: "/archive/", depth: 1 })).map((/** @type {any} */ item) => [item.type, item.path]),
      [
        ["memory", "/archive/beta.md"],
        ["memory_prefix", "/archive/node_modules/"],
      ],
    );
    await page.close();
  });

  it("keeps the store across a reload and a browser restart with the same profile", { timeout: TEST_TIMEOUT }, async () => {
    const profile = await freshProfile();
    let ctx = await launch(profile);
    try {
      let page = await openHarness(ctx);
      await openTool(page, "m", { store: "e2e-persist" });
      await runSteps(page, "m", [
        [
          { command: "create", path: "/memories/people/ada.md", file_text: "Ada likes tea.\n" },
          { content: "File created successfully at: /memories/people/ada.md" },
        ],
        [
          { command: "create", path: "/memories/todo.md", file_text: "- one\n- two" },
          { content: "File created successfully at: /memories/todo.md" },
        ],
        [
          { command: "str_replace", path: "/memories/todo.md", old_str: "- two", new_str: "- 2" },
          { content: `${SNIPPET_HEAD}\n${numbered(["- one", "- 2"])}` },
        ],
      ]);
      await page.evaluate(() => harness.tool("m").writeFile("/memories/bin/raw.bin", new Uint8Array([0, 255, 1, 254])));
      const LISTING = [
        LISTING_HEAD("/memories"),
        "28B\t/memories",
        "4B\t/memories/bin/",
        "4B\t/memories/bin/raw.bin",
        "15B\t/memories/people/",
        "15B\t/memories/people/ada.md",
        "9B\t/memories/todo.md",
      ].join("\n");
      const original = await snapshot(page, "m", "e2e-persist");
      assert.equal(original.view, LISTING);

      // Reload: a new MemoryTool over the same database.
      await page.reload();
      await waitHarness(page);
      await openTool(page, "m", { store: "e2e-persist" });
      assert.deepEqual(await snapshot(page, "m", "e2e-persist"), original, "after reload");

      // Restart the browser with the same profile.
      await ctx.close();
      ctx = await launch(profile);
      page = await openHarness(ctx);
      await openTool(page, "m", { store: "e2e-persist" });
      assert.deepEqual(await snapshot(page, "m", "e2e-persist"), original, "after restart");
      assertResult(await exec(page, "m", { command: "view", path: "/memories/todo.md" }), {
        content: `${FILE_HEAD("/memories/todo.md")}\n${numbered(["- one", "- 2"])}`,
      });
      assertResult(await exec(page, "m", { command: "view", path: "/memories/bin/raw.bin" }), {
        content: "Error: The file /memories/bin/raw.bin is binary (4B) and cannot be shown as text",
        isError: true,
        code: "NOT_TEXT",
      });
      // Still writable after the restart.
      assertResult(await exec(page, "m", { command: "delete", path: "/memories/bin" }), {
        content: "Successfully deleted /memories/bin",
      });
    } finally {
      await ctx.close();
    }
  });

  it("serializes concurrent commands from two tabs: no lost insert or edit", { timeout: TEST_TIMEOUT }, async () => {
    const ctx = /** @type {BrowserContext} */ (context);
    const [a, b] = [await openHarness(ctx), await openHarness(ctx)];
    const STORE = "e2e-race";
    const FILE = "/memories/shared.md";
    await openTool(a, "m", { store: STORE });
    await openTool(b, "m", { store: STORE });
    const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
    const LANES = 5;
    const markers = [..."AB"].flatMap((side) => Array.from({ length: 25 }, (_, i) => `marker-${side}-${pad(i)}`));
    assertResult(await exec(a, "m", { command: "create", path: FILE, file_text: markers.join("\n") }), {
      content: `File created successfully at: ${FILE}`,
    });

    // Each tab queues its work behind one BroadcastChannel signal, so both start together.
    const arm = (/** @type {Page} */ page, /** @type {string} */ side) =>
      page.evaluate(
        ([side, file, LANES]) => {
          const tool = harness.tool("m");
          /** @type {Array<{ op: string, text: string, start: number, end: number, result: any }>} */
          const log = [];
          // LANES chains per tab, each running its share of the commands one after the other:
          // LANES commands of each tab are in flight at any time, so the tabs interleave.
          const lanes = Array.from({ length: LANES }, () => /** @type {any[]} */ ([]));
          for (let i = 0; i < 50; i++) {
            const n = String(i).padStart(2, "0");
            const lane = lanes[i % LANES];
            lane.push(["insert", `ins-${side}-${n}`, { command: "insert", path: file, insert_line: 0, insert_text: `ins-${side}-${n}` }]);
            if (i % 2 === 0) {
              const m = String(i / 2).padStart(2, "0");
              lane.push([
                "str_replace",
                `done-${side}-${m}`,
                { command: "str_replace", path: file, old_str: `marker-${side}-${m}`, new_str: `done-${side}-${m}` },
              ]);
            }
          }
          window.raceDone = harness.nextMessage("race-go").then(() => {
            const runLane = async (/** @type {any[]} */ ops, /** @type {number} */ lane) => {
              for (const [op, text, input] of ops) {
                // Absolute times: each tab's performance.now() has its own origin.
                const start = performance.timeOrigin + performance.now();
                const result = await tool.execute(input);
                log.push({ op, text, lane, start, end: performance.timeOrigin + performance.now(), result });
              }
            };
            return harness.withTimeout(Promise.all(lanes.map(runLane)), 25_000, `tab ${side}`).then(() => log);
          });
        },
        /** @type {const} */ ([side, FILE, LANES]),
      );
    await Promise.all([arm(a, "A"), arm(b, "B")]);
    const t0 = Date.now();
    await a.evaluate(() => new BroadcastChannel("race-go").postMessage("go"));
    const [logA, logB] = await Promise.all([a.evaluate(() => window.raceDone), b.evaluate(() => window.raceDone)]);
    const elapsed = Date.now() - t0;

    for (const [side, log] of [["A", logA], ["B", logB]]) {
      assert.equal(log.length, 75, `tab ${side} ran every command`);
      for (const { op, text, result } of log) {
        assert.equal(result.isError, false, `${op} ${text}: ${JSON.stringify(result.content)}`);
        if (op === "insert") assert.equal(result.content, `The file ${FILE} has been edited.`);
        else assert.ok(result.content.startsWith(`${SNIPPET_HEAD}\n`) && result.content.includes(`\t${text}`), result.content);
      }
    }

    const view = await exec(a, "m", { command: "view", path: FILE });
    assert.equal(view.isError, false);
    const lines = view.content
      .split("\n")
      .slice(1)
      .map((/** @type {string} */ l) => l.slice(7));
    assert.equal(lines.length, 150);
    const inserted = lines.slice(0, 100);
    const expectedInserted = [..."AB"].flatMap((s) => Array.from({ length: 50 }, (_, i) => `ins-${s}-${pad(i)}`));
    assert.deepEqual([...inserted].sort(), expectedInserted, "all 100 inserted lines, each exactly once");
    assert.deepEqual(lines.slice(100), markers.map((m) => m.replace("marker-", "done-")), "every replacement, in place");
    assert.ok(!view.content.includes("marker-"), "no marker left");
    // Inserts at line 0 stack up: the file shows the commit order, newest first. Within a lane
    // the commands commit in the order they were issued.
    const order = [...inserted].reverse();
    for (const s of "AB") {
      for (let lane = 0; lane < LANES; lane++) {
        const mine = expectedInserted.filter((l) => l.startsWith(`ins-${s}-`) && Number(l.slice(6)) % LANES === lane);
        assert.deepEqual(order.filter((l) => mine.includes(l)), mine, `tab ${s} lane ${lane} in issue order`);
      }
    }
    // The tabs really interleaved: commits alternate between them many times.
    const switches = order.slice(1).filter((l, i) => l[4] !== order[i][4]).length;
    assert.ok(switches >= 10, `the two tabs' commits interleave (${switches} switches)`);
    // The two tabs' windows overlapped (each started before the other finished).
    const span = (/** @type {any[]} */ log) => [Math.min(...log.map((e) => e.start)), Math.max(...log.map((e) => e.end))];
    const [spanA, spanB] = [span(logA), span(logB)];
    assert.ok(spanA[0] < spanB[1] && spanB[0] < spanA[1], `the tabs ran at the same time: A ${spanA}, B ${spanB}`);
    console.log(
      `# race: 150 commands from 2 tabs in ${elapsed} ms; A busy ${Math.round(spanA[1] - spanA[0])} ms, ` +
        `B busy ${Math.round(spanB[1] - spanB[0])} ms; A/B switches in commit order: ${switches}`,
    );

    // Concurrent creates of the same paths: exactly one wins each, the other is refused.
    // Ten rounds; in each, both tabs meet at a two-party barrier (BroadcastChannel), then
    // create the same path at once.
    const armCreates = (/** @type {Page} */ page, /** @type {string} */ side) =>
      page.evaluate((side) => {
        const tool = harness.tool("m");
        const channel = new BroadcastChannel("create-barrier");
        /** @type {Set<number>} */ const seen = new Set();
        /** @type {Map<number, () => void>} */ const waiting = new Map();
        channel.onmessage = (event) => {
          seen.add(event.data);
          waiting.get(event.data)?.();
        };
        const barrier = (/** @type {number} */ round) => {
          channel.postMessage(round);
          return seen.has(round) ? Promise.resolve() : new Promise((resolve) => waiting.set(round, () => resolve(undefined)));
        };
        // Rounds start on a signal sent once both tabs listen (a message posted before the other
        // tab's channel exists would be lost).
        window.createsDone = harness.nextMessage("create-go").then(() => harness.withTimeout(
          (async () => {
            const out = [];
            for (let round = 0; round < 10; round++) {
              const p = `/memories/race/${round}.md`;
              await barrier(round);
              out.push([p, await tool.execute({ command: "create", path: p, file_text: `from ${side}` })]);
            }
            channel.close();
            return out;
          })(),
          15_000,
          `creates ${side}`,
        ));
      }, side);
    await Promise.all([armCreates(a, "A"), armCreates(b, "B")]);
    await a.evaluate(() => new BroadcastChannel("create-go").postMessage("go"));
    const [createsA, createsB] = await Promise.all([a.evaluate(() => window.createsDone), b.evaluate(() => window.createsDone)]);
    const byPath = new Map(createsA.map(([p, r]) => [p, { A: r }]));
    for (const [p, r] of createsB) byPath.get(p).B = r;
    let winsA = 0;
    for (const [p, { A, B }] of byPath) {
      const ok = `File created successfully at: ${p}`;
      const refused = `Error: File ${p} already exists`;
      const winner = A.isError ? "B" : "A";
      assert.notEqual(A.isError, B.isError, `exactly one create of ${p} succeeds: ${JSON.stringify({ A, B })}`);
      assert.deepEqual(winner === "A" ? [A.content, B.content] : [B.content, A.content], [ok, refused]);
      assert.equal((winner === "A" ? B : A).code, "ALREADY_EXISTS");
      if (winner === "A") winsA++;
      assertResult(await exec(b, "m", { command: "view", path: p }), {
        content: `${FILE_HEAD(p)}\n${numbered([`from ${winner}`])}`,
      });
    }
    console.log(`# concurrent creates: A won ${winsA} of 10, B won ${10 - winsA}`);
    await a.close();
    await b.close();
  });

  it("a failing command changes nothing, byte for byte", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness(/** @type {BrowserContext} */ (context));
    const STORE = "e2e-atomic";
    await openTool(page, "m", { store: STORE });
    // 102,390 bytes: 10 bytes under the per-file limit.
    const near = `${"0123456789\n".repeat(9308)}END`;
    assert.equal(Buffer.byteLength(near), 102_391);
    const nearText = near.slice(1); // 102,390 bytes
    await runSteps(page, "m", [
      [{ command: "create", path: "/memories/a.md", file_text: "alpha\n" }, { content: "File created successfully at: /memories/a.md" }],
      [{ command: "create", path: "/memories/b.md", file_text: "beta" }, { content: "File created successfully at: /memories/b.md" }],
      [{ command: "create", path: "/memories/d/x.md", file_text: "x" }, { content: "File created successfully at: /memories/d/x.md" }],
      [{ command: "create", path: "/memories/d/y.md", file_text: "y" }, { content: "File created successfully at: /memories/d/y.md" }],
      [
        { command: "create", path: "/memories/near-limit.md", file_text: nearText },
        { content: "File created successfully at: /memories/near-limit.md" },
      ],
    ]);
    const before = await snapshot(page, "m", STORE);
    const views = async () => {
      const out = [];
      for (const p of ["/memories/a.md", "/memories/b.md", "/memories/d", "/memories/d/x.md", "/memories/d/y.md"]) {
        out.push((await exec(page, "m", { command: "view", path: p })).content);
      }
      return out;
    };
    const viewsBefore = await views();
    const tooBig = "b".repeat(102_401);

    const failing = /** @type {Array<[unknown, { content: string, isError: true, code?: string }]>} */ ([
      [
        { command: "rename", old_path: "/memories/a.md", new_path: "/memories/b.md" },
        { content: "Error: The destination /memories/b.md already exists", isError: true, code: "ALREADY_EXISTS" },
      ],
      [
        { command: "rename", old_path: "/memories/d", new_path: "/memories/a.md" },
        { content: "Error: The destination /memories/a.md already exists", isError: true, code: "ALREADY_EXISTS" },
      ],
      [
        { command: "rename", old_path: "/memories/a.md", new_path: "/memories/d" },
        { content: "Error: The destination /memories/d already exists", isError: true, code: "ALREADY_EXISTS" },
      ],
      [
        { command: "rename", old_path: "/memories/d", new_path: "/memories/a.md/sub" },
        { content: "Error: Cannot create /memories/a.md/sub: /memories/a.md is a file", isError: true },
      ],
      [
        { command: "rename", old_path: "/memories/d", new_path: "/memories/d/inner" },
        { content: "Error: Cannot move /memories/d into itself", isError: true },
      ],
      [
        { command: "rename", old_path: "/memories/missing", new_path: "/memories/elsewhere" },
        { content: "Error: The path /memories/missing does not exist", isError: true, code: "NOT_FOUND" },
      ],
      [
        { command: "create", path: "/memories/big.md", file_text: tooBig },
        {
          content: "Error: Cannot write /memories/big.md: 102,401 bytes is over the limit of 102,400 bytes per file",
          isError: true,
          code: "LIMIT_EXCEEDED",
        },
      ],
      // Would also have created two directories.
      [
        { command: "create", path: "/memories/new/deep/big.md", file_text: tooBig },
        {
          content: "Error: Cannot write /memories/new/deep/big.md: 102,401 bytes is over the limit of 102,400 bytes per file",
          isError: true,
          code: "LIMIT_EXCEEDED",
        },
      ],
      [
        { command: "str_replace", path: "/memories/near-limit.md", old_str: "END", new_str: "END, and then some" },
        {
          content: "Error: Cannot write /memories/near-limit.md: 102,405 bytes is over the limit of 102,400 bytes per file",
          isError: true,
          code: "LIMIT_EXCEEDED",
        },
      ],
      [
        { command: "insert", path: "/memories/near-limit.md", insert_line: 0, insert_text: "0123456789" },
        {
          content: "Error: Cannot write /memories/near-limit.md: 102,401 bytes is over the limit of 102,400 bytes per file",
          isError: true,
          code: "LIMIT_EXCEEDED",
        },
      ],
    ]);
    for (const [input, expected] of failing) {
      assertResult(await exec(page, "m", input), expected, JSON.stringify(input).slice(0, 120));
      assert.deepEqual(await snapshot(page, "m", STORE), before, `unchanged after ${JSON.stringify(input).slice(0, 120)}`);
    }
    assert.deepEqual(await views(), viewsBefore);

    // The per-store file limit, from a second MemoryTool with a lower limit over the same store.
    await openTool(page, "limited", { store: STORE, limits: { maxFiles: 5 } });
    assertResult(await exec(page, "limited", { command: "create", path: "/memories/sixth.md", file_text: "6" }), {
      content: "Error: Cannot create /memories/sixth.md: the store already holds 5 files, its limit",
      isError: true,
      code: "LIMIT_EXCEEDED",
    });
    // The host's writeFile obeys the limits too, and throws.
    const thrown = await page.evaluate(() =>
      harness.tool("m").writeFile("/memories/huge.bin", new Uint8Array(102_401)).then(
        () => ({ thrown: false }),
        harness.describeError,
      ),
    );
    assert.equal(thrown.thrown, true);
    assert.equal(thrown.isMemoryToolError, true);
    assert.equal(thrown.code, "LIMIT_EXCEEDED");
    assert.equal(thrown.message, "Cannot write /memories/huge.bin: 102,401 bytes is over the limit of 102,400 bytes per file");
    assert.deepEqual(await snapshot(page, "m", STORE), before, "unchanged after the limits");

    // A success right at the limit (102,400 bytes) does change it: the snapshots see writes.
    assertResult(await exec(page, "m", { command: "insert", path: "/memories/near-limit.md", insert_line: 0, insert_text: "012345678" }), {
      content: "The file /memories/near-limit.md has been edited.",
    });
    assert.notDeepEqual((await snapshot(page, "m", STORE)).raw, before.raw);
    await page.close();
  });

  it("runAll runs every memory tool_use of a message in order, with exact tool_result shapes", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness(/** @type {BrowserContext} */ (context));
    await openTool(page, "m", { store: "e2e-runall" });
    const message = {
      id: "msg_e2e",
      type: "message",
      role: "assistant",
      content: [
        { type: "text", text: "Let me check my memory first." },
        { type: "tool_use", id: "toolu_01", name: "memory", input: { command: "view", path: "/memories" } },
        { type: "tool_use", id: "toolu_02", name: "memory", input: { command: "create", path: "/memories/plan.md", file_text: "step one\nstep two" } },
        { type: "tool_use", id: "toolu_03", name: "web_search", input: { query: "not ours" } },
        { type: "tool_use", id: "toolu_04", name: "memory", input: { command: "str_replace", path: "/memories/plan.md", old_str: "step two", new_str: "step 2" } },
        { type: "tool_use", id: "toolu_05", name: "memory", input: { command: "create", path: "/memories/plan.md", file_text: "again" } },
        { type: "text", text: "Now reading it back." },
        { type: "tool_use", id: "toolu_06", name: "memory", input: { command: "view", path: "/memories/plan.md" } },
        { type: "tool_use", id: "toolu_07", name: "memory", input: { command: "delete", path: "/memories/nothing" } },
        { type: "tool_use", id: "toolu_08", name: "memory", input: { command: "rename", old_path: "/memories/plan.md", new_path: "/memories/done/plan.md" } },
        { type: "tool_use", id: "toolu_09", name: "memory", input: { command: "view", path: "/memories" } },
      ],
      stop_reason: "tool_use",
    };
    const run = await page.evaluate(async (msg) => {
      const results = await harness.withTimeout(harness.tool("m").runAll(msg), 10_000, "runAll");
      return { json: JSON.stringify(results), keys: results.map((r) => Object.keys(r)) };
    }, message);
    const results = JSON.parse(run.json);
    const ok = (/** @type {string} */ id, /** @type {string} */ content) => ({ type: "tool_result", tool_use_id: id, content });
    const err = (/** @type {string} */ id, /** @type {string} */ content) => ({ ...ok(id, content), is_error: true });
    assert.deepEqual(results, [
      ok("toolu_01", `${LISTING_HEAD("/memories")}\n0B\t/memories`),
      ok("toolu_02", "File created successfully at: /memories/plan.md"),
      ok("toolu_04", `${SNIPPET_HEAD}\n${numbered(["step one", "step 2"])}`),
      err("toolu_05", "Error: File /memories/plan.md already exists"),
      ok("toolu_06", `${FILE_HEAD("/memories/plan.md")}\n${numbered(["step one", "step 2"])}`),
      err("toolu_07", "Error: The path /memories/nothing does not exist"),
      ok("toolu_08", "Successfully renamed /memories/plan.md to /memories/done/plan.md"),
      ok("toolu_09", `${LISTING_HEAD("/memories")}\n15B\t/memories\n15B\t/memories/done/\n15B\t/memories/done/plan.md`),
    ]);
    // is_error only on errors: not even an undefined key on successes.
    assert.deepEqual(
      run.keys,
      results.map((/** @type {any} */ r) => (r.is_error ? ["type", "tool_use_id", "content", "is_error"] : ["type", "tool_use_id", "content"])),
    );

    // A bare content array works the same; a string content has no tool uses.
    const again = await page.evaluate(
      (blocks) => harness.tool("m").runAll(blocks).then((r) => JSON.stringify(r)),
      [{ type: "tool_use", id: "toolu_10", name: "memory", input: { command: "view", path: "/memories/done/plan.md", view_range: [2, 2] } }],
    );
    assert.deepEqual(JSON.parse(again), [ok("toolu_10", `${FILE_HEAD("/memories/done/plan.md")}\n${numbered(["step 2"], 2)}`)]);
    assert.equal(await page.evaluate(() => harness.tool("m").runAll({ role: "assistant", content: "just text" }).then((r) => JSON.stringify(r))), "[]");

    // A malformed memory block refuses the whole message before anything runs.
    const before = await snapshot(page, "m", "e2e-runall");
    const refused = await page.evaluate(() =>
      harness
        .tool("m")
        .runAll({
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_11", name: "memory", input: { command: "delete", path: "/memories/done" } },
            { type: "tool_use", name: "memory", input: { command: "view", path: "/memories" } },
          ],
        })
        .then(() => ({ thrown: false }), harness.describeError),
    );
    assert.equal(refused.thrown, true);
    assert.equal(refused.isMemoryToolError, true);
    assert.equal(refused.code, "INVALID_TOOL_USE");
    assert.deepEqual(await snapshot(page, "m", "e2e-runall"), before, "nothing ran");
    await page.close();
  });

  it("read_only access: views work, every write is refused, nothing changes", { timeout: TEST_TIMEOUT }, async () => {
    const ctx = /** @type {BrowserContext} */ (context);
    const STORE = "e2e-readonly";
    const writer = await openHarness(ctx);
    await openTool(writer, "rw", { store: STORE });
    await runSteps(writer, "rw", [
      [
        { command: "create", path: "/memories/notes/a.md", file_text: "one\ntwo" },
        { content: "File created successfully at: /memories/notes/a.md" },
      ],
      [{ command: "create", path: "/memories/b.md", file_text: "b" }, { content: "File created successfully at: /memories/b.md" }],
    ]);
    // The reader is another tab, as an app showing a shared store read-only would be.
    const reader = await openHarness(ctx);
    const opened = await openTool(reader, "ro", { store: STORE, access: "read_only" });
    assert.equal(opened.access, "read_only");
    const before = await snapshot(reader, "ro", STORE);
    const ro = (/** @type {string} */ command, /** @type {string} */ p) => ({
      content: `Error: Cannot ${command} ${p}: this memory is read-only`,
      isError: true,
      code: "READ_ONLY",
    });
    await runSteps(reader, "ro", [
      [
        { command: "view", path: "/memories" },
        {
          content: [
            LISTING_HEAD("/memories"),
            "8B\t/memories",
            "1B\t/memories/b.md",
            "7B\t/memories/notes/",
            "7B\t/memories/notes/a.md",
          ].join("\n"),
        },
      ],
      [{ command: "view", path: "/memories/notes/a.md" }, { content: `${FILE_HEAD("/memories/notes/a.md")}\n${numbered(["one", "two"])}` }],
      [
        { command: "view", path: "/memories/notes/a.md", view_range: [2, -1] },
        { content: `${FILE_HEAD("/memories/notes/a.md")}\n${numbered(["two"], 2)}` },
      ],
      [
        { command: "view", path: "/memories/missing" },
        { content: "The path /memories/missing does not exist. Please provide a valid path.", isError: true, code: "NOT_FOUND" },
      ],
      [{ command: "create", path: "/memories/c.md", file_text: "c" }, ro("create", "/memories/c.md")],
      // Read-only comes before the command's own checks (the file exists; the path is missing).
      [{ command: "create", path: "/memories/b.md", file_text: "c" }, ro("create", "/memories/b.md")],
      [{ command: "str_replace", path: "/memories/notes/a.md", old_str: "one", new_str: "1" }, ro("str_replace", "/memories/notes/a.md")],
      [{ command: "str_replace", path: "/memories/notes/a.md", old_str: "absent" }, ro("str_replace", "/memories/notes/a.md")],
      [{ command: "insert", path: "/memories/notes/a.md", insert_line: 0, insert_text: "zero" }, ro("insert", "/memories/notes/a.md")],
      [{ command: "insert", path: "/memories/notes/a.md", insert_line: 99, insert_text: "zero" }, ro("insert", "/memories/notes/a.md")],
      [{ command: "delete", path: "/memories/notes" }, ro("delete", "/memories/notes")],
      [{ command: "delete", path: "/memories/missing" }, ro("delete", "/memories/missing")],
      [{ command: "rename", old_path: "/memories/b.md", new_path: "/memories/z.md" }, ro("rename", "/memories/b.md")],
      [{ command: "rename", old_path: "/memories/b.md", new_path: "/memories/notes/a.md" }, ro("rename", "/memories/b.md")],
      // …but after the input and path checks.
      [
        { command: "create", path: "/memories/../x", file_text: "" },
        { content: "Error: Path /memories/../x would escape /memories directory", isError: true, code: "INVALID_PATH" },
      ],
      [
        { command: "insert", path: "/memories/b.md", insert_line: 1.5, insert_text: "x" },
        { content: "Error: Parameter `insert_line` must be an integer", isError: true, code: "INVALID_INPUT" },
      ],
    ]);
    const hostWrite = await reader.evaluate(() =>
      harness.tool("ro").writeFile("/memories/host.md", "from the host").then(() => ({ thrown: false }), harness.describeError),
    );
    assert.equal(hostWrite.thrown, true);
    assert.equal(hostWrite.isMemoryToolError, true);
    assert.equal(hostWrite.code, "READ_ONLY");
    assert.match(hostWrite.message, /read-only/);
    assert.deepEqual(await snapshot(reader, "ro", STORE), before, "nothing changed");

    // The writer still writes, and the read-only tab sees it.
    assertResult(await exec(writer, "rw", { command: "str_replace", path: "/memories/b.md", old_str: "b", new_str: "bee" }), {
      content: `${SNIPPET_HEAD}\n${numbered(["bee"])}`,
    });
    assertResult(await exec(reader, "ro", { command: "view", path: "/memories/b.md" }), {
      content: `${FILE_HEAD("/memories/b.md")}\n${numbered(["bee"])}`,
    });
    await writer.close();
    await reader.close();
  });

  it("writeFile of PNG bytes, then view, gives an image content block", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness(/** @type {BrowserContext} */ (context));
    const STORE = "e2e-image";
    await openTool(page, "m", { store: STORE });
    const png = patternPng(16, 9);
    const base64 = png.toString("base64");
    const image = [{ type: "image", source: { type: "base64", media_type: "image/png", data: base64 } }];
    const write = (/** @type {string} */ p, /** @type {number[]} */ bytes) =>
      page.evaluate(([p, bytes]) => harness.tool("m").writeFile(p, new Uint8Array(bytes)), /** @type {const} */ ([p, bytes]));
    await write("/memories/pics/chart.png", [...png]);
    // The signature decides, not the name.
    await write("/memories/pics/misnamed.txt", [...png]);
    await write("/memories/blob.bin", [0xff, 0xfe, 0x00, 0x80]);

    assertResult(await exec(page, "m", { command: "view", path: "/memories/pics/chart.png" }), { content: image });
    assertResult(await exec(page, "m", { command: "view", path: "/memories/pics/chart.png", view_range: [1, 1] }), { content: image });
    assertResult(await exec(page, "m", { command: "view", path: "/memories/pics/misnamed.txt" }), { content: image });
    const toolResult = await page.evaluate(() =>
      harness
        .tool("m")
        .run({ type: "tool_use", id: "toolu_img", name: "memory", input: { command: "view", path: "/memories/pics/chart.png" } })
        .then((r) => ({ json: JSON.stringify(r), keys: Object.keys(r) })),
    );
    assert.deepEqual(JSON.parse(toolResult.json), { type: "tool_result", tool_use_id: "toolu_img", content: image });
    assert.deepEqual(toolResult.keys, ["type", "tool_use_id", "content"]);

    const size = `${png.length}B`;
    assert.ok(png.length < 1024, "a small PNG, shown in bytes");
    assertResult(await exec(page, "m", { command: "view", path: "/memories" }), {
      content: [
        LISTING_HEAD("/memories"),
        `${2 * png.length + 4}B\t/memories`,
        "4B\t/memories/blob.bin",
        `${2 * png.length}B\t/memories/pics/`,
        `${size}\t/memories/pics/chart.png`,
        `${size}\t/memories/pics/misnamed.txt`,
      ].join("\n"),
    });
    await runSteps(page, "m", [
      [
        { command: "str_replace", path: "/memories/pics/chart.png", old_str: "PNG", new_str: "JPG" },
        { content: "Error: The file /memories/pics/chart.png is not a text file", isError: true, code: "NOT_TEXT" },
      ],
      [
        { command: "insert", path: "/memories/pics/chart.png", insert_line: 0, insert_text: "x" },
        { content: "Error: The file /memories/pics/chart.png is not a text file", isError: true, code: "NOT_TEXT" },
      ],
      [
        { command: "view", path: "/memories/blob.bin" },
        { content: "Error: The file /memories/blob.bin is binary (4B) and cannot be shown as text", isError: true, code: "NOT_TEXT" },
      ],
    ]);

    // The bytes are stored as they are (a Uint8Array in IndexedDB) and hashed as stored.
    const listed = await list(page, "m", { path_prefix: "/pics/" });
    assert.deepEqual(listed.map((/** @type {any} */ item) => item.path), ["/pics/chart.png", "/pics/misnamed.txt"]);
    const chart = listed[0];
    assert.equal(chart.content_size_bytes, png.length);
    assert.equal(chart.content_sha256, createHash("sha256").update(png).digest("hex"));
    const raw = JSON.parse(await dump(page, STORE));
    const record = raw.files.find((/** @type {any} */ f) => f.key === "/pics/chart.png").value;
    // The bytes live under the content key: the file's key and the version that wrote them.
    assert.equal(record.content, `/pics/chart.png\u0000${record.version}`);
    const content = raw.contents.find((/** @type {any} */ c) => c.key === record.content);
    assert.equal(content.type, "[object Uint8Array]");
    assert.equal(content.bytes, [...png].join(","));

    // And it survives a reload.
    await page.reload();
    await waitHarness(page);
    await openTool(page, "m", { store: STORE });
    assertResult(await exec(page, "m", { command: "view", path: "/memories/pics/chart.png" }), { content: image });
    await page.close();
  });

  it("another tab upgrading the database is not blocked; this tab's commands then fail clearly, never hang", { timeout: TEST_TIMEOUT }, async () => {
    const ctx = /** @type {BrowserContext} */ (context);
    const STORE = "e2e-upgrade";
    const FILE = "/memories/log.md";
    const a = await openHarness(ctx);
    const b = await openHarness(ctx);
    await openTool(a, "m", { store: STORE });
    assertResult(await exec(a, "m", { command: "create", path: FILE, file_text: "start" }), {
      content: `File created successfully at: ${FILE}`,
    });

    // Tab A issues 20 commands at once, and keeps running one command after another (until
    // the first error) while tab B asks for version 6 (this package's schema is version 5).
    await a.evaluate((file) => {
      const tool = harness.tool("m");
      window.inflight = harness.withTimeout(
        Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            tool.execute({ command: "insert", path: file, insert_line: 0, insert_text: `flight-${i}` }),
          ),
        ),
        10_000,
        "in-flight inserts",
      );
      window.loopResults = [];
      window.loop = harness.withTimeout(
        (async () => {
          for (let i = 0; ; i++) {
            const result = await tool.execute({ command: "insert", path: file, insert_line: 0, insert_text: `loop-${i}` });
            window.loopResults.push(result);
            if (result.isError) return window.loopResults;
          }
        })(),
        10_000,
        "the command loop (it should have met the upgrade)",
      );
    }, FILE);
    await a.waitForFunction(() => window.loopResults.length >= 5);
    const upgraded = await b.evaluate(
      (name) =>
        harness.withTimeout(
          new Promise((resolve, reject) => {
            let blocked = false;
            const request = indexedDB.open(name, 6);
            request.onupgradeneeded = () => {
              request.result.createObjectStore("added-in-v6");
            };
            request.onblocked = () => {
              blocked = true;
            };
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              const db = request.result;
              window.v6 = db; // kept open
              resolve({ version: db.version, blocked, stores: [...db.objectStoreNames].sort() });
            };
          }),
          5_000,
          "indexedDB.open(name, 6) from tab B",
        ),
      DB_PREFIX + STORE,
    );
    assert.deepEqual(upgraded, { version: 6, blocked: false, stores: ["added-in-v6", "contents", "files", "listing", "meta", "versions"] });

    // Every in-flight command settled: committed, or refused as a storage failure.
    const flight = await a.evaluate(() => window.inflight);
    // The loop ran until the upgrade, then got a storage failure (not a hang).
    const loop = await a.evaluate(() => window.loop);
    const loopError = loop.at(-1);
    assert.deepEqual(loopError, {
      content: "Error: The memory store could not be reached. Nothing was changed.",
      isError: true,
      code: "STORAGE_FAILED",
    });
    const loopDone = loop.slice(0, -1);
    assert.ok(loopDone.length >= 5);
    for (const r of loopDone) assert.deepEqual(r, { content: `The file ${FILE} has been edited.`, isError: false });
    const failed = flight.filter((/** @type {any} */ r) => r.isError);
    for (const r of failed) {
      assert.deepEqual(r, {
        content: "Error: The memory store could not be reached. Nothing was changed.",
        isError: true,
        code: "STORAGE_FAILED",
      });
    }
    for (const r of flight.filter((/** @type {any} */ r) => !r.isError)) assert.equal(r.content, `The file ${FILE} has been edited.`);
    // The file holds exactly the committed inserts (read through tab B's version-6 connection).
    const text = await b.evaluate(
      (file) =>
        new Promise((resolve, reject) => {
          const tx = window.v6.transaction(["files", "contents"], "readonly");
          tx.objectStore("files").get(file.slice("/memories".length)).onsuccess = (event) => {
            tx.objectStore("contents").get(event.target.result.content).onsuccess = (e) => resolve(new TextDecoder().decode(e.target.result));
          };
          tx.onabort = () => reject(tx.error);
        }),
      FILE,
    );
    const committed = flight.flatMap((/** @type {any} */ r, /** @type {number} */ i) => (r.isError ? [] : [`flight-${i}`]));
    const lines = text.split("\n");
    assert.equal(lines.at(-1), "start");
    assert.deepEqual(
      lines.slice(0, -1).sort(),
      [...committed, ...loopDone.map((_, i) => `loop-${i}`)].sort(),
      "the file holds every committed insert once, and nothing of the refused ones",
    );
    // Each source's inserts committed in the order they were issued (newest on top).
    assert.deepEqual(lines.filter((l) => l.startsWith("flight-")), [...committed].reverse());
    assert.deepEqual(lines.filter((l) => l.startsWith("loop-")), loopDone.map((_, i) => `loop-${i}`).reverse());
    console.log(
      `# upgrade: ${committed.length} of 20 in-flight commands committed, ${failed.length} refused; ` +
        `the command loop committed ${loopDone.length}, then STORAGE_FAILED`,
    );

    // Tab A's next command: the database is now at a version this package does not know. It
    // fails at once with STORAGE_FAILED (an is_error result for the model; a thrown
    // MemoryToolError for host calls, naming the cause), and keeps failing the same way.
    for (let i = 0; i < 2; i++) {
      assertResult(await exec(a, "m", { command: "view", path: FILE }), {
        content: "Error: The memory store could not be reached. Nothing was changed.",
        isError: true,
        code: "STORAGE_FAILED",
      });
    }
    const listed = await list(a, "m");
    assert.equal(listed.thrown, true);
    assert.equal(listed.isMemoryToolError, true);
    assert.equal(listed.code, "STORAGE_FAILED");
    assert.match(listed.message, /upgraded by a newer version of memory-tool-wasm/);
    const reopened = await a.evaluate(() => harness.withTimeout(harness.open("again", { store: "e2e-upgrade" }), 5_000, "reopen"));
    assert.equal(reopened.thrown, true);
    assert.equal(reopened.isMemoryToolError, true);
    assert.equal(reopened.code, "STORAGE_FAILED");
    assert.match(reopened.message, /upgraded by a newer version/);
    // The message for the model never names the database.
    assert.ok(!JSON.stringify([flight, loop]).includes(DB_PREFIX));
    await a.close();
    await b.close();
  });

  it("another tab deleting the database is not blocked; this tab is told (STORE_VANISHED, an event) instead of silently starting over", { timeout: TEST_TIMEOUT }, async () => {
    const ctx = /** @type {BrowserContext} */ (context);
    const STORE = "e2e-delete";
    const a = await openHarness(ctx);
    const b = await openHarness(ctx);
    await openTool(a, "m", { store: STORE });
    assertResult(await exec(a, "m", { command: "create", path: "/memories/x.md", file_text: "x" }), {
      content: "File created successfully at: /memories/x.md",
    });
    const deleted = await b.evaluate(
      (name) =>
        harness.withTimeout(
          new Promise((resolve, reject) => {
            let blocked = false;
            const request = indexedDB.deleteDatabase(name);
            request.onblocked = () => {
              blocked = true;
            };
            request.onerror = () => reject(request.error);
            request.onsuccess = () => resolve({ blocked });
          }),
          5_000,
          "indexedDB.deleteDatabase from tab B",
        ),
      DB_PREFIX + STORE,
    );
    assert.deepEqual(deleted, { blocked: false });
    await a.evaluate(() => {
      // @ts-ignore
      window.heard = [];
      // @ts-ignore
      harness.tool("m").subscribe((event) => window.heard.push(event));
    });
    const vanished = await exec(a, "m", { command: "view", path: "/memories" });
    assert.equal(vanished.isError, true);
    assert.equal(vanished.code, "STORE_VANISHED");
    assert.match(vanished.content, /deleted outside this tool/);
    // @ts-ignore
    const heard = await a.evaluate(() => window.heard.filter((e) => e.type === "vanished"));
    assert.deepEqual(heard, [{ type: "vanished", store: STORE, files: 1, origin: "local" }]);
    // A reload does not start over either: the origin remembers the store held memories.
    await a.reload();
    await waitHarness(a);
    const reopened = await a.evaluate((store) => harness.open("m", { store }), STORE);
    assert.equal(/** @type {any} */ (reopened).code, "STORE_VANISHED", JSON.stringify(reopened));
    // The host chooses to begin again.
    await a.evaluate((store) => new harness.pkg.IndexedDbStorage().startOver(store), STORE);
    await openTool(a, "m", { store: STORE });
    await runSteps(a, "m", [
      [{ command: "view", path: "/memories" }, { content: `${LISTING_HEAD("/memories")}\n0B\t/memories` }],
      [{ command: "create", path: "/memories/x.md", file_text: "again" }, { content: "File created successfully at: /memories/x.md" }],
      [{ command: "view", path: "/memories/x.md" }, { content: `${FILE_HEAD("/memories/x.md")}\n${numbered(["again"])}` }],
    ]);
    await a.close();
    await b.close();
  });

  it("a version 1 database (no versions; bytes under memory ids) upgrades in place and keeps its data", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness(/** @type {BrowserContext} */ (context));
    const STORE = "e2e-v1-upgrade";
    const note = "from version 1\n";
    const sha = createHash("sha256").update(note).digest("hex");
    // Built as version 1 of the package built it: two stores, records without `version` or
    // `content`, bytes keyed by the memory id.
    await page.evaluate(
      ([name, text, hash]) =>
        new Promise((resolve, reject) => {
          const request = indexedDB.open(name, 1);
          request.onupgradeneeded = () => {
            request.result.createObjectStore("files", { keyPath: "path" });
            request.result.createObjectStore("contents");
          };
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const db = request.result;
            const tx = db.transaction(["files", "contents"], "readwrite");
            const bytes = new TextEncoder().encode(text);
            tx.objectStore("files").put({ path: "/old/note.md", id: "mem_fromversionone", size: bytes.length, sha256: hash, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000 });
            tx.objectStore("contents").put(bytes, "mem_fromversionone");
            tx.oncomplete = () => {
              db.close();
              resolve(null);
            };
            tx.onabort = () => reject(tx.error);
          };
        }),
      /** @type {const} */ ([DB_PREFIX + STORE, note, sha]),
    );
    const before = JSON.parse(await dump(page, STORE));
    assert.equal(before.version, 1);

    await openTool(page, "m", { store: STORE });
    const after = JSON.parse(await dump(page, STORE));
    assert.equal(after.version, 5);
    assert.deepEqual(after.stores, ["contents", "files", "listing", "meta", "versions"]);
    // The upgrade to version 5 keyed its bytes by its file (`{path}\0{old key}`), the record
    // names that key; nothing else changed.
    const key = "/old/note.md\u0000mem_fromversionone";
    assert.deepEqual(
      after.files,
      before.files.map((/** @type {any} */ f) => ({ ...f, value: { ...f.value, content: key } })),
    );
    // The upgrade to version 3 listed the old file.
    assert.deepEqual(after.listing, [`/old/note.md\u0000${Buffer.byteLength(note)}`]);
    assert.deepEqual(after.contents, before.contents.map((/** @type {any} */ c) => ({ ...c, key })));
    assert.deepEqual(after.versions, []);
    assertResult(await exec(page, "m", { command: "view", path: "/memories/old/note.md" }), {
      content: `${FILE_HEAD("/memories/old/note.md")}\n${numbered(["from version 1", ""])}`,
    });
    const memory = await page.evaluate(() => harness.call("m", "memories.get", "mem_fromversionone"));
    assert.equal(memory.content, note);
    assert.equal(memory.memory_version_id, null);
    assert.equal(memory.content_sha256, sha);

    // Its first change gives it a version; the id stays.
    assertResult(
      await exec(page, "m", { command: "str_replace", path: "/memories/old/note.md", old_str: "version 1", new_str: "version 2" }),
      { content: `${SNIPPET_HEAD}\n${numbered(["from version 2", ""])}` },
    );
    const changed = await page.evaluate(() => harness.call("m", "memories.getByPath", "/old/note.md"));
    assert.equal(changed.id, "mem_fromversionone");
    assert.match(changed.memory_version_id, /^memver_/);
    const versions = await page.evaluate(() => harness.call("m", "versions.list"));
    assert.deepEqual(versions.data.map((/** @type {any} */ v) => [v.memory_id, v.operation, v.path]), [
      ["mem_fromversionone", "modified", "/old/note.md"],
      ["mem_fromversionone", "created", "/old/note.md"],
    ]);
    await page.close();
  });

  it("a big import's parts each wait behind the page's own timers: its 4 ms interval ticks while they go in", { timeout: TEST_TIMEOUT }, async () => {
    const page = await openHarness(/** @type {BrowserContext} */ (context));
    // 2,000 memories of 512 bytes: about four parts. Hashed here, in Node.
    const memories = Array.from({ length: 2000 }, (_, i) => {
      const content = `${String(i).padEnd(511, ".")}\n`;
      return {
        id: `mem_${i}`,
        path: `/parts/n${i}.md`,
        content,
        content_sha256: createHash("sha256").update(content).digest("hex"),
        created_at: "2026-01-01T00:00:00Z",
        updated_at: "2026-01-01T00:00:00Z",
      };
    });
    const { seen, imported } = await page.evaluate(async (list) => {
      const { MemoryTool } = await import("/src/js/index.js");
      const { BundleParts } = await import("/pkg/memory_tool_wasm.js");
      let ticks = 0;
      const interval = setInterval(() => (ticks += 1), 4);
      /** @type {number[]} */
      const seen = [];
      const add = BundleParts.prototype.memories;
      BundleParts.prototype.memories = function (part) {
        seen.push(ticks);
        return add.call(this, part);
      };
      try {
        const tool = await MemoryTool.open({ store: "e2e-import-parts", limits: { maxFiles: 10_000 } });
        const result = await tool.import({ format: "memory-tool-wasm/bundle", format_version: 1, memories: list });
        tool.close();
        return { seen, imported: result.imported };
      } finally {
        BundleParts.prototype.memories = add;
        clearInterval(interval);
      }
    }, memories);
    assert.equal(imported, 2000);
    assert.ok(seen.length >= 4, `${seen.length} parts`);
    // A yield whose continuation goes before the page's timers (scheduler.yield) lets none of
    // them run until the last part: the interval would not tick at all.
    assert.ok(seen.at(-1) - seen[0] >= Math.floor((seen.length - 1) / 2), `ticks at each part: ${seen.join(", ")}`);
    await page.close();
  });

  it("raised no uncaught errors or console errors in any page", () => {
    assert.deepEqual(pageProblems, []);
  });
});
