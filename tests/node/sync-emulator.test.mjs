// The hosted memory stores emulator (tests/hosted/emulator.mjs), driven only through the
// official SDK client, and validated by running the SDK's own engine (`SessionMemoryStores`)
// against it.

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Anthropic from "@anthropic-ai/sdk";
import { SessionMemoryStores } from "@anthropic-ai/sdk/tools/agent-toolset/node";
import { BETA, sha256, startEmulator } from "../hosted/emulator.mjs";

/** @type {import("../hosted/emulator.mjs").Emulator} */
let emu;
/** @type {Anthropic} */
let client;
before(async () => {
  emu = await startEmulator({ maxMemories: 50 });
  client = new Anthropic({ apiKey: "test", baseURL: emu.url, maxRetries: 0 });
});
after(() => emu.close());

/** The SDK's error for `promise`: its status and the error object of its body. */
async function failure(/** @type {Promise<unknown>} */ promise) {
  try {
    await promise;
  } catch (e) {
    const err = /** @type {any} */ (e);
    return { status: err.status, error: err.error?.error, headers: err.headers };
  }
  assert.fail("expected the request to fail");
}

async function newStore(name = "test") {
  return client.beta.memoryStores.create({ name, description: "a test store" });
}

describe("memory stores emulator through the SDK", () => {
  test("create, retrieve, list views; every request carries the beta header", async () => {
    emu.clearLog();
    const store = await newStore();
    assert.match(store.id, /^memstore_/);
    const m = await client.beta.memoryStores.memories.create(store.id, { path: "/a.md", content: "hello" });
    assert.equal(m.content, null, "create answers the basic view by default");
    assert.equal(m.content_sha256, sha256("hello"));
    assert.equal(m.content_size_bytes, 5);
    assert.match(m.memory_version_id, /^memver_/);
    const full = await client.beta.memoryStores.memories.retrieve(m.id, { memory_store_id: store.id });
    assert.equal(full.content, "hello", "retrieve answers the full view by default");
    const page = await client.beta.memoryStores.memories.list(store.id);
    assert.deepEqual(
      page.data.map((i) => [i.type, i.path, /** @type {any} */ (i).content]),
      [["memory", "/a.md", null]],
    );
    assert.equal(emu.log.length, 4);
    const raw = await fetch(`${emu.url}/v1/memory_stores/${store.id}/memories`, { headers: { "x-api-key": "k" } });
    assert.equal(raw.status, 400, "no beta header: refused");
    const both = await fetch(`${emu.url}/v1/memory_stores/${store.id}/memories`, {
      headers: { "x-api-key": "k", "anthropic-beta": `${BETA},managed-agents-2026-04-01` },
    });
    assert.equal(both.status, 400, "both beta headers: refused");
  });

  test("path grammar, 100 kB and the store's memory cap", async () => {
    const store = await newStore();
    const bad = [
      "a.md",
      "/a//b.md",
      "/a/../b.md",
      "/./b.md",
      "/a\u200db.md",
      "/a\u200cb.md",
      "/a\u2028b",
      "/tab\there",
      "/e\u0301.md",
      "/" + Array.from({ length: 21 }, (_, i) => `s${i}`).join("/"),
      "/" + "x".repeat(1024),
      "/dir/",
    ];
    for (const p of bad) {
      const f = await failure(client.beta.memoryStores.memories.create(store.id, { path: p, content: "x" }));
      assert.equal(f.status, 400, `refused: ${JSON.stringify(p)}`);
      assert.equal(f.error.type, "invalid_request_error");
    }
    await client.beta.memoryStores.memories.create(store.id, {
      path: "/" + Array.from({ length: 20 }, (_, i) => `s${i}`).join("/"),
      content: "twenty segments",
    });
    await client.beta.memoryStores.memories.create(store.id, { path: "/\u00e9.md", content: "NFC" });
    await client.beta.memoryStores.memories.create(store.id, { path: "/big.md", content: "x".repeat(102_400) });
    const tooBig = await failure(
      client.beta.memoryStores.memories.create(store.id, { path: "/bigger.md", content: "x".repeat(102_401) }),
    );
    assert.equal(tooBig.status, 400);
    const capped = await newStore("capped");
    for (let i = 0; i < 50; i++) {
      await client.beta.memoryStores.memories.create(capped.id, { path: `/m${i}.md`, content: `${i}` });
    }
    const full = await failure(client.beta.memoryStores.memories.create(capped.id, { path: "/one-more.md", content: "" }));
    assert.equal(full.status, 400, "a full store refuses new memories");
    const first = (await client.beta.memoryStores.memories.list(capped.id, { limit: 1 })).data[0];
    const edited = await client.beta.memoryStores.memories.update(first.id, { memory_store_id: capped.id, content: "still editable" });
    assert.equal(edited.content_sha256, sha256("still editable"));
  });

  test("preconditions: 409 memory_precondition_failed_error; an update already in the requested state succeeds", async () => {
    const store = await newStore();
    const m = await client.beta.memoryStores.memories.create(store.id, { path: "/p.md", content: "one" });
    const stale = { type: /** @type {const} */ ("content_sha256"), content_sha256: sha256("zero") };
    const f = await failure(
      client.beta.memoryStores.memories.update(m.id, { memory_store_id: store.id, content: "two", precondition: stale }),
    );
    assert.equal(f.status, 409);
    assert.equal(f.error.type, "memory_precondition_failed_error");
    const same = await client.beta.memoryStores.memories.update(m.id, {
      memory_store_id: store.id,
      content: "one",
      precondition: stale,
    });
    assert.equal(same.memory_version_id, m.memory_version_id, "no change: no new version");
    const ok = await client.beta.memoryStores.memories.update(m.id, {
      memory_store_id: store.id,
      content: "two",
      precondition: { type: "content_sha256", content_sha256: sha256("one") },
    });
    assert.notEqual(ok.memory_version_id, m.memory_version_id);
    const d = await failure(
      client.beta.memoryStores.memories.delete(m.id, { memory_store_id: store.id, expected_content_sha256: sha256("one") }),
    );
    assert.equal(d.status, 409);
    assert.equal(d.error.type, "memory_precondition_failed_error");
    const gone = await client.beta.memoryStores.memories.delete(m.id, {
      memory_store_id: store.id,
      expected_content_sha256: sha256("two"),
    });
    assert.deepEqual(gone, { type: "memory_deleted", id: m.id });
    const missing = await failure(client.beta.memoryStores.memories.retrieve(m.id, { memory_store_id: store.id }));
    assert.equal(missing.status, 404);
  });

  test("path conflicts name the memory in the way (same path, ancestor, descendant, rename)", async () => {
    const store = await newStore();
    const notes = await client.beta.memoryStores.memories.create(store.id, { path: "/notes", content: "a file" });
    const deep = await client.beta.memoryStores.memories.create(store.id, { path: "/deep/x/y.md", content: "y" });
    for (const [p, blocker] of [
      ["/notes", notes],
      ["/notes/todo.md", notes],
      ["/deep", deep],
      ["/deep/x", deep],
    ]) {
      const f = await failure(client.beta.memoryStores.memories.create(store.id, { path: p, content: "" }));
      assert.equal(f.status, 409, p);
      assert.equal(f.error.type, "memory_path_conflict_error");
      assert.equal(f.error.conflicting_memory_id, blocker.id);
      assert.equal(f.error.conflicting_path, blocker.path);
    }
    const f = await failure(client.beta.memoryStores.memories.update(deep.id, { memory_store_id: store.id, path: "/notes" }));
    assert.equal(f.error.type, "memory_path_conflict_error");
    const moved = await client.beta.memoryStores.memories.update(deep.id, { memory_store_id: store.id, path: "/moved.md" });
    assert.equal(moved.id, deep.id, "a rename keeps the id");
  });

  test("listing: path order, cursor pages, view=full capped at 20, path_prefix by whole segments, depth 1", async () => {
    const store = await newStore();
    for (let i = 0; i < 45; i++) {
      await client.beta.memoryStores.memories.create(store.id, { path: `/n/${String(i).padStart(2, "0")}.md`, content: `${i}` });
    }
    await client.beta.memoryStores.memories.create(store.id, { path: "/notes-archive/old.md", content: "old" });
    await client.beta.memoryStores.memories.create(store.id, { path: "/n/sub/deeper.md", content: "deeper" });
    emu.clearLog();
    const paths = [];
    for await (const item of client.beta.memoryStores.memories.list(store.id, { limit: 10 })) paths.push(item.path);
    assert.equal(paths.length, 47);
    assert.deepEqual(paths, [...paths].sort());
    assert.equal(emu.log.length, 5, "47 memories, 10 a page: 5 requests");
    const fullPage = await client.beta.memoryStores.memories.list(store.id, { view: "full", limit: 100 });
    assert.equal(fullPage.data.length, 20);
    assert.equal(/** @type {any} */ (fullPage.data[0]).content, "0");
    const basicPage = await client.beta.memoryStores.memories.list(store.id, { limit: 1000 });
    assert.equal(basicPage.data.length, 47 > 100 ? 100 : 47);
    const prefixed = await client.beta.memoryStores.memories.list(store.id, { path_prefix: "/notes-archive/" });
    assert.deepEqual(prefixed.data.map((i) => i.path), ["/notes-archive/old.md"]);
    const shallow = await client.beta.memoryStores.memories.list(store.id, { path_prefix: "/", depth: 1 });
    assert.deepEqual(
      shallow.data.map((i) => [i.type, i.path]),
      [
        ["memory_prefix", "/n/"],
        ["memory_prefix", "/notes-archive/"],
      ],
    );
    const sub = await client.beta.memoryStores.memories.list(store.id, { path_prefix: "/n/", depth: 1, limit: 100 });
    assert.equal(sub.data.filter((i) => i.type === "memory_prefix").length, 1);
    assert.equal((await failure(client.beta.memoryStores.memories.list(store.id, { path_prefix: "/n" }))).status, 400);
    assert.equal((await failure(client.beta.memoryStores.memories.list(store.id, { depth: 2 }))).status, 400);
  });

  test("versions: one per change, newest first, kept after delete; redaction, never of a live head", async () => {
    const store = await newStore();
    const m = await client.beta.memoryStores.memories.create(store.id, { path: "/v.md", content: "1" });
    await client.beta.memoryStores.memories.update(m.id, { memory_store_id: store.id, content: "2" });
    await client.beta.memoryStores.memories.update(m.id, { memory_store_id: store.id, content: "2" });
    const head = await client.beta.memoryStores.memories.update(m.id, { memory_store_id: store.id, path: "/w.md" });
    const versions = (await client.beta.memoryStores.memoryVersions.list(store.id, { memory_id: m.id })).data;
    assert.deepEqual(versions.map((v) => [v.operation, v.path, v.content_sha256]), [
      ["modified", "/w.md", sha256("2")],
      ["modified", "/v.md", sha256("2")],
      ["created", "/v.md", sha256("1")],
    ]);
    assert.equal(versions[0].id, head.memory_version_id);
    assert.equal(versions[0].created_by?.type, "api_actor");
    const f = await failure(client.beta.memoryStores.memoryVersions.redact(head.memory_version_id, { memory_store_id: store.id }));
    assert.equal(f.status, 400, "a live memory's head cannot be redacted");
    const old = versions[2];
    const redacted = await client.beta.memoryStores.memoryVersions.redact(old.id, { memory_store_id: store.id });
    assert.ok(redacted.redacted_at);
    assert.equal(redacted.content_sha256, null);
    assert.equal(redacted.path, null);
    const got = await client.beta.memoryStores.memoryVersions.retrieve(old.id, { memory_store_id: store.id });
    assert.equal(got.content, null);
    const kept = await client.beta.memoryStores.memoryVersions.retrieve(versions[1].id, { memory_store_id: store.id });
    assert.equal(kept.content, "2");
    await client.beta.memoryStores.memories.delete(m.id, { memory_store_id: store.id });
    const after = (await client.beta.memoryStores.memoryVersions.list(store.id, { memory_id: m.id })).data;
    assert.equal(after.length, 4);
    assert.equal(after[0].operation, "deleted");
    assert.equal(after[0].content_sha256, null);
  });

  test("archived stores are read-only and hidden from the default listing", async () => {
    const store = await newStore("to archive");
    const m = await client.beta.memoryStores.memories.create(store.id, { path: "/keep.md", content: "kept" });
    const archived = await client.beta.memoryStores.archive(store.id);
    assert.ok(archived.archived_at);
    const c = await failure(client.beta.memoryStores.memories.create(store.id, { path: "/new.md", content: "" }));
    assert.equal(c.status, 409);
    assert.equal(c.error.type, "conflict_error");
    assert.equal((await failure(client.beta.memoryStores.memories.update(m.id, { memory_store_id: store.id, content: "x" }))).status, 409);
    assert.equal((await failure(client.beta.memoryStores.memories.delete(m.id, { memory_store_id: store.id }))).status, 409);
    const read = await client.beta.memoryStores.memories.retrieve(m.id, { memory_store_id: store.id });
    assert.equal(read.content, "kept");
    const ids = [];
    for await (const s of client.beta.memoryStores.list()) ids.push(s.id);
    assert.ok(!ids.includes(store.id));
    const all = [];
    for await (const s of client.beta.memoryStores.list({ include_archived: true })) all.push(s.id);
    assert.ok(all.includes(store.id));
    const deleted = await client.beta.memoryStores.delete(store.id);
    assert.deepEqual(deleted, { type: "memory_store_deleted", id: store.id });
  });

  test("faults: 429 with retry-after, 503, latency, connections dropped before and after the change", async () => {
    const store = await newStore();
    const retrying = new Anthropic({ apiKey: "test", baseURL: emu.url, maxRetries: 2 });
    emu.clearLog();
    emu.inject({ status: 429, retryAfter: 0, times: 1 });
    emu.inject({ status: 503, times: 1 });
    const m = await retrying.beta.memoryStores.memories.create(store.id, { path: "/f.md", content: "f" });
    assert.deepEqual(emu.log.map((r) => r.status), [429, 503, 200], "the SDK retried twice");
    const limited = await failure(client.beta.memoryStores.memories.list(store.id, {}).then(() => {
      emu.inject({ status: 429, retryAfter: 7 });
      return client.beta.memoryStores.memories.list(store.id);
    }));
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "7");
    emu.inject({ latencyMs: 150 });
    const t0 = Date.now();
    await client.beta.memoryStores.memories.retrieve(m.id, { memory_store_id: store.id });
    assert.ok(Date.now() - t0 >= 140, "latency injected");
    emu.inject({ drop: "before" });
    await assert.rejects(client.beta.memoryStores.memories.create(store.id, { path: "/lost.md", content: "x" }));
    assert.equal(emu.files(store.id)["/lost.md"], undefined, "dropped before: nothing happened");
    emu.inject({ drop: "after" });
    await assert.rejects(client.beta.memoryStores.memories.create(store.id, { path: "/landed.md", content: "y" }));
    assert.equal(emu.files(store.id)["/landed.md"], "y", "dropped after: the change happened, unheard");
    emu.inject({ match: (r) => r.method === "DELETE", status: 500 });
    await client.beta.memoryStores.memories.retrieve(m.id, { memory_store_id: store.id });
    assert.equal(emu.log.at(-1)?.status, 200, "a fault only hits requests it matches");
    emu.clearFaults();
  });
});

