// MemorySync (memory-tool-wasm/sync) in Node against the hosted memory stores emulator, driven
// through the official SDK client: download, both directions, conflicts, deletes, wipes,
// read-only, refusals, faults, triggers, stop (docs/SYNC.md).

import assert from "node:assert/strict";
import { after, afterEach, before, describe, test } from "node:test";
import { MemorySync } from "memory-tool-wasm/sync";
import { MemoryTool } from "memory-tool-wasm";
import { sha256, startEmulator } from "../hosted/emulator.mjs";
import { device, hostedAt, hostedStore, localFiles, sdkClient, toolDelete, toolWrite } from "../hosted/devices.mjs";

/** @type {import("../hosted/emulator.mjs").Emulator} */
let emu;
/** @type {import("@anthropic-ai/sdk").default} */
let client;
before(async () => {
  emu = await startEmulator();
  client = sdkClient(emu);
});
after(() => emu.close());

// Each test's devices stop at its end, so none of their passes reaches the next test's log.
const stops = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s.stop();
  emu.clearFaults();
});
/** @param {Parameters<typeof device>[2]} [options] */
async function dev(storeId, options) {
  const d = await device(emu, storeId, options);
  stops.push(d.sync);
  return d;
}

describe("download", () => {
  for (const storage of /** @type {const} */ (["memory", "indexeddb"])) {
    test(`an empty local store (${storage}) fills from the hosted one; a pass with no change moves nothing`, async () => {
      const files = Object.fromEntries(Array.from({ length: 45 }, (_, i) => [`/notes/n${String(i).padStart(2, "0")}.md`, `note ${i}`]));
      const id = await hostedStore(client, files);
      const a = await dev(id, { storage, firstPass: false });
      emu.clearLog();
      const first = await a.sync.now();
      assert.equal(first.ok, true, String(first.error));
      assert.equal(first.pulled.length, 45);
      assert.deepEqual(await localFiles(a.memory), files);
      // Three full pages, the listing with the text: no basic page first when there is no
      // baseline, and no store check when nothing is to be sent (the API's minimum, and the
      // SDK's engine's count).
      assert.equal(first.requests, 3);
      assert.deepEqual(emu.log.map((r) => [r.route, r.query.view]), Array(3).fill(["/v1/memory_stores/:store/memories", "full"]));
      assert.equal(emu.mutations().length, 0);
      const progress = a.events.filter((e) => e.type === "progress");
      assert.deepEqual(progress.at(-1), { type: "progress", phase: "pull", done: 45, total: 45 });
      // Each local version says it came from the hosted store, with the hosted version id.
      const hosted = await hostedAt(client, id, "/notes/n07.md");
      const local = await a.memory.memories.getByPath("/notes/n07.md");
      const version = await a.memory.versions.get(local.memory_version_id);
      assert.equal(version.created_by.type, "api");
      assert.equal(version.created_by.memory_store_id, id);
      assert.equal(version.created_by.memory_version_id, hosted?.memory_version_id);
      emu.clearLog();
      const again = await a.sync.now();
      assert.deepEqual([again.pulled, again.pushed, again.requests], [[], [], 1], "one basic listing, nothing else");
      assert.equal(emu.mutations().length, 0);
      assert.equal((await a.memory.versions.list({ limit: 100 })).data.length, 45, "no local write either");
      assert.equal(a.sync.status.state, "idle");
      assert.ok(a.sync.status.lastSyncAt);
    });
  }

  test("a few hosted changes are fetched one by one, only those", async () => {
    const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`/f${i}.md`, `v1 ${i}`]));
    const id = await hostedStore(client, files);
    const a = await dev(id);
    await a.sync.now();
    const changed = await hostedAt(client, id, "/f3.md");
    await client.beta.memoryStores.memories.update(/** @type {any} */ (changed).id, { memory_store_id: id, content: "v2" });
    emu.clearLog();
    const r = await a.sync.now();
    assert.deepEqual(r.pulled, ["/f3.md"]);
    assert.deepEqual(emu.log.map((l) => [l.method, l.query.view]), [
      ["GET", "basic"],
      ["GET", "full"],
    ]);
    assert.ok(emu.log[1].path.endsWith(`/memories/${/** @type {any} */ (changed).id}`));
    assert.equal((await a.memory.memories.getByPath("/f3.md")).content, "v2");
  });
});

