// Last use and expiry through the package (docs/TOOL.md#last-use-and-expiry), over
// fake-indexeddb with the clock moved by hand (the core takes its time from Date.now): a view
// issues the same requests as before and no write; the use it reports is recorded a moment
// later, once a day at most; `expireAfterDays` deletes in the background, after the first
// command, exactly what is past the limit, as versions by the expiry actor, with a change
// event each; dry runs change nothing; read-only mounts and archived stores are never touched.
// The same journey runs in Chromium in tests/e2e/store-meta.test.mjs.

import { test, describe, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { countRequests } from "./fixtures/count-requests.mjs";
import { MemoryTool, MemoryStores, IndexedDbStorage, InMemoryStorage } from "memory-tool-wasm";

const DAY = 86_400_000;
const realNow = Date.now;
let offset = 0;
beforeEach(() => {
  offset = 0;
  Date.now = () => realNow() + offset;
});
afterEach(() => {
  Date.now = realNow;
});

const idb = () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange });
const settle = (ms = 1200) => new Promise((resolve) => setTimeout(resolve, ms));


describe("last use", () => {
  test("a view issues the same requests as before and writes nothing; its use is recorded later, once a day", async () => {
    const tool = await MemoryTool.open({ storage: idb(), store: "use" });
    await tool.memories.create({ path: "/a.md", content: "alpha\n" });
    const view = () => tool.execute({ command: "view", path: "/memories/a.md" });
    const sameDay = await countRequests(async () => {
      await view();
      await settle();
    });
    // The record and its head's bytes, by the file key.
    assert.deepEqual(sameDay, { "files.get": 1, "contents.openCursor": 1 });
    offset = 3 * DAY;
    const later = await countRequests(view);
    // The view itself: the same reads, no write.
    assert.deepEqual(later, { "files.get": 1, "contents.openCursor": 1 });
    const recorded = await countRequests(() => settle());
    // Then one write transaction of its own: the record read and put back, the metadata.
    assert.equal(recorded["files.put"], 1, JSON.stringify(recorded));
    assert.equal(recorded["versions.put"], undefined, JSON.stringify(recorded));
    const [memory] = await tool.memories.list();
    assert.ok(Date.parse(memory.last_accessed_at) >= realNow() + 3 * DAY - 60_000);
    // The same day again: nothing to record.
    const again = await countRequests(async () => {
      await view();
      await settle();
    });
    assert.equal(again["files.put"], undefined, JSON.stringify(again));
    // Still the same two reads.
    assert.deepEqual(again, { "files.get": 1, "contents.openCursor": 1 });
    // No version was made by a use.
    assert.equal((await tool.versions.list()).data.length, 1);
    tool.close();
  });

  test("uses still queued are recorded when the tool closes", async () => {
    const storage = new InMemoryStorage();
    const tool = await MemoryTool.open({ storage, store: "closing" });
    await tool.memories.create({ path: "/a.md", content: "alpha\n" });
    offset = 2 * DAY;
    await tool.execute({ command: "view", path: "/memories/a.md" });
    tool.close();
    await settle(50);
    const reopened = await MemoryTool.open({ storage, store: "closing" });
    const [memory] = await reopened.memories.list();
    assert.ok(Date.parse(memory.last_accessed_at) >= realNow() + 2 * DAY - 60_000, memory.last_accessed_at);
    reopened.close();
  });

  test("keep resets the last use", async () => {
    const tool = await MemoryTool.open({ storage: new InMemoryStorage(), store: "keep" });
    const created = await tool.memories.create({ path: "/a.md", content: "alpha\n" });
    offset = 40 * DAY;
    const kept = await tool.memories.keep(created.id);
    assert.equal(kept.id, created.id);
    assert.ok(Date.parse(kept.last_accessed_at) >= realNow() + 40 * DAY - 60_000);
    const due = await tool.memories.expire({ olderThanDays: 30, dryRun: true });
    assert.deepEqual(due.data, []);
    await assert.rejects(tool.memories.keep("mem_nope"), (error) => error.code === "NOT_FOUND");
    tool.close();
  });
});

