// MemorySync in headless Chromium over real IndexedDB, with the official SDK's browser build
// talking across origins (CORS) to the hosted memory stores emulator running in this process:
// two devices and direct SDK edits converging, a conflict kept in local history, corroborated
// deletes, cleared site data and a wiped store not propagating, read-only pull-only,
// refusals not looping, faults survived, and two tabs with one syncer whose role moves when
// its tab closes (docs/SYNC.md).
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test --test-concurrency=1 tests/e2e/sync.test.mjs

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, afterEach, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";
import { sha256, startEmulator } from "../hosted/emulator.mjs";
import { hostedAt, hostedStore, sdkClient } from "../hosted/devices.mjs";
import { startProxy } from "../hosted/proxy.mjs";
import { REPO } from "./browser-env.mjs";

const PAGE = "/tests/hosted/sync-page.html";

/** @type {import("../hosted/emulator.mjs").Emulator} */
let emu;
/** @type {import("@anthropic-ai/sdk").default} */
let client;
/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import("playwright-core").BrowserContext} */
let context;
let profile = "";
let origin = "";
/** @type {string[]} */
const problems = [];

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}`);
  assert.ok(existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")), "the wasm is not built: npm run build");
  emu = await startEmulator();
  client = sdkClient(emu);
  server = await startServer({ port: 0 });
  origin = `http://127.0.0.1:${server.port}`;
  profile = await mkdtemp(path.join(tmpdir(), "memory-tool-sync-e2e-"));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  // The SDK's files, read from wherever node_modules really is (a worktree may link it).
  const modules = await realpath(path.join(REPO, "node_modules"));
  await context.route(`${origin}/node_modules/**`, async (route) => {
    const rel = decodeURIComponent(new URL(route.request().url()).pathname.slice("/node_modules/".length));
    const file = path.join(modules, rel);
    if (!file.startsWith(modules + path.sep)) return route.fulfill({ status: 404 });
    try {
      await route.fulfill({ status: 200, contentType: "text/javascript", body: await readFile(file, "utf8") });
    } catch {
      await route.fulfill({ status: 404 });
    }
  });
});
after(async () => {
  await context?.close();
  await server?.close();
  await emu?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});
afterEach(async () => {
  for (const page of context.pages()) await page.close();
  emu.clearFaults();
  assert.deepEqual(problems.splice(0), []);
});

async function openPage() {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    // A failed fetch is the browser's own report of an injected fault, not a page problem.
    if (m.type() === "error" && !/Failed to load resource|ERR_EMPTY_RESPONSE|ERR_CONNECTION/.test(m.text())) {
      problems.push(`console.error: ${m.text()}`);
    }
  });
  await page.goto(origin + PAGE);
  await page.waitForFunction(() => document.documentElement.dataset.state !== "loading");
  const state = await page.evaluate(() => document.documentElement.dataset.state);
  assert.equal(state, "ready", await page.evaluate(() => document.documentElement.dataset.problem ?? ""));
  return page;
}

/** Opens device `name` in `page`. */
const open = (/** @type {import("playwright-core").Page} */ page, name, id, options = {}) =>
  page.evaluate(([n, url, i, o]) => window.lib.open(n, url, i, o), [name, emu.url, id, options]);
/** One pass of device `name`. */
const now = (/** @type {import("playwright-core").Page} */ page, name) =>
  page.evaluate((n) => window.lib.devices.get(n).sync.now(), name);
const files = (/** @type {import("playwright-core").Page} */ page, name) => page.evaluate((n) => window.lib.files(n), name);
/** Writes as the model does (the tool's create; str_replace over the whole text when it exists). */
const write = (/** @type {import("playwright-core").Page} */ page, name, p, text) =>
  page.evaluate(
    async ([n, p, text]) => {
      const { memory } = window.lib.devices.get(n);
      const old = await memory.memories.getByPath(p).catch(() => null);
      const r = old
        ? await memory.execute({ command: "str_replace", path: `/memories${p}`, old_str: old.content, new_str: text })
        : await memory.execute({ command: "create", path: `/memories${p}`, file_text: text });
      if (r.isError) throw new Error(r.content);
    },
    [name, p, text],
  );
