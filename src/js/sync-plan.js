// The decisions of one sync pass, as one pure function (docs/SYNC.md#a-pass): given both sides'
// listings, what the sync remembers and the time, what to pull, push and delete on either side.
// No request, no clock, no randomness: sync.js gathers the facts, calls `plan`, then carries the
// actions out and reports them. Every pass decides every path before anything is sent (the
// SDK's engine awaits inside its loop); what a pass cannot finish is decided again next pass.
//
// Invariants (tests/node/sync-plan.test.mjs checks each on random inputs):
//  1. Nothing is deleted on either side for a path with no baseline.
//  2. At most `deleteCap(baseline)` local deletes and as many hosted deletes per pass.
//  3. A hosted store that reads empty, or lost more of the baseline than the cap, after a
//     non-empty baseline is a suspected wipe: no local delete until two passes at least
//     `corroborationMs` apart have seen it (`suspect`), and then at most the cap per pass.
//  4. A local delete goes to the hosted side only after two passes at least `corroborationMs`
//     apart saw it (`deletes`), and never for a memory deleted here by expiry: expiry is about
//     this device's use. Such a memory is not pulled back while its hosted text is the one it
//     had (`expired`); a hosted change brings it back.
//  5. A local wipe (the local store empty with a baseline of more than one, not all of it
//     expired here) pushes and deletes nothing: everything is downloaded again but what expiry
//     took here.
//  6. Nothing is pushed while the hosted store is read-only for this sync (`pushing: false`),
//     nor a text the hosted store refused (`refused`), nor pulled what this store refused or
//     what keeps failing (`failing`: after FAILURES_BEFORE_SKIP passes with one text, it waits,
//     longer each time, up to a day), until it changes.
//  7. Each path is in at most one action; the state out is a new object, the state in is not
//     changed.

/** Hosted deletes (and local ones) per pass: a quarter of the baseline, at least 8, at most 50. */
export const DELETE_CAP_FLOOR = 8;
export const DELETE_CAP_CEILING = 50;
/** Failed fetches of one hosted memory (with one sha) before it waits between tries. */
export const FAILURES_BEFORE_SKIP = 3;
/** How long a memory that keeps failing waits before it is tried again: an hour, doubling, at most a day. */
export function failingWait(/** @type {number} */ failures) {
  return Math.min(24 * 3_600_000, 3_600_000 * 2 ** Math.max(0, failures - FAILURES_BEFORE_SKIP));
}

/**
 * What a sync remembers between passes and page loads (sync-state.js keeps it in the local
 * store's own database).
 * @typedef {{
 *   v: 2,
 *   baseline: Record<string, [sha: string, hostedId: string, hostedVersion: string, localId?: string]>,
 *   refused: Record<string, string>,
 *   deletes: Record<string, [firstSeen: number, passes: number]>,
 *   sent: Record<string, string>,
 *   expired: Record<string, string>,
 *   suspect: { since: number, passes: number, hostedCount: number, missing: number } | null,
 *   failing: Record<string, [sha: string, failures: number, retryAt?: number]>,
 * }} SyncRecord
 * @typedef {{ id: string, path: string, content_sha256: string, memory_version_id: string | null }} LocalMemory
 * @typedef {{ id: string, path: string, content_sha256: string, memory_version_id: string }} HostedMemory
 * @typedef {{ path: string, hosted: HostedMemory, local: LocalMemory | null, conflict: boolean }} Pull
 * @typedef {{ path: string, local: LocalMemory, hosted: HostedMemory | null }} Push
 * @typedef {{ path: string, local: LocalMemory }} LocalDelete
 * @typedef {{ path: string, hosted: HostedMemory, base: string }} HostedDelete
 * @typedef {{
 *   local: Map<string, LocalMemory>,
 *   gone: Map<string, "expiry" | "other">,
 *   hosted: Map<string, HostedMemory>,
 *   state: SyncRecord,
 *   now: number,
 *   pushing: boolean,
 *   corroborationMs: number,
 * }} PlanInput
 * @typedef {{
 *   pulls: Pull[], pushes: Push[], localDeletes: LocalDelete[], hostedDeletes: HostedDelete[],
 *   waiting: { localDeletes: number, hostedDeletes: number },
 *   wiped: boolean,
 *   suspected: boolean,
 *   state: SyncRecord,
 * }} Plan
 */

/** @returns {SyncRecord} */
export function emptyRecord() {
  return { v: 2, baseline: {}, refused: {}, deletes: {}, sent: {}, expired: {}, suspect: null, failing: {} };
}