describe("expiry", () => {
  test("expireAfterDays deletes in the background, after the first command, exactly what is past the limit", async () => {
    const storage = idb();
    const seed = await MemoryTool.open({ storage, store: "expiring" });
    for (const name of ["old", "used", "fresh"]) await seed.memories.create({ path: `/${name}.md`, content: `${name}\n` });
    offset = 20 * DAY;
    await seed.execute({ command: "view", path: "/memories/used.md" }); // used on day 20
    await seed.memories.update((await seed.memories.getByPath("/fresh.md")).id, { content: "fresh, changed\n" });
    seed.close();
    await settle(50);
    offset = 35 * DAY;
    // The background expiry acts on a time an earlier open saw (docs/TOOL.md#a-clock-that-can-be-trusted):
    // an open on day 35 witnesses the date, and one a quarter of an hour later acts on it.
    (await MemoryTool.open({ storage, store: "expiring" })).close();
    offset += 15 * 60_000;

    const tool = await MemoryTool.open({ storage, store: "expiring", expireAfterDays: 30 });
    const events = [];
    tool.subscribe((event) => events.push(event));
    // Nothing goes before the first command: it is never delayed.
    const dry = await tool.memories.expire({ dryRun: true });
    assert.deepEqual(dry.data.map((m) => m.path), ["/old.md"]);
    assert.equal(dry.dry_run, true);
    await settle(2600); // the expiry's choice, then its confirmation two seconds later
    assert.deepEqual((await tool.memories.list()).map((m) => m.path), ["/fresh.md", "/used.md"]);
    assert.equal(events.length, 1);
    assert.equal(events[0].operation, "deleted");
    assert.equal(events[0].path, "/old.md");
    assert.deepEqual(events[0].created_by, { type: "expiry" });
    // Its text stays in the history, restorable.
    const history = await tool.versions.list({ memory_id: events[0].memory_id });
    const created = history.data.find((v) => v.operation === "created");
    await tool.versions.restore(created.id);
    assert.equal((await tool.memories.getByPath("/old.md")).content, "old\n");
    tool.close();
  });

  test("read-only mounts and archived stores are never expired; bad options are refused", async () => {
    const storage = new InMemoryStorage();
    const stores = await MemoryStores.open({ storage });
    const ro = await stores.create({ name: "Reference" });
    const arch = await stores.create({ name: "Old" });
    for (const store of [ro, arch]) {
      const t = await MemoryTool.open({ storage, store: store.id });
      await t.memories.create({ path: "/a.md", content: "a\n" });
      t.close();
    }
    await stores.archive(arch.id);
    offset = 100 * DAY;
    const tool = await MemoryTool.open({
      storage,
      mounts: [
        { store: ro.id, access: "read_only", expireAfterDays: 1 },
        { store: arch.id, access: "read_only", expireAfterDays: 1 },
      ],
    });
    await tool.execute({ command: "view", path: "/memories" });
    await settle(300);
    for (const store of [ro.id, arch.id]) {
      assert.equal((await tool.memories.list({ store })).length, 1, store);
      await assert.rejects(tool.memories.expire({ store }), (error) => ["READ_ONLY", "ARCHIVED"].includes(error.code));
      assert.equal((await tool.memories.expire({ store, dryRun: true })).data.length, 1);
    }
    tool.close();
    stores.close();
    for (const bad of [0, 1.5, -3, 36_501, "30", null]) {
      await assert.rejects(MemoryTool.open({ storage, store: "x", expireAfterDays: bad }), (error) => error.code === "INVALID_OPTIONS", String(bad));
    }
    await assert.rejects(
      MemoryTool.open({ storage, mounts: [{ store: ro.id, expireAfterDays: "soon" }] }),
      (error) => error.code === "INVALID_OPTIONS" && /mounts\[0\]\.expireAfterDays/.test(error.message),
    );
    const plain = await MemoryTool.open({ storage, store: "x" });
    await assert.rejects(plain.memories.expire(), (error) => error.code === "INVALID_INPUT" && /expireAfterDays/.test(error.message));
    await assert.rejects(plain.memories.expire({ olderThanDays: 0 }), (error) => error.code === "INVALID_INPUT");
    await assert.rejects(plain.memories.expire({ dry_run: true, olderThanDays: 3 }), (error) => error.code === "INVALID_INPUT");
    plain.close();
  });
});
