// The model-based test of sync with everything else (docs/RELIABILITY.md#nothing-lost): two
// devices and the hosted store's own writers, random local and hosted changes, passes, the
// clock moving, expiry on a device, and faults — 5xx, 429 with retry-after, dropped
// connections, and hostile answers (a sign-in page, `{}`, `{ data: [] }`, a cursor that never
// ends, a text that is not its sha, `content: null`) — checked after every step:
//
// - nothing a device ever held is lost: each text it held is live there or in its history;
// - a device deletes a memory only when the hosted store really deleted it, and the hosted
//   store loses a memory only when a device really deleted it (never for an expiry);
// - what a pass pulls is a text the hosted store really held;
// - a device that joins (a first download, the model writing there meanwhile) holds only
//   texts the hosted store held or its own, and faults meet full pages too;
// - with the faults gone, both devices and the hosted store end with the same memories
//   (but for what a device expired).
//
// Devices also import bundles (another device's export, with or without its history; now and
// then one of 90-130 new memories, whose writes cross from the core in more than one slice and
// whose bundle goes in by parts), and device B keeps its store in IndexedDB (fake-indexeddb),
// so its commands are transactions that stay alive between slices.
//
// Seeded and reproducible (a failure names its seed and steps). WHOLE_SYNC_SEQUENCES (default 12)
// and WHOLE_SYNC_STEPS (default 40) set the size; `npm run soak` runs more.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { IndexedDbStorage, InMemoryStorage, MemoryTool } from "memory-tool-wasm";
import { MemorySync } from "memory-tool-wasm/sync";
import { startEmulator } from "../hosted/emulator.mjs";
import Anthropic from "@anthropic-ai/sdk";
import { hostedStore, localFiles, sdkClient } from "../hosted/devices.mjs";

const SEQUENCES = Number(process.env.WHOLE_SYNC_SEQUENCES ?? 12);
const STEPS = Number(process.env.WHOLE_SYNC_STEPS ?? 40);
const FIRST = Number(process.env.WHOLE_SYNC_FIRST_SEED ?? 1);
const DAY = 86_400_000;

/** @type {import("../hosted/emulator.mjs").Emulator} */
let emu;
/** @type {any} */
let client;
before(async () => {
  emu = await startEmulator();
  // The hosted store's own writers (the test): faults are for the devices' syncs only.
  client = new Anthropic({ apiKey: "test", baseURL: emu.url, maxRetries: 0, defaultHeaders: { "x-test-writer": "1" } });
});
/** Whether a request is a device's (a fault's target). @param {any} r */
const device = (r) => !r.headers?.["x-test-writer"];
after(() => emu.close());

/** A seeded generator (mulberry32). @param {number} seed */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (/** @type {number} */ n) => Math.floor(next() * n),
    pick: (/** @type {any[]} */ xs) => xs[Math.floor(next() * xs.length)],
    chance: (/** @type {number} */ p) => next() < p,
  };
}

const listRoute = (/** @type {any} */ r) => device(r) && r.method === "GET" && r.route === "/v1/memory_stores/:store/memories";
const memoryRoute = (/** @type {any} */ r) => device(r) && r.method === "GET" && r.route === "/v1/memory_stores/:store/memories/:memory";

/** The faults a pass may meet (each for a few requests). */
const FAULTS = [
  { name: "503", fault: { match: device, status: 503, times: 2 } },
  { name: "429", fault: { match: device, status: 429, retryAfter: 0, times: 2 } },
  { name: "drop before", fault: { match: (/** @type {any} */ r) => device(r) && r.method === "POST", drop: "before", times: 1 } },
  { name: "drop after", fault: { match: (/** @type {any} */ r) => device(r) && r.method === "POST", drop: "after", times: 1 } },
  { name: "sign-in page", fault: { match: listRoute, respond: { contentType: "text/html", body: "<html>Sign in</html>" }, times: 3 } },
  { name: "{}", fault: { match: listRoute, respond: { body: "{}" }, times: 3 } },
  { name: "data []", fault: { match: listRoute, rewrite: () => ({ data: [], next_page: null }), times: 2 } },
  { name: "endless cursor", fault: { match: listRoute, rewrite: (/** @type {any} */ p) => ({ ...p, next_page: "again" }), times: 300 } },
  // A full page (a first download's listing) with a text that is not its sha, or none.
  { name: "a lying text in a full page", fault: { match: listRoute, rewrite: (/** @type {any} */ p, /** @type {any} */ q) => (q.query.view === "full" ? { ...p, data: p.data.map((/** @type {any} */ m, /** @type {number} */ i) => (i === 0 && typeof m.content === "string" ? { ...m, content: `${m.content} (not this)` } : m)) } : p), times: 3 } },
  { name: "content null in a full page", fault: { match: listRoute, rewrite: (/** @type {any} */ p, /** @type {any} */ q) => (q.query.view === "full" ? { ...p, data: p.data.map((/** @type {any} */ m) => ({ ...m, content: null })) } : p), times: 2 } },
  { name: "content null", fault: { match: memoryRoute, rewrite: (/** @type {any} */ m) => ({ ...m, content: null }), times: 3 } },
  { name: "a lying text", fault: { match: memoryRoute, rewrite: (/** @type {any} */ m) => ({ ...m, content: `${m.content} (not this)` }), times: 3 } },
];

