// The invariants of sync's pure decision function (src/js/sync-plan.js), checked on random
// inputs: seeded and reproducible (the seed of a failing case is in the message).

import { test } from "node:test";
import assert from "node:assert/strict";
import { plan, deleteCap, emptyRecord, readRecord } from "../../src/js/sync-plan.js";

/** A small seeded generator (mulberry32). @param {number} seed */
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
    next,
    int: (/** @type {number} */ n) => Math.floor(next() * n),
    pick: (/** @type {any[]} */ xs) => xs[Math.floor(next() * xs.length)],
    chance: (/** @type {number} */ p) => next() < p,
  };
}

const sha = (/** @type {string} */ s) => s.padEnd(64, "0").slice(0, 64);

/** A random pass's inputs: up to `n` paths, each with some mix of sides, baseline and marks. */
function randomInput(/** @type {ReturnType<typeof rng>} */ r) {
  const n = r.pick([0, 1, 2, 5, 12, 40, 120, 300]);
  const local = new Map();
  const hosted = new Map();
  const gone = new Map();
  const state = emptyRecord();
  const now = 1_800_000_000_000 + r.int(1e9);
  const texts = ["a", "b", "c"];
  const hostedEmpty = r.chance(0.1);
  const localEmpty = r.chance(0.05);
  for (let i = 0; i < n; i++) {
    const path = `/p${i}.md`;
    const base = r.chance(0.7) ? sha(r.pick(texts)) : undefined;
    if (base) state.baseline[path] = [base, `mem_h${i}`, `memver_h${i}`, ...(r.chance(0.8) ? [`mem_l${i}`] : [])];
    if (!localEmpty && r.chance(0.8)) {
      local.set(path, { id: `mem_l${i}`, path, content_sha256: r.chance(0.7) && base ? base : sha(r.pick(texts)), memory_version_id: `memver_l${i}` });
    } else if (base && r.chance(0.5)) {
      gone.set(path, r.chance(0.4) ? "expiry" : "other");
    }
    if (!hostedEmpty && r.chance(0.8)) {
      hosted.set(path, { id: `mem_h${i}`, path, content_sha256: r.chance(0.7) && base ? base : sha(r.pick(texts)), memory_version_id: `memver_h${i}` });
    }
    if (r.chance(0.1)) state.deletes[path] = [now - r.int(120_000), r.int(3)];
    if (r.chance(0.05)) state.refused[path] = sha(r.pick(texts));
    if (r.chance(0.05)) state.refused[`local:${path}`] = sha(r.pick(texts));
    if (r.chance(0.05)) state.expired[path] = sha(r.pick(texts));
    if (r.chance(0.03)) state.sent[path] = sha(r.pick(texts));
    if (r.chance(0.03)) state.failing[path] = [sha(r.pick(texts)), r.int(5)];
  }
  if (r.chance(0.2)) state.suspect = { since: now - r.int(120_000), passes: 1 + r.int(3), hostedCount: 0, missing: 1 };
  return { local, gone, hosted, state, now, pushing: r.chance(0.8), corroborationMs: r.pick([0, 30_000, 60_000]) };
}

