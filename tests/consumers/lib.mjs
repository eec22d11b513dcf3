// Shared by the consumer tests: packing the package and installing it into fresh projects;
// headless Chromium on a page served from a folder on 127.0.0.1, reporting what the page put in
// `window.result`, or on the pages of a server a project runs; the fake Anthropic endpoint
// behind CORS for such a page, or in place of the API's own URL.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
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

/**
 * Runs `command` in `cwd`, synchronously; throws with the output on failure.
 * @param {string} cwd @param {string} command @param {string[]} args @param {Record<string, string>} [env]
 */
export function sh(cwd, command, args, env = {}) {
  return execFileSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
}

/** npm's cache for the consumer projects (kept between runs, so installs are offline once warm). */
export const NPM_CACHE = path.join(REPO, "tests/consumers/.cache/npm");

/**
 * `npm pack` of the repository (its pkg/ as the build step left it) into `dir`.
 * @param {string} dir
 * @returns {string} the tarball's path
 */
export function packPackage(dir) {
  const out = sh(REPO, "npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir]).trim().split("\n").at(-1);
  const tarball = path.join(dir, out ?? "");
  assert.ok(existsSync(tarball), `npm pack wrote ${tarball}`);
  return tarball;
}

/**
 * A fresh copy of consumer project `name` (tests/consumers/projects/<name>) in `work`, over the
 * files of project `base` if given, with the tarball installed (from npm's cache where it can).
 * @param {string} work @param {string} name @param {string} tarball @param {{ base?: string, files?: Record<string, string> }} [options]
 *   `files`: more files to write first (path in the project → text)
 */
export async function installProject(work, name, tarball, { base, files = {} } = {}) {
  const dir = path.join(work, name);
  if (base) await cp(path.join(REPO, "tests/consumers/projects", base), dir, { recursive: true });
  await cp(path.join(REPO, "tests/consumers/projects", name), dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await mkdir(NPM_CACHE, { recursive: true });
  sh(dir, "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", NPM_CACHE, "--loglevel", "error", tarball]);
  return dir;
}

/**
 * A fresh Chromium profile for `body`, closed afterwards. `problems` collects every page error,
 * failed request and HTTP error status of every page the context opens.
 * @template T
 * @param {(context: import("playwright-core").BrowserContext, problems: string[]) => Promise<T>} body
 * @returns {Promise<T>}
 */
export async function withChromium(body) {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-consumer-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const problems = [];
  context.on("page", (page) => watch(page, problems));
  for (const page of context.pages()) watch(page, problems);
  try {
    return await body(context, problems);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/** @param {import("playwright-core").Page} page @param {string[]} problems */
function watch(page, problems) {
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("requestfailed", (req) => problems.push(`requestfailed: ${req.url()} ${req.failure()?.errorText ?? ""}`));
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
  });
}

/**
 * Sends the context's requests to the Anthropic API (`https://api.anthropic.com`) to `origin`
 * instead (the fake endpoint), answering as the API answers a page: CORS allowed, preflights
 * included. The page's code is the code users run, with the API's own URL.
 * @param {import("playwright-core").BrowserContext} context @param {string} origin
 */
export async function routeAnthropic(context, origin) {
  await context.route("https://api.anthropic.com/**", async (route) => {
    const request = route.request();
    const cors = {
      "access-control-allow-origin": request.headers().origin ?? "*",
      "access-control-allow-headers": "*",
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-expose-headers": "request-id",
    };
    if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    const url = new URL(request.url());
    const response = await route.fetch({ url: `${origin}${url.pathname}${url.search}` });
    await route.fulfill({ response, headers: { ...response.headers(), ...cors } });
  });
}

/**
 * Starts a Node server program (`node <script>`, or another Node binary) that prints its URL as
 * its first line, as the docs' server.js does; resolves once it did.
 * @param {string} cwd @param {string} script @param {Record<string, string>} env @param {string} [nodeBinary]
 * @returns {Promise<{ url: string, output: () => string, stop: () => Promise<void> }>}
 */
export async function startNodeServer(cwd, script, env, nodeBinary = process.execPath) {
  const child = spawn(nodeBinary, [script], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} printed no URL in 30 s:\n${output}`)), 30_000);
    const read = (chunk) => {
      output += chunk;
      const found = /https?:\/\/\S+/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(undefined);
        child.once("exit", () => resolve(undefined));
        child.kill();
      }),
  };
}