describe("both directions", () => {
  test("two devices and direct SDK edits converge; a local edit goes out as an update over the baseline sha", async () => {
    const id = await hostedStore(client, { "/shared.md": "base" });
    const a = await dev(id);
    const b = await dev(id, { storage: "indexeddb" });
    await a.sync.now();
    await b.sync.now();
    await toolWrite(a.memory, "/from-a.md", "written on A");
    await toolWrite(a.memory, "/shared.md", "A's edit");
    emu.clearLog();
    const pushed = await a.sync.now();
    assert.deepEqual(pushed.pushed.sort(), ["/from-a.md", "/shared.md"]);
    const update = emu.log.find((l) => l.method === "POST" && /** @type {any} */ (l.body).precondition);
    assert.deepEqual(/** @type {any} */ (update?.body).precondition, { type: "content_sha256", content_sha256: sha256("base") });
    await toolWrite(b.memory, "/from-b.md", "written on B");
    await b.sync.now();
    const direct = await hostedAt(client, id, "/from-b.md");
    await client.beta.memoryStores.memories.update(/** @type {any} */ (direct).id, { memory_store_id: id, content: "edited in the Console" });
    await client.beta.memoryStores.memories.create(id, { path: "/console.md", content: "new from the API" });
    await a.sync.now();
    await b.sync.now();
    const want = {
      "/console.md": "new from the API",
      "/from-a.md": "written on A",
      "/from-b.md": "edited in the Console",
      "/shared.md": "A's edit",
    };
    assert.deepEqual(emu.files(id), want);
    assert.deepEqual(await localFiles(a.memory), want);
    assert.deepEqual(await localFiles(b.memory), want);
    emu.clearLog();
    assert.deepEqual((await a.sync.now()).requests, 1);
    assert.deepEqual((await b.sync.now()).requests, 1);
  });

  test("concurrent edits of one file: the hosted text wins as head, the local text stays in local history, a conflict names both", async () => {
    const id = await hostedStore(client, { "/plan.md": "v0" });
    const a = await dev(id);
    const b = await dev(id);
    await a.sync.now();
    await b.sync.now();
    await toolWrite(a.memory, "/plan.md", "A wrote this");
    await toolWrite(b.memory, "/plan.md", "B wrote this");
    await a.sync.now();
    const bLocal = await b.memory.memories.getByPath("/plan.md");
    const r = await b.sync.now();
    assert.equal(r.conflicts.length, 1);
    const conflict = r.conflicts[0];
    const hosted = await hostedAt(client, id, "/plan.md");
    assert.deepEqual(conflict, {
      path: "/plan.md",
      local_version_id: bLocal.memory_version_id,
      local_content_sha256: sha256("B wrote this"),
      hosted_version_id: hosted?.memory_version_id,
      hosted_content_sha256: sha256("A wrote this"),
    });
    assert.ok(b.events.some((e) => e.type === "conflict" && e.path === "/plan.md"));
    assert.equal((await b.memory.memories.getByPath("/plan.md")).content, "A wrote this");
    const loser = await b.memory.versions.get(conflict.local_version_id);
    assert.equal(loser.content, "B wrote this", "B's text is in B's history");
    await b.memory.versions.restore(conflict.local_version_id);
    await b.sync.now();
    await a.sync.now();
    assert.equal(emu.files(id)["/plan.md"], "B wrote this", "restored and pushed: nothing lost");
    assert.equal((await a.memory.memories.getByPath("/plan.md")).content, "B wrote this");
  });
});

