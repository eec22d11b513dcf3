// End to end: the demo page's Content-Security-Policy (scripts/serve.mjs). The page goes out
// with the policy as a header; in Chromium it is in force (an injected inline script does not
// run, nor a data: module, and a request to an origin the policy does not name is blocked), and the
// demo's journeys run under it with no violation: the offline agent, the live agent through a
// configured base URL, an image uploaded and shown, a download and an export. Every other demo
// test also counts each `securitypolicyviolation` as a page problem (demo-lib.mjs).
//
// Needs the built wasm (npm run build) and /usr/bin/chromium. Run: node --test tests/e2e

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { startDemo, openDemo, waitForTree, fakeMessagesApi, betaMessage, useApiKey, REPO } from "./demo-lib.mjs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { demoPolicy, inlineScripts, startServer } from "../../scripts/serve.mjs";

/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");

/** @type {Awaited<ReturnType<typeof fakeMessagesApi>>} */ let api;
/** @type {Awaited<ReturnType<typeof startDemo>>} */ let demo;
/** @type {import("playwright-core").Page} */ let page;
/** @type {string | null} */ let policy = null;

before(async () => {
  api = await fakeMessagesApi((_body, n) =>
    n === 1
      ? betaMessage({
          id: "msg_csp_1",
          content: [{ type: "tool_use", id: "toolu_csp_1", name: "memory", input: { command: "create", path: "/memories/live.md", file_text: "live\n" } }],
          stop_reason: "tool_use",
        })
      : betaMessage({ id: `msg_csp_${n}`, content: [{ type: "text", text: "Saved.", citations: null }], stop_reason: "end_turn" }),
  );
  demo = await startDemo({ apiBaseUrl: api.baseURL });
  demo.context.on("response", (response) => {
    if (response.url().endsWith("/www/?store=csp&replayDelay=0")) policy = response.headers()["content-security-policy"] ?? null;
  });
  page = await openDemo(demo.context, `${demo.base}?store=csp&replayDelay=0`, demo.problems);
});

after(async () => {
  await demo?.close();
  await api?.close();
});

