// The IndexedDB schema of a store's database: its object stores and indexes, the version
// this code writes, the upgrade of older databases in place, and opening and deleting a
// database. The stores' use inside a command's transaction is indexeddb-tx.js's.

import { MemoryToolError, toStorageError } from "./errors.js";

/** @typedef {import("./index.js").FileRecord} FileRecord */

/** The schema version this code writes; `upgrade` brings any older database up to it. */
export const SCHEMA_VERSION = 5;
/** File records (metadata, no bytes), keyed by their `path`; unique index `id` (the memory id). */
export const FILES = "files";
/**
 * The field under which file records of version 4 databases may keep a copy of their head's
 * bytes. No longer written or read: the content store is the one place of a text, and the
 * upgrade to version 5 takes every copy out (keeping it as the content when that is missing).
 */
export const HEAD_BYTES = "bytes";
/**
 * File contents (`Uint8Array`), keyed out of line by their content key: `{path}\0{version id}`
 * for the bytes a head writes (version 5), so a file's bytes are found by its key in the round
 * that reads its record (`getHeadContent`); keys written before stay valid (a version id, or a
 * version 1 store's memory id), since a record and a version name their key.
 */
export const CONTENTS = "contents";
/** Version records, keyed by `id`; index `memory` on [memoryId, id], index `content`. */
export const VERSIONS = "versions";
/**
 * The directory listing: a key `{path}\0{size}` (value null) per file record, kept in step
 * with `files` in every transaction that writes a record (version 3). A directory view reads
 * only these keys: for 10,000 files, one `getAllKeys` of ~12 ms where `getAll` of the records
 * takes ~50 ms in Chromium (the cost is per value read, whatever its size).
 */
export const LISTING = "listing";
/**
 * The store's metadata (version 4), kept in step by every transaction that writes: under key
 * `"store"` the `StoreMeta` record (file count, bytes of the heads, newest version id, when the
 * store was created and last changed), so a create needs no `count()` and no key cursor; under
 * keys `["state", name]` the host's per-store state (`MemoryTool.state`: sync baselines and
 * the like), written only by the calls that ask.
 */
export const META = "meta";
/** The key of the StoreMeta record in META. */
export const META_KEY = "store";
/** The `meta` key of what the store remembers of the time (docs/TOOL.md#a-clock-that-can-be-trusted). */
export const CLOCK_KEY = "clock";
/** How long an open may wait with no event before it fails clearly. */
const OPEN_TIMEOUT_MS = 5000;
/** Every object store: what a command's transaction spans. */
export const STORES = [FILES, CONTENTS, VERSIONS, LISTING, META];

/**
 * The listing key of a file: `{path}\0{size}`.
 * @param {string} path
 * @param {number} size
 */
export function listingKey(path, size) {
  return `${path}\u0000${size}`;
}

/**
 * The metadata of a store: what a command would otherwise count or scan for.
 * @typedef {object} StoreMeta
 * @property {number} files the number of file records
 * @property {number} bytes the sum of their sizes (the heads' bytes; history is apart)
 * @property {string | null} newestVersion the highest version id ever written (version ids
 *   only grow: a pruned one still bounds the next)
 * @property {number} createdAt epoch ms the store was created (or first upgraded to version 4)
 * @property {number} changedAt epoch ms of the last transaction that wrote a record
 * @property {number | null} [archivedAt] epoch ms the store was archived: every write is
 *   refused from then on, however the store is opened
 */

/**
 * Opens the database at SCHEMA_VERSION, creating or upgrading it. Rejects with a storage
 * error, or with STORAGE_FAILED and what to do when another tab blocks or stalls the open.
 * With `vanished` given (the store is known to have held memories), a database that turns out
 * not to exist is not created: the open rejects with what `vanished()` returns.
 * @param {IDBFactory} factory
 * @param {string} name
 * @param {() => Error} [vanished]
 * @returns {Promise<IDBDatabase>}
 */