describe("deletes", () => {
  test("a local delete reaches the hosted store only on a second pass after deleteCorroborationMs, with expected_content_sha256", async () => {
    const id = await hostedStore(client, { "/keep.md": "keep", "/drop.md": "drop me" });
    const a = await dev(id, { sync: { deleteCorroborationMs: 150 } });
    const b = await dev(id);
    await a.sync.now();
    await b.sync.now();
    await toolDelete(a.memory, "/drop.md");
    emu.clearLog();
    await a.sync.now();
    await a.sync.now();
    assert.equal(emu.mutations().length, 0, "not before deleteCorroborationMs");
    assert.equal(a.sync.status.pending.delete, 1);
    await new Promise((r) => setTimeout(r, 200));
    const r = await a.sync.now();
    assert.deepEqual(r.deletedHosted, ["/drop.md"]);
    assert.deepEqual(
      emu.mutations().map((m) => [m.method, m.query.expected_content_sha256]),
      [["DELETE", sha256("drop me")]],
    );
    const rb = await b.sync.now();
    assert.deepEqual(rb.deletedLocal, ["/drop.md"]);
    assert.deepEqual(await localFiles(b.memory), { "/keep.md": "keep" });
    const versions = (await b.memory.versions.list({ limit: 10 })).data;
    const deleted = versions.find((v) => v.operation === "deleted");
    assert.equal(deleted?.created_by?.memory_store_id, id);
    const before = versions.find((v) => v.path === "/drop.md" && v.operation !== "deleted");
    assert.equal((await b.memory.versions.get(/** @type {any} */ (before).id)).content, "drop me", "the text stays in local history");
  });

  test("even with deleteCorroborationMs 0 the first pass that sees a delete does not send it; deletes are capped per pass", async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`/d/${i}.md`, `d${i}`]));
    const id = await hostedStore(client, { ...files, "/stay.md": "stay" });
    const a = await dev(id);
    await a.sync.now();
    for (let i = 0; i < 40; i++) await a.memory.memories.delete((await a.memory.memories.getByPath(`/d/${i}.md`)).id);
    emu.clearLog();
    const first = await a.sync.now();
    assert.deepEqual(first.deletedHosted, []);
    const second = await a.sync.now();
    assert.equal(second.deletedHosted.length, 10, "a quarter of the 41-path baseline, at least 8");
    const third = await a.sync.now();
    assert.equal(third.deletedHosted.length, 8, "a quarter of 31 is under the floor of 8");
    assert.equal(emu.mutations().length, 18);
  });

  test("a hosted change to a file deleted here brings it back; a delete refused by the precondition keeps the hosted text", async () => {
    const id = await hostedStore(client, { "/x.md": "x1" });
    const a = await dev(id);
    await a.sync.now();
    await toolDelete(a.memory, "/x.md");
    await a.sync.now();
    const x = await hostedAt(client, id, "/x.md");
    await client.beta.memoryStores.memories.update(/** @type {any} */ (x).id, { memory_store_id: id, content: "x2" });
    const r = await a.sync.now();
    assert.deepEqual(r.deletedHosted, []);
    assert.deepEqual(r.pulled, ["/x.md"]);
    assert.equal((await a.memory.memories.getByPath("/x.md")).content, "x2");
  });

  test("a local wipe never propagates: the store is downloaded again and the host is told", async () => {
    const files = { "/a.md": "a", "/b.md": "b", "/c/d.md": "d" };
    const id = await hostedStore(client, files);
    const a = await dev(id);
    await a.sync.now();
    for (const path of Object.keys(files)) await a.memory.memories.delete((await a.memory.memories.getByPath(path)).id);
    emu.clearLog();
    const r = await a.sync.now();
    const r2 = await a.sync.now();
    assert.equal(r.wiped, true);
    assert.equal(r2.wiped, false);
    assert.equal(emu.mutations().length, 0, "no hosted delete, ever");
    assert.deepEqual(await localFiles(a.memory), files);
    assert.deepEqual(emu.files(id), files);
    assert.ok(a.events.some((e) => e.type === "wipe" && e.memoryStoreId === id && e.hostedCount === 3));
  });
});

