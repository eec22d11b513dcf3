// Reliability, killed browser: Chromium, started here as a process of its
// own (child_process.spawn, its own process group, a persistent profile), runs a write loop in
// a page: three lanes of tool commands (inserts into one file; creates, renames, deletes and
// edits of directories; creates of 10–90 KB files). The page announces each command to this
// process before issuing it (an awaited CDP binding) and reports each result as it resolves.
// At a random moment mid-loop the whole process group gets SIGKILL. Chromium restarts with the
// same profile and, in the raw database:
// - the store passes every consistency rule (reliability-lib.mjs: checkStore);
// - every command the page reported committed is there, with exactly its versions;
// - every other attempted command is fully applied (all its versions, its exact content) or
//   absent (none): commands are atomic; nothing unattempted is there;
// - everything the earlier rounds left is still there, unchanged;
// - the log file holds exactly the inserts whose versions exist.
// One loss is tolerated, counted and reported: Chromium itself deleting the whole database at
// restart because its LevelDB did not survive the kill (it logs "IndexedDB recovering from a
// corrupted (and deleted) database"; about 1 kill in 125 here, see docs/RELIABILITY.md).
// RELIABILITY_STRICT=1 fails on it too. Any other loss fails.
// ROUNDS rounds (default 20; RELIABILITY_KILL_ROUNDS overrides, scripts/reliability.sh runs
// more), one profile: each round's store is the last round's plus what the loop wrote.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test tests/e2e/reliability-kill.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  FIXTURE,
  assertConsistent,
  dump,
  fileText,
  freshProfile,
  openTool,
  removeProfiles,
  sha256,
  startFixtureServer,
  versionsByToolUse,
  WHOLE_HISTORY,
  waitFixture,
} from "./reliability-lib.mjs";
import { KILL_LOG, KILL_LANES, killLine, killOp } from "./fixtures/reliability.js";

const ROUNDS = Number(process.env.RELIABILITY_KILL_ROUNDS ?? 20);
/** Which lanes of the loop run (an investigation knob): "0,1,2" by default. */
const LANES = (process.env.RELIABILITY_KILL_LANES ?? "0,1,2").split(",").map(Number);
/** The IndexedDbStorage durability ("default", "strict", "relaxed"). */
const DURABILITY = process.env.RELIABILITY_DURABILITY || undefined;
/**
 * Whether a store that Chromium itself deleted at restart (its LevelDB found corrupt) fails
 * the test. By default it is counted and reported (docs/RELIABILITY.md, known gaps), since
 * the package cannot prevent it; every other loss fails.
 */
const STRICT = process.env.RELIABILITY_STRICT === "1";
/** What Chromium logs when it deletes an origin's IndexedDB it found corrupt. */
const DISCARDED = /IndexedDB recovering from a corrupted \(and deleted\) database/;
const STORE = "rel-kill";
/** Dumps carry the log's bytes; of other contents, only their size and hash. */
const DUMP = { inline: 0, paths: [KILL_LOG.slice("/memories".length)] };
/** A seeded generator, so a failing run can be replayed: RELIABILITY_SEED=… */
const SEED = Number(process.env.RELIABILITY_SEED ?? Date.now() % 1_000_000);
const random = mulberry32(SEED);

/** @type {Awaited<ReturnType<typeof startFixtureServer>>} */ let fixture;
/** @type {Browser | undefined} */ let current;
/** @type {string[]} */ const problems = [];

before(async () => {
  fixture = await startFixtureServer();
});

after(async () => {
  if (current) await kill(current);
  await fixture?.server.close();
  await removeProfiles();
});

/**
 * @typedef {object} Browser
 * @property {import("node:child_process").ChildProcess} child
 * @property {import("playwright-core").Browser} cdp
 * @property {import("playwright-core").Page} page
 * @property {{ text: string }} log the tail of Chromium's stderr
 * @property {number} startMs how long it took to start, connect and load the fixture
 * @property {boolean} vanished the open found the store gone (STORE_VANISHED) and started over
 */

/**
 * Starts Chromium on `profile` (its own process group), connects over CDP and opens the
 * fixture with the MemoryTool under "m". `onAttempt`/`onDone` receive the page's reports.
 * @param {string} profile
 * @param {(id: string) => void} onAttempt
 * @param {(id: string, isError: boolean, content: string) => void} onDone
 * @returns {Promise<Browser>}
 */
