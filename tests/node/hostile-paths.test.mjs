// Hostile paths through the package (`import "memory-tool-wasm"`, in-memory storage): the
// corpus of tests/hostile-paths.txt (also read by tests/hostile_paths.rs). Every refused payload
// gets its exact text from docs/TOOL.md#path-rules from every command that takes a path, and from the host's
// writeFile, and no write reaches the storage; the look-alikes docs/TOOL.md#path-rules accepts as ordinary names
// are stored under their literal NFC key inside /memories.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { escaped } from "./differential-cases.mjs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** hostile-paths.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING the hostile path tests. ***\n",
  );
}
const { MemoryTool, MemoryToolError, InMemoryStorage } = built ? await import("memory-tool-wasm") : {};
const suite = built ? describe : describe.skip;

/**
 * @typedef {{ path: string, expect: string, key?: string, why: string,
 *   pad?: string, to_bytes?: number, then?: string }} Payload
 */

/** @returns {Payload[]} the corpus, with padded payloads expanded */
function loadCorpus() {
  const text = readFileSync(new URL("../hostile-paths.txt", import.meta.url), "utf8");
  const utf8 = (/** @type {string} */ s) => Buffer.byteLength(s, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => {
      /** @type {Payload} */
      const payload = JSON.parse(line);
      if (payload.pad !== undefined) {
        const then = payload.then ?? "";
        const room = /** @type {number} */ (payload.to_bytes) - utf8(payload.path) - utf8(then);
        assert.equal(room % utf8(payload.pad), 0, `padding does not fit: ${line}`);
        payload.path = payload.path + payload.pad.repeat(room / utf8(payload.pad)) + then;
        assert.equal(utf8(payload.path), payload.to_bytes);
      }
      return payload;
    });
}

const REASONS = {
  empty: "empty segment",
  dot: "'.' segments are not allowed",
  backslash: "backslashes are not allowed",
  control: "control characters are not allowed",
  invisible: "invisible formatting characters are not allowed",
  percent: "percent-encoded '.', '/', '\\' or control characters are not allowed",
  long: "longer than 1,024 bytes",
};

/**
 * A path as results echo it (docs/TOOL.md#result-shape): controls and invisible formatting
 * characters escaped, whole up to 2,000 characters (code points) as shown, else cut there and
 * followed by its length.
 * @param {string} path
 */
function echoed(path) {
  const chars = Array.from(path);
  let shown = "";
  let width = 0;
  for (const c of chars) {
    const piece = escaped(c);
    if (width + Array.from(piece).length > 2000) {
      return `${shown}… [${chars.length.toLocaleString("en-US")} characters in all]`;
    }
    width += Array.from(piece).length;
    shown += piece;
  }
  return shown;
}

/**
 * The text of docs/TOOL.md#path-rules for a refused payload. Messages echo the path as the core received it: a lone
 * surrogate arrives as U+FFFD.
 * @param {string} kind
 * @param {string} path
 */
function specText(kind, path) {
  const raw = echoed(path.toWellFormed());
  if (kind === "outside") return `Error: Path must be /memories or start with /memories/, got: ${raw}`;
  if (kind === "escape") return `Error: Path ${raw} would escape /memories directory`;
  const reason = REASONS[/** @type {keyof typeof REASONS} */ (kind)];
  assert.ok(reason, `unknown expectation ${kind}`);
  return `Error: Invalid path ${raw}: ${reason}`;
}

/** @param {string} path every tool input that takes a path, with `path` in each in turn */
function inputs(path) {
  return [
    { command: "view", path },
    { command: "create", path, file_text: "pwned" },
    { command: "str_replace", path, old_str: "alpha", new_str: "pwned" },
    { command: "insert", path, insert_line: 0, insert_text: "pwned" },
    { command: "delete", path },
    { command: "rename", old_path: path, new_path: "/memories/moved.md" },
    { command: "rename", old_path: "/memories/notes.md", new_path: path },
  ];
}

/**
 * An InMemoryStorage whose transactions log every put and delete.
 * @returns {{ storage: any, writes: string[] }}
 */
function recordingStorage() {
  const inner = new InMemoryStorage();
  /** @type {string[]} */
  const writes = [];
  const bindTo = (/** @type {any} */ target, /** @type {any} */ value) =>
    typeof value === "function" ? value.bind(target) : value;
  const storage = {
    async open(/** @type {string} */ store) {
      const handle = await inner.open(store);
      return new Proxy(handle, {
        get(target, prop) {
          if (prop !== "transaction") return bindTo(target, target[prop]);
          return (/** @type {any} */ mode, /** @type {(tx: any) => void} */ body) =>
            target.transaction(mode, (tx) =>
              body(
                new Proxy(tx, {
                  get(t, name) {
                    const value = t[name];
                    if (typeof value === "function" && /^(put|delete)/.test(String(name))) {
                      return (/** @type {any[]} */ ...args) => {
                        writes.push(`${String(name)} ${typeof args[0] === "string" ? args[0] : args[0]?.path}`);
                        return value.apply(t, args);
                      };
                    }
                    return bindTo(t, value);
                  },
                }),
              ),
            );
        },
      });
    },
  };
  return { storage, writes };
}