const remove = (/** @type {import("playwright-core").Page} */ page, name, p) =>
  page.evaluate(
    async ([n, p]) => {
      const r = await window.lib.devices.get(n).memory.execute({ command: "delete", path: `/memories${p}` });
      if (r.isError) throw new Error(r.content);
    },
    [name, p],
  );

describe("MemorySync in Chromium over IndexedDB", () => {
  test("two devices and direct SDK edits converge", async () => {
    const id = await hostedStore(client, { "/prefs.md": "dark mode" });
    const page = await openPage();
    await open(page, "conv-a", id);
    await open(page, "conv-b", id);
    assert.equal((await now(page, "conv-a")).ok, true);
    await now(page, "conv-b");
    await write(page, "conv-a", "/from-a.md", "hello from A");
    await write(page, "conv-b", "/prefs.md", "light mode");
    await now(page, "conv-a");
    await now(page, "conv-b");
    const m = await hostedAt(client, id, "/from-a.md");
    await client.beta.memoryStores.memories.update(/** @type {any} */ (m).id, { memory_store_id: id, content: "A, edited in the Console" });
    await now(page, "conv-a");
    await now(page, "conv-b");
    const want = { "/from-a.md": "A, edited in the Console", "/prefs.md": "light mode" };
    assert.deepEqual(emu.files(id), want);
    assert.deepEqual(await files(page, "conv-a"), want);
    assert.deepEqual(await files(page, "conv-b"), want);
    emu.clearLog();
    const quiet = await now(page, "conv-a");
    assert.deepEqual([quiet.requests, emu.log.length], [1, 1], "no change: one listing");
  });

  test("concurrent edits of one file: nothing lost, the loser restorable from local history", async () => {
    const id = await hostedStore(client, { "/plan.md": "v0" });
    const page = await openPage();
    await open(page, "conf-a", id);
    await open(page, "conf-b", id);
    await now(page, "conf-a");
    await now(page, "conf-b");
    await write(page, "conf-a", "/plan.md", "A's plan");
    await write(page, "conf-b", "/plan.md", "B's plan");
    await now(page, "conf-a");
    const r = await now(page, "conf-b");
    assert.equal(r.conflicts.length, 1);
    assert.equal(r.conflicts[0].hosted_content_sha256, sha256("A's plan"));
    const lost = await page.evaluate(
      async (v) => (await window.lib.devices.get("conf-b").memory.versions.get(v)).content,
      r.conflicts[0].local_version_id,
    );
    assert.equal(lost, "B's plan");
    assert.equal((await files(page, "conf-b"))["/plan.md"], "A's plan");
    const events = await page.evaluate(() => window.lib.devices.get("conf-b").events.filter((e) => e.type === "conflict").length);
    assert.equal(events, 1);
  });

  test("a local delete reaches the hosted store after corroboration; a hosted delete deletes here", async () => {
    const id = await hostedStore(client, { "/x.md": "x", "/y.md": "y" });
    const page = await openPage();
    await open(page, "del-a", id, { sync: { deleteCorroborationMs: 300 } });
    await open(page, "del-b", id);
    await now(page, "del-a");
    await now(page, "del-b");
    await remove(page, "del-a", "/x.md");
    emu.clearLog();
    await now(page, "del-a");
    await now(page, "del-a");
    assert.equal(emu.mutations().length, 0);
    await page.waitForTimeout(350);
    const r = await now(page, "del-a");
    assert.deepEqual(r.deletedHosted, ["/x.md"]);
    assert.deepEqual(emu.mutations().map((m) => [m.method, m.query.expected_content_sha256]), [["DELETE", sha256("x")]]);
    const rb = await now(page, "del-b");
    assert.deepEqual(rb.deletedLocal, ["/x.md"]);
    assert.deepEqual(await files(page, "del-b"), { "/y.md": "y" });
  });

  test("cleared site data, and a store emptied at once, never propagate: the store downloads again", async () => {
    const id = await hostedStore(client, { "/a.md": "a", "/b.md": "b", "/c.md": "c" });
    const page = await openPage();
    await open(page, "wipe", id);
    await now(page, "wipe");
    // Every file deleted at once while the baselines stay: a wipe, not three deletes.
    await page.evaluate(async () => {
      const { memory } = window.lib.devices.get("wipe");
      for (const m of await memory.memories.list()) await memory.memories.delete(m.id);
    });
    emu.clearLog();
    const r = await now(page, "wipe");
    assert.equal(r.wiped, true);
    assert.deepEqual(await files(page, "wipe"), { "/a.md": "a", "/b.md": "b", "/c.md": "c" });
    // The site's data cleared: the database (memories and baselines) is gone; after a reload the
    // store is empty and downloads again.
    await page.evaluate(async () => {
      const { memory, sync } = window.lib.devices.get("wipe");
      await sync.stop();
      memory.close();
      await new window.lib.pkg.IndexedDbStorage().destroy("wipe");
    });
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.state === "ready");
    await open(page, "wipe", id);
    await now(page, "wipe");
    const pulled = await page.evaluate(() =>
      window.lib.devices.get("wipe").events.flatMap((e) => (e.type === "pass" ? e.result.pulled : [])),
    );
    assert.deepEqual(pulled.sort(), ["/a.md", "/b.md", "/c.md"]);
    assert.deepEqual(emu.mutations(), [], "nothing deleted or written on the hosted side");
    assert.deepEqual(emu.files(id), { "/a.md": "a", "/b.md": "b", "/c.md": "c" });
  });

  test("a hosted listing that reads empty, a sign-in page or {} never empties the store here", async () => {
    const files30 = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/n${String(i).padStart(2, "0")}.md`, `note ${i}`]));
    const id = await hostedStore(client, files30);
    const page = await openPage();
    await open(page, "hostile", id);
    await now(page, "hostile");
    assert.equal(Object.keys(await files(page, "hostile")).length, 30);
    const list = (/** @type {any} */ r) => r.method === "GET" && r.route === "/v1/memory_stores/:store/memories";
    // Each answer lasts until cleared: the sync's own retries after a failure read it too.
    emu.inject({ match: list, times: 1000, respond: { contentType: "text/html", body: "<html>Sign in</html>" } });
    const html = await now(page, "hostile");
    assert.equal(html.ok, false);
    assert.match(String(html.error), /not the memory stores API's answer/);
    emu.clearFaults();
    emu.inject({ match: list, times: 1000, respond: { body: "{}" } });
    assert.equal((await now(page, "hostile")).ok, false);
    emu.clearFaults();
    emu.inject({ match: list, times: 1000, rewrite: () => ({ data: [], next_page: null }) });
    const empty = await now(page, "hostile");
    assert.equal(empty.suspectedWipe, true);
    assert.deepEqual(empty.deletedLocal, []);
    const status = await page.evaluate(() => window.lib.devices.get("hostile").sync.status);
    assert.equal(status.state, "held");
    assert.equal(status.suspectedWipe?.missing, 30);
    assert.equal(Object.keys(await files(page, "hostile")).length, 30, "the store here kept every memory");
    emu.clearFaults();
    const whole = await now(page, "hostile");
    assert.equal(whole.suspectedWipe, false);
  });

  test("read_only: pulls, and sends no mutating request whatever changes locally", async () => {
    const id = await hostedStore(client, { "/ref.md": "reference" });
    const page = await openPage();
    await open(page, "ro", id, { sync: { access: "read_only" } });
    await now(page, "ro");
    await write(page, "ro", "/ref.md", "scribbled");
    await write(page, "ro", "/mine.md", "mine");
    await client.beta.memoryStores.memories.create(id, { path: "/more.md", content: "more" });
    emu.clearLog();
    await now(page, "ro");
    await now(page, "ro");
    assert.deepEqual(emu.mutations(), []);
    assert.equal((await files(page, "ro"))["/more.md"], "more");
    assert.deepEqual(emu.files(id), { "/more.md": "more", "/ref.md": "reference" });
  });

  test("refusals are reported once and never loop: binary, over 100 kB, ZWJ, too many segments", async () => {
    const id = await hostedStore(client, {});
    const page = await openPage();
    await open(page, "refuse", id, { tool: { limits: { maxFileBytes: 300_000 } } });
    await now(page, "refuse");
    const deep = "/" + Array.from({ length: 21 }, (_, i) => `s${i}`).join("/");
    await page.evaluate(async () => {
      await window.lib.devices.get("refuse").memory.writeFile("/memories/photo.bin", new Uint8Array([0xff, 0x00, 0xfe]));
    });
    await write(page, "refuse", "/big.md", "z".repeat(110_000));
    await write(page, "refuse", "/a\u200db.md", "zwj");
    await write(page, "refuse", deep, "deep");
    emu.clearLog();
    const r = await now(page, "refuse");
    assert.deepEqual(r.refused.map((x) => x.path).sort(), ["/a\u200db.md", "/big.md", "/photo.bin", deep].sort());
    assert.deepEqual(emu.mutations(), []);
    for (let i = 0; i < 3; i++) {
      const again = await now(page, "refuse");
      assert.deepEqual([again.refused.length, again.requests], [0, 1]);
    }
    const reported = await page.evaluate(() => window.lib.devices.get("refuse").events.filter((e) => e.type === "refused").length);
    assert.equal(reported, 4);
  });

  test("faults (503, 429 with retry-after, a dropped create) are survived with nothing lost", async () => {
    const id = await hostedStore(client, { "/a.md": "a0" });
    const page = await openPage();
    await open(page, "faults", id);
    await now(page, "faults");
    await write(page, "faults", "/a.md", "a1");
    await write(page, "faults", "/b.md", "b1");
    emu.inject({ match: (r) => r.method === "GET", status: 503, retryAfter: 0 });
    emu.inject({ match: (r) => r.method === "POST", status: 429, retryAfter: 0 });
    emu.inject({ match: (r) => r.method === "POST" && /** @type {any} */ (r.body)?.path === "/b.md", drop: "after" });
    await now(page, "faults");
    await now(page, "faults");
    assert.deepEqual(emu.files(id), { "/a.md": "a1", "/b.md": "b1" });
    // One create was made (its answer dropped). Chromium itself may resend a POST whose reused
    // connection closed with no answer; the hosted store refuses that copy (409, the path is
    // taken). No pass sent a create again: none succeeded after the dropped one.
    const creates = emu.log.filter((l) => l.method === "POST" && /** @type {any} */ (l.body)?.path === "/b.md");
    const statuses = creates.map((l) => l.status);
    assert.equal(statuses.filter((s) => s === "dropped").length, 1, JSON.stringify(statuses));
    assert.ok(statuses.every((s) => s === "dropped" || s === 409 || s === 429), JSON.stringify(statuses));
    const final = await now(page, "faults");
    assert.deepEqual([final.ok, final.pushed, final.pulled, final.conflicts], [true, [], [], []]);
    assert.deepEqual(await files(page, "faults"), emu.files(id));
  });

  test("production shape: the page holds no key, the app's proxy adds it and allows only the user's store", async () => {
    const id = await hostedStore(client, { "/hello.md": "hi" });
    const other = await hostedStore(client, { "/secret.md": "not yours" });
    const proxy = await startProxy({ target: emu.url, apiKey: "server-side-key", stores: new Set([id]) });
    try {
      const page = await openPage();
      await page.evaluate(([n, url, i]) => window.lib.open(n, url, i, { proxied: true }), ["proxied", proxy.url, id]);
      await write(page, "proxied", "/from-page.md", "through the proxy");
      const r = await now(page, "proxied");
      assert.deepEqual([r.ok, r.pushed], [true, ["/from-page.md"]], String(r.error));
      assert.equal((await files(page, "proxied"))["/hello.md"], "hi");
      assert.equal(emu.files(id)["/from-page.md"], "through the proxy");
      assert.ok(proxy.seen.length > 0 && proxy.seen.every((s) => s.key === undefined), "the page sent no key");
      const versions = emu.versions(id).filter((v) => v.path === "/from-page.md");
      assert.deepEqual(versions.map((v) => v.created_by.api_key_id), [`apikey_${sha256("server-side-key").slice(0, 16)}`]);
      await page.evaluate(([n, url, i]) => window.lib.open(n, url, i, { proxied: true }), ["not-mine", proxy.url, other]);
      const refused = await now(page, "not-mine");
      assert.equal(refused.ok, false);
      assert.match(String(refused.error), /403/);
    } finally {
      await proxy.close();
    }
  });

  test("triggers: a hidden page pushes at once; offline sends nothing, and coming back online syncs", async () => {
    const id = await hostedStore(client, {});
    const page = await openPage();
    await open(page, "trig", id);
    const passes = () => page.evaluate(() => window.lib.devices.get("trig").events.filter((e) => e.type === "pass").length);
    await write(page, "trig", "/before-hiding.md", "pushed as the page hides");
    const before = await passes();
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await page.waitForFunction((n) => window.lib.devices.get("trig").events.filter((e) => e.type === "pass").length > n, before);
    assert.equal(emu.files(id)["/before-hiding.md"], "pushed as the page hides");
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "visible", configurable: true });
    });
    await context.setOffline(true);
    try {
      await write(page, "trig", "/while-offline.md", "written offline");
      emu.clearLog();
      const r = await now(page, "trig");
      assert.deepEqual([r.ok, r.error, r.requests], [false, "offline", 0]);
      assert.equal(await page.evaluate(() => window.lib.devices.get("trig").sync.status.state), "offline");
      assert.equal(emu.log.length, 0);
    } finally {
      await context.setOffline(false);
    }
    await page.waitForFunction(() => window.lib.devices.get("trig").sync.status.state === "idle");
    await page.waitForFunction(() =>
      window.lib.devices.get("trig").events.some((e) => e.type === "pass" && e.result.pushed.includes("/while-offline.md")),
    );
    assert.equal(emu.files(id)["/while-offline.md"], "written offline");
  });

  test("two tabs, one syncer; the role moves when that tab closes", async () => {
    const id = await hostedStore(client, { "/t.md": "t0" });
    const first = await openPage();
    const second = await openPage();
    const opts = { sync: { intervalMs: 200 } };
    const s1 = await open(first, "tabs", id, opts);
    const s2 = await open(second, "tabs", id, opts);
    assert.deepEqual([s1.leader, s2.leader, s2.state], [true, false, "standby"]);
    assert.equal((await now(second, "tabs")).skipped, "standby");
    await first.waitForFunction(() => window.lib.devices.get("tabs").sync.status.lastSyncAt !== null);
    // A write in the standby tab reaches the leader through the change events and goes out.
    await write(second, "tabs", "/from-second.md", "written in tab 2");
    await first.waitForFunction(() =>
      window.lib.devices.get("tabs").events.some((e) => e.type === "pass" && e.result.pushed.includes("/from-second.md")),
    );
    assert.equal(emu.files(id)["/from-second.md"], "written in tab 2");
    // Edited on the hosted side just before the syncing tab goes: the next syncer must carry on
    // from the baseline the first one saved (a hosted change), not from the one it read at its
    // start (which would make it a conflict).
    const pushed = await hostedAt(client, id, "/from-second.md");
    await client.beta.memoryStores.memories.update(/** @type {any} */ (pushed).id, { memory_store_id: id, content: "edited upstream" });
    await first.close();
    await second.waitForFunction(() => window.lib.devices.get("tabs").sync.status.leader === true);
    await second.waitForFunction(() => window.lib.devices.get("tabs").events.some((e) => e.type === "pass"));
    const firstPass = await second.evaluate(() => window.lib.devices.get("tabs").events.find((e) => e.type === "pass").result);
    assert.deepEqual([firstPass.pulled, firstPass.conflicts], [["/from-second.md"], []]);
    await write(second, "tabs", "/after.md", "after the first tab closed");
    const r = await now(second, "tabs");
    assert.ok(r.ok);
    assert.equal(emu.files(id)["/after.md"], "after the first tab closed");
    assert.equal((await files(second, "tabs"))["/from-second.md"], "edited upstream");
  });
});