export function openDatabase(factory, name, vanished) {
  return new Promise((resolve, reject) => {
    /** @type {IDBOpenDBRequest} */
    let request;
    try {
      request = factory.open(name, SCHEMA_VERSION);
    } catch (error) {
      reject(toStorageError(error));
      return;
    }
    let givenUp = false;
    // An open can wait in IndexedDB's queue with no event at all (behind another tab's upgrade
    // that an old tab blocks): give up after a while, clearly, rather than hang.
    const timer = setTimeout(() => {
      givenUp = true;
      reject(
        new MemoryToolError(
          "STORAGE_FAILED",
          "The memory store could not be opened: another tab is holding it (an upgrade is " +
            "waiting); close the other tabs of this site and try again.",
        ),
      );
    }, OPEN_TIMEOUT_MS);
    /** @type {Error | null} */
    let gone = null;
    request.onupgradeneeded = (event) => {
      const tx = /** @type {IDBTransaction} */ (request.transaction);
      if (event.oldVersion === 0 && vanished) {
        // Deleted behind our back (another tab, cleared data, a browser that dropped a corrupt
        // database): creating it anew would silently start over. Abort: nothing is created.
        gone = vanished();
        tx.abort();
        return;
      }
      upgrade(request.result, tx, event.oldVersion);
    };
    request.onsuccess = () => {
      clearTimeout(timer);
      // Opened after all, once the blocking connection went away: no one waits for it now.
      if (givenUp) request.result.close();
      else resolve(request.result);
    };
    request.onerror = () => {
      clearTimeout(timer);
      reject(gone ?? toStorageError(request.error));
    };
    // `blocked` means a connection elsewhere (a tab running an older version that ignores
    // `versionchange`) did not close for our upgrade. It may never close: rather than hang,
    // say what to do; the next transaction tries again.
    request.onblocked = () => {
      clearTimeout(timer);
      givenUp = true;
      reject(
        new MemoryToolError(
          "STORAGE_FAILED",
          "The memory store cannot be opened while another tab keeps an older version of it " +
            "open; close the other tabs of this site and try again.",
        ),
      );
    };
  });
}

/**
 * Brings the schema from `oldVersion` up to SCHEMA_VERSION, one version at a time, keeping
 * the data. Version 1 file records have no `content` or `version`: the core reads their bytes
 * under the memory id, where version 1 stored them, so no record needs rewriting.
 * @param {IDBDatabase} db
 * @param {IDBTransaction} tx the upgrade transaction
 * @param {number} oldVersion 0 for a new database
 */
function upgrade(db, tx, oldVersion) {
  // Created whenever missing, whatever the old version: an empty version-1 database (opened by
  // name without a version, as a devtools snippet does) must not lock the store out.
  if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES, { keyPath: "path" });
  if (!db.objectStoreNames.contains(CONTENTS)) db.createObjectStore(CONTENTS);
  if (oldVersion < 2) {
    tx.objectStore(FILES).createIndex("id", "id", { unique: true });
    const versions = db.createObjectStore(VERSIONS, { keyPath: "id" });
    versions.createIndex("memory", ["memoryId", "id"]);
    versions.createIndex("content", "content");
  }
  if (!db.objectStoreNames.contains(LISTING)) {
    // Version 3: the listing keys of the records already there, written in the upgrade
    // transaction (one cursor walk; the open completes only once they are all in).
    const listing = db.createObjectStore(LISTING);
    const walk = tx.objectStore(FILES).openCursor();
    walk.onsuccess = () => {
      const cursor = walk.result;
      if (!cursor) return;
      const { path, size } = /** @type {FileRecord} */ (cursor.value);
      listing.put(null, listingKey(path, size));
      cursor.continue();
    };
  }
  if (!db.objectStoreNames.contains(META)) {
    // Version 4: the metadata record, from what the database holds (or zeros for a new one).
    const meta = db.createObjectStore(META);
    const now = Date.now();
    if (oldVersion === 0) {
      meta.put(emptyMeta(now), META_KEY);
    } else {
      measure(tx.objectStore(FILES), tx.objectStore(VERSIONS), now, (record) => meta.put(record, META_KEY));
    }
  }
  if (oldVersion > 0 && oldVersion < 5) rekeyHeads(tx);
}

/**
 * Version 5: each head's bytes in one place, under the key of its file. Two walks over the file
 * records, one record in memory at a time: the first counts how many records name each content
 * key; the second takes out every copy of a head's bytes a record holds (HEAD_BYTES; kept as the
 * content when the content is missing) and moves the bytes of each head that alone names its
 * key to `{path}\0{version id}`, renaming the key in the versions that name it too (the
 * `content` index). A key two records name stays where it is (it is still valid; a view of
 * those files costs a second round until their next write). Nothing is dropped: a record whose
 * bytes are found nowhere keeps its key, for `check()` to report.
 * @param {IDBTransaction} tx the upgrade transaction
 */
