// The memory tool's six commands written by hand over Dexie 4, as a web developer would write
// them instead of using the package: one table `files`, one record per file keyed by its tool
// path `{ path, content, size, updatedAt }`, one transaction per command, the same result
// texts for the same inputs (checked against the package by
// tests/node/bench-alternatives.test.mjs). The same commands as idb.mjs, in Dexie's idiom; what
// both leave out is listed in docs/BENCHMARKS.md.

import Dexie from "dexie";
import {
  ancestors,
  badPath,
  byteLength,
  canonical,
  directoryListing,
  fail,
  fileView,
  insertAt,
  ok,
  replaceOnce,
} from "./texts.mjs";

/**
 * @typedef {{ path: string, content: string, size: number, updatedAt: number }} FileRow
 * @typedef {Dexie & { files: import("dexie").Table<FileRow, string> }} MemoryDexie
 */

/**
 * Opens (creating) database `name` and returns the tool over it. `dependencies`: Dexie's own
 * option for another IndexedDB (fake-indexeddb in Node).
 * @param {string} name
 * @param {{ indexedDB?: IDBFactory, IDBKeyRange?: typeof IDBKeyRange }} [dependencies]
 */
export async function openDexieMemory(name, dependencies) {
  const db = /** @type {MemoryDexie} */ (new Dexie(name, dependencies));
  db.version(1).stores({ files: "path" });
  await db.open();
  return {
    /** Runs one tool command; resolves with `{ content, isError }`. @param {Record<string, any>} input */
    execute: (input) => execute(db, input),
    /** Puts records straight in (filling a store; never timed). @param {Array<{ path: string, content: string }>} files */
    async fill(files) {
      const now = Date.now();
      await db.files.bulkPut(files.map((f) => ({ path: f.path, content: f.content, size: byteLength(f.content), updatedAt: now })));
    },
    /** Every record below `path` (never timed). @param {string} path */
    records: (path) => below(db, path).toArray(),
    /** Deletes records (never timed). @param {string} path */
    deleteBelow: (path) => below(db, path).delete(),
    close: () => db.close(),
    destroy: () => db.delete(),
  };
}

/** Every row below `path`: `[path/, path0)`. @param {MemoryDexie} db @param {string} path */
const below = (db, path) => db.files.where("path").between(`${path}/`, `${path}0`, true, false);

/** @param {MemoryDexie} db @param {Record<string, any>} input */
async function execute(db, input) {
  switch (input.command) {
    case "view":
      return view(db, input.path);
    case "create":
      return create(db, input.path, input.file_text);
    case "str_replace":
      return edit(db, input.path, (text) => replaceOnce(input.path, text, input.old_str, input.new_str), "Please provide a valid path.");
    case "insert":
      return edit(db, input.path, (text) => insertAt(input.path, text, input.insert_line, input.insert_text));
    case "delete":
      return remove(db, input.path);
    case "rename":
      return rename(db, input.old_path, input.new_path);
    default:
      return fail(`Error: Unknown command ${String(input.command)}`);
  }
}

/** @param {MemoryDexie} db @param {string} path */
function view(db, path) {
  const p = canonical(path);
  if (!p) return badPath(path);
  return db.transaction("r", db.files, async () => {
    if (p !== "/memories") {
      const record = await db.files.get(p);
      if (record) return ok(fileView(path, record.content));
    }
    const files = await below(db, p).toArray();
    if (files.length === 0 && p !== "/memories") return fail(`The path ${path} does not exist. Please provide a valid path.`);
    return ok(directoryListing(path, p, files));
  });
}

/** @param {MemoryDexie} db @param {string} path @param {string} text */
function create(db, path, text) {
  const p = canonical(path);
  if (!p || typeof text !== "string") return badPath(path);
  return db.transaction("rw", db.files, async () => {
    const up = ancestors(p);
    const [existing, child, ...parents] = await Promise.all([
      db.files.get(p),
      below(db, p).limit(1).primaryKeys(),
      ...up.map((a) => db.files.get(a)),
    ]);
    if (p === "/memories" || existing || child.length > 0) return fail(`Error: File ${path} already exists`);
    if (path.endsWith("/")) return fail(`Error: Cannot create ${path}: a file path must not end with '/'`);
    const file = parents.findIndex(Boolean);
    if (file >= 0) return fail(`Error: Cannot create ${path}: ${up[file]} is a file`);
    await db.files.put({ path: p, content: text, size: byteLength(text), updatedAt: Date.now() });
    return ok(`File created successfully at: ${path}`);
  });
}

/**
 * str_replace and insert: read the file, change its text, write it back.
 * @param {MemoryDexie} db
 * @param {string} path
 * @param {(text: string) => ({ text: string, result: import("./texts.mjs").Result } | { error: import("./texts.mjs").Result })} change
 * @param {string} [hint] what str_replace's not-found text adds
 */
function edit(db, path, change, hint) {
  const p = canonical(path);
  if (!p) return badPath(path);
  return db.transaction("rw", db.files, async () => {
    const record = await db.files.get(p);
    if (!record) return fail(`Error: The path ${path} does not exist${hint ? `. ${hint}` : ""}`);
    const changed = change(record.content);
    if ("error" in changed) return changed.error;
    await db.files.put({ ...record, content: changed.text, size: byteLength(changed.text), updatedAt: Date.now() });
    return changed.result;
  });
}

/** @param {MemoryDexie} db @param {string} path */
function remove(db, path) {
  const p = canonical(path);
  if (!p) return badPath(path);
  if (p === "/memories") return fail("Error: Cannot delete the /memories directory itself");
  return db.transaction("rw", db.files, async () => {
    const [record, child] = await Promise.all([db.files.get(p), below(db, p).limit(1).primaryKeys()]);
    if (!record && child.length === 0) return fail(`Error: The path ${path} does not exist`);
    if (record) await db.files.delete(p);
    else await below(db, p).delete();
    return ok(`Successfully deleted ${path}`);
  });
}

/** @param {MemoryDexie} db @param {string} oldPath @param {string} newPath */
function rename(db, oldPath, newPath) {
  const o = canonical(oldPath);
  const n = canonical(newPath);
  if (!o) return badPath(oldPath);
  if (!n) return badPath(newPath);
  if (o === "/memories") return fail("Error: Cannot rename the /memories directory itself");
  return db.transaction("rw", db.files, async () => {
    const up = ancestors(n);
    const [source, sourceChild, target, targetChild, ...parents] = await Promise.all([
      db.files.get(o),
      below(db, o).limit(1).primaryKeys(),
      db.files.get(n),
      below(db, n).limit(1).primaryKeys(),
      ...up.map((a) => db.files.get(a)),
    ]);
    if (n === "/memories" || n === o || target || targetChild.length > 0) return fail(`Error: The destination ${newPath} already exists`);
    if (!source && sourceChild.length === 0) return fail(`Error: The path ${oldPath} does not exist`);
    if (n.startsWith(`${o}/`)) return fail(`Error: Cannot move ${oldPath} into itself`);
    const file = parents.findIndex(Boolean);
    if (file >= 0) return fail(`Error: Cannot create ${newPath}: ${up[file]} is a file`);
    const now = Date.now();
    if (source) {
      await Promise.all([db.files.delete(o), db.files.put({ ...source, path: n, updatedAt: now })]);
    } else {
      const moved = await below(db, o).toArray();
      await below(db, o).delete();
      await db.files.bulkPut(moved.map((r) => ({ ...r, path: n + r.path.slice(o.length), updatedAt: now })));
    }
    return ok(`Successfully renamed ${oldPath} to ${newPath}`);
  });
}
