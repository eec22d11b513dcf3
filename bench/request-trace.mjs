// The IndexedDB requests the package issues per command, round by round (a round: the requests
// issued together before any of them answered), over fake-indexeddb in Node. The floor in
// bench/baseline.mjs must issue these same requests; run this after a schema or protocol change
// and compare.
//
//   node bench/request-trace.mjs            prints one line per command
//
// A round closes at the first microtask after its first request: the adapter issues a round's
// requests synchronously, from one callback.

import "fake-indexeddb/auto";
import { IDBObjectStore, IDBIndex } from "fake-indexeddb";
import { MemoryTool, InMemoryStorage } from "../src/js/index-node.js";

const METHODS = ["get", "getAll", "getAllKeys", "getKey", "count", "openCursor", "openKeyCursor", "put", "add", "delete", "clear"];

/**
 * The rounds of requests `body` issues: `[["files.get", "listing.getAllKeys"], ["contents.get"]]`.
 * @param {() => Promise<unknown>} body
 * @returns {Promise<string[][]>}
 */
export async function traceRounds(body) {
  /** @type {string[][]} */
  const rounds = [];
  /** @type {string[] | null} */
  let open = null;
  const restore = [];
  for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) {
    for (const method of METHODS) {
      const original = /** @type {any} */ (proto)[method];
      if (typeof original !== "function") continue;
      /** @type {any} */ (proto)[method] = function (/** @type {any[]} */ ...args) {
        const store = this instanceof IDBIndex ? `${this.objectStore.name}.${this.name}` : this.name;
        if (!open) {
          open = [];
          rounds.push(open);
          queueMicrotask(() => (open = null));
        }
        open.push(`${store}.${method}`);
        return original.apply(this, args);
      };
      restore.push(() => (/** @type {any} */ (proto)[method] = original));
    }
  }
  try {
    await body();
  } finally {
    for (const undo of restore) undo();
  }
  return rounds;
}

/** `files.get ×2, files.getKey | contents.put, …` @param {string[][]} rounds */
export function formatRounds(rounds) {
  return rounds
    .map((round) => {
      const counts = new Map();
      for (const r of round) counts.set(r, (counts.get(r) ?? 0) + 1);
      return [...counts].map(([r, n]) => (n > 1 ? `${r} ×${n}` : r)).join(", ");
    })
    .join("  |  ");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tool = await MemoryTool.open({ storage: "indexeddb", store: "traced", limits: { maxFiles: 1_000_000 } });
  const source = await MemoryTool.open({ storage: new InMemoryStorage(), store: "source" });
  for (let i = 0; i < 20; i++) await source.writeFile(`/memories/dir/f${i}.md`, `file ${i}\n`);
  await source.writeFile("/memories/doc.md", "alpha\nbeta\n");
  await tool.import(await source.export());
  source.close();
  const cases = [
    ["view file", { command: "view", path: "/memories/doc.md" }],
    ["view /memories", { command: "view", path: "/memories" }],
    ["create (top level)", { command: "create", path: "/memories/new.md", file_text: "x\n" }],
    ["create (in a directory)", { command: "create", path: "/memories/new/a.md", file_text: "x\n" }],
    ["str_replace", { command: "str_replace", path: "/memories/doc.md", old_str: "beta", new_str: "gamma" }],
    ["insert", { command: "insert", path: "/memories/doc.md", insert_line: 1, insert_text: "line" }],
    ["rename dir (20 files)", { command: "rename", old_path: "/memories/dir", new_path: "/memories/moved" }],
    ["delete dir (20 files)", { command: "delete", path: "/memories/moved" }],
  ];
  for (const [name, input] of cases) {
    const rounds = await traceRounds(async () => {
      const result = await tool.execute(input);
      if (result.isError) throw new Error(`${name}: ${result.content}`);
    });
    console.log(`${String(name).padEnd(26)} ${formatRounds(rounds)}`);
  }
  for (const [name, call] of /** @type {Array<[string, () => Promise<unknown>]>} */ ([
    ["export", () => tool.export()],
    ["open", () => MemoryTool.open({ storage: "indexeddb", store: "traced" }).then((t) => t.close())],
  ])) {
    console.log(`${name.padEnd(26)} ${formatRounds(await traceRounds(call))}`);
  }
  tool.close();
}