describe("baselines", () => {
  test("kept in the local store's own state: a reopened tool and a new sync carry on from them", async () => {
    const id = await hostedStore(client, { "/one.md": "1", "/two.md": "2" });
    const a = await device(emu, id, { storage: "indexeddb" });
    await a.sync.now();
    await a.sync.stop();
    const saved = /** @type {any} */ (await a.memory.state.get(`sync:${id}`));
    const hosted = await hostedAt(client, id, "/two.md");
    const here = await a.memory.memories.getByPath("/two.md");
    assert.deepEqual(saved.baseline["/two.md"], [sha256("2"), hosted?.id, hosted?.memory_version_id, here.id]);
    a.memory.close();
    const b = await dev(id, { storageObject: a.storage });
    assert.deepEqual(await localFiles(b.memory), { "/one.md": "1", "/two.md": "2" });
    await toolDelete(b.memory, "/two.md");
    await b.sync.now();
    const r = await b.sync.now();
    assert.deepEqual(r.deletedHosted, ["/two.md"], "the baseline survived: a delete, not a download");
    assert.deepEqual(emu.files(id), { "/one.md": "1" });
  });
});

describe("a vanished local store", () => {
  test("its database deleted under it: the pass fails as an error (not offline), sends nothing; after startOver it downloads again", async () => {
    const { IDBFactory, IDBKeyRange } = await import("fake-indexeddb");
    const { IndexedDbStorage } = await import("memory-tool-wasm");
    const factory = new IDBFactory();
    const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
    const id = await hostedStore(client, { "/a.md": "a", "/b.md": "b" });
    const a = await dev(id, { storageObject: storage });
    assert.deepEqual(await localFiles(a.memory), { "/a.md": "a", "/b.md": "b" });
    await new Promise((resolve, reject) => {
      const request = factory.deleteDatabase("memory-tool-wasm:user");
      request.onsuccess = resolve;
      request.onerror = reject;
    });
    emu.clearLog();
    const r = await a.sync.now();
    assert.equal(r.ok, false);
    assert.match(String(r.error), /vanished|STORE_VANISHED|gone|deleted/i);
    assert.equal(a.sync.status.state, "error");
    assert.deepEqual(emu.mutations(), []);
    await storage.startOver("user");
    const again = await a.sync.now();
    assert.equal(again.ok, true, String(again.error));
    assert.deepEqual(again.pulled.sort(), ["/a.md", "/b.md"]);
    assert.deepEqual(emu.mutations(), [], "nothing deleted on the hosted side");
    assert.deepEqual(emu.files(id), { "/a.md": "a", "/b.md": "b" });
  });
});

describe("read-only attachments", () => {
  test("pull, never push: no mutating request, whatever changes locally", async () => {
    const id = await hostedStore(client, { "/ref.md": "reference", "/gone.md": "gone" });
    const a = await dev(id, { sync: { access: "read_only" } });
    await a.sync.now();
    await toolWrite(a.memory, "/ref.md", "local scribble");
    await toolWrite(a.memory, "/new.md", "local only");
    await toolDelete(a.memory, "/gone.md");
    const upd = await client.beta.memoryStores.memories.create(id, { path: "/added.md", content: "added upstream" });
    void upd;
    emu.clearLog();
    await a.sync.now();
    await a.sync.now();
    await a.sync.stop();
    assert.deepEqual(emu.mutations(), []);
    assert.deepEqual(
      emu.log.map((l) => [l.method, l.query.view]),
      [["GET", "basic"], ["GET", "full"], ["GET", "basic"], ["GET", "basic"]],
      "a listing per pass (two, and the last one at stop) and the one pull",
    );
    assert.deepEqual(emu.files(id), { "/added.md": "added upstream", "/gone.md": "gone", "/ref.md": "reference" });
    assert.equal((await a.memory.memories.getByPath("/added.md")).content, "added upstream");
  });
});

