// One way to drive each browser engine the cross-engine suite runs in, behind one small
// interface: Chromium through playwright-core (Debian's /usr/bin/chromium), Firefox over
// WebDriver BiDi (Debian's firefox-esr, no geckodriver: a client of our own over a WebSocket),
// WebKit over classic WebDriver (Debian's WebKitWebDriver driving MiniBrowser, which needs an X
// display: a private Xvfb). Playwright cannot drive Debian's Firefox or WebKit (it needs its
// own patched builds, which cannot be downloaded here).
//
//   const browser = await launch("firefox", { prefs });
//   const tab = await browser.newTab(url);
//   const value = await tab.run((arg) => ..., arg);   // the function runs in the page
//   await tab.reload(); await tab.close(); await browser.close();
//
// `run` sends the function's source and a JSON argument, awaits the promise it returns in the
// page and gives back its JSON result: the same in every engine. Classic WebDriver has no
// console events, so pages record their own errors (tests/engines/page.html).

import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";
import { connect } from "./websocket.mjs";

/** Debian's Firefox ESR, unless FIREFOX_PATH says otherwise. */
export const FIREFOX = process.env.FIREFOX_PATH || "/usr/bin/firefox-esr";
/** Debian's WebKitWebDriver (package webkit2gtk-driver), unless WEBKIT_DRIVER_PATH says otherwise. */
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH || "/usr/bin/WebKitWebDriver";
/** The X server MiniBrowser draws on (package xvfb). */
export const XVFB = process.env.XVFB_PATH || "/usr/bin/Xvfb";

/** The engines, in the order the suite runs them; ENGINES=firefox,webkit picks some. */
export const ENGINES = (process.env.ENGINES || "chromium,firefox,webkit").split(",").filter(Boolean);

/** What each engine needs installed, for a clear failure when it is missing. */
const NEEDS = {
  chromium: [CHROMIUM],
  firefox: [FIREFOX],
  webkit: [WEBKIT_DRIVER, XVFB],
};

/** How long one `run` may take before the test fails instead of hanging. */
const RUN_TIMEOUT_MS = 120_000;

/**
 * @typedef {object} Tab
 * @property {(url: string) => Promise<void>} goto
 * @property {() => Promise<void>} reload
 * @property {<T>(fn: (arg: any) => T | Promise<T>, arg?: unknown) => Promise<T>} run
 * @property {() => Promise<void>} close
 */

/**
 * @typedef {object} Browser
 * @property {string} engine
 * @property {string} version  the browser's own name and version
 * @property {(url: string) => Promise<Tab>} newTab
 * @property {() => Promise<void>} close
 */

/**
 * Starts `engine` with a fresh profile.
 * @param {string} engine "chromium", "firefox" or "webkit"
 * @param {{ prefs?: Record<string, string | number | boolean> }} [options] `prefs`: Firefox
 *   preferences (user.js), e.g. `permissions.default.persistent-storage`
 * @returns {Promise<Browser>}
 */
export async function launch(engine, options = {}) {
  const needs = /** @type {Record<string, string[]>} */ (NEEDS)[engine];
  if (!needs) throw new Error(`unknown engine ${engine} (the engines are ${Object.keys(NEEDS).join(", ")})`);
  for (const file of needs) {
    if (!existsSync(file)) throw new Error(`${engine}: ${file} is not installed (bash scripts/setup.sh installs it)`);
  }
  if (engine === "chromium") return launchChromium();
  if (engine === "firefox") return launchFirefox(options.prefs ?? {});
  return launchWebKit();
}

/** The expression that runs `fn(arg)` in a page and gives its result as JSON text. */
function expression(/** @type {Function} */ fn, /** @type {unknown} */ arg) {
  const json = JSON.stringify(arg === undefined ? null : arg);
  return `(async () => JSON.stringify((await (${fn.toString()})(${json})) ?? null))()`;
}

/** Rejects with "timeout" unless `promise` settles within `ms`. */
function bounded(/** @type {Promise<any>} */ promise, /** @type {number} */ ms, /** @type {string} */ what) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// --- Chromium ----------------------------------------------------------------------------------

