// Node 20 with in-memory storage: create / view / str_replace on files of 10 KB and 100 KB
// through the built package (src/js/index.js over pkg/), timed with performance.now(): the
// package's own cost per command (the wasm core and the adapter) with no IndexedDB under it.
//
//   node bench/node-suite.mjs [--runs N] [--warmup N]     prints the rows as JSON

import { MemoryTool } from "../src/js/index.js";
import { KB, commandCases } from "./workload.mjs";

/**
 * @param {{ runs?: number, warmup?: number }} [options]
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
export async function runNodeSuite({ runs = 200, warmup = 30 } = {}) {
  const tool = await MemoryTool.open({ storage: "memory" });
  try {
    const rows = [];
    for (const [i, fileBytes] of [10 * KB, 100 * KB].entries()) {
      rows.push(...(await commandCases(tool, { runs, warmup, fileBytes, dir: `/memories/bench-${i}` })));
    }
    return rows.map((row) => ({ suite: "node-memory", ...row }));
  } finally {
    tool.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({ options: { runs: { type: "string" }, warmup: { type: "string" } } });
  const rows = await runNodeSuite({
    runs: values.runs ? Number(values.runs) : undefined,
    warmup: values.warmup ? Number(values.warmup) : undefined,
  });
  for (const row of rows) console.log(JSON.stringify(row));
}