describe("refusals", () => {
  test("files the hosted store refuses are reported once and not retried until they change: binary, over 100 kB, ZWJ, too many segments", async () => {
    const id = await hostedStore(client, {});
    const a = await dev(id, { tool: { limits: { maxFileBytes: 300_000 } } });
    await a.memory.writeFile("/memories/photo.bin", new Uint8Array([0xff, 0xfe, 0x00, 0x80]));
    await toolWrite(a.memory, "/big.md", "x".repeat(150_000));
    await toolWrite(a.memory, "/family\u200dname.md", "zwj");
    const deep = "/" + Array.from({ length: 21 }, (_, i) => `s${i}`).join("/");
    await toolWrite(a.memory, deep, "deep");
    await toolWrite(a.memory, "/fine.md", "fine");
    emu.clearLog();
    const r = await a.sync.now();
    assert.deepEqual(r.pushed, ["/fine.md"]);
    assert.deepEqual(r.refused.map((x) => x.path).sort(), ["/big.md", "/family\u200dname.md", "/photo.bin", deep].sort());
    assert.ok(r.refused.every((x) => x.side === "hosted" && x.reason.length > 0));
    assert.equal(a.events.filter((e) => e.type === "refused").length, 4);
    assert.deepEqual(emu.mutations().map((m) => /** @type {any} */ (m.body).path), ["/fine.md"], "refused before sending");
    assert.equal(a.sync.status.pending.push, 0);
    emu.clearLog();
    const again = await a.sync.now();
    assert.deepEqual([again.refused, again.requests], [[], 1]);
    await toolWrite(a.memory, "/big.md", "y".repeat(150_000));
    const changed = await a.sync.now();
    assert.deepEqual(changed.refused.map((x) => x.path), ["/big.md"], "reported again once it changed");
    await toolWrite(a.memory, "/big.md", "small now");
    assert.deepEqual((await a.sync.now()).pushed, ["/big.md"]);
  });

  test("a hosted name that browsers may normalise differently is refused here, once, and never stored under a second key", async () => {
    // U+105C9 (NFC, as the hosted API requires): Chromium and Firefox compose U+105D2 U+0307 to
    // it, WebKit does not
    // (docs/TOOL.md#names-every-browser-normalises-alike): a store synced between engines
    // must not hold one name under two keys, so this package refuses it on every engine.
    const uneven = "/\u{105C9}.md";
    const id = await hostedStore(client, { "/fine.md": "fine" });
    await client.beta.memoryStores.memories.create(id, { path: uneven, content: "from another tool" });
    const a = await dev(id, { firstPass: false });
    const r = await a.sync.now();
    assert.deepEqual(r.pulled, ["/fine.md"]);
    assert.deepEqual(r.refused.map((x) => [x.path, x.side]), [[uneven, "local"]]);
    assert.match(r.refused[0].reason, /normalise differently/);
    assert.deepEqual((await a.memory.memories.list()).map((m) => m.path), ["/fine.md"]);
    assert.deepEqual((await a.sync.now()).refused, [], "reported once, not retried every pass");
    assert.equal(emu.files(id)[uneven], "from another tool", "the hosted memory is left as it is");
  });

  test("a refusal by the hosted store itself (a full store, an archived one) is sent once, then waits for a change", async () => {
    const small = await startEmulator({ maxMemories: 2 });
    try {
      const c = sdkClient(small);
      const id = await hostedStore(c, { "/one.md": "1", "/two.md": "2" });
      const a = await device(small, id);
      await a.sync.now();
      await toolWrite(a.memory, "/three.md", "3");
      small.clearLog();
      const r = await a.sync.now();
      assert.deepEqual(r.refused.map((x) => [x.path, x.status]), [["/three.md", 400]]);
      assert.equal(small.mutations().length, 1);
      small.clearLog();
      await a.sync.now();
      assert.equal(small.mutations().length, 0, "not sent again unchanged");
      await c.beta.memoryStores.archive(id);
      await toolWrite(a.memory, "/one.md", "edited");
      small.clearLog();
      const archived = await a.sync.now();
      assert.deepEqual(archived.refused.map((x) => [x.path, x.status]), [["/one.md", 409]]);
      assert.equal(a.sync.status.hostedArchived, true);
      small.clearLog();
      await toolWrite(a.memory, "/three.md", "3 again");
      await a.sync.now();
      assert.equal(small.mutations().length, 0, "an archived store gets no more writes");
      await a.sync.stop();
    } finally {
      await small.close();
    }
  });
});