async function seeded() {
  const { storage, writes } = recordingStorage();
  const m = await MemoryTool.open({ storage });
  await m.writeFile("/memories/notes.md", "alpha\nbeta\n");
  await m.writeFile("/memories/a/b.md", "one\ntwo");
  const listing = JSON.stringify(await m.memories.list());
  writes.length = 0;
  return { m, writes, listing };
}

suite("hostile paths (tests/hostile-paths.txt)", () => {
  const corpus = built ? loadCorpus() : [];
  const refused = corpus.filter((p) => p.expect !== "ok");
  const accepted = corpus.filter((p) => p.expect === "ok");

  test("the corpus holds at least 100 payloads", () => {
    assert.ok(corpus.length >= 100, `${corpus.length} payloads`);
    console.log(`hostile paths: ${corpus.length} payloads, ${refused.length} refused, ${accepted.length} accepted`);
  });

  test("every refused payload gets its docs/TOOL.md#path-rules text from every command, and nothing is written", async () => {
    const { m, writes, listing } = await seeded();
    const failures = [];
    let checks = 0;
    for (const payload of refused) {
      const want = specText(payload.expect, payload.path);
      for (const input of inputs(payload.path)) {
        checks++;
        const result = await m.execute(input);
        if (!result.isError || result.content !== want || result.code !== "INVALID_PATH") {
          failures.push(`${JSON.stringify(input)} (${payload.why}):\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(result)}`);
        }
      }
      // The host's writeFile obeys the same rules; its error drops the "Error: " prefix.
      checks++;
      try {
        await m.writeFile(payload.path, "pwned");
        failures.push(`writeFile ${JSON.stringify(payload.path)} (${payload.why}) was accepted`);
      } catch (error) {
        const wantHost = want.replace(/^Error: /, "");
        if (!(error instanceof MemoryToolError) || error.code !== "INVALID_PATH" || error.message !== wantHost) {
          failures.push(`writeFile ${JSON.stringify(payload.path)} (${payload.why}):\n  want INVALID_PATH ${JSON.stringify(wantHost)}\n  got  ${error}`);
        }
      }
      if (writes.length > 0) {
        failures.push(`${JSON.stringify(payload.path)} (${payload.why}) reached storage: ${writes.join(", ")}`);
        writes.length = 0;
      }
    }
    const after = JSON.stringify(await m.memories.list());
    m.close();
    assert.deepEqual(failures, [], `${failures.length} of ${checks} checks failed`);
    assert.equal(after, listing, "the store changed");
    console.log(`hostile paths: ${checks} refusals checked, no write reached storage`);
  });

  test("accepted look-alikes are literal names stored inside /memories", async () => {
    const failures = [];
    for (const payload of accepted) {
      const { m, writes, listing } = await seeded();
      const path = payload.path;
      const key = /** @type {string} */ (payload.key);
      /** @param {object} input @param {string} want @param {boolean} [isError] */
      const step = async (input, want, isError = false) => {
        const result = await m.execute(input);
        if (result.isError !== isError || result.content !== want) {
          failures.push(`${JSON.stringify(input)} (${payload.why}):\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(result)}`);
        }
      };
      await step({ command: "view", path }, `The path ${path} does not exist. Please provide a valid path.`, true);
      await step({ command: "create", path, file_text: "hostile\n" }, `File created successfully at: ${path}`);
      const paths = (await m.memories.list()).map((/** @type {any} */ item) => item.path);
      const want = ["/a/b.md", "/notes.md", key].sort();
      if (JSON.stringify([...paths].sort()) !== JSON.stringify(want) || !`/memories${key}`.startsWith("/memories/")) {
        failures.push(`create ${JSON.stringify(path)} (${payload.why}) stored ${JSON.stringify(paths)}, want ${JSON.stringify(key)}`);
      }
      if (!writes.some((w) => w === `putFile ${key}`)) {
        failures.push(`create ${JSON.stringify(path)} wrote ${writes.join(", ")}, want putFile ${key}`);
      }
      await step({ command: "str_replace", path, old_str: "hostile", new_str: "kept" },
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tkept\n     2\t");
      await step({ command: "insert", path, insert_line: 0, insert_text: "top" }, `The file ${path} has been edited.`);
      await step({ command: "view", path }, `Here's the content of ${path} with line numbers:\n     1\ttop\n     2\tkept\n     3\t`);
      await step({ command: "rename", old_path: path, new_path: "/memories/moved.md" }, `Successfully renamed ${path} to /memories/moved.md`);
      await step({ command: "rename", old_path: "/memories/moved.md", new_path: path }, `Successfully renamed /memories/moved.md to ${path}`);
      await step({ command: "delete", path }, `Successfully deleted ${path}`);
      const after = JSON.stringify(await m.memories.list());
      if (after !== listing) failures.push(`delete ${JSON.stringify(path)} left ${after}`);
      m.close();
    }
    assert.deepEqual(failures, [], `${failures.length} failures`);
  });
});
