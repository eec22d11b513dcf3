// Differential test: the same command sequences through the official SDK's
// BetaLocalFilesystemMemoryTool (run as the SDK's tool runner runs it) and through ours.
// Results must be identical, compared exactly, except where docs/TOOL.md#departures-from-the-sdk says we differ; there
// each side must give exactly its own variant. The sequences are in differential-cases.mjs.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BetaLocalFilesystemMemoryTool, betaMemoryTool } from "@anthropic-ai/sdk/tools/memory/node";
import { runRunnableTool } from "@anthropic-ai/sdk/lib/tools/BetaRunnableTool";
import { MemoryTool, InMemoryStorage } from "memory-tool-wasm";
import { CASES, WHY } from "./differential-cases.mjs";

const tempDirs = [];
after(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The SDK's own size format (not exported by the SDK; copied from src/tools/memory/node.ts). */
function sdkFormatFileSize(bytes) {
  if (bytes === 0) return "0B";
  const k = 1024;
  const sizes = ["B", "K", "M", "G"];
  const i = Math.floor(Math.log(bytes) / Math.log(k));
  const size = bytes / Math.pow(k, i);
  return (size % 1 === 0 ? size.toString() : size.toFixed(1)) + sizes[i];
}

/** The official SDK's filesystem memory tool over a fresh temp dir. */
class SdkSide {
  static async open() {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "mtw-differential-"));
    tempDirs.push(root);
    const handlers = await BetaLocalFilesystemMemoryTool.init(root);
    return new SdkSide(root, handlers);
  }
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    this.tool = betaMemoryTool(handlers);
  }
  /** Runs one input as the SDK's tool runner does: thrown errors become `Error: …` results. */
  run(input) {
    const toolUse = { type: "tool_use", id: "toolu_differential", name: "memory", input };
    return runRunnableTool(this.tool, input, { toolUse, toolUseBlock: toolUse });
  }
  /** The SDK's host path for a model path (`/memories/x` is `<root>/memories/x`). */
  disk(memPath) {
    return path.join(this.root, memPath.slice(1));
  }
  /** A directory's size as the SDK lists it: the filesystem's size of the directory itself. */
  dsz(memPath) {
    return sdkFormatFileSize(fs.statSync(this.disk(memPath)).size);
  }
  put(memPath, bytes) {
    fs.mkdirSync(path.dirname(this.disk(memPath)), { recursive: true });
    fs.writeFileSync(this.disk(memPath), bytes);
  }
}

/** Ours, in Node with in-memory storage. */
class OurSide {
  static async open(options = {}, shared = false) {
    const storage = shared ? new InMemoryStorage() : "memory";
    return new OurSide(await MemoryTool.open({ storage, ...options }), storage);
  }
  constructor(tool, storage) {
    this.tool = tool;
    this.storage = storage;
  }
  async reopen(options) {
    assert.notEqual(this.storage, "memory", "reopen needs a case with sharedStorage");
    this.tool = await MemoryTool.open({ storage: this.storage, ...options });
  }
  async run(input) {
    const r = await this.tool.execute(input);
    return { content: r.content, isError: r.isError };
  }
  async put(memPath, bytes) {
    await this.tool.writeFile(memPath, bytes);
  }
}

const show = (v) => {
  const s = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v, (_, x) => (typeof x === "object" && x && x.constructor?.name === "BetaLocalFilesystemMemoryTool" ? "[handlers]" : x));
  return s === undefined ? String(v) : s.length > 400 ? `${s.slice(0, 400)}… (${s.length} chars)` : s;
};

/** Exact comparison of two results; long strings are reported at their first difference. */
function assertResultEqual(actual, expected, label) {
  if (typeof actual?.content === "string" && typeof expected?.content === "string" && (actual.content.length > 2000 || expected.content.length > 2000)) {
    assert.equal(actual.isError, expected.isError, `${label}: isError`);
    if (actual.content !== expected.content) {
      let i = 0;
      while (i < actual.content.length && actual.content[i] === expected.content[i]) i++;
      assert.fail(
        `${label}: content differs at index ${i} (lengths ${actual.content.length} and ${expected.content.length}):\n` +
          `  actual:   ${show(actual.content.slice(Math.max(0, i - 80), i + 120))}\n` +
          `  expected: ${show(expected.content.slice(Math.max(0, i - 80), i + 120))}`,
      );
    }
    return;
  }
  assert.deepStrictEqual(actual, expected, label);
}

/** Checks one side's result against its expectation (see differential-cases.mjs). */
function assertExpected(actual, expectation, side, label) {
  const expected = typeof expectation === "function" ? expectation(side) : expectation;
  if (expected.check) return expected.check(actual, side);
  if (expected.content instanceof RegExp) {
    assert.equal(actual.isError, expected.isError, `${label}: isError`);
    assert.equal(typeof actual.content, "string", `${label}: content is text`);
    assert.match(actual.content, expected.content, label);
    return;
  }
  assertResultEqual(actual, expected, label);
}

const usedRows = new Set();

for (const c of CASES) {
  test(c.name, async (t) => {
    const sdk = await SdkSide.open();
    const ours = await OurSide.open(c.ours, c.sharedStorage);
    const started = performance.now();
    for (const [i, step] of c.steps.entries()) {
      const label = `step ${i + 1} ${step.input !== undefined ? show(step.input) : step.kind}`;
      switch (step.kind) {
        case "same": {
          const s = await sdk.run(step.input);
          const o = await ours.run(step.input);
          assertResultEqual(o, s, `${label}: ours must equal the SDK's result`);
          if (step.expected !== undefined) assertResultEqual(o, step.expected, `${label}: expected text`);
          break;
        }
        case "differ": {
          for (const row of step.why) assert.ok(WHY[row], `${label}: unknown departures row ${row}`);
          const s = await sdk.run(step.input);
          const o = await ours.run(step.input);
          assertExpected(s, step.sdk, sdk, `${label}: SDK variant (${step.why.map((r) => WHY[r]).join("; ")})`);
          assertExpected(o, step.ours, ours, `${label}: our variant (${step.why.map((r) => WHY[r]).join("; ")})`);
          step.why.forEach((r) => usedRows.add(r));
          break;
        }
        case "put":
          sdk.put(step.path, Uint8Array.from(step.bytes));
          await ours.put(step.path, Uint8Array.from(step.bytes));
          break;
        case "reopen":
          await ours.reopen(step.options);
          break;
        case "custom":
          for (const row of step.why) assert.ok(WHY[row], `${label}: unknown departures row ${row}`);
          await step.fn({ sdk, ours });
          step.why.forEach((r) => usedRows.add(r));
          break;
        default:
          assert.fail(`unknown step kind ${step.kind}`);
      }
    }
    if (c.slow) t.diagnostic(`${c.name}: ${Math.round(performance.now() - started)} ms`);
  });
}

test("every row of docs/TOOL.md#departures-from-the-sdk is exercised", () => {
  const declared = new Set(CASES.flatMap((c) => c.steps.flatMap((s) => s.why ?? [])));
  assert.deepEqual([...Object.keys(WHY)].filter((r) => !declared.has(r)), [], "rows no case names");
  assert.deepEqual([...Object.keys(WHY)].filter((r) => !usedRows.has(r)), [], "rows no passing-so-far step reached");
});
