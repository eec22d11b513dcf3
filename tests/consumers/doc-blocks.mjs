// The code blocks of the README and the docs pages, as the consumer tests run them: a block
// marked `<!-- run: <project>/<file> -->` on the line before its fence is written, as it stands,
// to <file> of consumer project <project> (tests/consumers/projects/<project>). In the README,
// every JavaScript block must be marked: each is a program a test runs.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO } from "./lib.mjs";

/** The documents whose marked blocks the consumer tests run. */
export const DOCS = ["README.md", "docs/SERVER-AGENTS.md", "docs/BUNDLERS.md", "docs/LONG-RUNNING.md", "docs/API.md", "docs/STORAGE.md"];

/**
 * @typedef {{ doc: string, line: number, lang: string, run: string | null, project: string | null,
 *   file: string | null, code: string }} DocBlock
 */

/**
 * Every fenced code block of `doc` (a path from the repository root), in order.
 * @param {string} doc
 * @returns {Promise<DocBlock[]>}
 */
export async function blocksOf(doc) {
  const lines = (await readFile(path.join(REPO, doc), "utf8")).split("\n");
  /** @type {DocBlock[]} */
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`${doc}:${i + 1}: a code block that never closes`);
    const mark = /^<!-- run: ([\w.-]+)\/([\w./-]+) -->$/.exec(lines[i - 1] ?? "");
    blocks.push({
      doc,
      line: i + 1,
      lang: open[1],
      run: mark ? `${mark[1]}/${mark[2]}` : null,
      project: mark ? mark[1] : null,
      file: mark ? mark[2] : null,
      code: `${lines.slice(i + 1, end).join("\n")}\n`,
    });
    i = end;
  }
  return blocks;
}

/**
 * The marked blocks of every document in `DOCS`, by `<project>/<file>`; a target marked twice
 * throws.
 * @returns {Promise<Map<string, DocBlock>>}
 */
export async function runnableBlocks() {
  const byTarget = new Map();
  for (const doc of DOCS) {
    for (const block of await blocksOf(doc)) {
      if (block.run === null) continue;
      const other = byTarget.get(block.run);
      if (other) throw new Error(`${block.run} is marked twice: ${other.doc}:${other.line} and ${doc}:${block.line}`);
      byTarget.set(block.run, block);
    }
  }
  return byTarget;
}

/**
 * Imports the block of `doc` marked to run as `file` (any project): the doc's program as it
 * stands (or as `edit` changes it), written to a module of its own in a temporary folder that
 * is gone once the module has loaded.
 * @param {string} doc
 * @param {string} file
 * @param {(code: string) => string} [edit]
 */
export async function importBlock(doc, file, edit = (code) => code) {
  const block = (await blocksOf(doc)).find((b) => b.file === file);
  if (!block) throw new Error(`${doc} marks no block to run as ${file}`);
  const dir = await mkdtemp(path.join(tmpdir(), "doc-block-"));
  try {
    const module = path.join(dir, `${path.basename(file, path.extname(file))}.mjs`);
    await writeFile(module, edit(block.code));
    return await import(pathToFileURL(module).href);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
