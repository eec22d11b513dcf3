// import(bundle) over IndexedDbStorage (fake-indexeddb): what it costs and what it leaves,
// counted, never timed. A store filled by an import answers a view in one round, as one filled
// by commands does; the writes go out in slices, each slice's requests issued from the last
// one's answer, so the page runs between them; the progress is told as slices complete.

import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { MemoryTool, IndexedDbStorage } from "../../src/js/index-node.js";
import { countRequests } from "./fixtures/count-requests.mjs";

const storage = () => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange });

/** A bundle of `n` memories (two edits each when `edited`), with their versions. */
async function bundleOf(n, { edited = false } = {}) {
  const source = await MemoryTool.open({ storage: storage(), store: "source", limits: { maxFiles: 100_000 } });
  for (let i = 0; i < n; i++) {
    await source.execute({ command: "create", path: `/memories/d${i % 7}/n${i}.md`, file_text: `note ${i}\nline\n` });
    if (edited) await source.execute({ command: "str_replace", path: `/memories/d${i % 7}/n${i}.md`, old_str: "line", new_str: "edited" });
  }
  const bundle = await source.export({ include_versions: true });
  source.close();
  return bundle;
}

for (const edited of [false, true]) {
  test(`a view after an import with versions${edited ? " (memories edited before the export)" : ""} is one round, as after a create`, async () => {
    const bundle = await bundleOf(3, { edited });
    const memory = await MemoryTool.open({ storage: storage(), store: "target" });
    await memory.import(bundle);
    for (const m of bundle.memories) {
      const path = `/memories/${m.path.replace(/^\//, "")}`;
      let result;
      const counts = await countRequests(async () => (result = await memory.execute({ command: "view", path })), { rounds: true });
      assert.match(result.content, edited ? /edited/ : /line/);
      assert.equal(counts.rounds, 1, `${path}: ${JSON.stringify(counts)}`);
    }
    memory.close();
  });
}