/**
 * A record read back (any earlier shape, or garbage) as a SyncRecord: unknown fields dropped,
 * malformed ones empty (with no baseline nothing is ever deleted, invariant 1).
 * @param {unknown} loaded
 * @returns {SyncRecord}
 */
export function readRecord(loaded) {
  const out = emptyRecord();
  if (typeof loaded !== "object" || loaded === null) return out;
  const r = /** @type {Record<string, unknown>} */ (loaded);
  if (r.v !== 1 && r.v !== 2) return out;
  const table = (/** @type {unknown} */ value) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? /** @type {Record<string, any>} */ ({ ...value }) : {};
  out.baseline = Object.fromEntries(
    Object.entries(table(r.baseline)).filter(([, b]) => Array.isArray(b) && b.length >= 3 && b.slice(0, 3).every((x) => typeof x === "string")),
  );
  out.refused = Object.fromEntries(Object.entries(table(r.refused)).filter(([, sha]) => typeof sha === "string"));
  out.deletes = Object.fromEntries(
    Object.entries(table(r.deletes)).filter(([, d]) => Array.isArray(d) && d.length === 2 && d.every(Number.isFinite)),
  );
  out.sent = Object.fromEntries(Object.entries(table(r.sent)).filter(([, sha]) => typeof sha === "string"));
  out.expired = Object.fromEntries(Object.entries(table(r.expired)).filter(([, sha]) => typeof sha === "string"));
  out.failing = Object.fromEntries(
    Object.entries(table(r.failing)).filter(([, f]) => Array.isArray(f) && typeof f[0] === "string" && Number.isFinite(f[1])),
  );
  const s = /** @type {any} */ (r.suspect);
  if (s && [s.since, s.passes, s.hostedCount, s.missing].every(Number.isFinite)) {
    out.suspect = { since: s.since, passes: s.passes, hostedCount: s.hostedCount, missing: s.missing };
  }
  return out;
}

/**
 * The per-pass cap on deletes for a baseline of `size` paths.
 * @param {number} size
 */
export function deleteCap(size) {
  return Math.max(DELETE_CAP_FLOOR, Math.min(DELETE_CAP_CEILING, Math.floor(size / 4)));
}

/**
 * A baseline entry: what the hosted side holds at a path, and the local memory agreeing.
 * @param {HostedMemory} hosted
 * @param {string | undefined} localId
 * @returns {SyncRecord["baseline"][string]}
 */
export function baselineOf(hosted, localId) {
  return localId === undefined
    ? [hosted.content_sha256, hosted.id, hosted.memory_version_id]
    : [hosted.content_sha256, hosted.id, hosted.memory_version_id, localId];
}

/**
 * Whether a hosted memory that keeps failing with this sha waits this pass.
 * @param {SyncRecord["failing"][string] | undefined} failing @param {string} sha @param {number} now
 */
function waiting(failing, sha, now) {
  return failing !== undefined && failing[0] === sha && failing[1] >= FAILURES_BEFORE_SKIP && now < (failing[2] ?? Infinity);
}

/** @param {string} a @param {string} b */
const byCodeUnits = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Decides one pass (see the invariants above).
 * @param {PlanInput} input
 * @returns {Plan}
 */
