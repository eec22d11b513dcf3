// Nothing is lost when features meet (docs/TOOL.md#retention): expiry, retention, the history
// budget, sync and repair, tried together as a returning user's browser, a second device or a
// flaky or hostile hosted store would try them. One test per way they used to lose memories;
// each failed before the one retention model. Node, over fake-indexeddb (and the in-memory
// storage), with the clock moved by hand and the hosted memory stores emulator behind the
// official SDK client.

import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, test } from "node:test";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { IndexedDbStorage, InMemoryStorage, MemoryTool } from "memory-tool-wasm";
import { MemorySync } from "memory-tool-wasm/sync";
import { sha256, startEmulator } from "../hosted/emulator.mjs";
import { device, hostedStore, localFiles, sdkClient, toolWrite } from "../hosted/devices.mjs";

const DAY = 86_400_000;
const QUARTER_HOUR = 15 * 60_000;
const realNow = Date.now;
let offset = 0;
beforeEach(() => {
  offset = 0;
  Date.now = () => realNow() + offset;
});
afterEach(() => {
  Date.now = realNow;
});
const settle = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const idb = () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange });

/** Opens and closes a tool: an open that witnesses the date (docs/TOOL.md#a-clock-that-can-be-trusted). */
async function witness(/** @type {any} */ storage, /** @type {string} */ store) {
  const tool = await MemoryTool.open({ storage, store });
  await tool.memories.list();
  tool.close();
}

/** @type {import("../hosted/emulator.mjs").Emulator} */
let emu;
/** @type {any} */
let client;
before(async () => {
  emu = await startEmulator();
  client = sdkClient(emu);
});
after(() => emu.close());
/** @type {any[]} */
const stops = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s.stop();
  emu.clearFaults();
});
/** @param {string} id @param {Parameters<typeof device>[2]} [options] */
async function dev(id, options) {
  const d = await device(emu, id, options);
  stops.push(d.sync);
  return d;
}

describe("expiry never takes what was just used", () => {
  test("the model's first command views a memory unused for 60 days; the expiry that then runs keeps it", async () => {
    const storage = idb();
    const seed = await MemoryTool.open({ storage, store: "returning" });
    await seed.memories.create({ path: "/prefs.md", content: "vegetarian\n" });
    await seed.memories.create({ path: "/old.md", content: "unused\n" });
    seed.close();
    offset = 60 * DAY;
    await witness(storage, "returning");
    offset += QUARTER_HOUR;
    const tool = await MemoryTool.open({ storage, store: "returning", expireAfterDays: 30 });
    const view = await tool.execute({ command: "view", path: "/memories/prefs.md" });
    assert.equal(view.isError, false, String(view.content));
    await settle(3000);
    const again = await tool.execute({ command: "view", path: "/memories/prefs.md" });
    assert.equal(again.isError, false, "the memory the model had just read was expired");
    // The one nobody used went, as expiry promises.
    assert.deepEqual((await tool.memories.list()).map((m) => m.path), ["/prefs.md"]);
    tool.close();
  });

  test("across tabs: tab A views, tab B opens with expiry, A's edit a moment later still finds the memory", async () => {
    const storage = idb();
    const seed = await MemoryTool.open({ storage, store: "tabs" });
    await seed.memories.create({ path: "/trip.md", content: "Lisbon\n" });
    seed.close();
    offset = 60 * DAY;
    await witness(storage, "tabs");
    offset += QUARTER_HOUR;
    const a = await MemoryTool.open({ storage, store: "tabs" });
    assert.equal((await a.execute({ command: "view", path: "/memories/trip.md" })).isError, false);
    const b = await MemoryTool.open({ storage, store: "tabs", expireAfterDays: 30 });
    await b.execute({ command: "view", path: "/memories" }); // B's first command starts its expiry
    await settle(200);
    const edit = await a.execute({ command: "str_replace", path: "/memories/trip.md", old_str: "Lisbon", new_str: "Porto" });
    assert.equal(edit.isError, false, String(edit.content));
    await settle(3000);
    assert.equal((await a.memories.getByPath("/trip.md")).content, "Porto\n");
    a.close();
    b.close();
  });
});

