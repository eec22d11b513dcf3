// The production shape of docs/SYNC.md#production-the-key-the-proxy-what-the-hosted-store-sees, as a
// test double: the app's own endpoint, which the page calls with no key. It allows only the
// routes sync uses, on the hosted stores the user may reach, adds `x-api-key` and forwards the
// rest to the API (here, the emulator), answering CORS for the page's origin.

import http from "node:http";

const ROUTES = [
  ["GET", /^\/v1\/memory_stores\/(?<store>[^/]+)$/],
  ["GET", /^\/v1\/memory_stores\/(?<store>[^/]+)\/memories$/],
  ["POST", /^\/v1\/memory_stores\/(?<store>[^/]+)\/memories$/],
  ["GET", /^\/v1\/memory_stores\/(?<store>[^/]+)\/memories\/[^/]+$/],
  ["POST", /^\/v1\/memory_stores\/(?<store>[^/]+)\/memories\/[^/]+$/],
  ["DELETE", /^\/v1\/memory_stores\/(?<store>[^/]+)\/memories\/[^/]+$/],
];
const FORWARDED = ["anthropic-beta", "anthropic-version", "content-type"];

/**
 * @param {{ target: string, apiKey: string, stores: Set<string> }} options
 *   target: the API's origin; stores: the hosted stores this user may reach
 */
export async function startProxy({ target, apiKey, stores }) {
  /** @type {Array<{ method: string, path: string, key: string | undefined, status: number }>} */
  const seen = [];
  const server = http.createServer(async (req, res) => {
    const cors = {
      "access-control-allow-origin": String(req.headers.origin ?? "*"),
      "access-control-allow-methods": "GET, POST, DELETE",
      "access-control-allow-headers": String(req.headers["access-control-request-headers"] ?? ""),
      "access-control-expose-headers": "retry-after, retry-after-ms, request-id",
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://proxy");
    const route = ROUTES.find(([m, re]) => m === req.method && re.test(url.pathname));
    const store = route ? route[1].exec(url.pathname)?.groups?.store : undefined;
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const entry = { method: String(req.method), path: url.pathname, key: /** @type {string | undefined} */ (req.headers["x-api-key"]), status: 0 };
    seen.push(entry);
    if (!route || !store || !stores.has(store)) {
      entry.status = 403;
      res.writeHead(403, { ...cors, "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "permission_error", message: "not allowed" } }));
      return;
    }
    /** @type {Record<string, string>} */
    const headers = { "x-api-key": apiKey };
    for (const name of FORWARDED) if (req.headers[name]) headers[name] = String(req.headers[name]);
    const upstream = await fetch(target + url.pathname + url.search, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    entry.status = upstream.status;
    /** @type {Record<string, string>} */
    const back = { ...cors, "content-type": upstream.headers.get("content-type") ?? "application/json" };
    for (const name of ["retry-after", "retry-after-ms", "request-id"]) {
      const v = upstream.headers.get(name);
      if (v) back[name] = v;
    }
    res.writeHead(upstream.status, back);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const port = /** @type {import("node:net").AddressInfo} */ (server.address()).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve(undefined));
    }),
  };
}
