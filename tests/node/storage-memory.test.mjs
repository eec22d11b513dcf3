// InMemoryStorage's own promises: synchronous bodies, rollback of every kind of write,
// data per instance.

import { test } from "node:test";
import assert from "node:assert/strict";
import { InMemoryStorage } from "../../src/js/storage-memory.js";

const record = (path, size = 1) => ({ path, id: `mem_${path}`, size, sha256: "", createdAt: 0, updatedAt: 0 });

test("the body and its callbacks run synchronously, inside transaction()", async () => {
  const h = await new InMemoryStorage().open("s");
  const steps = [];
  const done = h.transaction("readwrite", (tx) => {
    steps.push("body");
    tx.putFile(record("/memories/a.md"));
    tx.getFile("/memories/a.md", (r) => steps.push(`read ${r.path}`));
  });
  steps.push("returned");
  await done;
  assert.deepEqual(steps, ["body", "read /memories/a.md", "returned"]);
});

test("a failed body takes back overwrites, deletions and re-creations alike", async () => {
  const h = await new InMemoryStorage().open("s");
  await h.transaction("readwrite", (tx) => {
    tx.putFile(record("/memories/a.md", 1));
    tx.putFile(record("/memories/b.md", 2));
    tx.putContent("c1", new Uint8Array([1]));
  });
  await assert.rejects(
    h.transaction("readwrite", (tx) => {
      tx.putFile(record("/memories/a.md", 10)); // overwrite
      tx.deleteFile("/memories/b.md"); // delete
      tx.putFile(record("/memories/b.md", 20)); // re-create
      tx.putFile(record("/memories/c.md")); // new
      tx.deleteFile("/memories/c.md");
      tx.putFile(record("/memories/c.md"));
      tx.putContent("c1", new Uint8Array([9]));
      tx.deleteContent("c1");
      tx.putContent("c2", new Uint8Array([2]));
      throw new Error("fail");
    }),
    /fail/,
  );
  let state;
  await h.transaction("readonly", (tx) =>
    tx.getSubtree("/memories", (records) =>
      tx.getContent("c1", (c1) =>
        tx.getContent("c2", (c2) => {
          state = { files: records.map((r) => [r.path, r.size]), c1: c1 && [...c1], c2 };
        }),
      ),
    ),
  );
  assert.deepEqual(state, { files: [["/memories/a.md", 1], ["/memories/b.md", 2]], c1: [1], c2: undefined });
});

test("records handed out are copies: changing them changes nothing stored", async () => {
  const h = await new InMemoryStorage().open("s");
  const r = record("/memories/a.md", 5);
  await h.transaction("readwrite", (tx) => tx.putFile(r));
  r.size = 99;
  let seen;
  await h.transaction("readonly", (tx) =>
    tx.getFile("/memories/a.md", (got) => {
      got.size = 77;
      tx.getFile("/memories/a.md", (again) => (seen = again.size));
    }),
  );
  assert.equal(seen, 5);
});

test("two instances hold separate data", async () => {
  const a = await new InMemoryStorage().open("s");
  const b = await new InMemoryStorage().open("s");
  await a.transaction("readwrite", (tx) => tx.putFile(record("/memories/a.md")));
  let n;
  await b.transaction("readonly", (tx) => tx.countFiles((c) => (n = c)));
  assert.equal(n, 0);
});
