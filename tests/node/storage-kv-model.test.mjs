// KeyValueStorage against a model, over backends of every timing: random transactions of file
// and version writes (records without an id, versions without a memory or a content, the delete
// at full quota's `finish({ putNothing })`, bodies that throw) run over docs/STORAGE.md's Map
// backend (answers at once), a backend that answers every request later, in order, one that
// mixes the two, and docs/STORAGE.md's IndexedDB backend over fake-indexeddb; some writes are
// issued from a read's answer, as the driver issues a big command's slices. After each
// sequence every read the core makes of the indexes and figures must give what the model says:
// the records, the id index, the file count and bytes (also when a transaction read them
// before or among its writes, as a create does, while they were missing), the versions by memory and by content,
// the newest version id; and each transaction must commit or be refused as the model says (the
// id index is unique at the moment of each put, as IndexedDB's is).
//
// More: KV_MODEL_SEEDS=20 KV_MODEL_TRIALS=400 node --test tests/node/storage-kv-model.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { KeyValueStorage } from "../../src/js/index-node.js";
import { importBlock } from "../consumers/doc-blocks.mjs";

const SEEDS = Number(process.env.KV_MODEL_SEEDS ?? 3);
const TRIALS = Number(process.env.KV_MODEL_TRIALS ?? 120);

const { MapBackend } = await importBlock("docs/STORAGE.md", "map-backend.js");
const { IndexedDbBackend } = await importBlock("docs/STORAGE.md", "indexeddb-backend.js");

/** A seeded generator (a linear congruential one: the same seed, the same run). */
function random(seed) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  return { next, pick: (/** @type {any[]} */ list) => list[Math.floor(next() * list.length)] };
}

/**
 * A backend over Maps that answers requests later, one per tick, in order (as IndexedDB
 * does); with `now`, a request made when none is waiting is answered at once when `now()` says.
 */
class LaterBackend {
  /** @param {() => boolean} [now] */
  constructor(now = () => false) {
    this.now = now;
    /** @type {Map<string, Map<string, unknown>>} */
    this.stores = new Map();
  }

  /** @param {string} name */
  async open(name) {
    if (!this.stores.has(name)) this.stores.set(name, new Map());
    const data = /** @type {Map<string, unknown>} */ (this.stores.get(name));
    const keysIn = (/** @type {string} */ lower, /** @type {string} */ upper) =>
      [...data.keys()].filter((k) => k >= lower && k < upper).sort();
    const now = this.now;
    let chain = Promise.resolve();
    return {
      transaction(/** @type {string} */ mode, /** @type {(tx: any) => void} */ body) {
        const run = () =>
          new Promise((resolve, reject) => {
            /** @type {Array<() => void>} */
            const undo = [];
            /** @type {Array<() => void>} */
            const queue = [];
            const write = (/** @type {string} */ key, /** @type {unknown} */ value) => {
              if (mode !== "readwrite") throw new Error("readonly");
              const had = data.has(key);
              const old = data.get(key);
              undo.push(() => (had ? data.set(key, old) : data.delete(key)));
              if (value === undefined) data.delete(key);
              else data.set(key, structuredClone(value));
            };
            const ask = (/** @type {() => void} */ request) => (queue.length === 0 && now() ? request() : queue.push(request));
            const fail = (/** @type {unknown} */ error) => {
              for (const step of undo.reverse()) step();
              reject(error);
            };
            try {
              body({
                get: (/** @type {string} */ key, /** @type {Function} */ cb) => ask(() => cb(structuredClone(data.get(key)))),
                getRange: (/** @type {string} */ lower, /** @type {string} */ upper, /** @type {any} */ { limit = Infinity, reverse = false }, /** @type {Function} */ cb) =>
                  ask(() => {
                    const keys = keysIn(lower, upper);
                    if (reverse) keys.reverse();
                    cb(keys.slice(0, limit).map((k) => [k, structuredClone(data.get(k))]));
                  }),
                put: (/** @type {string} */ key, /** @type {unknown} */ value) => {
                  const copy = structuredClone(value);
                  ask(() => write(key, copy));
                },
                delete: (/** @type {string} */ key) => ask(() => write(key, undefined)),
                deleteRange: (/** @type {string} */ lower, /** @type {string} */ upper) => ask(() => keysIn(lower, upper).forEach((k) => write(k, undefined))),
              });
            } catch (error) {
              return fail(error);
            }
            const step = () => {
              const request = queue.shift();
              if (request === undefined) return resolve(undefined);
              try {
                request();
              } catch (error) {
                return fail(error);
              }
              setImmediate(step);
            };
            setImmediate(step);
          });
        const done = chain.then(run);
        chain = done.catch(() => {});
        return done;
      },
      close() {},
    };
  }
}