export function plan({ local, gone, hosted, state, now, pushing, corroborationMs }) {
  const st = /** @type {SyncRecord} */ (structuredClone(state));

  // Sends whose answer never came: a hosted memory holding exactly what was sent is that send,
  // landed after all.
  for (const [path, sha] of Object.entries(st.sent)) {
    const h = hosted.get(path);
    const l = local.get(path);
    if (h && h.content_sha256 === sha) st.baseline[path] = baselineOf(h, l?.id);
  }
  st.sent = {};

  const baselineSize = Object.keys(st.baseline).length;
  const cap = deleteCap(baselineSize);
  // Invariant 5: a local store found empty while its baseline is not was wiped (cleared site
  // data, an evicted origin, a deleted store): download it again, push and delete nothing. A
  // store that expiry emptied (every memory unused for long) was not wiped.
  const byExpiry = (/** @type {string} */ path) => gone.get(path) === "expiry" || st.expired[path] !== undefined;
  const wiped = local.size === 0 && baselineSize > 1 && Object.keys(st.baseline).some((path) => !byExpiry(path));
  if (wiped) {
    st.baseline = {};
    st.deletes = {};
    st.suspect = null;
  }

  /** @type {Pull[]} */ const pulls = [];
  /** @type {Push[]} */ const pushes = [];
  /** @type {LocalDelete[]} */ const localDeletes = [];
  /** @type {HostedDelete[]} */ const hostedDeletes = [];
  let waitingHosted = 0;
  const wantsPull = (/** @type {string} */ path, /** @type {HostedMemory} */ h) =>
    st.refused[`local:${path}`] !== h.content_sha256 && !waiting(st.failing[path], h.content_sha256, now);
  const paths = [...new Set([...local.keys(), ...hosted.keys(), ...Object.keys(st.baseline), ...Object.keys(st.expired)])].sort(byCodeUnits);
  // Invariant 3: a hosted store that suddenly reads empty, or lost more of the baseline than
  // a pass may delete, is a suspected wipe (a sign-in page, a bug, a script), not a mass delete.
  // Its listing is not believed to forget anything either: what it leaves out keeps its
  // baseline and its expiry mark.
  let lostHere = 0;
  for (const path of paths) {
    const l = local.get(path);
    if (l && !hosted.has(path) && st.baseline[path]?.[0] === l.content_sha256) lostHere++;
  }
  const suspicious = !wiped && baselineSize > 0 && (hosted.size === 0 || lostHere > cap);
  for (const path of paths) {
    const l = local.get(path) ?? null;
    const h = hosted.get(path) ?? null;
    const base = st.baseline[path]?.[0];
    if (l) {
      delete st.deletes[path];
      delete st.expired[path];
    }
    if (h && st.failing[path] && st.failing[path][0] !== h.content_sha256) delete st.failing[path];
    if (!h) {
      delete st.failing[path];
      if (!l) {
        // Gone on both sides: forgotten, unless the listing is suspected.
        if (!suspicious) {
          delete st.baseline[path];
          delete st.deletes[path];
          delete st.expired[path];
        }
      } else if (base !== undefined && l.content_sha256 === base) {
        // Deleted there, unchanged here.
        localDeletes.push({ path, local: l });
      } else if (pushing && st.refused[path] !== l.content_sha256) {
        pushes.push({ path, local: l, hosted: null });
      }
      continue;
    }
    if (!l) {
      const expiredAt = st.expired[path];
      if (expiredAt !== undefined) {
        // Expired here: stays local-only while the hosted text is the one it had.
        if (h.content_sha256 === expiredAt) continue;
        delete st.expired[path];
        delete st.baseline[path];
        if (wantsPull(path, h)) pulls.push({ path, hosted: h, local: null, conflict: false });
        continue;
      }
      if (base !== undefined && h.content_sha256 === base && gone.get(path) === "expiry") {
        // Invariant 4: expiry is about this device; the hosted memory stays.
        st.expired[path] = h.content_sha256;
        delete st.deletes[path];
        continue;
      }
      if (base === undefined || h.content_sha256 !== base) {
        delete st.deletes[path];
        if (wantsPull(path, h)) pulls.push({ path, hosted: h, local: null, conflict: false });
      } else if (pushing) {
        // Deleted here, unchanged there: deleted there only once corroborated.
        const seen = (st.deletes[path] ??= [now, 0]);
        seen[1]++;
        if (seen[1] >= 2 && now - seen[0] >= corroborationMs) hostedDeletes.push({ path, hosted: h, base });
        else waitingHosted++;
      }
      continue;
    }
    if (l.content_sha256 === h.content_sha256) {
      st.baseline[path] = baselineOf(h, l.id);
      delete st.refused[path];
      delete st.failing[path];
      continue;
    }
    const hostedChanged = h.content_sha256 !== base;
    const localChanged = l.content_sha256 !== base;
    if (hostedChanged) {
      if (wantsPull(path, h)) pulls.push({ path, hosted: h, local: l, conflict: localChanged });
    } else if (pushing && st.refused[path] !== l.content_sha256) {
      pushes.push({ path, local: l, hosted: h });
    }
  }

  let allowedLocal = localDeletes;
  if (suspicious) {
    const previous = st.suspect;
    st.suspect = previous
      ? { ...previous, passes: previous.passes + 1, hostedCount: hosted.size, missing: localDeletes.length }
      : { since: now, passes: 1, hostedCount: hosted.size, missing: localDeletes.length };
    const corroborated = st.suspect.passes >= 2 && now - st.suspect.since >= corroborationMs;
    allowedLocal = corroborated ? localDeletes.slice(0, cap) : [];
  } else {
    st.suspect = null;
    allowedLocal = localDeletes.slice(0, cap);
  }
  const allowedHosted = hostedDeletes.slice(0, cap);
  return {
    pulls,
    pushes,
    localDeletes: allowedLocal,
    hostedDeletes: allowedHosted,
    waiting: {
      localDeletes: localDeletes.length - allowedLocal.length,
      hostedDeletes: waitingHosted + hostedDeletes.length - allowedHosted.length,
    },
    wiped,
    suspected: suspicious,
    state: st,
  };
}
