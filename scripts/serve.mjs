#!/usr/bin/env node
// A zero-dependency static file server for the demo (www/), serving the repository root so the
// page can import /src/js/index.js and /pkg/memory_tool_wasm.js exactly as a user's app would.
//
//   node scripts/serve.mjs [--port N]        ($PORT, else 8080; 0 picks any free port)
//
// It binds 127.0.0.1 only, answers GET and HEAD, refuses paths outside the root and dot-files
// (.git, .ci, …), redirects / to /www/, and prints one line with the URL once it is listening.
//
// The demo's pages (HTML under www/) go out with a strict Content-Security-Policy (see
// `demoPolicy`): no inline script but the page's import map (allowed by its hash, computed here
// from the file served, so it cannot drift), no eval (WebAssembly compiles under
// 'wasm-unsafe-eval'), and requests only to this server and the Anthropic API (the page is told
// that list too, in <meta name="connect-origins">, to refuse other URLs in words). With
// $ANTHROPIC_BASE_URL (or `apiBaseUrl`), the agent talks to that endpoint instead (a proxy, a
// local fake): its origin joins connect-src, and the page learns it from the
// <meta name="anthropic-base-url"> this server fills in.

import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { createReadStream } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root: the parent of this script's folder. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Content types by file extension; anything else is served as application/octet-stream. */
export const MIME_TYPES = Object.freeze({
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
});

/** Where the demo's agent sends Messages API requests unless a base URL is configured. */
export const ANTHROPIC_API_ORIGIN = "https://api.anthropic.com";

/**
 * The demo page's Content-Security-Policy, for an HTML page whose inline scripts are `inline`
 * (their text: the import map). Requests may go to this server and to the API's origin
 * (`apiOrigin`: the Anthropic API, or the configured base URL's origin). Images may be data: and
 * blob: URLs (image content blocks are shown as data: URLs).
 * @param {{ inline?: string[], apiOrigin?: string }} [options]
 */
