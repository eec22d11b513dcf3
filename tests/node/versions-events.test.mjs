// memory.subscribe(listener): one event per version a committed transaction wrote, for this
// tool's listeners and those of other tools of the store in this context (origin "local"),
// and over the BroadcastChannel named like the IndexedDB database for other tabs and workers
// (origin "remote"). Listeners that throw harm nothing. (Two real browser pages:
// tests/e2e/events.test.mjs.)

import { test, describe, afterEach } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** versions-events.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every subscribe test. ***\n",
  );
}
const { MemoryTool, MemoryToolError, InMemoryStorage, IndexedDbStorage } = built
  ? await import("memory-tool-wasm")
  : {};
const suite = built ? describe : describe.skip;

const MESSAGE_KIND = "memory-tool-wasm/changes";
let storeCounter = 0;
/** A store name no other test uses: BroadcastChannels are process-wide in Node. */
const freshStore = () => `events-${process.pid}-${++storeCounter}`;
const channels = [];
afterEach(() => {
  for (const channel of channels.splice(0)) channel.close();
});
/** A raw BroadcastChannel, as another tab or worker would hold. */
function rawChannel(name) {
  const channel = new BroadcastChannel(name);
  channel.unref?.();
  channels.push(channel);
  return channel;
}
/** Resolves with the next `count` messages on `channel`. */
function nextMessages(channel, count = 1) {
  return new Promise((resolve) => {
    const got = [];
    channel.onmessage = (event) => {
      got.push(event.data);
      if (got.length === count) resolve(got);
    };
  });
}
/** Resolves once `events` holds `count` items (listeners fill it). */
async function waitFor(events, count) {
  for (let i = 0; i < 200 && events.length < count; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(events.length, count, JSON.stringify(events));
}

suite("subscribe", () => {
  test("one event per version written, with the memory, path, operation, version, actor; origin local", async () => {
    const m = await MemoryTool.open({ storage: "memory", store: "notes" });
    const events = [];
    const unsubscribe = m.subscribe((event) => events.push(event));
    assert.equal(typeof unsubscribe, "function");

    await m.run({ type: "tool_use", id: "toolu_1", name: "memory", input: { command: "create", path: "/memories/a/x.md", file_text: "x" } });
    await m.execute({ command: "create", path: "/memories/a/y.md", file_text: "y" });
    await m.execute({ command: "rename", old_path: "/memories/a", new_path: "/memories/b" });
    const [x] = await m.memories.list({ path_prefix: "/b/" });
    await m.memories.update(x.id, { content: "x2" });
    await m.import({ format: "memory-tool-wasm/bundle", format_version: 1, memories: [] });
    const versions = (await m.versions.list({ memory_id: x.id })).data;
    await m.versions.redact(versions.at(-1).id);
    await m.execute({ command: "delete", path: "/memories/b" });

    assert.deepEqual(
      events.map((e) => [e.operation, e.path, e.redacted, e.created_by]),
      [
        ["created", "/a/x.md", false, { type: "tool", tool_use_id: "toolu_1" }],
        ["created", "/a/y.md", false, { type: "tool", tool_use_id: null }],
        ["modified", "/b/x.md", false, { type: "tool", tool_use_id: null }],
        ["modified", "/b/y.md", false, { type: "tool", tool_use_id: null }],
        ["modified", "/b/x.md", false, { type: "api" }],
        ["redacted", null, true, { type: "tool", tool_use_id: "toolu_1" }], // the redaction of the first version
        ["deleted", "/b/x.md", false, { type: "tool", tool_use_id: null }],
        ["deleted", "/b/y.md", false, { type: "tool", tool_use_id: null }],
      ],
    );
    for (const event of events) {
      assert.deepEqual(Object.keys(event).sort(), [
        "created_by", "memory_id", "operation", "origin", "path", "redacted", "store", "type", "version_id",
      ]);
      assert.equal(event.type, "change");
      assert.equal(event.store, "notes");
      assert.equal(event.origin, "local");
      assert.match(event.memory_id, /^mem_/);
      assert.match(event.version_id, /^memver_/);
      assert.ok(Object.isFrozen(event));
    }
    assert.equal(events[0].memory_id, x.id);
    assert.equal(events[4].version_id, versions[0].id);
    assert.equal(events[5].version_id, versions.at(-1).id);

    // Reads and refused commands are no change.
    const count = events.length;
    await m.execute({ command: "view", path: "/memories" });
    await m.execute({ command: "create", path: "/nope", file_text: "" });
    await assert.rejects(m.memories.update("mem_none", { content: "x" }));
    await m.versions.list();
    await m.export({ include_versions: true });
    await m.versions.prune();
    assert.equal(events.length, count);

    unsubscribe();
    unsubscribe(); // twice is harmless
    await m.memories.create({ path: "/after.md", content: "" });
    assert.equal(events.length, count);
    m.close();
  });

  test("a redaction's event says redacted; an import of redacted versions keeps each one's operation", async () => {
    const m = await MemoryTool.open({ storage: "memory", store: "notes" });
    const note = await m.memories.create({ path: "/note.md", content: "one" });
    await m.memories.update(note.id, { content: "two" });
    const [, first] = (await m.versions.list({ memory_id: note.id })).data;
    const events = [];
    m.subscribe((event) => events.push(event));
    await m.versions.redact(first.id);
    assert.deepEqual(
      events.map((e) => [e.operation, e.memory_id, e.version_id, e.path, e.redacted]),
      [["redacted", note.id, first.id, null, true]],
    );
    // Redacting it again changes nothing and says nothing.
    await m.versions.redact(first.id);
    assert.equal(events.length, 1);

    // The same history imported elsewhere: each version as recorded, the redacted one too.
    const bundle = await m.export({ include_versions: true });
    const other = await MemoryTool.open({ storage: "memory", store: "copy" });
    const imported = [];
    other.subscribe((event) => imported.push(event));
    await other.import(bundle);
    assert.deepEqual(
      imported.map((e) => [e.operation, e.path, e.redacted]),
      [["created", null, true], ["modified", "/note.md", false]],
    );
    m.close();
    other.close();
  });

  test("events come after the commit: a listener reading the store sees the change", async () => {
    const m = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), store: freshStore() });
    const seen = [];
    m.subscribe((event) => {
      seen.push(m.memories.get(event.memory_id).then((memory) => memory.content));
    });
    await m.memories.create({ path: "/a.md", content: "committed" });
    assert.deepEqual(await Promise.all(seen), ["committed"]);
    m.close();
  });

  test("other tools of the same store in this context hear it; other stores do not", async () => {
    const storage = new InMemoryStorage();
    const a = await MemoryTool.open({ storage, store: "s" });
    const b = await MemoryTool.open({ storage, store: "s" });
    const other = await MemoryTool.open({ storage, store: "t" });
    const elsewhere = await MemoryTool.open({ storage: new InMemoryStorage(), store: "s" });
    const heard = { a: [], b: [], other: [], elsewhere: [] };
    a.subscribe((e) => heard.a.push(e));
    b.subscribe((e) => heard.b.push(e));
    other.subscribe((e) => heard.other.push(e));
    elsewhere.subscribe((e) => heard.elsewhere.push(e));
    await a.memories.create({ path: "/from-a.md", content: "a" });
    await b.writeFile("/memories/from-b.md", "b");
    assert.deepEqual(heard.a.map((e) => [e.path, e.origin]), [["/from-a.md", "local"], ["/from-b.md", "local"]]);
    assert.deepEqual(heard.b, heard.a);
    assert.deepEqual(heard.other, []);
    assert.deepEqual(heard.elsewhere, []);

    // IndexedDB: two storages over one factory are one database.
    const indexedDB = new IDBFactory();
    const store = freshStore();
    const c = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB, IDBKeyRange }), store });
    const d = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB, IDBKeyRange }), store });
    const heardD = [];
    d.subscribe((e) => heardD.push(e));
    await c.memories.create({ path: "/from-c.md", content: "c" });
    assert.deepEqual(heardD.map((e) => [e.path, e.origin]), [["/from-c.md", "local"]]);
    for (const tool of [a, b, other, elsewhere, c, d]) tool.close();
  });

  test("a listener that throws breaks neither the command nor the other listeners", async () => {
    const m = await MemoryTool.open({ storage: "memory" });
    const reported = [];
    const original = console.error;
    console.error = (...args) => reported.push(args);
    try {
      const heard = [];
      m.subscribe(() => {
        throw new Error("listener bug");
      });
      m.subscribe((e) => heard.push(e.path));
      const result = await m.execute({ command: "create", path: "/memories/a.md", file_text: "a" });
      assert.equal(result.isError, false);
      await m.memories.create({ path: "/b.md", content: "b" });
      assert.deepEqual(heard, ["/a.md", "/b.md"]);
      assert.equal((await m.memories.list()).length, 2);
      assert.equal(reported.length, 2);
      assert.match(String(reported[0][1]?.message), /listener bug/);
    } finally {
      console.error = original;
    }
    m.close();
  });

  test("a listener may unsubscribe itself (or another) while events go out", async () => {
    const m = await MemoryTool.open({ storage: "memory" });
    const heard = { once: [], second: [] };
    let offSecond;
    const offOnce = m.subscribe((e) => {
      heard.once.push(e.path);
      offOnce();
      offSecond();
    });
    offSecond = m.subscribe((e) => heard.second.push(e.path));
    await m.execute({ command: "create", path: "/memories/d/a.md", file_text: "" });
    await m.execute({ command: "create", path: "/memories/d/b.md", file_text: "" });
    await m.execute({ command: "delete", path: "/memories/d" }); // two events in one transaction
    assert.deepEqual(heard, { once: ["/d/a.md"], second: [] });
    m.close();
  });

  test("close ends a tool's subscriptions (not those of other tools of the store)", async () => {
    const storage = new InMemoryStorage();
    const a = await MemoryTool.open({ storage });
    const b = await MemoryTool.open({ storage });
    const heard = { a: [], b: [] };
    a.subscribe((e) => heard.a.push(e.path));
    b.subscribe((e) => heard.b.push(e.path));
    a.close();
    await b.memories.create({ path: "/x.md", content: "" });
    assert.deepEqual(heard, { a: [], b: ["/x.md"] });
    assert.throws(() => b.subscribe("not a function"), (e) => e instanceof MemoryToolError && e.code === "INVALID_INPUT");
    b.close();
  });

  test("IndexedDB: a committed transaction's events go out on the BroadcastChannel named like the database, in one message", async () => {
    const store = freshStore();
    const channel = rawChannel(`memory-tool-wasm:${store}`);
    const messages = nextMessages(channel, 2);
    const m = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), store });
    await m.run({ type: "tool_use", id: "toolu_9", name: "memory", input: { command: "create", path: "/memories/d/a.md", file_text: "a" } });
    await m.execute({ command: "create", path: "/memories/d/b.md", file_text: "b" });
    await m.execute({ command: "delete", path: "/memories/d" });
    const [first, second] = await messages;
    assert.equal(first.kind, MESSAGE_KIND);
    assert.deepEqual(first.events.map((e) => [e.store, e.operation, e.path, e.created_by]), [
      [store, "created", "/d/a.md", { type: "tool", tool_use_id: "toolu_9" }],
    ]);
    // (The second create and the delete follow; the delete's two versions are one message.)
    assert.equal(second.events.length, 1);
    m.close();
  });

  test("IndexedDB: events from another context arrive with origin remote; foreign messages are ignored", async () => {
    const store = freshStore();
    const m = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), store });
    const heard = [];
    m.subscribe((e) => heard.push(e));
    const otherTab = rawChannel(`memory-tool-wasm:${store}`);
    otherTab.postMessage("hello");
    otherTab.postMessage({ kind: "something-else", events: [{ memory_id: "mem_x", version_id: "memver_x" }] });
    otherTab.postMessage({ kind: MESSAGE_KIND, events: [{ nonsense: true }] });
    const remote = {
      type: "change",
      store,
      memory_id: "mem_remote",
      path: "/remote.md",
      operation: "modified",
      version_id: "memver_remote",
      redacted: false,
      created_by: { type: "api" },
      origin: "local", // as the sender saw it
    };
    otherTab.postMessage({ kind: MESSAGE_KIND, events: [remote] });
    await waitFor(heard, 1);
    assert.deepEqual(heard[0], { ...remote, origin: "remote" });
    // Another database's channel is not ours.
    rawChannel(`memory-tool-wasm:${store}-other`).postMessage({ kind: MESSAGE_KIND, events: [remote] });
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(heard.length, 1);
    m.close();
  });

  test("IndexedDB: the channel is opened lazily: nothing is posted or heard before a subscribe or a write", async () => {
    const store = freshStore();
    const m = await MemoryTool.open({ storage: new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), store });
    const otherTab = rawChannel(`memory-tool-wasm:${store}`);
    const posted = [];
    otherTab.onmessage = (event) => posted.push(event.data);
    await m.memories.list();
    await m.versions.prune();
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(posted, []);
    await m.memories.create({ path: "/first.md", content: "" });
    await waitFor(posted, 1);
    m.close();
  });

  test("InMemoryStorage posts nothing on any channel", async () => {
    const channel = rawChannel("memory-tool-wasm:memories");
    const posted = [];
    channel.onmessage = (event) => posted.push(event.data);
    const m = await MemoryTool.open({ storage: "memory" });
    const heard = [];
    m.subscribe((e) => heard.push(e));
    await m.memories.create({ path: "/a.md", content: "" });
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(heard.length, 1);
    assert.deepEqual(posted, []);
    m.close();
  });
});
