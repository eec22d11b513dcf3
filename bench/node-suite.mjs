// Node 20 with in-memory storage: create / view / str_replace on files of 10 KB and 100 KB
// through the built package (src/js/index.js over pkg/), timed with performance.now(): the
// package's own cost per command (the wasm core and the adapter) with no IndexedDB under it.
// `runNodeScale` times the host API at scale the same way (export, import, memories.list,
// versions.list: bench/workload.mjs's `scaleCases`).
//
//   node bench/node-suite.mjs [--runs N] [--warmup N] [--scale]     prints the rows as JSON

import { MemoryTool } from "../src/js/index.js";
import { KB, commandCases, noteName, scaleCases, textOfSize } from "./workload.mjs";

/** Room for stores of 10,000 files. */
const LIMITS = { maxFileBytes: 1 << 20, maxFiles: 1_000_000 };

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

/**
 * The scaling rows over in-memory storage. Stores of files (`/memories/dir/note-NNNNN.md`, 1 KB
 * each, written with `writeFile`) are grown from a released one where they can be (the store of
 * 10,000 files is the one of 8,000 with 2,000 more), so few are written; every import goes into
 * a fresh in-memory store; each history is one file written `v` times.
 * @param {{ runs?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
export async function runNodeScale({ runs = 100, log = () => {} } = {}) {
  /** @type {Array<{ tool: MemoryTool, files: number, free: boolean }>} */
  const pool = [];
  const open = () => MemoryTool.open({ storage: "memory", limits: LIMITS });
  try {
    const rows = await scaleCases({
      runs,
      log,
      filled: async (files) => {
        const reusable = pool.filter((p) => p.free && p.files <= files).sort((a, b) => b.files - a.files)[0];
        const entry = reusable ?? { tool: await open(), files: 0, free: false };
        if (!reusable) pool.push(entry);
        entry.free = false;
        for (; entry.files < files; ) {
          entry.files++;
          await entry.tool.writeFile(`/memories/dir/${noteName(entry.files)}`, textOfSize(KB, `note ${entry.files}`));
        }
        return {
          tool: entry.tool,
          release: async () => {
            entry.free = true;
          },
        };
      },
      empty: async () => {
        const fresh = await open();
        return { tool: fresh, release: async () => fresh.close() };
      },
      history: async (versions) => {
        const edited = await open();
        for (let i = 0; i < versions; i++) await edited.writeFile("/memories/edited.md", `take ${i}\n`);
        return { tool: edited, release: async () => edited.close() };
      },
    });
    return rows.map((row) => ({ suite: "node-scale", ...row }));
  } finally {
    for (const { tool } of pool) tool.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({
    options: { runs: { type: "string" }, warmup: { type: "string" }, scale: { type: "boolean" } },
  });
  const runs = values.runs ? Number(values.runs) : undefined;
  const rows = values.scale
    ? await runNodeScale({ runs, log: (line) => console.error(`node scale: ${line}`) })
    : await runNodeSuite({ runs, warmup: values.warmup ? Number(values.warmup) : undefined });
  for (const row of rows) console.log(JSON.stringify(row));
}