export function demoPolicy({ inline = [], apiOrigin = ANTHROPIC_API_ORIGIN } = {}) {
  const hashes = inline.map((text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  const connect = connectSources(apiOrigin);
  return [
    "default-src 'none'",
    `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(" ")}`.trim(),
    "style-src 'self'",
    "img-src 'self' data: blob:",
    `connect-src ${connect.join(" ")}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * The demo page's connect-src: this server ('self'), the Anthropic API, and the configured API
 * origin. The page is told the same list (<meta name="connect-origins">), so it can refuse a
 * URL its policy would block before it sends anything, and say why.
 * @param {string} [apiOrigin]
 */
export function connectSources(apiOrigin = ANTHROPIC_API_ORIGIN) {
  return ["'self'", ANTHROPIC_API_ORIGIN, ...(apiOrigin === ANTHROPIC_API_ORIGIN ? [] : [apiOrigin])];
}

/**
 * The texts of a page's inline <script> elements (the import map), as the browser hashes them.
 * @param {string} html
 */
export function inlineScripts(html) {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]);
}

/**
 * The origin of a configured API base URL; throws in words when it is not an http(s) URL.
 * @param {string} baseUrl
 */
export function apiOriginOf(baseUrl) {
  let url;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`ANTHROPIC_BASE_URL must be a URL, got: ${baseUrl}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`ANTHROPIC_BASE_URL must be http(s), got: ${baseUrl}`);
  return url.origin;
}

/**
 * Starts the server and resolves once it is listening.
 * @param {{ port?: number, root?: string, host?: string, apiBaseUrl?: string, gzip?: boolean }} [options]
 *   `port` 0 (or omitted) picks a free port; `root` defaults to the repository root;
 *   `apiBaseUrl` is where the demo's agent sends its Messages API requests (default the Anthropic API);
 *   `gzip` compresses scripts, JSON and .wasm (gzip -9) for a client that accepts it, as a
 *   production server would (the cold-start bench; off by default).
 * @returns {Promise<{ server: import("node:http").Server, port: number, url: string, close: () => Promise<void> }>}
 *   `url` is the demo page's address.
 */
export async function startServer({ port = 0, root = REPO_ROOT, host = "127.0.0.1", apiBaseUrl, gzip = false } = {}) {
  const realRoot = await realpath(path.resolve(root));
  const api = apiBaseUrl ? { baseUrl: apiBaseUrl, origin: apiOriginOf(apiBaseUrl) } : null;
  const server = createServer((req, res) => {
    handle(realRoot, req, res, api, gzip).catch((err) => {
      if (!res.headersSent) send(res, 500, `Internal error: ${err && err.message}`);
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(undefined);
    });
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    server,
    port: actualPort,
    url: `http://localhost:${actualPort}/www/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the `gzip` option compresses: what a production server would. */
const COMPRESSED = /^(text\/javascript|application\/json|application\/wasm)/;
/** @type {Map<string, { mtimeMs: number, body: Buffer }>} */
const gzipCache = new Map();

/**
 * The file's bytes, gzip -9, kept while the file is unchanged.
 * @param {string} file
 * @param {number} mtimeMs
 */
async function gzipped(file, mtimeMs) {
  const cached = gzipCache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.body;
  const body = gzipSync(await readFile(file), { level: 9 });
  gzipCache.set(file, { mtimeMs, body });
  return body;
}

/**
 * Answers one request from files under `root`.
 * @param {string} root  real path of the served folder
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {{ baseUrl: string, origin: string } | null} api  the configured API base URL
 * @param {boolean} [gzip]  compress scripts, JSON and .wasm for a client that accepts gzip
 */
async function handle(root, req, res, api, gzip = false) {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    return send(res, 405, "Method not allowed");
  }
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/") return redirect(res, "/www/");

  let pathname;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return send(res, 400, "Bad request: malformed URL encoding");
  }
  const segments = pathname.split("/").slice(1);
  // Refuse anything that could leave the root or reach hidden files, before touching the disk.
  if (segments.some((s) => s === ".." || s.startsWith(".") || s.includes("\\") || s.includes("\0"))) {
    return send(res, 404, "Not found");
  }
  const candidate = path.resolve(root, ...segments.filter(Boolean));
  if (!isInside(root, candidate)) return send(res, 404, "Not found");

  let file = candidate;
  let info;
  try {
    // Follow symlinks, then check again that the target is still inside the root.
    file = await realpath(candidate);
    if (!isInside(root, file)) return send(res, 404, "Not found");
    info = await stat(file);
  } catch {
    return send(res, 404, "Not found");
  }
  if (info.isDirectory()) {
    if (!pathname.endsWith("/")) return redirect(res, `${url.pathname}/${url.search}`);
    try {
      file = path.join(file, "index.html");
      info = await stat(file);
    } catch {
      return send(res, 404, "Not found");
    }
    if (!info.isFile()) return send(res, 404, "Not found");
  } else if (!info.isFile()) {
    return send(res, 404, "Not found");
  }

  const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
  if (type.startsWith("text/html") && isInside(path.join(root, "www"), file)) return sendDemoPage(file, req, res, api);
  if (gzip && COMPRESSED.test(type) && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    const body = await gzipped(file, info.mtimeMs);
    res.writeHead(200, {
      "Content-Type": type,
      "Content-Length": body.length,
      "Content-Encoding": "gzip",
      Vary: "Accept-Encoding",
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    });
    return void res.end(req.method === "HEAD" ? undefined : body);
  }
  res.writeHead(200, {
    "Content-Type": type,
    "Content-Length": info.size,
    // A development server: always revalidate so edits and rebuilds show up on reload.
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
  });
  if (req.method === "HEAD") return void res.end();
  await new Promise((resolve, reject) => {
    const stream = createReadStream(file);
    stream.on("error", reject);
    res.on("close", () => {
      stream.destroy();
      resolve(undefined);
    });
    stream.pipe(res);
  });
}

/**
 * A demo page, with its Content-Security-Policy, the origins that policy lets it connect to in
 * its <meta name="connect-origins">, and the API base URL (when one is configured) in its
 * <meta name="anthropic-base-url">.
 * @param {string} file
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {{ baseUrl: string, origin: string } | null} api
 */
async function sendDemoPage(file, req, res, api) {
  let html = await readFile(file, "utf8");
  html = html.replace(/(<meta name="connect-origins" content=")[^"]*(")/, `$1${connectSources(api?.origin).join(" ")}$2`);
  if (api) {
    const attribute = api.baseUrl.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
    html = html.replace(/(<meta name="anthropic-base-url" content=")[^"]*(")/, `$1${attribute}$2`);
  }
  const body = Buffer.from(html, "utf8");
  res.writeHead(200, {
    "Content-Type": MIME_TYPES[".html"],
    "Content-Length": body.length,
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": demoPolicy({ inline: inlineScripts(html), apiOrigin: api?.origin }),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** @param {string} root @param {string} candidate */
function isInside(root, candidate) {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** @param {import("node:http").ServerResponse} res @param {number} status @param {string} text */
function send(res, status, text) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" });
  res.end(`${text}\n`);
}

/** @param {import("node:http").ServerResponse} res @param {string} location */
function redirect(res, location) {
  res.writeHead(302, { Location: location, "Content-Type": "text/plain; charset=utf-8" });
  res.end(`See ${location}\n`);
}

/**
 * The port from `--port N` / `--port=N`, else $PORT, else 8080.
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @returns {number}
 */
export function portFromArgs(argv, env) {
  let raw = env.PORT && env.PORT.trim() !== "" ? env.PORT.trim() : "8080";
  let source = env.PORT && env.PORT.trim() !== "" ? "$PORT" : "default";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--port") {
      if (i + 1 >= argv.length) throw new Error("--port needs a number");
      raw = argv[++i];
      source = "--port";
    } else if (arg.startsWith("--port=")) {
      raw = arg.slice("--port=".length);
      source = "--port";
    } else {
      throw new Error(`unknown argument ${arg} (usage: node scripts/serve.mjs [--port N])`);
    }
  }
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw new Error(`${source} must be a port number from 0 to 65535, got: ${raw}`);
  }
  return port;
}

async function main() {
  let port;
  try {
    port = portFromArgs(process.argv.slice(2), process.env);
  } catch (err) {
    console.error(`serve: ${/** @type {Error} */ (err).message}`);
    process.exit(2);
  }
  const apiBaseUrl = process.env.ANTHROPIC_BASE_URL?.trim() || undefined;
  try {
    if (apiBaseUrl) apiOriginOf(apiBaseUrl);
  } catch (err) {
    console.error(`serve: ${/** @type {Error} */ (err).message}`);
    process.exit(2);
  }
  let running;
  try {
    running = await startServer({ port, apiBaseUrl });
  } catch (err) {
    const e = /** @type {NodeJS.ErrnoException} */ (err);
    if (e.code === "EADDRINUSE") {
      console.error(`serve: port ${port} is already in use; set PORT or pass --port N (0 picks a free port)`);
    } else {
      console.error(`serve: could not listen on 127.0.0.1:${port}: ${e.message}`);
    }
    process.exit(1);
  }
  console.log(`memory-tool-wasm demo: ${running.url}`);
  const stop = () => {
    running.close().then(() => process.exit(0));
    // Do not hang on a stuck connection.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

const invokedDirectly =
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(await realpath(process.argv[1]).catch(() => process.argv[1])).href;
if (invokedDirectly) await main();
