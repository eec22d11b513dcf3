// The demo's static server (scripts/serve.mjs): MIME types, redirects, refusals, and the CLI's
// one-line announcement. Run with `node --test tests/e2e`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { mkdtemp, mkdir, writeFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, portFromArgs } from "../../scripts/serve.mjs";

const SERVE = fileURLToPath(new URL("../../scripts/serve.mjs", import.meta.url));

/** @type {string} */ let root;
/** @type {string} */ let outside;
/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;

before(async () => {
  const base = await mkdtemp(path.join(tmpdir(), "serve-test-"));
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  await mkdir(path.join(root, "www"), { recursive: true });
  await mkdir(path.join(root, "pkg"), { recursive: true });
  await mkdir(path.join(root, ".git"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(root, "www", "index.html"), "<!doctype html><title>t</title>");
  await writeFile(path.join(root, "www", "app.js"), "export {};\n");
  await writeFile(path.join(root, "www", "mod.mjs"), "export {};\n");
  await writeFile(path.join(root, "www", "style.css"), "body{}\n");
  await writeFile(path.join(root, "www", "data.json"), "{}\n");
  await writeFile(path.join(root, "www", "icon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  await writeFile(path.join(root, "www", "pic.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(path.join(root, "pkg", "core.wasm"), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  await writeFile(path.join(root, ".git", "config"), "secret\n");
  await writeFile(path.join(outside, "secret.txt"), "outside\n");
  await symlink(outside, path.join(root, "escape"));
  server = await startServer({ port: 0, root });
});

after(async () => {
  await server?.close();
  if (root) await rm(path.dirname(root), { recursive: true, force: true });
});

/**
 * A raw GET (the path is sent exactly as given, no URL normalisation).
 * @param {string} rawPath
 * @param {string} [method]
 * @returns {Promise<{ status: number, headers: import("node:http").IncomingHttpHeaders, body: Buffer }>}
 */
function get(rawPath, method = "GET") {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path: rawPath, method }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("startServer reports the port it got and the demo URL", () => {
  assert.ok(server.port > 0);
  assert.equal(server.url, `http://localhost:${server.port}/www/`);
  assert.equal(server.server.address().address, "127.0.0.1");
});

test("serves files with the right content types", async () => {
  const cases = [
    ["/www/", "text/html; charset=utf-8"],
    ["/www/index.html", "text/html; charset=utf-8"],
    ["/www/app.js", "text/javascript; charset=utf-8"],
    ["/www/mod.mjs", "text/javascript; charset=utf-8"],
    ["/www/style.css", "text/css; charset=utf-8"],
    ["/www/data.json", "application/json; charset=utf-8"],
    ["/www/icon.svg", "image/svg+xml"],
    ["/www/pic.png", "image/png"],
    ["/pkg/core.wasm", "application/wasm"],
  ];
  for (const [p, type] of cases) {
    const res = await get(p);
    assert.equal(res.status, 200, p);
    assert.equal(res.headers["content-type"], type, p);
  }
  const wasm = await get("/pkg/core.wasm");
  assert.deepEqual([...wasm.body], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  assert.equal(wasm.headers["content-length"], "8");
});

test("/ redirects to /www/, and a folder without its slash gets one", async () => {
  const home = await get("/");
  assert.equal(home.status, 302);
  assert.equal(home.headers.location, "/www/");
  const www = await get("/www?store=x");
  assert.equal(www.status, 302);
  assert.equal(www.headers.location, "/www/?store=x");
});

test("refuses paths outside the root, dot-files, and missing files", async () => {
  for (const p of [
    "/../outside/secret.txt",
    "/www/../../outside/secret.txt",
    "/%2e%2e/outside/secret.txt",
    "/www/%2e%2e/%2e%2e/outside/secret.txt",
    "/www%2f..%2f..%2foutside%2fsecret.txt",
    "/..%5coutside%5csecret.txt",
    "/escape/secret.txt",
    "/.git/config",
    "/www/nope.js",
    "/pkg/",
    "/www/%00",
  ]) {
    const res = await get(p);
    assert.ok(res.status === 404 || res.status === 400, `${p} gave ${res.status}`);
    assert.ok(!res.body.toString().includes("outside\n") && !res.body.toString().includes("secret\n"), p);
  }
  assert.equal((await get("/%E0%A4%A")).status, 400);
});

test("answers HEAD without a body and refuses other methods", async () => {
  const head = await get("/www/app.js", "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  const post = await get("/www/app.js", "POST");
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, "GET, HEAD");
});

test("with gzip (the cold-start bench), scripts and .wasm go gzipped to a client that accepts it; off by default", async () => {
  const zipped = await startServer({ port: 0, root, gzip: true });
  try {
    /** @param {number} port @param {string} rawPath @param {Record<string, string>} headers */
    const fetchRaw = (port, rawPath, headers) =>
      new Promise((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: rawPath, headers }, (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end();
      });
    const accepts = { "accept-encoding": "gzip, deflate, br" };
    for (const [file, bytes] of [
      ["/www/app.js", Buffer.from("export {};\n")],
      ["/pkg/core.wasm", Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])],
    ]) {
      const got = /** @type {any} */ (await fetchRaw(zipped.port, file, accepts));
      assert.equal(got.headers["content-encoding"], "gzip", file);
      assert.equal(got.headers.vary, "Accept-Encoding");
      assert.deepEqual(gunzipSync(got.body), bytes);
      const plain = /** @type {any} */ (await fetchRaw(zipped.port, file, {}));
      assert.equal(plain.headers["content-encoding"], undefined);
      assert.deepEqual(plain.body, bytes);
      const unasked = /** @type {any} */ (await fetchRaw(server.port, file, accepts));
      assert.equal(unasked.headers["content-encoding"], undefined, "the default server sends files as they are");
    }
    // Images are not compressed.
    const png = /** @type {any} */ (await fetchRaw(zipped.port, "/www/pic.png", accepts));
    assert.equal(png.headers["content-encoding"], undefined);
  } finally {
    await zipped.close();
  }
});

test("the port comes from --port, else $PORT, else 8080", () => {
  assert.equal(portFromArgs([], {}), 8080);
  assert.equal(portFromArgs([], { PORT: "9000" }), 9000);
  assert.equal(portFromArgs(["--port", "0"], { PORT: "9000" }), 0);
  assert.equal(portFromArgs(["--port=1234"], {}), 1234);
  assert.throws(() => portFromArgs(["--port", "http"], {}), /--port must be a port number from 0 to 65535, got: http/);
  assert.throws(() => portFromArgs([], { PORT: "70000" }), /\$PORT must be a port number/);
  assert.throws(() => portFromArgs(["--verbose"], {}), /unknown argument --verbose/);
});

test("the CLI prints exactly one line with the URL, serves, and stops on SIGTERM", async () => {
  const child = spawn(process.execPath, [SERVE, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8");
  const line = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out);
    });
    child.once("exit", (code) => reject(new Error(`server exited early with ${code}`)));
  });
  const match = /^memory-tool-wasm demo: http:\/\/localhost:(\d+)\/www\/\n$/.exec(line);
  assert.ok(match, `unexpected announcement: ${JSON.stringify(line)}`);
  const res = await fetch(`http://127.0.0.1:${match[1]}/www/index.html`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  child.kill("SIGTERM");
  assert.deepEqual(await exited, { code: 0, signal: null });
  assert.equal(out, line, "nothing else was printed");
});

test("the CLI explains a port that is taken", async () => {
  const child = spawn(process.execPath, [SERVE, "--port", String(server.port)], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (c) => (err += c));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  assert.equal(code, 1);
  assert.match(err, new RegExp(`port ${server.port} is already in use`));
});