describe("network", () => {
  test("5xx, 429 with retry-after, latency and dropped connections: survived, nothing lost, no blind re-create", async () => {
    const id = await hostedStore(client, { "/a.md": "a0" });
    const a = await dev(id);
    await a.sync.now();
    await toolWrite(a.memory, "/a.md", "a1");
    await toolWrite(a.memory, "/b.md", "b1");
    emu.inject({ match: (r) => r.method === "GET", status: 503, retryAfter: 0 });
    emu.inject({ match: (r) => r.method === "GET", status: 429, retryAfter: 0 });
    emu.inject({ match: (r) => r.method === "POST" && /** @type {any} */ (r.body)?.precondition, status: 500 });
    emu.inject({ match: (r) => r.method === "POST" && /** @type {any} */ (r.body)?.path === "/b.md", drop: "after" });
    emu.clearLog();
    const r = await a.sync.now();
    assert.deepEqual(r.pushed, ["/a.md"], "the update was retried after a 500; the dropped create was not");
    assert.equal(emu.files(id)["/b.md"], "b1", "the dropped create landed, unheard");
    const r2 = await a.sync.now();
    assert.deepEqual([r2.pushed, r2.pulled, r2.conflicts], [[], [], []], "the listing settled it as our own send");
    const creates = emu.log.filter((l) => l.method === "POST" && /** @type {any} */ (l.body)?.path === "/b.md");
    assert.equal(creates.length, 1, "never a blind retry of a create");
    emu.inject({ match: (r) => r.method === "POST", drop: "before" });
    await toolWrite(a.memory, "/c.md", "c1");
    const r3 = await a.sync.now();
    assert.equal(r3.ok, false);
    assert.equal(a.sync.status.state, "offline");
    const r4 = await a.sync.now();
    assert.deepEqual(r4.pushed, ["/c.md"], "the next pass, finding it absent, creates it");
    emu.inject({ latencyMs: 100, times: 3 });
    await toolWrite(a.memory, "/a.md", "a2");
    assert.deepEqual((await a.sync.now()).pushed, ["/a.md"]);
    assert.deepEqual(emu.files(id), await localFiles(a.memory));
  });

  test("retry-after is honoured: a 429 asking for 1 s delays the retry by that, not the short backoff", async () => {
    const id = await hostedStore(client, {});
    const a = await dev(id, { firstPass: false, sync: { retry: { baseMs: 5, maxMs: 5_000 } } });
    emu.inject({ status: 429, retryAfter: 1 });
    emu.clearLog();
    const r = await a.sync.now();
    assert.equal(r.ok, true);
    assert.equal(emu.log.length, 2, "the refused listing, its retry");
    assert.ok(emu.log[1].at - emu.log[0].at >= 950, `waited ${emu.log[1].at - emu.log[0].at} ms`);
  });

  test("an outage ends the pass as offline (no throw); requests per attempt are bounded", async () => {
    const id = await hostedStore(client, {});
    const a = await dev(id, { firstPass: false, sync: { retry: { attempts: 3, baseMs: 1, maxMs: 5 } } });
    emu.inject({ drop: "before", times: 100 });
    emu.clearLog();
    const r = await a.sync.now();
    emu.clearFaults();
    assert.equal(r.ok, false);
    assert.equal(emu.log.length, 3);
    assert.equal(a.sync.status.state, "offline");
    assert.ok(a.events.some((e) => e.type === "status" && e.status.state === "offline"));
    assert.equal((await a.sync.now()).ok, true);
    assert.equal(a.sync.status.state, "idle");
  });
});