test("the plan keeps its invariants on 5,000 random passes", () => {
  for (let seed = 1; seed <= 5000; seed++) {
    const r = rng(seed);
    const input = randomInput(r);
    const before = structuredClone(input.state);
    const out = plan(input);
    const why = `seed ${seed}`;
    // The state in is not changed.
    assert.deepEqual(input.state, before, `${why}: the input state changed`);
    // The baseline the plan worked from: the input's, with the sends that landed.
    const based = new Set(Object.keys(before.baseline));
    for (const [path, s] of Object.entries(before.sent)) if (input.hosted.get(path)?.content_sha256 === s) based.add(path);
    // 1. Nothing is deleted on either side for a path with no baseline.
    for (const d of [...out.localDeletes, ...out.hostedDeletes]) assert.ok(based.has(d.path), `${why}: ${d.path} deleted with no baseline`);
    // 2. At most the cap each way.
    const cap = deleteCap(based.size);
    assert.ok(out.localDeletes.length <= cap, `${why}: ${out.localDeletes.length} local deletes over ${cap}`);
    assert.ok(out.hostedDeletes.length <= cap, `${why}: ${out.hostedDeletes.length} hosted deletes over ${cap}`);
    // 3. A hosted store that reads empty after a baseline deletes nothing here until corroborated.
    if (input.hosted.size === 0 && based.size > 0 && !out.wiped) {
      assert.equal(out.suspected, true, `${why}: an empty hosted store is not suspected`);
      const corroborated = before.suspect !== null && before.suspect.passes + 1 >= 2 && input.now - before.suspect.since >= input.corroborationMs;
      if (!corroborated) assert.equal(out.localDeletes.length, 0, `${why}: local deletes before corroboration`);
    }
    // 4. A memory expired here is never deleted on the hosted side.
    for (const d of out.hostedDeletes) {
      assert.notEqual(input.gone.get(d.path), "expiry", `${why}: ${d.path}, expired here, deleted there`);
      assert.equal(before.expired[d.path], undefined, `${why}: ${d.path}, expired here, deleted there`);
    }
    // ... nor pulled back while its hosted text is the one it had.
    for (const p of out.pulls) {
      if (before.expired[p.path] !== undefined && !input.local.has(p.path)) {
        assert.notEqual(p.hosted.content_sha256, before.expired[p.path], `${why}: ${p.path} pulled back after expiry`);
      }
    }
    // 5. A local wipe pushes and deletes nothing.
    if (out.wiped) {
      assert.deepEqual([out.pushes.length, out.localDeletes.length, out.hostedDeletes.length], [0, 0, 0], `${why}: a wipe sent something`);
    }
    // 6. Read-only: no push, no hosted delete; nothing refused is pushed or pulled again.
    if (!input.pushing) assert.deepEqual([out.pushes.length, out.hostedDeletes.length], [0, 0], `${why}: read-only sent something`);
    for (const p of out.pushes) assert.notEqual(before.refused[p.path], p.local.content_sha256, `${why}: ${p.path} pushed again after a refusal`);
    for (const p of out.pulls) assert.notEqual(before.refused[`local:${p.path}`], p.hosted.content_sha256, `${why}: ${p.path} pulled again after a refusal`);
    // 7. Each path in one action at most.
    const all = [...out.pulls, ...out.pushes, ...out.localDeletes, ...out.hostedDeletes].map((a) => a.path);
    assert.equal(new Set(all).size, all.length, `${why}: a path in two actions`);
    // A hosted delete only after two passes corroborated it.
    for (const d of out.hostedDeletes) {
      const seen = before.deletes[d.path];
      assert.ok(seen && seen[1] + 1 >= 2 && input.now - seen[0] >= input.corroborationMs, `${why}: ${d.path} deleted there uncorroborated`);
    }
    // Deletes happen only to what is unchanged on the side that keeps it.
    for (const d of out.localDeletes) assert.equal(d.local.content_sha256, (before.baseline[d.path] ?? [])[0] ?? d.local.content_sha256, `${why}: a changed file deleted here`);
    for (const d of out.hostedDeletes) assert.equal(d.hosted.content_sha256, d.base, `${why}: a changed memory deleted there`);
  }
});

