// The storage contract (docs/STORAGE.md), as the exported suite runs it: over both shipped
// storages (InMemoryStorage, and IndexedDbStorage over fake-indexeddb), and over the two
// key-value backends docs/STORAGE.md prints (its Map backend, and its IndexedDB backend over
// fake-indexeddb), each written out from the doc as it stands. Then the suite's own edge: a
// backend broken in one way each must fail the case that names that way.

import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { MemoryTool, InMemoryStorage, IndexedDbStorage, KeyValueStorage } from "../../src/js/index-node.js";
import { keyValueContract, storageContract } from "../../src/js/storage-contract.js";
import { blocksOf, importBlock } from "../consumers/doc-blocks.mjs";

/** The doc's blocks marked to run as `file`, by file name. */
const docBlocks = Object.fromEntries(
  (await blocksOf("docs/STORAGE.md")).filter((b) => b.file !== null).map((b) => [b.file, b.code]),
);

const { MapBackend } = await importBlock("docs/STORAGE.md", "map-backend.js");
const { IndexedDbBackend } = await importBlock("docs/STORAGE.md", "indexeddb-backend.js");

/** @param {ReturnType<typeof storageContract>} cases */
function register(cases) {
  for (const { name, run } of cases) test(name, run);
}

describe("InMemoryStorage", () => register(storageContract(() => new InMemoryStorage(), { MemoryTool })));
describe("IndexedDbStorage (fake-indexeddb)", () =>
  register(storageContract(() => new IndexedDbStorage({ indexedDB: new IDBFactory(), IDBKeyRange }), { MemoryTool })));
describe("docs/STORAGE.md's Map backend", () => register(keyValueContract(() => new MapBackend(), { MemoryTool })));
describe("docs/STORAGE.md's IndexedDB backend (fake-indexeddb)", () => {
  const indexedDB = new IDBFactory();
  register(keyValueContract(() => new IndexedDbBackend({ indexedDB, IDBKeyRange }), { MemoryTool }));
});

test("the doc prints the three programs the consumer tests run", () => {
  assert.deepEqual(Object.keys(docBlocks).sort(), ["backend.test.mjs", "indexeddb-backend.js", "map-backend.js"]);
});

test("the suite's cases have distinct names, and the backend's come first", () => {
  const names = keyValueContract(() => new MapBackend(), { MemoryTool }).map((c) => c.name);
  assert.equal(new Set(names).size, names.length);
  assert.ok(names[0].startsWith("backend: "));
  assert.ok(names.length >= 45, `${names.length} cases`);
  assert.ok(storageContract(() => new InMemoryStorage()).length < storageContract(() => new InMemoryStorage(), { MemoryTool }).length);
});

test("bad arguments are refused with INVALID_INPUT", () => {
  assert.throws(() => keyValueContract(/** @type {any} */ (null)), { code: "INVALID_INPUT" });
  assert.throws(() => storageContract(/** @type {any} */ ({})), { code: "INVALID_INPUT" });
  assert.throws(() => new KeyValueStorage(/** @type {any} */ ({})), { code: "INVALID_INPUT" });
});

// Each mutant is the doc's Map backend with one thing wrong; the suite must name it.
const MUTANTS = [
  {
    wrong: "no rollback",
    from: "for (const step of undo.reverse()) step();",
    to: "",
    fails: "backend: a body or callback that throws takes back every write and rejects with that error",
  },
  {
    wrong: "reverse ignored",
    from: "if (reverse) keys.reverse();",
    to: "",
    fails: "backend: getRange: limit and reverse",
  },
  {
    wrong: "limit ignored",
    from: "keys.slice(0, limit)",
    to: "keys",
    fails: "backend: getRange: limit and reverse",
  },
  {
    wrong: "reads give the stored object",
    from: "get: (key, cb) => cb(structuredClone(data.get(key))),",
    to: "get: (key, cb) => cb(data.get(key)),",
    fails: "backend: get: a missing key is undefined; a put value reads back equal, as a copy",
  },
  {
    wrong: "keys ordered by UTF-8 bytes",
    from: ".sort();",
    to: ".sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));",
    fails: "backend: getRange: [lower, upper) in UTF-16 code unit order, \\0 and surrogates included",
  },
  {
    wrong: "upper bound included",
    from: "k >= lower && k < upper",
    to: "k >= lower && k <= upper",
    fails: "subtree is [P + '/', P + '0') in UTF-16 key order, siblings excluded",
  },
  {
    wrong: "stores not apart",
    from: "const data = this.stores.get(name);",
    to: "const data = (this.stores.shared ??= new Map());",
    fails: "backend: stores of one backend are apart; a store opened again holds its keys",
  },
];

describe("a broken backend fails the case that names what is wrong", () => {
  for (const mutant of MUTANTS) {
    test(mutant.wrong, async () => {
      const source = docBlocks["map-backend.js"];
      assert.ok(source.includes(mutant.from), `the doc's backend has ${JSON.stringify(mutant.from)}`);
      const { MapBackend: Broken } = await importBlock("docs/STORAGE.md", "map-backend.js", (code) => code.replace(mutant.from, mutant.to));
      const cases = keyValueContract(() => new Broken(), { MemoryTool });
      const failed = [];
      for (const { name, run } of cases) {
        try {
          await run();
        } catch {
          failed.push(name);
        }
      }
      assert.ok(failed.includes(mutant.fails), `${mutant.wrong}: failed ${JSON.stringify(failed)}`);
    });
  }
});

before(() => {
  assert.ok(MapBackend && IndexedDbBackend);
});