/**
 * Every text `memory` holds live or in its history (the texts of its versions).
 * @param {any} memory
 * @returns {Promise<Set<string>>}
 */
async function textsOf(memory) {
  const out = new Set(Object.values(await localFiles(memory)).filter((t) => typeof t === "string"));
  /** @type {string | null} */
  let page = null;
  do {
    /** @type {any} */
    const list = await memory.versions.list({ limit: 100, ...(page ? { page } : {}) });
    for (const v of list.data) {
      if (v.operation === "deleted" || v.redacted_at) continue;
      const full = await memory.versions.get(v.id);
      if (typeof full.content === "string") out.add(full.content);
    }
    page = list.next_page;
  } while (page);
  return out;
}

/** @param {number} seed */
async function runSequence(seed) {
  const r = rng(seed);
  const realNow = Date.now;
  let offset = 0;
  Date.now = () => realNow() + offset;
  /** @type {string[]} */
  const log = [];
  const id = await hostedStore(client, {}, `whole ${seed}`);
  /** Every text the hosted store ever held. */
  const hostedTexts = new Set();
  const devices = [];
  try {
    /** A device with its own empty store: its first pass is a first download. @param {string} name */
    const join = async (name) => {
      const storage = name === "B" ? new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }) : new InMemoryStorage();
      const memory = await MemoryTool.open({ store: "user", storage });
      const sync = await MemorySync.start(memory, {
        client: sdkClient(emu),
        memoryStoreId: id,
        intervalMs: 3_600_000,
        pollMs: 3_600_000,
        deleteCorroborationMs: 60_000,
        retry: { attempts: 3, baseMs: 1, maxMs: 5 },
      });
      const dev = { name, storage, memory, sync, held: new Set(), expired: new Set(), asked: false };
      // Passes the sync starts by itself (its triggers) are logged too.
      sync.subscribe((e) => {
        if (e.type === "pass" && !dev.asked) log.push(`${name} passes by itself: pulled [${e.result.pulled}] pushed [${e.result.pushed}] deletedLocal [${e.result.deletedLocal}] deletedHosted [${e.result.deletedHosted}] wiped ${e.result.wiped}`);
        if (e.type === "pass" && process.env.WHOLE_SYNC_DEBUG) {
          void memory.state.get(`sync:${id}`).then((rec) => log.push(`${name} record: expired ${JSON.stringify(Object.keys(rec?.expired ?? {}))} baseline ${JSON.stringify(Object.keys(rec?.baseline ?? {}))}`));
        }
      });
      devices.push(dev);
      return dev;
    };
    for (const name of ["A", "B"]) await join(name);
    let n = 0;
    const text = () => `text ${seed}.${++n}\n`;
    const paths = ["/a.md", "/b.md", "/n/c.md", "/n/d.md", "/e.md"];
    const hostedList = async () => (await client.beta.memoryStores.memories.list(id, { limit: 100 })).data.filter((m) => m.type === "memory");
    const noteHosted = () => {
      for (const t of Object.values(emu.files(id))) hostedTexts.add(t);
    };

    /** Big imports so far (one per sequence at most: each adds 90-130 memories everywhere). */
    let bigImports = 0;
    for (let step = 0; step < STEPS; step++) {
      const d = r.pick(devices);
      const roll = r.int(100);
      const why = (/** @type {string} */ problem) => `sequence ${seed}, step ${step}: ${problem}\n${log.slice(-Number(process.env.WHOLE_SYNC_LOG ?? 30)).join("\n")}`;
      if (roll < 25) {
        // a local write, as the model writes
        const path = r.pick(paths);
        const t = text();
        const existing = await d.memory.memories.getByPath(path).catch(() => null);
        const res = existing
          ? await d.memory.execute({ command: "str_replace", path: `/memories${path}`, old_str: existing.content, new_str: t })
          : await d.memory.execute({ command: "create", path: `/memories${path}`, file_text: t });
        if (!res.isError) d.held.add(t);
        log.push(`${d.name} writes ${path}`);
      } else if (roll < 33) {
        const path = r.pick(paths);
        const before = await d.memory.memories.getByPath(path).catch(() => null);
        const res = await d.memory.execute({ command: "delete", path: `/memories${path}` });
        log.push(`${d.name} deletes ${path}: ${res.isError ? "no" : `yes (${JSON.stringify(before?.content)}, expired before: ${d.expired.has(path)})`}`);
      } else if (roll < 45) {
        // the hosted store's own writers (another agent, the console)
        const path = r.pick(paths);
        const there = (await hostedList()).find((m) => m.path === path);
        const t = text();
        try {
          if (there && r.chance(0.3)) await client.beta.memoryStores.memories.delete(there.id, { memory_store_id: id });
          else if (there) await client.beta.memoryStores.memories.update(there.id, { memory_store_id: id, content: t });
          else await client.beta.memoryStores.memories.create(id, { path, content: t });
        } catch {
          // a path conflict with a directory: nothing written
        }
        log.push(`hosted changes ${path}`);
      } else if (roll < 53) {
        const f = r.pick(FAULTS);
        emu.inject({ ...f.fault });
        log.push(`fault: ${f.name}`);
      } else if (roll < 58) {
        offset += r.pick([1_000, 61_000, 3_600_000, 2 * DAY]);
        log.push(`time now +${Math.round(offset / 60_000)} min`);
      } else if (roll < 60) {
        // a new device joins (a first download of whatever the hosted store holds), while the
        // model already writes there: the write is never overwritten
        if (devices.length < 4) {
          const dev = await join(String.fromCharCode(65 + devices.length));
          const path = r.pick(paths);
          const t = text();
          dev.asked = true;
          const [result] = await Promise.all([
            dev.sync.now(),
            dev.memory.execute({ command: "create", path: `/memories${path}`, file_text: t }).then((res) => {
              if (!res.isError) dev.held.add(t);
            }),
          ]);
          dev.asked = false;
          noteHosted();
          log.push(`${dev.name} joins, writing ${path}: ${result.ok ? "ok" : `error ${result.error}`} pulled [${result.pulled}] pushed [${result.pushed}] failed [${result.failed.map((f) => f.path)}]`);
          const local = await localFiles(dev.memory);
          for (const p of result.pulled) {
            if (p === path && local[p] === t) continue; // the model's write came after the pull
            assert.ok(hostedTexts.has(local[p]), why(`${dev.name} pulled a text the hosted store never held at ${p}: ${JSON.stringify(local[p])}`));
          }
        }
      } else if (roll < 63) {
        // expiry on this device (on demand, as the host asks): local only
        const res = await d.memory.memories.expire({ olderThanDays: 1 });
        for (const m of res.data) d.expired.add(m.path);
        log.push(`${d.name} expires ${res.data.map((m) => m.path).join(", ") || "nothing"}; left ${JSON.stringify(await localFiles(d.memory))}`);
      } else if (roll < 67) {
        // an import: another device's export (its memories this device lacks come in; a path
        // or a memory it has is skipped), or now and then a bundle of many new memories
        /** @type {any} */
        let bundle;
        let what;
        if (bigImports === 0 && r.chance(0.3)) {
          bigImports++;
          const count = 90 + r.int(41);
          const maker = await MemoryTool.open({ store: "maker", storage: new InMemoryStorage() });
          for (let i = 0; i < count; i++) await maker.writeFile(`/memories/many/m${i}.md`, text());
          bundle = await maker.export({ include_versions: r.chance(0.5) });
          maker.close();
          what = `${count} new memories`;
        } else {
          const from = r.pick(devices.filter((x) => x !== d));
          bundle = await from.memory.export({ include_versions: r.chance(0.5) });
          what = `${from.name}'s export`;
        }
        const before = await localFiles(d.memory);
        /** @type {Array<{ done: number, total: number }>} */
        const progress = [];
        const res = await d.memory.import(bundle, { onConflict: "skip", onProgress: (p) => progress.push(p) });
        const after = await localFiles(d.memory);
        log.push(`${d.name} imports ${what}: ${JSON.stringify(res)}`);
        for (const [path, t] of Object.entries(before)) {
          assert.equal(after[path], t, why(`${d.name}'s import with onConflict skip changed ${path}`));
        }
        const last = progress.at(-1);
        assert.ok(last !== undefined && last.done === last.total, why(`${d.name}'s import ended its progress at ${JSON.stringify(last)}`));
      } else {
        // a pass
        noteHosted();
        const hostedBefore = new Set(Object.keys(emu.files(id)));
        const idsBefore = emu.ids(id);
        // The hosted memory each local path mirrors, as this device's sync remembers it.
        const mirrored = /** @type {Record<string, unknown[]>} */ ((await d.memory.state.get(`sync:${id}`))?.baseline ?? {});
        const localBefore = new Set(Object.keys(await localFiles(d.memory)));
        d.asked = true;
        const result = await d.sync.now();
        d.asked = false;
        noteHosted();
        log.push(`${d.name} has ${JSON.stringify(await localFiles(d.memory))}`);
        log.push(`${d.name} passes: ${result.ok ? "ok" : `error ${result.error}`} pulled [${result.pulled}] pushed [${result.pushed}] deletedLocal [${result.deletedLocal}] deletedHosted [${result.deletedHosted}] failed [${result.failed.map((f) => f.path)}] refused ${JSON.stringify(result.refused)}`);
        const hostedNow = emu.files(id);
        const idsNow = emu.ids(id);
        for (const path of result.deletedLocal) {
          // A delete here follows the hosted memory this copy mirrored: another memory the
          // hosted store has since created at the path is not that one (the next pass pulls it).
          const replaced = mirrored[path]?.[1] !== undefined && mirrored[path][1] !== idsBefore[path] && mirrored[path][1] !== idsNow[path];
          assert.ok(!(path in hostedNow) || !hostedBefore.has(path) || replaced, why(`${d.name} deleted ${path} here while the hosted store holds it`));
        }
        for (const path of result.deletedHosted) {
          assert.ok(!localBefore.has(path), why(`${d.name} deleted ${path} on the hosted store while it is live here`));
          assert.ok(!d.expired.has(path), why(`${d.name}'s expiry of ${path} became a hosted delete`));
        }
        const local = await localFiles(d.memory);
        // A path a pass saw live here (written again, or news pulled back) is no longer an
        // expiry of this device; one written and deleted between passes never was live to it.
        if (result.ok) for (const path of [...localBefore, ...Object.keys(local)]) d.expired.delete(path);
        for (const path of result.pulled) {
          assert.ok(hostedTexts.has(local[path]), why(`${d.name} pulled a text the hosted store never held at ${path}: ${JSON.stringify(local[path])}`));
        }
      }
      // Nothing a device held is lost: live there or in its history.
      for (const dev of devices) {
        const live = await localFiles(dev.memory);
        for (const t of Object.values(live)) if (typeof t === "string") dev.held.add(t);
        const texts = await textsOf(dev.memory);
        for (const t of dev.held) assert.ok(texts.has(t), why(`${dev.name} lost ${JSON.stringify(t)}`));
      }
    }

    // The faults gone, time enough for corroboration: both devices converge with the hosted
    // store, but for what a device expired (it stays there only).
    emu.clearFaults();
    for (let round = 0; round < 6; round++) {
      // A memory that kept failing waits up to a day between tries.
      offset += 25 * 3_600_000;
      for (const dev of devices) await dev.sync.now();
    }
    const hosted = emu.files(id);
    for (const dev of devices) {
      const local = await localFiles(dev.memory);
      for (const [path, t] of Object.entries(hosted)) {
        if (dev.expired.has(path) && !(path in local)) continue;
        assert.equal(local[path], t, `sequence ${seed}: ${dev.name} holds ${JSON.stringify(local[path])} at ${path}, the hosted store ${JSON.stringify(t)}\n${log.slice(-Number(process.env.WHOLE_SYNC_LOG ?? 30)).join("\n")}`);
      }
      for (const path of Object.keys(local)) {
        assert.ok(path in hosted, `sequence ${seed}: ${dev.name} holds ${path}, which the hosted store does not\n${log.slice(-Number(process.env.WHOLE_SYNC_LOG ?? 30)).join("\n")}`);
      }
    }
    return bigImports;
  } finally {
    for (const dev of devices) {
      await dev.sync.stop().catch(() => {});
      dev.memory.close();
    }
    emu.clearFaults();
    Date.now = realNow;
  }
}

test(`sync with everything else: ${SEQUENCES} random sequences of ${STEPS} steps lose nothing and converge`, async () => {
  let big = 0;
  for (let seed = FIRST; seed < FIRST + SEQUENCES; seed++) big += await runSequence(seed);
  console.log(`# whole-sync: ${SEQUENCES} sequences of ${STEPS} steps (${big} with a big import), no violation`);
});
