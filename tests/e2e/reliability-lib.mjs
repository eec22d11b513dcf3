// Shared by tests/e2e/reliability-*.test.mjs (not a test itself): a server and Chromium for
// the fixture page (tests/e2e/fixtures/reliability.html), and the consistency check of a raw
// database dump, written against the schema (docs/ARCHITECTURE.md), not against the package.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";
export { CHROMIUM, CHROMIUM_ARGS };

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
/**
 * `limits` that lift the history budget (docs/TOOL.md#history-budget): for tests whose witness
 * of every commit is the version log itself, so no version may be pruned.
 */
export const WHOLE_HISTORY = { maxVersionsPerMemory: Number.MAX_SAFE_INTEGER, maxHistoryBytesPerMemory: Number.MAX_SAFE_INTEGER };
export const FIXTURE = "/tests/e2e/fixtures/reliability.html";

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("playwright-core").BrowserContext} BrowserContext */
/**
 * A raw dump from the page (window.rel.dump): contents carry their size and SHA-256 (hashed
 * in the page), and their bytes as base64 unless larger than the dump's `inline` option.
 * @typedef {{ version: number, stores: string[], files: Array<{ key: string, value: any }>,
 *   contents: Array<{ key: string, type: string, size?: number, sha256?: string, base64: string | null }>,
 *   versions: Array<{ key: string, value: any }>, listing: string[], meta?: any }} Dump
 */

/** Checks what every reliability test needs, then starts the file server. */
export async function startFixtureServer() {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  assert.ok(
    existsSync(path.join(REPO, "pkg", "memory_tool_wasm_bg.wasm")),
    "the wasm is not built: run `npm run build` first",
  );
  const server = await startServer({ port: 0 });
  // 127.0.0.1, not localhost: one origin for the whole run.
  return { server, origin: `http://127.0.0.1:${server.port}` };
}

/** Fresh profile folders, removed by `removeProfiles`. */
const profiles = /** @type {string[]} */ ([]);

export async function freshProfile(/** @type {string} */ tag) {
  const dir = await mkdtemp(path.join(tmpdir(), `memory-tool-rel-${tag}-`));
  profiles.push(dir);
  return dir;
}

