// What KeyValueStorage costs per command, counted (never timed): the requests and rounds of
// each of the six commands over docs/STORAGE.md's IndexedDB backend, beside IndexedDbStorage's
// over the same fake-indexeddb (docs/STORAGE.md#what-it-costs quotes this table). A view is one
// round in both; a write costs KeyValueStorage the reads that keep its indexes and figures.

import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { MemoryTool, KeyValueStorage, IndexedDbStorage } from "../../src/js/index-node.js";
import { countRequests } from "./fixtures/count-requests.mjs";
import { importBlock } from "../consumers/doc-blocks.mjs";

const SCRIPT = [
  { command: "create", path: "/memories/a.md", file_text: "hello\nworld\n" },
  { command: "view", path: "/memories/a.md" },
  { command: "view", path: "/memories" },
  { command: "str_replace", path: "/memories/a.md", old_str: "hello", new_str: "bye" },
  { command: "insert", path: "/memories/a.md", insert_line: 1, insert_text: "x\n" },
  { command: "rename", old_path: "/memories/a.md", new_path: "/memories/b.md" },
  { command: "delete", path: "/memories/b.md" },
  // The store's figures exist now: a create reads them, not every record.
  { command: "create", path: "/memories/c.md", file_text: "again\n" },
];

/** `command path: rounds/requests` for each command of SCRIPT over `storage`. */
async function costs(storage) {
  const memory = await MemoryTool.open({ storage, store: "rounds" });
  await memory.execute({ command: "view", path: "/memories" }); // after open's housekeeping
  const out = [];
  for (const input of SCRIPT) {
    const counts = await countRequests(() => memory.execute(input), { rounds: true });
    const requests = Object.entries(counts).reduce((n, [k, v]) => (k === "rounds" ? n : n + v), 0);
    out.push(`${input.command} ${input.path ?? input.old_path}: ${counts.rounds}/${requests}`);
  }
  memory.close();
  return out;
}

test("rounds/requests per command: KeyValueStorage over the doc's IndexedDB backend, and IndexedDbStorage", async (t) => {
  const { IndexedDbBackend } = await importBlock("docs/STORAGE.md", "indexeddb-backend.js");
  const kv = await costs(new KeyValueStorage(new IndexedDbBackend({ indexedDB: new IDBFactory(), IDBKeyRange })));
  const native = await costs(new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }));
  for (const [i, line] of kv.entries()) t.diagnostic(`KeyValueStorage ${line}; IndexedDbStorage ${native[i].split(": ")[1]}`);
  assert.deepEqual(kv, [
    "create /memories/a.md: 3/22",
    "view /memories/a.md: 1/2",
    "view /memories: 1/2",
    "str_replace /memories/a.md: 2/18",
    "insert /memories/a.md: 2/18",
    "rename /memories/a.md: 2/25",
    "delete /memories/b.md: 2/16",
    "create /memories/c.md: 2/20",
  ]);
  assert.deepEqual(native, [
    "create /memories/a.md: 1/8",
    "view /memories/a.md: 1/2",
    "view /memories: 1/1",
    "str_replace /memories/a.md: 1/9",
    "insert /memories/a.md: 1/9",
    "rename /memories/a.md: 1/11",
    "delete /memories/b.md: 1/7",
    "create /memories/c.md: 1/8",
  ]);
});