function rekeyHeads(tx) {
  const files = tx.objectStore(FILES);
  const contents = tx.objectStore(CONTENTS);
  const versions = tx.objectStore(VERSIONS);
  /** @type {Map<string, number>} */
  const named = new Map();
  const keyOf = (/** @type {any} */ record) => (typeof record.content === "string" ? record.content : record.id);
  const count = files.openCursor();
  count.onsuccess = () => {
    const cursor = count.result;
    if (!cursor) {
      move();
      return;
    }
    const key = keyOf(cursor.value);
    if (typeof key === "string") named.set(key, (named.get(key) ?? 0) + 1);
    cursor.continue();
  };
  const move = () => {
    const walk = files.openCursor();
    walk.onsuccess = () => {
      const cursor = walk.result;
      if (!cursor) return;
      const record = /** @type {any} */ (cursor.value);
      const copy = record[HEAD_BYTES];
      delete record[HEAD_BYTES];
      const old = keyOf(record);
      const suffix = typeof record.version === "string" ? record.version : old;
      const key = `${record.path}\u0000${suffix}`;
      if (typeof old !== "string" || old.startsWith(`${record.path}\u0000`) || named.get(old) !== 1) {
        if (copy !== undefined && typeof old === "string") keepCopy(contents, old, copy);
        if (copy !== undefined) cursor.update(record);
        cursor.continue();
        return;
      }
      const read = contents.get(old);
      read.onsuccess = () => {
        const bytes = read.result ?? copy;
        if (bytes === undefined) {
          // Found nowhere: the record keeps its key, and `check()` reports it.
          if (copy !== undefined) cursor.update(record);
          cursor.continue();
          return;
        }
        contents.put(bytes, key);
        const naming = versions.index("content").openCursor(old);
        naming.onsuccess = () => {
          const version = naming.result;
          if (version) {
            version.update({ ...version.value, content: key });
            version.continue();
            return;
          }
          contents.delete(old);
          record.content = key;
          cursor.update(record);
          cursor.continue();
        };
      };
    };
  };
}

/**
 * Keeps a record's copy of its head's bytes as the content under `key` when that is missing.
 * @param {IDBObjectStore} contents
 * @param {string} key
 * @param {unknown} copy
 */
function keepCopy(contents, key, copy) {
  const there = contents.getKey(key);
  there.onsuccess = () => {
    if (there.result === undefined) contents.put(copy, key);
  };
}

/**
 * The metadata of an empty store.
 * @param {number} now
 * @returns {StoreMeta}
 */
export function emptyMeta(now) {
  return { files: 0, bytes: 0, newestVersion: null, createdAt: now, changedAt: now, archivedAt: null };
}

/**
 * Counts what a store holds and hands its StoreMeta to `done`: the file count and bytes, and
 * one key cursor for the newest version id. With `listing`, the files are counted from its
 * keys (`{path}\0{size}`, one `getAllKeys`, no record read: a record holds its head's bytes);
 * without (the upgrade to version 4, where an older database's listing may still be filling),
 * by a walk over the file records. A transaction that finds the record missing, or must count
 * again, passes `listing`.
 * @param {IDBObjectStore} files
 * @param {IDBObjectStore} versions
 * @param {number} now
 * @param {(meta: StoreMeta) => void} done
 * @param {IDBObjectStore} [listing]
 */
export function measure(files, versions, now, done, listing) {
  let count = 0;
  let bytes = 0;
  /** @type {string | null | undefined} */
  let newest;
  let walked = false;
  const ready = () => {
    if (walked && newest !== undefined) {
      done({ files: count, bytes, newestVersion: newest, createdAt: now, changedAt: now, archivedAt: null });
    }
  };
  const last = versions.openKeyCursor(null, "prev");
  last.onsuccess = () => {
    newest = last.result ? /** @type {string} */ (last.result.key) : null;
    ready();
  };
  if (listing) {
    const keys = listing.getAllKeys();
    keys.onsuccess = () => {
      for (const key of keys.result) {
        const text = String(key);
        const size = Number(text.slice(text.lastIndexOf("\u0000") + 1));
        count += 1;
        if (Number.isFinite(size) && size > 0) bytes += size;
      }
      walked = true;
      ready();
    };
    return;
  }
  const walk = files.openCursor();
  walk.onsuccess = () => {
    const cursor = walk.result;
    if (!cursor) {
      walked = true;
      ready();
      return;
    }
    const { size } = /** @type {FileRecord} */ (cursor.value);
    count += 1;
    if (typeof size === "number" && Number.isFinite(size) && size > 0) bytes += size;
    cursor.continue();
  };
}

/**
 * Deletes database `name`; resolves at once when there is none. Rejects with STORAGE_FAILED
 * when a connection elsewhere keeps it open (the deletion then waits for that tab).
 * @param {IDBFactory} factory
 * @param {string} name
 * @returns {Promise<void>}
 */
export function deleteDatabase(factory, name) {
  return new Promise((resolve, reject) => {
    /** @type {IDBOpenDBRequest} */
    let request;
    try {
      request = factory.deleteDatabase(name);
    } catch (error) {
      reject(toStorageError(error));
      return;
    }
    request.onsuccess = () => resolve();
    request.onerror = () => reject(toStorageError(request.error));
    // Every connection of this package closes on `versionchange`; one that does not belongs to
    // another tab running an old version. The request stays queued and completes once that
    // connection closes; rather than hang until then, say so.
    request.onblocked = () =>
      reject(
        new MemoryToolError(
          "STORAGE_FAILED",
          "The memory store cannot be deleted yet: another tab keeps it open with an older " +
            "version of memory-tool-wasm. It will be deleted once that tab closes it; close the " +
            "other tabs of this site to finish now.",
        ),
      );
  });
}