describe("the demo's Content-Security-Policy", () => {
  it("is sent with the page: no inline script but the import map's hash, no eval, requests to the server and the API", async () => {
    const html = await readFile(path.join(REPO, "www", "index.html"), "utf8");
    const inline = inlineScripts(html);
    assert.equal(inline.length, 1, "the import map is the page's one inline script");
    assert.ok(JSON.parse(inline[0]).imports["memory-tool-wasm"]);
    const origin = new URL(api.baseURL).origin;
    assert.equal(policy, demoPolicy({ inline, apiOrigin: origin }));
    const directives = new Map(
      /** @type {string} */ (policy).split("; ").map((d) => {
        const [name, ...values] = d.split(" ");
        return [name, values];
      }),
    );
    assert.deepEqual(directives.get("default-src"), ["'none'"]);
    const script = /** @type {string[]} */ (directives.get("script-src"));
    assert.deepEqual(script.slice(0, 2), ["'self'", "'wasm-unsafe-eval'"]);
    assert.equal(script.length, 3);
    assert.match(script[2], /^'sha256-[A-Za-z0-9+/]{43}='$/);
    assert.ok(!script.includes("'unsafe-inline'") && !script.includes("'unsafe-eval'"));
    assert.deepEqual(directives.get("connect-src"), ["'self'", "https://api.anthropic.com", origin]);
    assert.equal(await page.locator('meta[name="anthropic-base-url"]').getAttribute("content"), api.baseURL);
    // The page is told the same list, to refuse other URLs in words before any request.
    assert.equal(await page.locator('meta[name="connect-origins"]').getAttribute("content"), ["'self'", "https://api.anthropic.com", origin].join(" "));
  });

  it("is the demo's only: other pages of the server go without it, and a base URL that is no http(s) URL is refused", async () => {
    const server = await startServer({ port: 0 });
    try {
      const other = await fetch(`http://127.0.0.1:${server.port}/tests/e2e/fixtures/harness.html`);
      assert.equal(other.status, 200);
      assert.equal(other.headers.get("content-security-policy"), null);
      const demoPage = await fetch(`http://127.0.0.1:${server.port}/www/`);
      assert.match(demoPage.headers.get("content-security-policy") ?? "", /connect-src 'self' https:\/\/api\.anthropic\.com$|connect-src 'self' https:\/\/api\.anthropic\.com;/);
      // No base URL configured: the page's meta stays empty (the agent uses the Anthropic API).
      assert.match(await demoPage.text(), /<meta name="anthropic-base-url" content="">/);
    } finally {
      await server.close();
    }
    const serve = fileURLToPath(new URL("../../scripts/serve.mjs", import.meta.url));
    const refused = spawnSync(process.execPath, [serve, "--port", "0"], { env: { ...process.env, ANTHROPIC_BASE_URL: "ftp://example.com" }, encoding: "utf8" });
    assert.equal(refused.status, 2);
    assert.equal(refused.stderr.trim(), "serve: ANTHROPIC_BASE_URL must be http(s), got: ftp://example.com");
  });

  it("is in force: an injected inline script does not run, nor a data: module; other origins are blocked", async () => {
    const seen = await page.evaluate(async () => {
      /** @type {string[]} */
      const violations = [];
      document.addEventListener("securitypolicyviolation", (e) => violations.push(e.effectiveDirective));
      const script = document.createElement("script");
      script.textContent = "window.__inlineRan = true;";
      document.head.append(script);
      let imported = "ran";
      try {
        await import("data:text/javascript,window.__dataRan = true;");
      } catch (error) {
        imported = /** @type {Error} */ (error).name;
      }
      let fetched = "fetched";
      try {
        await fetch("http://127.0.0.1:9/elsewhere");
      } catch (error) {
        fetched = /** @type {Error} */ (error).name;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const win = /** @type {any} */ (window);
      return { inlineRan: win.__inlineRan === true, dataRan: win.__dataRan === true, imported, fetched, violations };
    });
    assert.deepEqual(seen, {
      inlineRan: false,
      dataRan: false,
      imported: "TypeError",
      fetched: "TypeError",
      violations: ["script-src-elem", "script-src-elem", "connect-src"],
    });
    // Those were provoked (the browser and demo-lib's listener log each): the demo's own
    // journeys below must add none.
    const provoked = (/** @type {string} */ p) => /Content Security Policy|securitypolicyviolation/.test(p);
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && demo.problems.filter(provoked).length < 5; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(demo.problems.every(provoked), demo.problems.join("\n"));
    demo.problems.length = 0;
  });

  it("lets the demo's journeys run with no violation", async () => {
    // The offline agent: the SDK, the wasm, IndexedDB.
    await page.locator("#agent-play").click();
    await page.locator('#transcript[data-runs="1"]').waitFor({ state: "attached" });
    await waitForTree(page, ["/memories/profile.md", "/memories/trips/lisbon.md"]);
    // An image, uploaded and shown as the model sees it (a data: URL).
    await page.locator("#upload-input").setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
    await page.locator('#viewer [data-testid="viewer-image"]').waitFor();
    assert.equal(await page.locator('#viewer [data-testid="viewer-image"]').evaluate((img) => /** @type {HTMLImageElement} */ (img).naturalWidth), 1);
    // A download (a blob: URL) and an export.
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator('[data-testid="file-download"]').click()]);
    assert.equal(download.suggestedFilename(), "dot.png");
    await page.locator("#store-data > summary").click();
    const [bundle] = await Promise.all([page.waitForEvent("download"), page.locator("#export-button").click()]);
    assert.match(bundle.suggestedFilename(), /\.json$/);
    // The live agent through the configured base URL.
    await useApiKey(page, "sk-ant-e2e-0123456789-abcdefghijklmnopqrstuvwxyz");
    await page.locator('#model-picker option[value="claude-e2e-model"]').waitFor({ state: "attached" });
    await page.locator("#agent-input").fill("Save something.");
    await page.locator("#agent-send").click();
    await page.locator('#transcript[data-runs="2"]').waitFor({ state: "attached" });
    assert.equal(await page.locator("#agent-status").textContent(), "Done: 2 requests, 1 memory tool call.");
    await waitForTree(page, ["/memories/live.md", "/memories/profile.md", "/memories/trips/lisbon.md", "/memories/uploads/dot.png"]);
    assert.deepEqual(demo.problems, []);
  });
});