async function launchChromium() {
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-engines-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const version = execFileSync(CHROMIUM, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  /** @type {Browser} */
  const browser = {
    engine: "chromium",
    version,
    newTab: async (url) => {
      const blank = context.pages().find((p) => p.url() === "about:blank");
      const page = blank ?? (await context.newPage());
      /** @type {Tab} */
      const tab = {
        goto: async (to) => void (await page.goto(to, { waitUntil: "load" })),
        reload: async () => void (await page.reload({ waitUntil: "load" })),
        run: async (fn, arg) => JSON.parse(await bounded(page.evaluate(expression(fn, arg)), RUN_TIMEOUT_MS, "chromium run")),
        close: () => page.close(),
      };
      await tab.goto(url);
      return tab;
    },
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
  return browser;
}

// --- Firefox: WebDriver BiDi -------------------------------------------------------------------

/** Preferences for a quiet automated Firefox on a closed network. */
const FIREFOX_PREFS = {
  "app.update.disabledForTesting": true,
  "browser.shell.checkDefaultBrowser": false,
  "browser.startup.homepage_override.mstone": "ignore",
  "browser.startup.page": 0,
  "browser.safebrowsing.malware.enabled": false,
  "browser.safebrowsing.phishing.enabled": false,
  "browser.safebrowsing.downloads.enabled": false,
  "datareporting.policy.dataSubmissionEnabled": false,
  "datareporting.healthreport.uploadEnabled": false,
  "toolkit.telemetry.enabled": false,
  "network.captive-portal-service.enabled": false,
  "network.connectivity-service.enabled": false,
  "services.settings.server": "http://127.0.0.1:9/",
  "extensions.update.enabled": false,
  "browser.aboutwelcome.enabled": false,
  "messaging-system.rsexperimentloader.enabled": false,
  "app.normandy.enabled": false,
};

/** @param {Record<string, string | number | boolean>} prefs */
async function launchFirefox(prefs) {
  const profile = await mkdtemp(path.join(tmpdir(), "memory-tool-engines-firefox-"));
  const lines = Object.entries({ ...FIREFOX_PREFS, ...prefs }).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`);
  await writeFile(path.join(profile, "user.js"), lines.join("\n") + "\n");
  const child = spawn(FIREFOX, ["--headless", "--no-remote", "--profile", profile, "--remote-debugging-port=0", "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: "1" },
  });
  let stderr = "";
  const wsUrl = await bounded(
    new Promise((resolve, reject) => {
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        const found = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(stderr);
        if (found) resolve(found[1]);
      });
      child.on("exit", (code) => reject(new Error(`firefox exited (${code}) before listening:\n${stderr}`)));
    }),
    30_000,
    "firefox start",
  );
  child.stderr.resume();

  let nextId = 1;
  /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
  const pending = new Map();
  const socket = await connect(`${wsUrl}/session`, {
    onMessage: (text) => {
      const message = JSON.parse(text);
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.type === "error") waiter.reject(new Error(`${message.error}: ${message.message}`));
      else waiter.resolve(message.result);
    },
    onClose: (why) => {
      for (const waiter of pending.values()) waiter.reject(new Error(`firefox: ${why}`));
      pending.clear();
    },
  });
  /** One BiDi command. @param {string} method @param {object} params @returns {Promise<any>} */
  const send = (method, params) =>
    bounded(
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
      RUN_TIMEOUT_MS,
      `firefox ${method}`,
    );
  const session = await send("session.new", { capabilities: { alwaysMatch: { unhandledPromptBehavior: { default: "ignore" } } } });
  const version = `Firefox ${session.capabilities.browserVersion}`;
  const tree = await send("browsingContext.getTree", { maxDepth: 0 });
  /** @type {string[]} the first tab, unused yet */
  const spare = tree.contexts.map((/** @type {{ context: string }} */ c) => c.context);

  /** @type {Browser} */
  const browser = {
    engine: "firefox",
    version,
    newTab: async (url) => {
      const context = spare.shift() ?? (await send("browsingContext.create", { type: "tab" })).context;
      /** @type {Tab} */
      const tab = {
        goto: async (to) => void (await send("browsingContext.navigate", { context, url: to, wait: "complete" })),
        reload: async () => void (await send("browsingContext.reload", { context, wait: "complete" })),
        run: async (fn, arg) => {
          const result = await send("script.evaluate", {
            expression: expression(fn, arg),
            target: { context },
            awaitPromise: true,
            resultOwnership: "none",
          });
          if (result.type === "exception") {
            throw new Error(`firefox run: ${result.exceptionDetails?.text ?? JSON.stringify(result.exceptionDetails)}`);
          }
          return JSON.parse(result.result.value);
        },
        // The last tab stays (closing it would end the browser): blank, for the next tab.
        close: async () => {
          const open = await send("browsingContext.getTree", { maxDepth: 0 });
          if (open.contexts.length > 1) {
            await send("browsingContext.close", { context });
          } else {
            await send("browsingContext.navigate", { context, url: "about:blank", wait: "complete" });
            spare.push(context);
          }
        },
      };
      await tab.goto(url);
      return tab;
    },
    close: async () => {
      await send("browser.close", {}).catch(() => {});
      socket.close();
      await stopProcess(child);
      await rm(profile, { recursive: true, force: true });
    },
  };
  return browser;
}

// --- WebKit: classic WebDriver -----------------------------------------------------------------

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Starts a private X server; resolves with it and its display (":N"). */
async function startXvfb() {
  const child = spawn(XVFB, ["-displayfd", "3", "-screen", "0", "1280x900x24", "-nolisten", "tcp"], { stdio: ["ignore", "ignore", "pipe", "pipe"] });
  const pipe = /** @type {import("node:stream").Readable} */ (child.stdio[3]);
  let said = "";
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  const display = await bounded(
    new Promise((resolve, reject) => {
      pipe.on("data", (chunk) => {
        said += chunk;
        if (said.includes("\n")) resolve(`:${said.trim()}`);
      });
      child.on("exit", (code) => reject(new Error(`Xvfb exited (${code}):\n${stderr}`)));
    }),
    20_000,
    "Xvfb start",
  );
  return { child, display };
}

async function launchWebKit() {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, DISPLAY: xvfb.display } });
  let driverErr = "";
  driver.stderr.on("data", (chunk) => (driverErr += chunk));
  const base = `http://127.0.0.1:${port}`;
  /** One WebDriver request. @param {string} method @param {string} at @param {object} [body] */
  const call = async (method, at, body) => {
    const response = await bounded(
      fetch(base + at, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }),
      RUN_TIMEOUT_MS,
      `webkit ${method} ${at}`,
    );
    const answer = await response.json();
    if (!response.ok) throw new Error(`webkit ${method} ${at}: ${answer.value?.error}: ${answer.value?.message}`);
    return answer.value;
  };
  for (let tries = 0; ; tries++) {
    try {
      if ((await call("GET", "/status")).ready) break;
    } catch (error) {
      if (tries > 100) throw new Error(`WebKitWebDriver did not start: ${error}\n${driverErr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const session = await call("POST", "/session", { capabilities: { alwaysMatch: {} } });
  const at = `/session/${session.sessionId}`;
  const version = `${session.capabilities.browserName} (WebKitGTK ${session.capabilities.browserVersion})`;
  await call("POST", `${at}/timeouts`, { script: RUN_TIMEOUT_MS, pageLoad: 60_000 });
  /** @type {string[]} */
  const spare = [await call("GET", `${at}/window`)];
  let current = spare[0];
  const focus = async (/** @type {string} */ handle) => {
    if (current !== handle) await call("POST", `${at}/window`, { handle });
    current = handle;
  };

  /** @type {Browser} */
  const browser = {
    engine: "webkit",
    version,
    newTab: async (url) => {
      const handle = spare.shift() ?? (await call("POST", `${at}/window/new`, { type: "tab" })).handle;
      /** @type {Tab} */
      const tab = {
        goto: async (to) => {
          await focus(handle);
          await call("POST", `${at}/url`, { url: to });
        },
        reload: async () => {
          await focus(handle);
          await call("POST", `${at}/refresh`, {});
        },
        run: async (fn, arg) => {
          await focus(handle);
          const script =
            "const done = arguments[arguments.length - 1];" +
            `Promise.resolve().then(() => ${expression(fn, arg)}).then((json) => done({ json }), (e) => done({ error: e instanceof Error ? e.name + ": " + e.message + "\\n" + e.stack : String(e) }));`;
          const answer = await call("POST", `${at}/execute/async`, { script, args: [] });
          if (answer?.error !== undefined) throw new Error(`webkit run: ${answer.error}`);
          return JSON.parse(answer.json);
        },
        // The last window stays (closing it would end the session): blank, for the next tab.
        close: async () => {
          await focus(handle);
          if ((await call("GET", `${at}/window/handles`)).length > 1) {
            // New windows are opened from the current one: make another current.
            const left = await call("DELETE", `${at}/window`);
            current = "";
            await focus(left[0]);
          } else {
            await call("POST", `${at}/url`, { url: "about:blank" });
            spare.push(handle);
          }
        },
      };
      await tab.goto(url);
      return tab;
    },
    close: async () => {
      await call("DELETE", at).catch(() => {});
      await stopProcess(driver);
      await stopProcess(xvfb.child);
    },
  };
  return browser;
}

/** Ends a process we started (SIGTERM, then SIGKILL after 5 s) and waits for it. */
async function stopProcess(/** @type {import("node:child_process").ChildProcess} */ child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await gone;
  clearTimeout(timer);
}
