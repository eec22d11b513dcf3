// Reliability, many tabs: four tabs of one origin hammer one store at once,
// four lanes each: inserts into one file, creates, renames and deletes of directories (their
// own, and the same ones as every other tab), and host updates of one counter guarded by a
// content_sha256 precondition. Every tab records what each command got back. Afterwards, in
// the raw database: every committed command is there exactly once (its tool_use id on exactly
// the versions it should have written), every refused one left nothing, the store passes
// every consistency rule (reliability-lib.mjs: checkStore) with no orphan contents, the
// counter lost no increment, and the files are exactly what the committed commands imply.
//
// Needs the built wasm (npm run build) and /usr/bin/chromium.
// Run: node --test tests/e2e/reliability-tabs.test.mjs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  assertConsistent,
  checkStore,
  contentsOf,
  dump,
  fileText,
  freshProfile,
  launch,
  openFixture,
  openTool,
  removeProfiles,
  sha256,
  startFixtureServer,
  versionsByToolUse,
  WHOLE_HISTORY,
} from "./reliability-lib.mjs";
import {
  TAB_CONTENDED,
  TAB_COUNTER,
  TAB_COUNTS,
  TAB_OWN_DIRS,
  TAB_SHARED_FILE,
  TAB_SIDES,
  counterText,
  tabsPlan,
  tabsSetup,
} from "./fixtures/reliability.js";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("./fixtures/reliability.js").ToolOp} ToolOp */

const STORE = "rel-tabs";
/** @type {Awaited<ReturnType<typeof startFixtureServer>>} */ let fixture;
/** @type {import("playwright-core").BrowserContext | undefined} */ let context;
/** @type {string[]} */ const problems = [];
/** The store after the tabs ran, for the check of the checker. @type {import("./reliability-lib.mjs").Dump | undefined} */
let finalDump;

before(async () => {
  fixture = await startFixtureServer();
  context = await launch(await freshProfile("tabs"));
});

after(async () => {
  await context?.close();
  await fixture?.server.close();
  await removeProfiles();
});