async function start(profile, onAttempt, onDone) {
  const t0 = Date.now();
  const child = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      "--headless",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "--no-default-browser-check",
      "--enable-logging=stderr",
      "about:blank",
    ],
    { detached: true, stdio: ["ignore", "ignore", "pipe"] },
  );
  const endpoint = await new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools endpoint in 15 s:\n${err}`)), 15_000);
    child.stderr?.on("data", (chunk) => {
      err += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code ?? signal}) before listening:\n${err}`));
    });
  });
  // Chromium's log (--enable-logging=stderr), kept for the report of a failed round.
  const log = { text: "" };
  child.stderr?.on("data", (chunk) => {
    log.text = (log.text + chunk).slice(-20_000);
  });
  const cdp = await chromium.connectOverCDP(endpoint);
  const ctx = cdp.contexts()[0];
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  await page.exposeFunction("relAttempt", onAttempt);
  await page.exposeFunction("relDone", onDone);
  await page.goto(fixture.origin + FIXTURE);
  await waitFixture(page);
  // The version log is the witness of every commit: no budget prunes it.
  const options = { store: STORE, limits: WHOLE_HISTORY, ...(DURABILITY ? { durability: DURABILITY } : {}) };
  // @ts-ignore: window.rel is the fixture's
  const first = await page.evaluate((o) => rel.open("m", o), options);
  // A store Chromium deleted as corrupt is not silently made anew: the open says so, and the
  // test, as a host would, starts over.
  const vanished = "thrown" in first && first.code === "STORE_VANISHED";
  if (vanished) {
    // @ts-ignore: window.rel is the fixture's
    await page.evaluate((store) => new rel.pkg.IndexedDbStorage().startOver(store), STORE);
    await openTool(page, "m", options);
  } else {
    assert.ok(!("thrown" in first), `MemoryTool.open failed: ${JSON.stringify(first)}`);
  }
  return { child, cdp, page, log, vanished, startMs: Date.now() - t0 };
}

/** SIGKILL to the browser's whole process group; resolves once every process of it is gone. */
async function kill(/** @type {Browser} */ browser) {
  const { child } = browser;
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(undefined);
    else child.once("exit", () => resolve(undefined));
  });
  try {
    process.kill(-(/** @type {number} */ (child.pid)), "SIGKILL");
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ESRCH") throw error;
  }
  await exited;
  // The renderer, GPU, storage and network processes share the group: wait until each is
  // dead (a zombie counts: the container's init may take a second to reap them).
  for (let i = 0; i < 500 && (await liveInGroup(/** @type {number} */ (child.pid))) > 0; i++) await sleep(10);
  await browser.cdp.close().catch(() => {});
  if (current === browser) current = undefined;
}

