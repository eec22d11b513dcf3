// Shared by the consumer tests: headless Chromium on a page served from a folder on 127.0.0.1,
// reporting what the page put in `window.result`, and the fake Anthropic endpoint behind CORS
// for such a page.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Serves `root` on 127.0.0.1, opens `page` (a path under it) in a fresh Chromium profile,
 * and gives the page's `window.result` once `<html data-state="done">`; `loads` times in a row
 * (reloads in the same profile). Page errors and failed requests are collected in `problems`.
 * @param {string} root
 * @param {string} page
 * @param {number} [loads]
 */
export async function runInChromium(root, page, loads = 1) {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const server = await startServer({ port: 0, root });
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-consumer-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const problems = [];
  const results = [];
  try {
    const tab = await context.newPage();
    tab.setDefaultTimeout(20_000);
    tab.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    tab.on("requestfailed", (req) => problems.push(`requestfailed: ${req.url()}`));
    tab.on("response", (res) => {
      if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
    });
    for (let i = 0; i < loads; i++) {
      if (i === 0) await tab.goto(`http://127.0.0.1:${server.port}${page}`);
      else await tab.reload();
      await tab.waitForFunction(() => document.documentElement.dataset.state === "done");
      results.push(await tab.evaluate(() => /** @type {any} */ (window).result));
    }
  } finally {
    await context.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
  return { results, problems };
}

/** The header the Anthropic API wants on a request from a browser page (a CORS request). */
export const BROWSER_ACCESS = "anthropic-dangerous-direct-browser-access";

/**
 * The fake endpoint at `origin` (tests/node/fixtures/fake-anthropic.mjs) behind CORS, as the
 * Anthropic API answers a page: any preflight is allowed, and a request from a page (one with
 * an Origin) that lacks `anthropic-dangerous-direct-browser-access: true` gets the API's 401
 * (with CORS headers, so the page can read it). Everything else is passed on as it is, so the
 * fake records what the page sent.
 * @param {string} origin
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function corsFront(origin) {
  const server = createServer(async (req, res) => {
    const cors = {
      "access-control-allow-origin": req.headers.origin ?? "*",
      "access-control-expose-headers": "request-id",
      vary: "Origin",
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "GET, POST, OPTIONS",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }
    if (req.headers.origin !== undefined && req.headers[BROWSER_ACCESS] !== "true") {
      res.writeHead(401, { ...cors, "content-type": "application/json" });
      res.end(JSON.stringify({
        type: "error",
        error: { type: "authentication_error", message: `CORS requests must set '${BROWSER_ACCESS}' header` },
      }));
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = { ...req.headers };
    delete headers.host;
    const upstream = await fetch(`${origin}${req.url}`, { method: req.method, headers: /** @type {Record<string, string>} */ (headers), body: chunks.length ? Buffer.concat(chunks) : undefined });
    const out = /** @type {Record<string, string>} */ ({ ...cors });
    upstream.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection") out[name] = value;
    });
    res.writeHead(upstream.status, out);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