describe("many tabs on one store", () => {
  it("4 tabs × 4 lanes at once: every committed command exactly once, nothing else, a consistent store", { timeout: 90_000 }, async () => {
    const ctx = /** @type {import("playwright-core").BrowserContext} */ (context);
    const pages = [];
    for (const _ of TAB_SIDES) pages.push(await openFixture(ctx, fixture.origin, problems));
    // The version log is the witness of every commit: no budget prunes it.
    for (const page of pages) await openTool(page, "m", { store: STORE, limits: WHOLE_HISTORY });
    const [first] = pages;

    // The starting store: the shared file, the contended directories, the counter.
    const setup = tabsSetup();
    // @ts-ignore: window.rel is the fixture's
    const setupResults = await first.evaluate((ops) => rel.sequence("m", ops), setup);
    for (const r of setupResults) assert.equal(r.isError, false, `setup ${r.id}: ${JSON.stringify(r)}`);
    const counter = await first.evaluate(
      // @ts-ignore
      (p) => rel.tool("m").memories.create({ path: p, content: "0" }).then((m) => m.id, rel.describeError),
      TAB_COUNTER,
    );
    assert.equal(typeof counter, "string", JSON.stringify(counter));

    // Every tab arms its lanes behind one BroadcastChannel message, so all start together.
    const plans = TAB_SIDES.map((side) => tabsPlan(side));
    for (const [i, page] of pages.entries()) {
      // @ts-ignore
      await page.evaluate(([lanes]) => rel.armLanes("m", lanes, "tabs-go", 80_000), /** @type {const} */ ([plans[i]]));
    }
    const t0 = Date.now();
    await first.evaluate(() => new BroadcastChannel("tabs-go").postMessage("go"));
    // @ts-ignore
    const logs = await Promise.all(pages.map((page) => page.evaluate(() => window.lanesDone)));
    const elapsed = Date.now() - t0;

    /** @type {Map<string, ToolOp>} */
    const opsById = new Map();
    for (const op of setup) opsById.set(op.id, op);
    for (const lanes of plans) for (const lane of lanes) for (const op of lane) if (op.kind === "tool") opsById.set(op.id, op);
    /** @type {Map<string, any>} */
    const records = new Map();
    for (const [i, log] of logs.entries()) {
      const expected = plans[i].flat().length;
      assert.equal(log.length, expected, `tab ${TAB_SIDES[i]} ran every command`);
      for (const r of log) {
        assert.ok(!records.has(r.id), `${r.id} reported once`);
        records.set(r.id, { ...r, side: TAB_SIDES[i] });
      }
    }

    // What each command got back: successes, and only the refusals contention explains.
    /** @type {Map<string, string[]>} group -> winners */
    const winners = new Map();
    for (const r of records.values()) {
      assert.equal(r.thrown, undefined, `${r.id} threw: ${JSON.stringify(r.thrown)}`);
      const op = opsById.get(r.id);
      if (!op) continue; // counter
      if (!op.group) {
        assert.equal(r.isError, false, `${r.id} ${JSON.stringify(op.input)}: ${JSON.stringify(r.content)}`);
        continue;
      }
      if (!r.isError) winners.set(op.group, [...(winners.get(op.group) ?? []), r.side]);
      else {
        const input = /** @type {any} */ (op.input);
        const refusal =
          input.command === "create"
            ? `Error: File ${input.path} already exists`
            : `Error: The path ${input.command === "rename" ? input.old_path : input.path} does not exist`;
        assert.equal(r.content, refusal, `${r.id} lost the race with the right refusal`);
      }
    }
    const groups = [...new Set([...opsById.values()].flatMap((op) => (op.group ? [op.group] : [])))];
    assert.equal(groups.length, TAB_CONTENDED * 3);
    for (const group of groups) assert.equal(winners.get(group)?.length, 1, `exactly one tab won ${group}: ${winners.get(group)}`);

    // The raw database: consistent; each command's versions exactly as many as it wrote.
    const raw = await dump(first, STORE);
    finalDump = raw;
    const counts = assertConsistent(raw, "after the 4 tabs");
    const written = versionsByToolUse(raw);
    let committed = 0;
    let refused = 0;
    for (const [id, op] of opsById) {
      const r = id.startsWith("toolu_setup_") ? { isError: false } : records.get(id);
      const expected = r.isError ? 0 : op.versions;
      assert.equal(written.get(id) ?? 0, expected, `${id} (${r.isError ? "refused" : "committed"}) wrote ${expected} version(s)`);
      if (r.isError) refused++;
      else committed++;
    }
    for (const id of written.keys()) assert.ok(opsById.has(id), `version by an unknown tool_use ${id}`);

    // The shared file: every committed insert exactly once, above the original line.
    const lines = /** @type {string} */ (fileText(raw, TAB_SHARED_FILE.slice("/memories".length))).split("\n");
    assert.equal(lines.at(-1), "base");
    const inserted = [...opsById.values()]
      .filter((op) => op.input.command === "insert")
      .map((op) => /** @type {string} */ (op.input.insert_text))
      .sort();
    assert.deepEqual(lines.slice(0, -1).sort(), inserted, "each insert exactly once");
    // Each lane's inserts committed in the order it issued them (newest on top).
    const order = lines.slice(0, -1).reverse();
    for (const [i, lanes] of plans.entries()) {
      for (const lane of lanes) {
        const mine = lane.flatMap((op) => (op.kind === "tool" && op.input.command === "insert" ? [op.input.insert_text] : []));
        assert.deepEqual(order.filter((l) => mine.includes(l)), mine, `tab ${TAB_SIDES[i]}: a lane's inserts in issue order`);
      }
    }
    const switches = order.slice(1).filter((l, i) => l.slice(4, 5) !== order[i].slice(4, 5)).length;
    assert.ok(switches >= 20, `the tabs' inserts interleave (${switches} switches of tab in commit order)`);

    // The counter: 40 increments, none lost. Its versions, in commit order, count 0, 1, …, 40,
    // and each is the text one committed update wrote.
    const counterOps = [...records.values()].filter((r) => r.kind === "counter");
    assert.equal(counterOps.length, TAB_SIDES.length * TAB_COUNTS);
    const total = counterOps.length;
    const contents = contentsOf(raw);
    const counterVersions = raw.versions.map((v) => v.value).filter((v) => v.memoryId === counter);
    assert.deepEqual(counterVersions.map((v) => v.operation), ["created", ...Array(total).fill("modified")]);
    const texts = counterVersions.map((v) => contents.get(v.content)?.toString("utf8"));
    assert.deepEqual(texts.map((t) => Number.parseInt(/** @type {string} */ (t), 10)), Array.from({ length: total + 1 }, (_, n) => n));
    assert.deepEqual(texts.slice(1).sort(), counterOps.map((r) => counterText(r.value, r.id)).sort());
    assert.equal(fileText(raw, TAB_COUNTER), texts.at(-1));
    const retries = counterOps.reduce((sum, r) => sum + r.attempts - 1, 0);

    // The files are exactly what the committed commands imply.
    /** @type {Map<string, string>} */
    const expected = new Map([[TAB_COUNTER, /** @type {string} */ (texts.at(-1))]]);
    for (const side of TAB_SIDES) {
      for (let j = 1; j < TAB_OWN_DIRS; j += 2) {
        const name = `${side}-${String(j).padStart(2, "0")}`;
        expected.set(`/moved/${name}/a.md`, `a of ${name}`);
        expected.set(`/moved/${name}/sub/b.md`, `b of ${name}`);
      }
    }
    for (let k = 0; k < TAB_CONTENDED; k++) {
      const pool = /** @type {string[]} */ (winners.get(`pool/${k}`))[0];
      expected.set(`/claimed/${k}-${pool}/x.md`, `pool ${k} x`);
      expected.set(`/claimed/${k}-${pool}/sub/y.md`, `pool ${k} y`);
      expected.set(`/same/${k}.md`, `same ${k} by ${/** @type {string[]} */ (winners.get(`same/${k}`))[0]}`);
    }
    const actual = new Map(
      raw.files.filter((f) => f.key !== TAB_SHARED_FILE.slice("/memories".length)).map((f) => [f.key, fileText(raw, f.key)]),
    );
    assert.deepEqual(new Map([...actual].sort()), new Map([...expected].sort()), "the files the commands imply, and no others");
    assert.equal(sha256(lines.join("\n")), raw.files.find((f) => f.key === "/shared.md")?.value.sha256);

    // The tabs really overlapped.
    const spans = logs.map((log) => [Math.min(...log.map((/** @type {any} */ r) => r.start)), Math.max(...log.map((/** @type {any} */ r) => r.end))]);
    for (const [i, a] of spans.entries()) {
      for (const b of spans.slice(i + 1)) assert.ok(a[0] < b[1] && b[0] < a[1], "every two tabs ran at the same time");
    }
    const commands = [...records.values()].length;
    console.log(
      `# tabs: ${TAB_SIDES.length} tabs × 4 lanes, ${commands} commands (+${retries} counter retries) in ${elapsed} ms; ` +
        `${committed - setup.length} committed, ${refused} refused by contention, ${total} counter increments, 0 lost; ` +
        `store: ${counts.files} files, ${counts.versions} versions, ${counts.contents} contents, 0 orphans; ` +
        `${switches} tab switches in the shared file's commit order`,
    );
    for (const page of pages) await page.close();
  });

  it("the consistency check is not vacuous: it catches each kind of damage to that store", () => {
    assert.ok(finalDump, "the first test ran");
    const raw = /** @type {import("./reliability-lib.mjs").Dump} */ (finalDump);
    const copy = () => /** @type {import("./reliability-lib.mjs").Dump} */ (structuredClone(raw));
    const shared = raw.files.find((f) => f.key === "/shared.md")?.value;
    const moved = raw.files.find((f) => f.key.startsWith("/moved/"))?.value;
    const deletion = raw.versions.find((v) => v.value.operation === "deleted")?.value;
    const middle = raw.versions.find((v) => v.value.memoryId === shared.id && v.value.id !== shared.version && v.value.operation === "modified")?.value;
    /** @type {Array<[string, (d: import("./reliability-lib.mjs").Dump) => void]>} */
    const damages = [
      ["a file's head version gone", (d) => void d.versions.splice(d.versions.findIndex((v) => v.key === shared.version), 1)],
      ["a file's content gone", (d) => void d.contents.splice(d.contents.findIndex((c) => c.key === shared.content), 1)],
      ["an orphan content", (d) => void d.contents.push({ key: "memver_orphan", type: "[object Uint8Array]", size: 1, sha256: "x", base64: null })],
      ["content bytes that do not match the hash", (d) => Object.assign(/** @type {any} */ (d.contents.find((c) => c.key === moved.content)), { sha256: "0".repeat(64) })],
      ["a file record gone (its version kept)", (d) => void d.files.splice(d.files.findIndex((f) => f.key === moved.path), 1)],
      ["a deletion version gone (the replay resurrects)", (d) => void d.versions.splice(d.versions.findIndex((v) => v.key === deletion.id), 1)],
      ["a version without its file change", (d) => void d.versions.push({ key: "memver_zzzz", value: { ...middle, id: "memver_zzzz" } })],
      ["a file under a file", (d) => void d.files.push({ key: "/shared.md/x.md", value: { ...shared, path: "/shared.md/x.md", id: "mem_other" } })],
      ["a file whose head is not its newest version", (d) => Object.assign(/** @type {any} */ (d.files.find((f) => f.key === "/shared.md")).value, { version: middle.id })],
      ["two files with one memory id", (d) => Object.assign(/** @type {any} */ (d.files.find((f) => f.key === moved.path)).value, { id: shared.id })],
    ];
    assert.deepEqual(checkStore(copy()).problems, []);
    for (const [what, damage] of damages) {
      const damaged = copy();
      damage(damaged);
      assert.ok(checkStore(damaged).problems.length > 0, `the check catches: ${what}`);
    }
  });

  it("raised no uncaught errors or console errors in any page", () => {
    assert.deepEqual(problems, []);
  });
});