describe("a deleted text stays restorable for the retention period from its deletion", () => {
  test("with the demo's settings (expiry 30, retention 30), a 40-day-old memory expires and its text is still there after reopening", async () => {
    const storage = idb();
    const seed = await MemoryTool.open({ storage, store: "demo" });
    const made = await seed.memories.create({ path: "/note.md", content: "written 40 days ago\n" });
    seed.close();
    offset = 40 * DAY;
    await witness(storage, "demo");
    offset += QUARTER_HOUR;
    const tool = await MemoryTool.open({ storage, store: "demo", expireAfterDays: 30, retentionDays: 30 });
    await tool.memories.list();
    await settle(3000);
    assert.deepEqual(await tool.memories.list(), [], "the memory expired");
    tool.close();
    // The same page load and the next ones prune on open: the text stays.
    for (const step of [QUARTER_HOUR, QUARTER_HOUR]) {
      offset += step;
      const again = await MemoryTool.open({ storage, store: "demo", expireAfterDays: 30, retentionDays: 30 });
      await again.memories.list();
      again.close();
    }
    const last = await MemoryTool.open({ storage, store: "demo", retentionDays: 30 });
    const { data } = await last.versions.list({ memory_id: made.id });
    const text = data.find((v) => v.operation === "created");
    assert.ok(text, "the text version of the expired memory was pruned");
    const back = await last.versions.restore(text.id);
    assert.equal((await last.memories.get(back.id)).content, "written 40 days ago\n");
    // 29 days after the expiry it is still there; 31 days after, it goes.
    offset += 29 * DAY;
    await witness(storage, "demo");
    last.close();
    offset += 2 * DAY;
    await witness(storage, "demo");
    offset += QUARTER_HOUR;
    await witness(storage, "demo");
    const late = await MemoryTool.open({ storage, store: "demo", retentionDays: 30 });
    await late.memories.list();
    assert.ok((await late.versions.list({ memory_id: made.id })).data.length > 0, "a restored memory is live again: its head stays");
    late.close();
  });

  test("sync deleting 20 notes written 60 days ago: after reopening, every one is restorable", async () => {
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`/n${i}.md`, `note ${i}`]));
    const id = await hostedStore(client, files);
    const storage = idb();
    const a = await dev(id, { storageObject: storage });
    assert.deepEqual(await localFiles(a.memory), files);
    offset = 60 * DAY;
    for (const m of (await client.beta.memoryStores.memories.list(id, { limit: 100 })).data) {
      if (m.type === "memory") await client.beta.memoryStores.memories.delete(m.id, { memory_store_id: id });
    }
    // Two passes (the empty listing is a suspected wipe until a later pass sees it too).
    await a.sync.now();
    await a.sync.now();
    const result = await a.sync.now();
    assert.ok(result.ok, String(result.error));
    await a.sync.stop();
    assert.deepEqual(await localFiles(a.memory), {});
    a.memory.close();
    await witness(storage, "user");
    offset += QUARTER_HOUR;
    const reopened = await MemoryTool.open({ storage, store: "user" });
    await reopened.memories.list();
    const deletions = (await reopened.versions.list({ operation: "deleted", limit: 100 })).data;
    assert.equal(deletions.length, 20);
    for (const deletion of deletions) {
      const { data } = await reopened.versions.list({ memory_id: deletion.memory_id });
      assert.ok(data.some((v) => v.operation !== "deleted"), `no version holds the text of ${deletion.path}`);
    }
    reopened.close();
  });
});