export async function removeProfiles() {
  for (const dir of profiles.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** Chromium with a persistent profile, through playwright. */
export function launch(/** @type {string} */ profileDir) {
  return chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Opens the fixture in a new tab and waits until the package has loaded. Uncaught errors and
 * console errors of the page go to `problems`.
 * @param {BrowserContext} ctx
 * @param {string} origin
 * @param {string[]} problems
 */
export async function openFixture(ctx, origin, problems) {
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console.error: ${msg.text()}`);
  });
  await page.goto(origin + FIXTURE);
  await waitFixture(page);
  return page;
}

export async function waitFixture(/** @type {Page} */ page) {
  await page.waitForFunction(() => document.documentElement.dataset.state !== "loading");
  const state = await page.evaluate(() => document.documentElement.dataset.state);
  if (state !== "ready") {
    assert.fail(`the fixture did not load: ${await page.evaluate(() => document.documentElement.dataset.problem)}`);
  }
}

/** MemoryTool.open in the page under `key`; fails the test if it throws. */
export async function openTool(/** @type {Page} */ page, /** @type {string} */ key, /** @type {object} */ options) {
  // @ts-ignore: window.rel is the fixture's
  const opened = await page.evaluate(([k, o]) => rel.open(k, o), /** @type {const} */ ([key, options]));
  assert.ok(!("thrown" in opened), `MemoryTool.open failed: ${JSON.stringify(opened)}`);
  return opened;
}

/**
 * The raw database of `store`. Contents come with their bytes if no longer than `inline`
 * bytes or if they are the content of a file in `paths` (store paths); others with their
 * size and hash only.
 * @param {Page} page
 * @param {string} store
 * @param {{ inline?: number, paths?: string[] }} [options]
 * @returns {Promise<Dump>}
 */
export function dump(page, store, { inline = Number.MAX_SAFE_INTEGER, paths = [] } = {}) {
  // @ts-ignore
  return page.evaluate(([s, o]) => rel.dump(s, o), /** @type {const} */ ([store, { inline, paths }]));
}

export const sha256 = (/** @type {Buffer | string} */ data) => createHash("sha256").update(data).digest("hex");

/** A dump's contents' bytes as Buffers by content key (those the dump carries). */
export function contentsOf(/** @type {Dump} */ raw) {
  return new Map(raw.contents.flatMap((c) => (typeof c.base64 === "string" ? [[c.key, Buffer.from(c.base64, "base64")]] : [])));
}

/** The text of the file at store path `p` in a dump, or undefined. */
export function fileText(/** @type {Dump} */ raw, /** @type {string} */ p) {
  const file = raw.files.find((f) => f.key === p)?.value;
  if (!file) return undefined;
  return contentsOf(raw).get(file.content)?.toString("utf8");
}

/** How many versions each tool_use id wrote (createdBy.tool_use_id). */
export function versionsByToolUse(/** @type {Dump} */ raw) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const { value: v } of raw.versions) {
    const id = v.createdBy?.type === "tool" ? v.createdBy.tool_use_id : null;
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/**
 * Every consistency rule of a store, checked on its raw dump. Returns the problems found
 * (none: consistent) and a few counts.
 * - keys: a file's key is its path, a version's its id; memory ids are unique among files;
 * - every file's `version` exists, belongs to it, is that memory's newest version and agrees
 *   with the file (path, size, sha256, content key; not a deletion);
 * - every file's `content` key exists in contents, with `size` bytes hashing to `sha256`;
 *   every version's content likewise (unless redacted);
 * - every content key is referenced by at least one version (no orphans);
 * - replaying the versions in id order (created/modified put the memory at its path, deleted
 *   removes it) gives exactly the files (same paths, memory ids and head versions);
 * - no path is both a file and a directory (no file key is a prefix + "/" of another);
 * - the listing holds exactly one key `{path}\0{size}` per file (schema version 3 on);
 * - the metadata record counts the files and their bytes, and bounds the version ids (4 on);
 *   with `metaMayBeMissing`, it may be absent (after a delete at full quota).
 * @param {Dump} raw
 * @param {{ metaMayBeMissing?: boolean }} [options]
 */
export function checkStore(raw, { metaMayBeMissing = false } = {}) {
  /** @type {string[]} */
  const problems = [];
  const say = (/** @type {string} */ p) => {
    if (problems.length < 50) problems.push(p);
  };
  /** @type {Map<string, { size: number, sha256: string }>} content key -> size and hash */
  const contents = new Map();
  for (const c of raw.contents) {
    if (c.type !== "[object Uint8Array]" || c.size === undefined || c.sha256 === undefined) {
      say(`content ${c.key} is a ${c.type}, not bytes`);
      continue;
    }
    if (typeof c.base64 === "string") {
      const bytes = Buffer.from(c.base64, "base64");
      if (bytes.length !== c.size || sha256(bytes) !== c.sha256) say(`content ${c.key}: the page's hash disagrees with Node's`);
    }
    contents.set(c.key, { size: c.size, sha256: c.sha256 });
  }
  const versions = raw.versions.map((v) => v.value);
  /** @type {Map<string, any>} */
  const byId = new Map();
  /** @type {Map<string, any>} newest version of each memory */
  const newest = new Map();
  let previous = "";
  for (const { key, value: v } of raw.versions) {
    if (key !== v.id) say(`version key ${key} holds a record with id ${v.id}`);
    if (!(previous < key)) say(`version ids out of order: ${previous} then ${key}`);
    previous = key;
    byId.set(v.id, v);
    newest.set(v.memoryId, v);
    if (v.content !== undefined && v.redactedAt == null) {
      const c = contents.get(v.content);
      if (!c) say(`version ${v.id} refers to missing content ${v.content}`);
      else if (c.size !== v.size || c.sha256 !== v.sha256) {
        say(`version ${v.id}: content ${v.content} is ${c.size} bytes / ${c.sha256}, not ${v.size} / ${v.sha256}`);
      }
    }
  }

  /** @type {Set<string>} */
  const memoryIds = new Set();
  for (const { key, value: f } of raw.files) {
    if (key !== f.path) say(`file key ${key} holds a record with path ${f.path}`);
    if (memoryIds.has(f.id)) say(`memory id ${f.id} appears on two files`);
    memoryIds.add(f.id);
    const head = byId.get(f.version);
    if (!head) say(`${f.path}: head version ${f.version} does not exist`);
    else {
      if (head.memoryId !== f.id) say(`${f.path}: head version ${f.version} belongs to ${head.memoryId}, not ${f.id}`);
      if (newest.get(f.id)?.id !== f.version) say(`${f.path}: head ${f.version} is not the newest version of ${f.id} (${newest.get(f.id)?.id})`);
      if (head.operation === "deleted") say(`${f.path}: head version ${f.version} is a deletion`);
      if (head.path !== f.path || head.size !== f.size || head.sha256 !== f.sha256 || head.content !== f.content) {
        say(`${f.path}: head version ${f.version} disagrees: ${JSON.stringify([head.path, head.size, head.sha256, head.content])}`);
      }
    }
    const c = contents.get(f.content);
    if (!c) say(`${f.path}: content ${f.content} does not exist`);
    else if (c.size !== f.size || c.sha256 !== f.sha256) {
      say(`${f.path}: content is ${c.size} bytes / ${c.sha256}, the record says ${f.size} / ${f.sha256}`);
    }
  }

  const referenced = new Set(versions.map((v) => v.content).filter((c) => c !== undefined));
  const orphans = raw.contents.map((c) => c.key).filter((key) => !referenced.has(key));
  if (orphans.length > 0) say(`${orphans.length} orphan content record(s): ${orphans.slice(0, 5).join(", ")}`);

  // Replay.
  /** @type {Map<string, string>} memory id -> path */
  const where = new Map();
  /** @type {Map<string, { id: string, version: string }>} path -> memory */
  const replayed = new Map();
  for (const v of versions) {
    const old = where.get(v.memoryId);
    if (v.operation === "deleted") {
      if (old === undefined) say(`replay: ${v.id} deletes ${v.memoryId}, which is not live`);
      else replayed.delete(old);
      where.delete(v.memoryId);
      continue;
    }
    if (v.operation !== "created" && v.operation !== "modified") {
      say(`replay: ${v.id} has operation ${v.operation}`);
      continue;
    }
    if (v.operation === "created" && old !== undefined) say(`replay: ${v.id} creates ${v.memoryId}, which is live at ${old}`);
    if (v.redactedAt != null) continue; // a redacted version keeps no path (never a live head here)
    if (old !== undefined) replayed.delete(old);
    const there = replayed.get(v.path);
    if (there && there.id !== v.memoryId) say(`replay: ${v.id} puts ${v.memoryId} at ${v.path}, where ${there.id} lives`);
    replayed.set(v.path, { id: v.memoryId, version: v.id });
    where.set(v.memoryId, v.path);
  }
  const actual = new Map(raw.files.map(({ value: f }) => [f.path, { id: f.id, version: f.version }]));
  for (const [p, m] of replayed) {
    const f = actual.get(p);
    if (!f) say(`replay has ${p} (${m.id}); the store does not`);
    else if (f.id !== m.id || f.version !== m.version) say(`replay has ${p} as ${JSON.stringify(m)}; the store ${JSON.stringify(f)}`);
  }
  for (const p of actual.keys()) if (!replayed.has(p)) say(`the store has ${p}; the replay does not`);

  // A file is never also a directory.
  const paths = new Set(actual.keys());
  for (const p of paths) {
    const parts = p.split("/");
    for (let n = 2; n < parts.length; n++) {
      const ancestor = parts.slice(0, n).join("/");
      if (paths.has(ancestor)) say(`${ancestor} is a file and a directory (of ${p})`);
    }
  }

  // The listing mirrors the files.
  if (raw.stores.includes("listing")) {
    const expected = new Set(raw.files.map(({ value: f }) => `${f.path}\u0000${f.size}`));
    const listed = new Set(raw.listing);
    if (listed.size !== raw.listing.length) say("the listing holds a key twice");
    for (const key of expected) if (!listed.has(key)) say(`the listing lacks ${JSON.stringify(key)}`);
    for (const key of listed) if (!expected.has(key)) say(`the listing has ${JSON.stringify(key)}, which is no file`);
  }
  // The store metadata (schema version 4 on) counts exactly the files and their bytes, and its
  // newest version id bounds every version id.
  if (raw.stores.includes("meta")) {
    const meta = raw.meta;
    // A delete at full quota removes the record, and the next write counts it again
    // (docs/TOOL.md#delete-at-full-quota).
    if (!meta) {
      if (!metaMayBeMissing) say("the meta store has no store record");
    }
    else {
      const bytes = raw.files.reduce((sum, { value: f }) => sum + f.size, 0);
      if (meta.files !== raw.files.length) say(`the metadata counts ${meta.files} files, the store holds ${raw.files.length}`);
      if (meta.bytes !== bytes) say(`the metadata counts ${meta.bytes} bytes, the files hold ${bytes}`);
      const last = raw.versions.at(-1)?.key ?? null;
      if (last !== null && !(meta.newestVersion >= last)) say(`the metadata's newest version ${meta.newestVersion} is below ${last}`);
    }
  }
  return { problems, files: raw.files.length, versions: versions.length, contents: raw.contents.length };
}

/** Asserts `checkStore` found nothing; returns its counts. */
export function assertConsistent(/** @type {Dump} */ raw, /** @type {string} */ what, /** @type {{ metaMayBeMissing?: boolean }} */ options = {}) {
  const result = checkStore(raw, options);
  assert.deepEqual(result.problems, [], `the store is consistent ${what}`);
  return result;
}

/** A dump without its contents' bytes listed: for messages. */
export function summary(/** @type {Dump} */ raw) {
  return `${raw.files.length} files, ${raw.versions.length} versions, ${raw.contents.length} contents`;
}
