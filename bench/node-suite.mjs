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
 * The scaling rows over in-memory storage. The stores of files grow in one tool (1,000 files,
 * then 7,000 more, then 2,000 more: `/memories/dir/note-NNNNN.md`, 1 KB each, written with
 * `writeFile`), so each is built once; every import goes into a fresh in-memory store; each
 * history is one file written `v` times.
 * @param {{ runs?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
export async function runNodeScale({ runs = 100, log = () => {} } = {}) {
  const tool = await MemoryTool.open({ storage: "memory", limits: LIMITS });
  let written = 0;
  const keep = { tool, release: async () => {} };
  try {
    const rows = await scaleCases({
      runs,
      log,
      filled: async (files) => {
        if (files < written) throw new Error("node scale: the stores must come smallest first");
        for (; written < files; ) {
          written++;
          await tool.writeFile(`/memories/dir/${noteName(written)}`, textOfSize(KB, `note ${written}`));
        }
        return keep;
      },
      empty: async () => {
        const fresh = await MemoryTool.open({ storage: "memory", limits: LIMITS });
        return { tool: fresh, release: async () => fresh.close() };
      },
      history: async (versions) => {
        const edited = await MemoryTool.open({ storage: "memory", limits: LIMITS });
        for (let i = 0; i < versions; i++) await edited.writeFile("/memories/edited.md", `take ${i}\n`);
        return { tool: edited, release: async () => edited.close() };
      },
    });
    return rows.map((row) => ({ suite: "node-scale", ...row }));
  } finally {
    tool.close();
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