describe("triggers, stop, options", () => {
  test("tool writes trigger one debounced pass per interval", async () => {
    const id = await hostedStore(client, {});
    const a = await dev(id, { sync: { intervalMs: 300 } });
    await a.sync.now();
    const passes = () => a.events.filter((e) => e.type === "pass").length;
    const before = passes();
    for (let i = 0; i < 5; i++) await toolWrite(a.memory, `/t${i}.md`, `t${i}`);
    await new Promise((resolve) => {
      const stop = a.sync.subscribe((e) => {
        if (e.type === "pass") {
          stop();
          resolve(undefined);
        }
      });
    });
    assert.equal(passes(), before + 1, "five writes, one pass");
    assert.equal(Object.keys(emu.files(id)).length, 5);
  });

  test("stop pushes what is pending, then later calls are skipped; a stuck last pass is cut off at stopTimeoutMs", async () => {
    const id = await hostedStore(client, {});
    const a = await device(emu, id);
    await a.sync.now();
    await toolWrite(a.memory, "/last.md", "last words");
    const last = await a.sync.stop();
    assert.deepEqual(last?.pushed, ["/last.md"]);
    assert.equal(a.sync.status.state, "stopped");
    assert.equal((await a.sync.now()).skipped, "stopped");
    const b = await device(emu, id, { sync: { stopTimeoutMs: 100 } });
    await b.sync.now();
    await toolWrite(b.memory, "/slow.md", "slow");
    emu.inject({ latencyMs: 5_000 });
    const cut = await b.sync.stop();
    emu.clearFaults();
    assert.equal(cut, null, "the last pass did not finish in time");
  });

  test("each mount of a tool syncs with its own hosted store; a throwing listener harms nothing", async () => {
    const { InMemoryStorage, MemoryStores } = await import("memory-tool-wasm");
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const notes = await stores.create({ name: "Notes" });
    const prefs = await stores.create({ name: "Prefs" });
    const memory = await MemoryTool.open({ storage, mounts: [{ store: notes.id }, { store: prefs.id }] });
    const hostedNotes = await hostedStore(client, { "/n.md": "a note" });
    const hostedPrefs = await hostedStore(client, { "/p.md": "a pref" });
    const syncs = [
      await MemorySync.start(memory, { client, memoryStoreId: hostedNotes, store: "notes", retry: { baseMs: 1, maxMs: 5 } }),
      await MemorySync.start(memory, { client, memoryStoreId: hostedPrefs, store: prefs.id, retry: { baseMs: 1, maxMs: 5 } }),
    ];
    stops.push(...syncs);
    const original = console.error;
    /** @type {unknown[]} */
    const reported = [];
    console.error = (...args) => void reported.push(args);
    const unsubscribe = syncs[0].subscribe(() => {
      throw new Error("a listener's bug");
    });
    try {
      assert.equal((await syncs[0].now()).ok, true);
    } finally {
      unsubscribe();
      console.error = original;
    }
    assert.ok(reported.length > 0, "the listener's error was reported");
    await syncs[1].now();
    assert.equal((await memory.memories.getByPath("/n.md", { store: notes.id })).content, "a note");
    assert.equal((await memory.memories.getByPath("/p.md", { store: prefs.id })).content, "a pref");
    await assert.rejects(memory.memories.getByPath("/p.md", { store: notes.id }));
    await memory.writeFile("/memories/prefs/theme.md", "dark");
    await syncs[1].now();
    await syncs[0].now();
    assert.deepEqual(emu.files(hostedPrefs), { "/p.md": "a pref", "/theme.md": "dark" });
    assert.deepEqual(emu.files(hostedNotes), { "/n.md": "a note" });
  });

  test("bad options are refused with MemorySyncError INVALID_OPTIONS", async () => {
    const memory = await MemoryTool.open({ store: "opts", storage: "memory" });
    for (const options of [
      {},
      { client, memoryStoreId: "" },
      { client: {}, memoryStoreId: "memstore_x" },
      { client, memoryStoreId: "memstore_x", access: "write" },
      { client, memoryStoreId: "memstore_x", intervalMs: -1 },
      { client, memoryStoreId: "memstore_x", store: "no-such-mount" },
    ]) {
      await assert.rejects(MemorySync.start(memory, /** @type {any} */ (options)), (e) => e.name === "MemorySyncError" && e.code === "INVALID_OPTIONS");
    }
  });
});