describe("the SDK's own engine (SessionMemoryStores) against the emulator", () => {
  test("download, push local edits and new files, pull remote edits, corroborated deletes at the end", async () => {
    const store = await newStore("Session Store");
    await client.beta.memoryStores.memories.create(store.id, { path: "/prefs.md", content: "tabs" });
    await client.beta.memoryStores.memories.create(store.id, { path: "/old.md", content: "stale" });
    const remoteOnly = await client.beta.memoryStores.memories.create(store.id, { path: "/remote.md", content: "r1" });
    const dir = await mkdtemp(path.join(tmpdir(), "sms-"));
    const mount = path.join(dir, "mnt");
    try {
      const sms = new SessionMemoryStores(client, { workdir: dir, syncIntervalMs: 5000 });
      await sms.download(/** @type {any} */ ({
        resources: [{ type: "memory_store", memory_store_id: store.id, access: "read_write", mount_path: mount, name: "s" }],
      }));
      assert.equal(await readFile(path.join(mount, "prefs.md"), "utf8"), "tabs");
      await writeFile(path.join(mount, "prefs.md"), "spaces");
      await writeFile(path.join(mount, "new.md"), "brand new");
      await rm(path.join(mount, "old.md"));
      await client.beta.memoryStores.memories.update(remoteOnly.id, { memory_store_id: store.id, content: "r2" });
      await sms.syncAll(false);
      assert.equal(await readFile(path.join(mount, "remote.md"), "utf8"), "r2");
      assert.deepEqual(emu.files(store.id), {
        "/new.md": "brand new",
        "/old.md": "stale",
        "/prefs.md": "spaces",
        "/remote.md": "r2",
      }, "the delete waits for corroboration");
      const preconditioned = emu.log.filter((r) => r.method === "POST" && /** @type {any} */ (r.body)?.precondition);
      assert.deepEqual(
        preconditioned.map((r) => /** @type {any} */ (r.body).precondition.content_sha256),
        [sha256("tabs")],
        "the local edit went out as an update over the baseline's sha",
      );
      await sms.finish();
      assert.equal(emu.files(store.id)["/old.md"], undefined, "the final pass sends the delete");
      const del = emu.log.filter((r) => r.method === "DELETE").at(-1);
      assert.equal(del?.query.expected_content_sha256, sha256("stale"));
      assert.ok((await readdir(mount)).includes("new.md"));
      await sms.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a refusal is reported once and not retried until the file changes; both-changed takes the hosted text", async () => {
    const store = await newStore("Refusals");
    const shared = await client.beta.memoryStores.memories.create(store.id, { path: "/both.md", content: "base" });
    const dir = await mkdtemp(path.join(tmpdir(), "sms-"));
    const mount = path.join(dir, "mnt");
    try {
      const sms = new SessionMemoryStores(client, { workdir: dir });
      await sms.download(/** @type {any} */ ({
        resources: [{ type: "memory_store", memory_store_id: store.id, access: "read_write", mount_path: mount, name: "r" }],
      }));
      await writeFile(path.join(mount, "huge.md"), "x".repeat(102_401));
      await writeFile(path.join(mount, "both.md"), "local");
      await client.beta.memoryStores.memories.update(shared.id, { memory_store_id: store.id, content: "hosted" });
      emu.clearLog();
      await sms.syncAll(false);
      assert.equal(emu.log.filter((r) => r.method === "POST").length, 1, "one refused create");
      assert.equal(await readFile(path.join(mount, "both.md"), "utf8"), "hosted");
      emu.clearLog();
      await sms.syncAll(false);
      assert.equal(emu.mutations().length, 0, "the refused file is not retried unchanged");
      await sms.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