describe("a browser killed mid-write", () => {
  it(`SIGKILL in the middle of a write loop, ${ROUNDS} times: each restart finds a consistent store, every command applied or absent`, { timeout: 60_000 + ROUNDS * 8_000 }, async () => {
    console.log(`# kill: seed ${SEED} (RELIABILITY_SEED=${SEED} replays the kill moments)`);
    const profile = await freshProfile("kill");
    /** @type {string[]} */ let attempted = [];
    /** @type {Map<string, { isError: boolean, content: string }>} */ let reported = new Map();
    const onAttempt = (/** @type {string} */ id) => void attempted.push(id);
    const onDone = (/** @type {string} */ id, /** @type {boolean} */ isError, /** @type {string} */ content) =>
      void reported.set(id, { isError, content });

    current = await start(profile, onAttempt, onDone);
    /** The log every round inserts into. */
    const createLog = async () => {
      const created = await /** @type {Browser} */ (current).page.evaluate(
        // @ts-ignore: window.rel is the fixture's
        (p) => rel.tool("m").execute({ command: "create", path: p, file_text: "start" }),
        KILL_LOG,
      );
      assert.deepEqual(created, { content: `File created successfully at: ${KILL_LOG}`, isError: false });
      return dump(/** @type {Browser} */ (current).page, STORE, DUMP);
    };
    let previous = await createLog();
    /** Every insert line whose command is in the store, over all rounds. */
    const logLines = new Set();
    /** Restarts after which Chromium had deleted the store as corrupt. */
    const discarded = /** @type {string[]} */ ([]);

    const stats = { committed: 0, inFlight: 0, applied: 0, absent: 0, startMs: /** @type {number[]} */ ([]), killAfterMs: /** @type {number[]} */ ([]), killMs: /** @type {number[]} */ ([]), checkMs: /** @type {number[]} */ ([]) };
    for (let round = 0; round < ROUNDS; round++) {
      attempted = [];
      reported = new Map();
      const browser = /** @type {Browser} */ (current);
      // Kill once the loop has reported a random number of commits (3–60), after a random
      // extra 0–25 ms: mid-loop, at a moment the page cannot foresee.
      const target = 3 + Math.floor(random() * 58);
      const extra = Math.floor(random() * 26);
      const t0 = Date.now();
      // @ts-ignore
      await browser.page.evaluate(([r, lanes]) => rel.startKillLoop("m", r, lanes), /** @type {const} */ ([round, LANES]));
      while (reported.size < target) {
        if (Date.now() - t0 > 20_000) assert.fail(`round ${round}: only ${reported.size} commits in 20 s`);
        await sleep(2);
      }
      await sleep(extra);
      stats.killAfterMs.push(Date.now() - t0);
      const tk = Date.now();
      await kill(browser);
      stats.killMs.push(Date.now() - tk);
      // What the page had reported before it died; nothing can arrive after this.
      const tried = [...attempted];
      const done = new Map(reported);

      const files = await listFiles(path.join(profile, "Default", "IndexedDB"));
      current = await start(profile, onAttempt, onDone);
      stats.startMs.push(current.startMs);
      const t1 = Date.now();
      const raw = await dump(current.page, STORE, DUMP);
      if (raw.versions.length === 0 && previous.versions.length > 0) {
        // Everything is gone. The one loss we cannot prevent: Chromium deleting the whole
        // database because its LevelDB did not survive the kill. Its log says so.
        for (let i = 0; i < 100 && !DISCARDED.test(current.log.text); i++) await sleep(10);
        const inFlight = tried.filter((id) => !done.has(id));
        const what = `round ${round}: the whole store is gone after the kill; Chromium's log: ${DISCARDED.test(current.log.text) ? "it deleted the database as corrupt" : "nothing about it"}`;
        assert.match(current.log.text, DISCARDED, `${what}\n--- Chromium's log:\n${current.log.text.slice(-6_000)}`);
        // Whether the package told the host instead of starting over in silence: it does when
        // the origin's record of the store (localStorage) outlived the deletion. Reported, not
        // asserted: Chromium may lose that record's latest writes in the same kill.
        const known = await current.page.evaluate((name) => localStorage.getItem(`memory-tool-wasm/known/${name}`), "memory-tool-wasm:" + STORE);
        console.log(`# kill: round ${round}: the open ${current.vanished ? "reported STORE_VANISHED" : "did NOT report STORE_VANISHED"}; the origin's record of the store: ${known ?? "none"}`);
        assert.ok(!STRICT, `${what} (RELIABILITY_STRICT=1)\n--- IndexedDB files after the kill:\n${files.join("\n")}\n${current.log.text.slice(-3_000)}`);
        discarded.push(`round ${round} (${previous.versions.length} versions lost; in flight: ${inFlight.map((id) => killOp(round, Number(id.split("_")[2].slice(1)), Number(id.split("_")[3])).input.command).join(", ")})`);
        console.log(`# kill: WARNING: ${what}; ${discarded.at(-1)}`);
        // Start again on the fresh store.
        logLines.clear();
        previous = await createLog();
        continue;
      }
      try {
        checkRound(round, raw, tried, done);
      } catch (error) {
        // What a failed round needs to be understood: the store's database files as the kill
        // left them, what Chromium logged when it restarted, and the round's kill moment.
        const err = /** @type {Error} */ (error);
        err.message +=
          `\n--- round ${round} (seed ${SEED}): killed after ${stats.killAfterMs.at(-1)} ms, ${done.size} reported of ${tried.length} attempted; ` +
          `the store now: ${raw.files.length} files, ${raw.versions.length} versions (before: ${previous.files.length}, ${previous.versions.length})` +
          `\n--- IndexedDB files after the kill:\n${files.join("\n")}\n--- Chromium's log after the restart:\n${current.log.text.slice(-6_000)}`;
        throw err;
      }
      stats.checkMs.push(Date.now() - t1);
      previous = raw;
    }
    await kill(/** @type {Browser} */ (current));

    /**
     * The checks of one round on the store after the restart.
     * @param {number} round
     * @param {import("./reliability-lib.mjs").Dump} raw
     * @param {string[]} tried
     * @param {Map<string, { isError: boolean, content: string }>} done
     */
    function checkRound(round, raw, tried, done) {
      assertConsistent(raw, `after kill ${round + 1}`);

      // Earlier rounds' data is all still there, unchanged.
      const versionsNow = new Map(raw.versions.map((v) => [v.key, JSON.stringify(v.value)]));
      for (const v of previous.versions) assert.equal(versionsNow.get(v.key), JSON.stringify(v.value), `round ${round}: version ${v.key} of an earlier round kept`);
      const contentsNow = new Map(raw.contents.map((c) => [c.key, c.sha256]));
      for (const c of previous.contents) assert.equal(contentsNow.get(c.key), c.sha256, `round ${round}: content ${c.key} of an earlier round kept`);

      const written = versionsByToolUse(raw);
      const triedSet = new Set(tried);
      for (const id of written.keys()) {
        if (id.startsWith(`toolu_r${round}_`)) assert.ok(triedSet.has(id), `round ${round}: ${id} is in the store but was never attempted`);
      }
      const versionRecords = raw.versions.map((v) => v.value);
      for (const id of tried) {
        const [, , laneTag, index] = id.split("_");
        const op = killOp(round, Number(laneTag.slice(1)), Number(index));
        const count = written.get(id) ?? 0;
        const result = done.get(id);
        if (result) {
          assert.equal(result.isError, false, `round ${round}: ${id} ${JSON.stringify(op.input)} failed: ${result.content}`);
          assert.equal(count, op.versions, `round ${round}: ${id} reported committed, so all ${op.versions} of its versions are there`);
          stats.committed++;
        } else {
          assert.ok(count === 0 || count === op.versions, `round ${round}: ${id} in flight at the kill: ${count} of its ${op.versions} versions (all or none)`);
          stats.inFlight++;
          if (count === 0) stats.absent++;
          else stats.applied++;
        }
        if (count > 0 && op.text !== undefined) {
          const version = versionRecords.find((v) => v.createdBy?.tool_use_id === id);
          assert.equal(version.sha256, sha256(op.text), `round ${round}: ${id} wrote its whole content`);
        }
        if (count > 0 && op.input.command === "insert") logLines.add(op.input.insert_text);
      }
      // Each lane had at most one command in flight.
      for (let lane = 0; lane < KILL_LANES; lane++) {
        const open = tried.filter((id) => id.startsWith(`toolu_r${round}_l${lane}_`) && !done.has(id));
        assert.ok(open.length <= 1, `lane ${lane}: ${open.length} commands in flight`);
      }
      const lines = /** @type {string} */ (fileText(raw, KILL_LOG.slice("/memories".length))).split("\n");
      assert.equal(lines.at(-1), "start");
      assert.deepEqual(lines.slice(0, -1).sort(), [...logLines].sort(), `round ${round}: the log holds exactly the inserts in the store`);
      assert.ok(lines.includes(killLine(round, 0)) || !done.has(killOp(round, 0, 0).id));
    }

    const final = assertConsistent(previous, "at the end");
    const mean = (/** @type {number[]} */ xs) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
    console.log(
      `# kill: ${ROUNDS} SIGKILLs (lanes ${LANES.join(",")}, durability ${DURABILITY ?? "default"}); ` +
        `${discarded.length} restart(s) found the database deleted by Chromium as corrupt${discarded.length ? ` (${discarded.join("; ")})` : ""}; ` +
        `the other ${ROUNDS - discarded.length}: ${stats.committed} reported commits all present; ` +
        `${stats.inFlight} commands in flight at the kills: ${stats.applied} fully applied, ${stats.absent} absent, 0 partial; ` +
        `store at the end: ${final.files} files, ${final.versions} versions, ${final.contents} contents, 0 orphans; ` +
        `kill after ${Math.min(...stats.killAfterMs)}–${Math.max(...stats.killAfterMs)} ms of loop, kill took ${mean(stats.killMs)} ms mean, restart ${mean(stats.startMs)} ms mean, check ${mean(stats.checkMs)} ms mean`,
    );
  });

  it("raised no uncaught errors in any page", () => {
    assert.deepEqual(problems, []);
  });
});

/**
 * How many processes of process group `pgid` are alive (not zombies), from /proc (Linux);
 * where there is no /proc, whether signal 0 reaches the group.
 * @param {number} pgid
 */
async function liveInGroup(pgid) {
  let pids;
  try {
    pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  } catch {
    try {
      process.kill(-pgid, 0);
      return 1;
    } catch {
      return 0;
    }
  }
  let live = 0;
  for (const pid of pids) {
    let stat;
    try {
      stat = await readFile(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so split after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") live++;
  }
  return live;
}

/** Every file under `dir` with its size, for a failure report. */
async function listFiles(/** @type {string} */ dir) {
  /** @type {string[]} */
  const out = [];
  const walk = async (/** @type {string} */ d) => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.push(`${path.relative(dir, full)} ${(await stat(full).catch(() => ({ size: "?" }))).size}`);
    }
  };
  await walk(dir);
  return out;
}

/** A small seeded PRNG (mulberry32): numbers in [0, 1). */
function mulberry32(/** @type {number} */ seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