const PATHS = ["/a.md", "/b.md", "/c.md", "/d/e.md", "/d/f.md"];
const IDS = ["mem_1", "mem_2", "mem_3", "mem_4"];
const VERSION_IDS = ["memver_01", "memver_02", "memver_03", "memver_04", "memver_05"];
const CONTENTS = ["k1", "k2", "k3"];

/** What the storage should hold: each write applied in order; a put that gives an id a second path throws. */
class Model {
  files = new Map();
  versions = new Map();
  /** @type {string | null} */
  newest = null;
  clone() {
    const m = new Model();
    m.files = new Map(this.files);
    m.versions = new Map(this.versions);
    m.newest = this.newest;
    return m;
  }
  /** @param {any} op */
  apply(op) {
    if (op.op === "putFile") {
      for (const [p, r] of this.files) if (op.rec.id !== undefined && p !== op.rec.path && r.id === op.rec.id) throw new Error("duplicate id");
      this.files.set(op.rec.path, op.rec);
    } else if (op.op === "deleteFile") this.files.delete(op.path);
    else if (op.op === "putVersion") {
      this.versions.set(op.rec.id, op.rec);
      if (this.newest === null || op.rec.id > this.newest) this.newest = op.rec.id;
    } else this.versions.delete(op.id);
  }
  answers() {
    const files = [...this.files.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
    const versions = [...this.versions.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    return {
      files: files.map((r) => `${r.path}:${r.id}:${r.size}`),
      byId: Object.fromEntries(IDS.map((id) => [id, files.find((r) => r.id === id)?.path ?? null])),
      usage: { files: files.length, bytes: files.reduce((n, r) => n + r.size, 0) },
      count: files.length,
      versionIds: versions.map((v) => v.id),
      history: Object.fromEntries(IDS.map((id) => [id, versions.filter((v) => v.memoryId === id).map((v) => v.id)])),
      content: Object.fromEntries(CONTENTS.map((k) => [k, versions.filter((v) => v.content === k).map((v) => v.id)])),
      newest: this.newest,
    };
  }
}

/** @param {any} h @param {(tx: any, done: (v: any) => void) => void} body */
function read(h, body) {
  let out;
  return h.transaction("readonly", (/** @type {any} */ tx) => body(tx, (v) => (out = v))).then(() => out);
}

/** What the storage answers, in the model's terms. @param {any} h */
async function answers(h) {
  const byId = {};
  const history = {};
  const content = {};
  for (const id of IDS) {
    byId[id] = (await read(h, (tx, done) => tx.getFileById(id, done)))?.path ?? null;
    history[id] = (await read(h, (tx, done) => tx.getHistory(id, done))).map((/** @type {any} */ v) => v.id);
  }
  for (const k of CONTENTS) content[k] = await read(h, (tx, done) => tx.getVersionIdsWithContent(k, done));
  return {
    files: await read(h, (tx, done) => tx.getSubtree("", (/** @type {any[]} */ rs) => done(rs.map((r) => `${r.path}:${r.id}:${r.size}`)))),
    byId,
    usage: await read(h, (tx, done) => tx.getUsage(done)),
    count: await read(h, (tx, done) => tx.countFiles(done)),
    versionIds: await read(h, (tx, done) => tx.getVersionIds(done)),
    history,
    content,
    newest: await read(h, (tx, done) => tx.getNewestVersionId(done)),
  };
}

/** A random transaction: 1 to 6 writes, some issued from a read's answer, sometimes with a read of the figures before or among them, sometimes a putNothing finish, sometimes a throw. */
function transactionOf(/** @type {ReturnType<typeof random>} */ r) {
  const ops = [];
  for (let i = 0, n = 1 + Math.floor(r.next() * 6); i < n; i++) {
    const x = r.next();
    if (x < 0.45) {
      const id = r.next() < 0.15 ? undefined : r.pick(IDS);
      ops.push({ op: "putFile", rec: { path: r.pick(PATHS), id, size: Math.floor(r.next() * 10), sha256: "00", createdAt: 1, updatedAt: 1 } });
    } else if (x < 0.75) ops.push({ op: "deleteFile", path: r.pick(PATHS) });
    else if (x < 0.9) {
      const memoryId = r.next() < 0.15 ? undefined : r.pick(IDS);
      const content = r.next() < 0.15 ? undefined : r.pick(CONTENTS);
      ops.push({ op: "putVersion", rec: { id: r.pick(VERSION_IDS), memoryId, content } });
    } else ops.push({ op: "deleteVersion", id: r.pick(VERSION_IDS) });
  }
  // As a command does, sometimes the figures are read before the writes (create's file count),
  // and now and then between them.
  const x = r.next();
  const readAt = x < 0.3 ? 0 : x < 0.4 ? 1 + Math.floor(r.next() * ops.length) : -1;
  // As the driver issues a big command's writes, in slices: a write marked here is issued from
  // the answer of a read issued after the writes before it.
  const breaks = ops.map((_, i) => i > 0 && r.next() < 0.3);
  return { ops, readAt, breaks, putNothing: r.next() < 0.1, fails: r.next() < 0.1 };
}

/** @param {any} tx @param {any} op */
function issue(tx, op) {
  if (op.op === "putFile") tx.putFile(op.rec, null);
  else if (op.op === "deleteFile") tx.deleteFile(op.path, 0);
  else if (op.op === "putVersion") tx.putVersion(op.rec);
  else tx.deleteVersion(op.id);
}

for (let seed = 1; seed <= SEEDS; seed++) {
  test(`seed ${seed}: ${TRIALS} random sequences answer as the model over every backend timing`, async () => {
    const r = random(seed);
    const backends = {
      "the doc's Map backend": () => new MapBackend(),
      "a backend that answers later": () => new LaterBackend(),
      "one that mixes both": () => new LaterBackend(() => r.next() < 0.5),
      "the doc's IndexedDB backend": () => new IndexedDbBackend({ indexedDB: new IDBFactory(), IDBKeyRange }),
    };
    let refused = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const sequence = [];
      let model = new Model();
      for (let i = 0, n = 1 + Math.floor(r.next() * 5); i < n; i++) {
        const t = transactionOf(r);
        const next = model.clone();
        let commits = !t.fails;
        try {
          for (const op of t.ops) next.apply(op);
        } catch {
          commits = false;
        }
        if (commits) model = next;
        else if (!t.fails) refused += 1;
        sequence.push({ ...t, commits });
      }
      const want = model.answers();
      for (const [name, make] of Object.entries(backends)) {
        const h = await new KeyValueStorage(make()).open(`s${trial}`);
        for (const [i, t] of sequence.entries()) {
          const committed = await h.transaction("readwrite", (/** @type {any} */ tx) => {
            const from = (/** @type {number} */ start) => {
              for (let at = start; at < t.ops.length; at++) {
                if (at > start && t.breaks[at]) {
                  tx.getFile("/none", () => from(at));
                  return;
                }
                if (at === t.readAt) tx.getUsage(() => {});
                issue(tx, t.ops[at]);
              }
              if (t.readAt === t.ops.length) tx.getUsage(() => {});
              if (t.putNothing) tx.finish({ putNothing: true });
            };
            from(0);
            if (t.fails) throw new Error("the body fails");
          }).then(() => true, () => false);
          assert.equal(committed, t.commits, `${name}, trial ${trial}, transaction ${i}: ${JSON.stringify(sequence)}`);
        }
        assert.deepEqual(await answers(h), want, `${name}, trial ${trial}: ${JSON.stringify(sequence)}`);
        h.close();
      }
    }
    // Not vacuous: some transactions were refused for a duplicate id.
    assert.ok(refused > 0, `${refused} refused for a duplicate id`);
  });
}