describe("an empty-looking hosted listing never wipes the local store", () => {
  const garbage = [
    ["a sign-in page (200 text/html)", { respond: { contentType: "text/html", body: "<html><body>Sign in</body></html>" } }],
    ["an empty object", { respond: { body: "{}" } }],
  ];
  for (const [name, fault] of garbage) {
    test(`${name}: an error, nothing deleted here`, async () => {
      const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/n${i}.md`, `note ${i}`]));
      const id = await hostedStore(client, files);
      const a = await dev(id);
      assert.equal(Object.keys(await localFiles(a.memory)).length, 30);
      emu.inject({ match: (r) => r.method === "GET" && r.route === "/v1/memory_stores/:store/memories", times: 10, ...fault });
      const result = await a.sync.now();
      assert.equal(result.ok, false);
      assert.match(String(result.error), /not the memory stores API's answer/);
      assert.deepEqual(result.deletedLocal, []);
      assert.equal(a.sync.status.state, "error");
      assert.equal(Object.keys(await localFiles(a.memory)).length, 30);
    });
  }

  test("{ data: [] }: a suspected wipe, said in the status and an event, that deletes nothing until a later pass corroborates it", async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/n${i}.md`, `note ${i}`]));
    const id = await hostedStore(client, files);
    const a = await dev(id, { sync: { deleteCorroborationMs: 60_000 } });
    emu.inject({ match: (r) => r.method === "GET" && r.route === "/v1/memory_stores/:store/memories", times: 2, rewrite: () => ({ data: [], next_page: null }) });
    const first = await a.sync.now();
    assert.equal(first.ok, true);
    assert.equal(first.suspectedWipe, true);
    assert.deepEqual(first.deletedLocal, []);
    assert.equal(a.sync.status.state, "held");
    assert.deepEqual(
      { ...a.sync.status.suspectedWipe, since: undefined },
      { since: undefined, hostedCount: 0, missing: 30 },
    );
    assert.equal(a.events.filter((e) => e.type === "suspected_wipe").length, 1);
    const second = await a.sync.now();
    assert.deepEqual(second.deletedLocal, [], "a second pass soon after is no corroboration");
    // The listing reads whole again: nothing was lost, the suspicion is lifted.
    const third = await a.sync.now();
    assert.equal(third.suspectedWipe, false);
    assert.equal(a.sync.status.state, "idle");
    assert.equal(a.sync.status.suspectedWipe, null);
    assert.equal(Object.keys(await localFiles(a.memory)).length, 30);
  });

  test("a hosted store emptied for real is followed, after corroboration, a capped number of deletes per pass", async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/n${i}.md`, `note ${i}`]));
    const id = await hostedStore(client, files);
    const a = await dev(id, { sync: { deleteCorroborationMs: 0 } });
    for (const m of (await client.beta.memoryStores.memories.list(id, { limit: 100 })).data) {
      if (m.type === "memory") await client.beta.memoryStores.memories.delete(m.id, { memory_store_id: id });
    }
    const first = await a.sync.now();
    assert.deepEqual(first.deletedLocal, []);
    const second = await a.sync.now();
    assert.equal(second.deletedLocal.length, 8, "at most the cap (a quarter of the baseline, at least 8)");
    for (let i = 0; i < 5; i++) await a.sync.now();
    assert.deepEqual(await localFiles(a.memory), {});
  });
});

describe("every hosted text is checked against its sha", () => {
  test("a hosted content: null never becomes an empty file, and nothing is pushed over the hosted text", async () => {
    const id = await hostedStore(client, { "/a.md": "alpha" });
    const a = await dev(id);
    const hosted = (await client.beta.memoryStores.memories.list(id)).data[0];
    await client.beta.memoryStores.memories.update(hosted.id, { memory_store_id: id, content: "alpha, changed" });
    emu.inject({
      match: (r) => r.method === "GET" && r.route === "/v1/memory_stores/:store/memories/:memory",
      times: 10,
      rewrite: (m) => ({ ...m, content: null }),
    });
    const result = await a.sync.now();
    assert.deepEqual(result.pulled, []);
    assert.deepEqual(result.failed.map((f) => [f.side, f.path]), [["local", "/a.md"]]);
    assert.match(result.failed[0].reason, /no text/);
    assert.equal((await a.memory.memories.getByPath("/a.md")).content, "alpha");
    emu.clearFaults();
    await a.sync.now();
    assert.deepEqual(emu.files(id), { "/a.md": "alpha, changed" }, "nothing was pushed over the hosted text");
  });

  test("a hosted text that does not match its content_sha256 is refused, not written or taken as a baseline", async () => {
    const id = await hostedStore(client, { "/a.md": "alpha" });
    const a = await dev(id);
    const hosted = (await client.beta.memoryStores.memories.list(id)).data[0];
    await client.beta.memoryStores.memories.update(hosted.id, { memory_store_id: id, content: "beta" });
    emu.inject({
      match: (r) => r.method === "GET" && r.route === "/v1/memory_stores/:store/memories/:memory",
      times: 10,
      rewrite: (m) => ({ ...m, content: "not beta" }),
    });
    const result = await a.sync.now();
    assert.deepEqual(result.pulled, []);
    assert.match(result.failed[0]?.reason ?? "", /does not match its content_sha256/);
    assert.equal((await a.memory.memories.getByPath("/a.md")).content, "alpha");
    emu.clearFaults();
    const fixed = await a.sync.now();
    assert.deepEqual(fixed.pulled, ["/a.md"]);
    assert.equal((await a.memory.memories.getByPath("/a.md")).content, "beta");
  });
});

describe("expiry stays on this device", () => {
  test("device B expires what it only pulled; its sync deletes nothing hosted, and device A keeps it", async () => {
    const id = await hostedStore(client, { "/prefs/diet.md": "vegetarian", "/prefs/seat.md": "aisle" });
    const storageB = idb();
    const a = await dev(id);
    const b = await dev(id, { storageObject: storageB, sync: { deleteCorroborationMs: 0 } });
    await b.sync.stop();
    b.memory.close();
    // Day 40: A's model uses its memories every day; B is opened again, with expiry.
    offset = 40 * DAY;
    for (const path of ["/prefs/diet.md", "/prefs/seat.md"]) await a.memory.memories.keep((await a.memory.memories.getByPath(path)).id);
    await witness(storageB, "user");
    offset += QUARTER_HOUR;
    const b2 = await dev(id, { storageObject: storageB, tool: { expireAfterDays: 30 }, sync: { deleteCorroborationMs: 0 } });
    await settle(3000);
    assert.deepEqual(await localFiles(b2.memory), {}, "B expired them");
    for (let i = 0; i < 3; i++) {
      const r = await b2.sync.now();
      assert.deepEqual(r.deletedHosted, []);
      assert.deepEqual(r.pulled, [], "not pulled back every pass");
    }
    assert.deepEqual(emu.files(id), { "/prefs/diet.md": "vegetarian", "/prefs/seat.md": "aisle" });
    const ra = await a.sync.now();
    assert.deepEqual(ra.deletedLocal, []);
    assert.deepEqual(await localFiles(a.memory), { "/prefs/diet.md": "vegetarian", "/prefs/seat.md": "aisle" });
    // A changes one: B pulls it back, it is news.
    await toolWrite(a.memory, "/prefs/seat.md", "window");
    await a.sync.now();
    await a.sync.now();
    const rb = await b2.sync.now();
    assert.deepEqual(rb.pulled, ["/prefs/seat.md"]);
  });
});

describe("the budget never prunes what a conflict kept", () => {
  test("a conflict's local text stays restorable through 111 hosted changes pulled in read-only mode", async () => {
    const id = await hostedStore(client, { "/a.md": "v0" });
    const a = await dev(id, { sync: { access: "read_only" } });
    await toolWrite(a.memory, "/a.md", "my local text");
    const hosted = (await client.beta.memoryStores.memories.list(id)).data[0];
    await client.beta.memoryStores.memories.update(hosted.id, { memory_store_id: id, content: "hosted 1" });
    const first = await a.sync.now();
    assert.equal(first.conflicts.length, 1);
    const kept = first.conflicts[0].local_version_id;
    for (let i = 2; i <= 111; i++) {
      await client.beta.memoryStores.memories.update(hosted.id, { memory_store_id: id, content: `hosted ${i}` });
      await a.sync.now();
    }
    assert.equal((await a.memory.memories.getByPath("/a.md")).content, "hosted 111");
    const version = await a.memory.versions.get(kept);
    assert.equal(version.content, "my local text");
    const restored = await a.memory.versions.restore(kept);
    assert.equal((await a.memory.memories.get(restored.id)).content, "my local text");
  });
});

describe("one truth per memory", () => {
  /** Changes bytes of the content store behind the package's back. */
  async function tamper(/** @type {IDBFactory} */ factory, /** @type {string} */ store, /** @type {(tx: IDBTransaction) => void} */ change) {
    const db = await new Promise((resolve, reject) => {
      const request = factory.open(`memory-tool-wasm:${store}`);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise((resolve, reject) => {
      const tx = /** @type {IDBDatabase} */ (db).transaction(["files", "contents"], "readwrite");
      change(tx);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    /** @type {IDBDatabase} */ (db).close();
  }

  test("a content changed from outside is found by check; repair keeps its text as a new version; export then imports", async () => {
    const factory = new IDBFactory();
    const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
    const tool = await MemoryTool.open({ storage, store: "damaged" });
    const a = await tool.memories.create({ path: "/a.md", content: "alpha\n" });
    await tool.memories.create({ path: "/b.md", content: "beta\n" });
    tool.close();
    await tamper(factory, "damaged", (tx) => {
      const get = tx.objectStore("files").get("/a.md");
      get.onsuccess = () => tx.objectStore("contents").put(new TextEncoder().encode("ALPHA, edited by hand\n"), get.result.content);
    });
    const again = await MemoryTool.open({ storage, store: "damaged" });
    const check = await again.check();
    assert.deepEqual(check.damaged, [{ path: "/a.md", problem: "sha256", memory_id: a.id }]);
    // The export of the damaged store leaves it out, and imports.
    const bundle = await again.export({ include_versions: true });
    const fresh = await MemoryTool.open({ storage: new InMemoryStorage(), store: "copy" });
    await fresh.import(bundle);
    const streamed = JSON.parse(await (await again.exportBlob({ include_versions: true })).text());
    const fresh2 = await MemoryTool.open({ storage: new InMemoryStorage(), store: "copy2" });
    await fresh2.import(streamed);
    // Repair keeps the text as it is now, and says so.
    const repaired = await again.repair();
    assert.deepEqual(repaired.damaged, [{ path: "/a.md", problem: "sha256", memory_id: a.id, action: "kept" }]);
    const now = await again.memories.get(a.id);
    assert.equal(now.content, "ALPHA, edited by hand\n");
    assert.equal(now.content_sha256, sha256("ALPHA, edited by hand\n"));
    const head = await again.versions.get(now.memory_version_id);
    assert.equal(head.created_by.type, "repair");
    assert.deepEqual((await again.check()).damaged, []);
    for (const t of [again, fresh, fresh2]) t.close();
  });

  test("a memory whose content is gone: check names it, repair deletes it as a version and says so", async () => {
    const factory = new IDBFactory();
    const storage = new IndexedDbStorage({ indexedDB: factory, IDBKeyRange });
    const tool = await MemoryTool.open({ storage, store: "lost" });
    const a = await tool.memories.create({ path: "/a.md", content: "alpha\n" });
    tool.close();
    await tamper(factory, "lost", (tx) => {
      const get = tx.objectStore("files").get("/a.md");
      get.onsuccess = () => tx.objectStore("contents").delete(get.result.content);
    });
    const again = await MemoryTool.open({ storage, store: "lost" });
    assert.deepEqual((await again.check()).damaged, [{ path: "/a.md", problem: "content", memory_id: a.id }]);
    assert.deepEqual((await again.repair()).damaged, [{ path: "/a.md", problem: "content", memory_id: a.id, action: "deleted" }]);
    again.close();
  });
});

describe("sync is bounded", () => {
  const listRoute = (/** @type {any} */ r) => r.method === "GET" && r.route === "/v1/memory_stores/:store/memories";

  for (const [name, rewrite] of /** @type {Array<[string, (page: any, req: any) => any]>} */ ([
    ["the same cursor again and again", (page) => ({ ...page, next_page: "again" })],
    ["new cursors over the same items", (page, req) => ({ ...page, next_page: `c${Number(String(req.query.page ?? "c0").slice(1)) + 1}` })],
    [
      "endless new items",
      (page, req) => {
        const n = Number(String(req.query.page ?? "c0").slice(1)) + 1;
        const item = { type: "memory", id: `mem_fake${n}`, path: `/fake/${n}.md`, content_sha256: sha256(String(n)), content_size_bytes: 1, memory_version_id: `memver_fake${n}`, created_at: "", updated_at: "" };
        return { data: [item], next_page: `c${n}` };
      },
    ],
  ])) {
    test(`a listing with ${name} ends the pass with an error after a bounded number of requests`, async () => {
      const id = await hostedStore(client, { "/a.md": "a" });
      const a = await dev(id);
      emu.inject({ match: listRoute, times: 100_000, rewrite });
      const result = await a.sync.now();
      assert.equal(result.ok, false);
      assert.ok(result.requests <= 110, `${result.requests} requests`);
      assert.deepEqual(await localFiles(a.memory), { "/a.md": "a" });
    });
  }

  test("one hosted memory that always fails to fetch is reported and skipped; every other change still goes", async () => {
    const id = await hostedStore(client, { "/bad.md": "b", "/good.md": "g" });
    const a = await dev(id);
    const list = (await client.beta.memoryStores.memories.list(id)).data;
    const bad = list.find((m) => m.path === "/bad.md");
    await client.beta.memoryStores.memories.update(bad.id, { memory_store_id: id, content: "b2" });
    emu.inject({ match: (r) => r.method === "GET" && r.path.endsWith(`/memories/${bad.id}`), times: 100_000, status: 500 });
    await toolWrite(a.memory, "/mine.md", "new here");
    const first = await a.sync.now();
    assert.equal(first.ok, true, String(first.error));
    assert.deepEqual(first.pushed, ["/mine.md"]);
    assert.deepEqual(first.failed.map((f) => f.path), ["/bad.md"]);
    assert.equal(a.sync.status.state, "idle", "one memory's failure is not offline");
    await a.sync.now();
    const third = await a.sync.now();
    assert.equal(third.refused.length, 1, "reported once as refused after three passes");
    emu.clearLog();
    const fourth = await a.sync.now();
    assert.equal(emu.log.filter((r) => r.path.endsWith(bad.id)).length, 0, "then it waits (an hour, doubling) unless it changes");
    assert.equal(fourth.ok, true);
  });

  test("an id the SDK refuses to put in a URL is that memory's failure, not offline", async () => {
    const id = await hostedStore(client, { "/x.md": "x" });
    const a = await dev(id);
    await client.beta.memoryStores.memories.update((await client.beta.memoryStores.memories.list(id)).data[0].id, { memory_store_id: id, content: "x2" });
    emu.inject({ match: listRoute, times: 100, rewrite: (page) => ({ ...page, data: page.data.map((m) => ({ ...m, id: ".." })) }) });
    const result = await a.sync.now();
    assert.equal(result.ok, true, String(result.error));
    assert.deepEqual(result.failed.map((f) => f.path), ["/x.md"]);
    assert.equal(a.sync.status.state, "idle");
  });

  test("a retry-after of 30 days is clamped: the next pass is not scheduled back to back", async () => {
    const id = await hostedStore(client, { "/a.md": "a" });
    const a = await dev(id, { sync: { retry: { attempts: 2, baseMs: 5, maxMs: 50 }, pollMs: 600_000 } });
    emu.inject({ match: listRoute, times: 100, status: 503, retryAfter: 30 * 86_400 });
    await a.sync.now();
    emu.clearLog();
    await settle(1000);
    assert.equal(emu.log.length, 0, `passes ran back to back: ${emu.log.length} requests in the second after a failed pass`);
  });

  test("no abort listener is left behind by 50 failing passes", async () => {
    const id = await hostedStore(client, { "/a.md": "a" });
    const a = await dev(id, { sync: { retry: { attempts: 3, baseMs: 1, maxMs: 2 } } });
    emu.inject({ match: listRoute, times: 100_000, status: 503 });
    /** Listeners each signal holds now. @type {Map<AbortSignal, number>} */
    const live = new Map();
    const add = AbortSignal.prototype.addEventListener;
    const remove = AbortSignal.prototype.removeEventListener;
    AbortSignal.prototype.addEventListener = function (...args) {
      live.set(this, (live.get(this) ?? 0) + 1);
      return add.apply(this, /** @type {any} */ (args));
    };
    AbortSignal.prototype.removeEventListener = function (...args) {
      live.set(this, (live.get(this) ?? 0) - 1);
      return remove.apply(this, /** @type {any} */ (args));
    };
    try {
      for (let i = 0; i < 50; i++) await a.sync.now();
    } finally {
      AbortSignal.prototype.addEventListener = add;
      AbortSignal.prototype.removeEventListener = remove;
    }
    // No signal gathers listeners pass after pass (the SDK leaves one on each request's
    // signal: each pass's own signal takes them with it).
    const most = Math.max(0, ...live.values());
    assert.ok(most <= 4, `a signal holds ${most} listeners after 50 passes`);
  });
});

describe("a clock far ahead loses nothing", () => {
  test("one open 120 days ahead, with expiry and retention, prunes and expires nothing; back to the right time, everything is there", async () => {
    const storage = idb();
    const tool = await MemoryTool.open({ storage, store: "clock" });
    for (let i = 0; i < 5; i++) {
      const m = await tool.memories.create({ path: `/m${i}.md`, content: "v0\n" });
      for (let v = 1; v < 5; v++) await tool.memories.update(m.id, { content: `v${v}\n` });
    }
    const before = (await tool.versions.list({ limit: 100 })).data.length;
    assert.equal(before, 25);
    tool.close();
    offset = 120 * DAY;
    const ahead = await MemoryTool.open({ storage, store: "clock", expireAfterDays: 30, retentionDays: 30 });
    await ahead.execute({ command: "view", path: "/memories" });
    await settle(3000);
    assert.equal((await ahead.memories.list()).length, 5, "expiry acted on a wrong clock");
    ahead.close();
    offset = 0;
    const right = await MemoryTool.open({ storage, store: "clock", expireAfterDays: 30, retentionDays: 30 });
    await right.execute({ command: "view", path: "/memories" });
    await settle(3000);
    assert.equal((await right.memories.list()).length, 5);
    assert.equal((await right.versions.list({ limit: 100 })).data.length, 25, "pruning acted on a wrong clock");
    right.close();
  });
});

describe("refuse instead of forgetting", () => {
  test("a page without IndexedDB refuses to open a store, naming storage: \"memory\"; asked for, memory works", async () => {
    const g = /** @type {any} */ (globalThis);
    const had = { window: g.window, document: g.document };
    g.window = g;
    g.document = {};
    try {
      await assert.rejects(MemoryTool.open({ store: "user-42" }), (error) => {
        assert.equal(/** @type {any} */ (error).code, "STORAGE_FAILED");
        assert.match(String(/** @type {any} */ (error).message), /no IndexedDB/);
        assert.match(String(/** @type {any} */ (error).message), /storage: "memory"/);
        return true;
      });
      const tool = await MemoryTool.open({ store: "user-42", storage: "memory" });
      tool.close();
    } finally {
      g.window = had.window;
      g.document = had.document;
    }
    // In Node (no page) memory stays the documented default.
    const node = await MemoryTool.open({ store: "user-42" });
    node.close();
  });
});
