// The memory tool's six commands written by hand over `idb` 8, as a web developer would write
// them instead of using the package: one object store `files`, one record per file keyed by
// its tool path `{ path, content, size, updatedAt }`, one transaction per command, the same
// result texts for the same inputs (checked against the package by
// tests/node/bench-alternatives.test.mjs). The bench's yardstick (docs/BENCHMARKS.md): what it
// leaves out is listed there (no versions, hashes, ids, limits, policy, events, path rules).

import { openDB, deleteDB } from "idb";
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

/** Every key below `path`: `[path/, path0)`. @param {string} path */
const below = (path) => IDBKeyRange.bound(`${path}/`, `${path}0`, false, true);

/**
 * Opens (creating) database `name` and returns the tool over it.
 * @param {string} name
 */
export async function openIdbMemory(name) {
  const db = await openDB(name, 1, {
    upgrade(database) {
      database.createObjectStore("files", { keyPath: "path" });
    },
  });
  return {
    /** Runs one tool command; resolves with `{ content, isError }`. @param {Record<string, any>} input */
    execute: (input) => execute(db, input),
    /** Puts records straight in (filling a store; never timed). @param {Array<{ path: string, content: string }>} files */
    async fill(files) {
      const tx = db.transaction("files", "readwrite");
      const now = Date.now();
      for (const f of files) tx.store.put({ path: f.path, content: f.content, size: byteLength(f.content), updatedAt: now });
      await tx.done;
    },
    /** Every record below `path` (never timed). @param {string} path */
    records: (path) => db.getAll("files", below(path)),
    /** Deletes records (never timed). @param {string} path */
    deleteBelow: (path) => db.delete("files", below(path)),
    close: () => db.close(),
    destroy: async () => {
      db.close();
      await deleteDB(name);
    },
  };
}

/**
 * @param {import("idb").IDBPDatabase} db
 * @param {Record<string, any>} input
 */
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

/** @param {import("idb").IDBPDatabase} db @param {string} path */
async function view(db, path) {
  const p = canonical(path);
  if (!p) return badPath(path);
  const tx = db.transaction("files");
  if (p !== "/memories") {
    const record = await tx.store.get(p);
    if (record) return ok(fileView(path, record.content));
  }
  const files = await tx.store.getAll(below(p));
  if (files.length === 0 && p !== "/memories") return fail(`The path ${path} does not exist. Please provide a valid path.`);
  return ok(directoryListing(path, p, files));
}

/** @param {import("idb").IDBPDatabase} db @param {string} path @param {string} text */
async function create(db, path, text) {
  const p = canonical(path);
  if (!p || typeof text !== "string") return badPath(path);
  const tx = db.transaction("files", "readwrite");
  const up = ancestors(p);
  const [existing, child, ...parents] = await Promise.all([tx.store.get(p), tx.store.getKey(below(p)), ...up.map((a) => tx.store.get(a))]);
  if (p === "/memories" || existing || child !== undefined) return fail(`Error: File ${path} already exists`);
  if (path.endsWith("/")) return fail(`Error: Cannot create ${path}: a file path must not end with '/'`);
  const file = parents.findIndex(Boolean);
  if (file >= 0) return fail(`Error: Cannot create ${path}: ${up[file]} is a file`);
  await Promise.all([tx.store.put({ path: p, content: text, size: byteLength(text), updatedAt: Date.now() }), tx.done]);
  return ok(`File created successfully at: ${path}`);
}

/**
 * str_replace and insert: read the file, change its text, write it back.
 * @param {import("idb").IDBPDatabase} db
 * @param {string} path
 * @param {(text: string) => ({ text: string, result: import("./texts.mjs").Result } | { error: import("./texts.mjs").Result })} change
 * @param {string} [hint] what str_replace's not-found text adds
 */
async function edit(db, path, change, hint) {
  const p = canonical(path);
  if (!p) return badPath(path);
  const tx = db.transaction("files", "readwrite");
  const record = await tx.store.get(p);
  if (!record) return fail(`Error: The path ${path} does not exist${hint ? `. ${hint}` : ""}`);
  const changed = change(record.content);
  if ("error" in changed) return changed.error;
  await Promise.all([
    tx.store.put({ ...record, content: changed.text, size: byteLength(changed.text), updatedAt: Date.now() }),
    tx.done,
  ]);
  return changed.result;
}

/** @param {import("idb").IDBPDatabase} db @param {string} path */
async function remove(db, path) {
  const p = canonical(path);
  if (!p) return badPath(path);
  if (p === "/memories") return fail("Error: Cannot delete the /memories directory itself");
  const tx = db.transaction("files", "readwrite");
  const [record, child] = await Promise.all([tx.store.get(p), tx.store.getKey(below(p))]);
  if (!record && child === undefined) return fail(`Error: The path ${path} does not exist`);
  await Promise.all([tx.store.delete(record ? p : below(p)), tx.done]);
  return ok(`Successfully deleted ${path}`);
}

/** @param {import("idb").IDBPDatabase} db @param {string} oldPath @param {string} newPath */
async function rename(db, oldPath, newPath) {
  const o = canonical(oldPath);
  const n = canonical(newPath);
  if (!o) return badPath(oldPath);
  if (!n) return badPath(newPath);
  if (o === "/memories") return fail("Error: Cannot rename the /memories directory itself");
  const tx = db.transaction("files", "readwrite");
  const up = ancestors(n);
  const [source, sourceChild, target, targetChild, ...parents] = await Promise.all([
    tx.store.get(o),
    tx.store.getKey(below(o)),
    tx.store.get(n),
    tx.store.getKey(below(n)),
    ...up.map((a) => tx.store.get(a)),
  ]);
  if (n === "/memories" || n === o || target || targetChild !== undefined) return fail(`Error: The destination ${newPath} already exists`);
  if (!source && sourceChild === undefined) return fail(`Error: The path ${oldPath} does not exist`);
  if (n.startsWith(`${o}/`)) return fail(`Error: Cannot move ${oldPath} into itself`);
  const file = parents.findIndex(Boolean);
  if (file >= 0) return fail(`Error: Cannot create ${newPath}: ${up[file]} is a file`);
  const now = Date.now();
  if (source) {
    await Promise.all([tx.store.delete(o), tx.store.put({ ...source, path: n, updatedAt: now }), tx.done]);
  } else {
    const moved = await tx.store.getAll(below(o));
    const writes = [tx.store.delete(below(o))];
    for (const r of moved) writes.push(tx.store.put({ ...r, path: n + r.path.slice(o.length), updatedAt: now }));
    await Promise.all([...writes, tx.done]);
  }
  return ok(`Successfully renamed ${oldPath} to ${newPath}`);
}