test("a hosted store that reads empty holds local deletes until a later pass corroborates it, then deletes at most the cap", () => {
  const state = emptyRecord();
  const local = new Map();
  for (let i = 0; i < 30; i++) {
    const path = `/n${i}.md`;
    state.baseline[path] = [sha("a"), `mem_h${i}`, `memver_h${i}`, `mem_l${i}`];
    local.set(path, { id: `mem_l${i}`, path, content_sha256: sha("a"), memory_version_id: `memver_l${i}` });
  }
  const empty = new Map();
  const t0 = 1_800_000_000_000;
  const first = plan({ local, gone: new Map(), hosted: empty, state, now: t0, pushing: true, corroborationMs: 30_000 });
  assert.equal(first.suspected, true);
  assert.deepEqual(first.localDeletes, []);
  assert.equal(first.waiting.localDeletes, 30);
  // Soon after: still held.
  const soon = plan({ local, gone: new Map(), hosted: empty, state: first.state, now: t0 + 1000, pushing: true, corroborationMs: 30_000 });
  assert.deepEqual(soon.localDeletes, []);
  // Later, the same again: corroborated, and capped (a quarter of 30 is 7; the floor is 8).
  const later = plan({ local, gone: new Map(), hosted: empty, state: soon.state, now: t0 + 31_000, pushing: true, corroborationMs: 30_000 });
  assert.equal(later.localDeletes.length, 8);
  // The listing comes back whole: no longer suspected.
  const full = new Map([...local].map(([path, l], i) => [path, { id: `mem_h${i}`, path, content_sha256: l.content_sha256, memory_version_id: `memver_h${i}` }]));
  const back = plan({ local, gone: new Map(), hosted: full, state: first.state, now: t0 + 2000, pushing: true, corroborationMs: 30_000 });
  assert.equal(back.suspected, false);
  assert.equal(back.state.suspect, null);
});

test("a memory expired here stays on the hosted side, is not pulled back, and comes back when it changes there", () => {
  const state = emptyRecord();
  state.baseline["/prefs/a.md"] = [sha("a"), "mem_h", "memver_h1", "mem_l"];
  const hosted = new Map([["/prefs/a.md", { id: "mem_h", path: "/prefs/a.md", content_sha256: sha("a"), memory_version_id: "memver_h1" }]]);
  const t0 = 1_800_000_000_000;
  const first = plan({ local: new Map([["/x.md", { id: "mem_x", path: "/x.md", content_sha256: sha("x"), memory_version_id: "v" }]]), gone: new Map([["/prefs/a.md", "expiry"]]), hosted, state, now: t0, pushing: true, corroborationMs: 0 });
  assert.deepEqual([first.hostedDeletes, first.pulls.map((p) => p.path)], [[], []]);
  assert.equal(first.state.expired["/prefs/a.md"], sha("a"));
  const again = plan({ local: new Map([["/x.md", { id: "mem_x", path: "/x.md", content_sha256: sha("x"), memory_version_id: "v" }]]), gone: new Map(), hosted, state: first.state, now: t0 + 60_000, pushing: true, corroborationMs: 0 });
  assert.deepEqual([again.hostedDeletes, again.pulls.map((p) => p.path)], [[], []]);
  const changed = new Map([["/prefs/a.md", { id: "mem_h", path: "/prefs/a.md", content_sha256: sha("b"), memory_version_id: "memver_h2" }]]);
  const news = plan({ local: new Map([["/x.md", { id: "mem_x", path: "/x.md", content_sha256: sha("x"), memory_version_id: "v" }]]), gone: new Map(), hosted: changed, state: again.state, now: t0 + 120_000, pushing: true, corroborationMs: 0 });
  assert.deepEqual(news.pulls.map((p) => p.path), ["/prefs/a.md"]);
});

test("a record read back from any earlier shape, or garbage, keeps only what is well formed", () => {
  assert.deepEqual(readRecord(null), emptyRecord());
  assert.deepEqual(readRecord({ v: 9, baseline: { "/a": ["s", "i", "v"] } }), emptyRecord());
  const v1 = readRecord({ v: 1, baseline: { "/a": ["s", "i", "v"], "/b": "junk" }, refused: { "/c": "s", "/d": 5 }, deletes: { "/e": [1, 2], "/f": [1] }, sent: {} });
  assert.deepEqual(v1.baseline, { "/a": ["s", "i", "v"] });
  assert.deepEqual(v1.refused, { "/c": "s" });
  assert.deepEqual(v1.deletes, { "/e": [1, 2] });
  assert.equal(v1.v, 2);
});
