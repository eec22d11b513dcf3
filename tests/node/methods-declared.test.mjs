// The host API's options are written once, in the core's table of methods
// (src/commands/methods.rs): the adapter refuses any other option by it at run time, and this
// test holds the hand-written declarations (src/js/index.d.ts) to it. For every method of the
// table, the type of its options argument (its last parameter) must have exactly the table's
// option names as keys: an option added to one and not the other fails here, naming both.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The table as the core's source writes it: `("name", &["a", "b"])` entries of `METHODS`.
 * @param {string} source
 * @returns {Array<[string, string[]]>}
 */
export function methodsOf(source) {
  const table = source.slice(source.indexOf("const METHODS"), source.indexOf("];", source.indexOf("const METHODS")));
  const found = [];
  for (const match of table.matchAll(/\(\s*"([^"]+)",\s*&\[([^\]]*)\]\s*,?\s*\)/g)) {
    found.push([match[1], [...match[2].matchAll(/"([^"]+)"/g)].map((m) => m[1])]);
  }
  return found;
}

/**
 * Where a method is declared: the class and the property path to it.
 * @param {string} method
 */
function declaredAt(method) {
  if (method.startsWith("stores.")) return `MemoryStores["${method.slice("stores.".length)}"]`;
  const [head, tail] = method.split(".");
  return tail === undefined ? `MemoryTool["${head}"]` : `MemoryTool["${head}"]["${tail}"]`;
}

/** The type errors of `source` (a module beside nothing, importing the declarations). */
function typeErrors(source, dir) {
  const file = path.join(dir, "methods-check.ts");
  const host = ts.createCompilerHost({});
  const read = host.readFile;
  host.readFile = (name) => (path.resolve(name) === file ? source : read(name));
  const exists = host.fileExists;
  host.fileExists = (name) => path.resolve(name) === file || exists(name);
  const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [] }, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && path.resolve(d.file.fileName) === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** A module that fails to type-check for every method whose declared options differ. */
function checkSource(methods) {
  const index = JSON.stringify(path.join(ROOT, "src/js/index.js"));
  const lines = [
    `import type { MemoryTool, MemoryStores } from ${index};`,
    "type Last<F> = F extends (...args: infer A) => unknown ? (Required<A> extends [...unknown[], infer L] ? L : never) : never;",
    "type Keys<F> = keyof NonNullable<Last<F>> & string;",
    "type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : { declared: A; table: B }) : { declared: A; table: B };",
  ];
  methods.forEach(([method, options], i) => {
    const union = options.length === 0 ? "never" : options.map((o) => JSON.stringify(o)).join(" | ");
    lines.push(`export const m${i}: Same<Keys<${declaredAt(method)}>, ${union}> = true; // ${method}`);
  });
  return lines.join("\n");
}

test("every method's declared options are the core's table of them", async () => {
  const methods = methodsOf(await readFile(path.join(ROOT, "src/commands/methods.rs"), "utf8"));
  assert.ok(methods.length >= 25, `the table was read (${methods.length} methods)`);
  assert.deepEqual(methods.find(([m]) => m === "memories.list"), ["memories.list", ["path_prefix", "depth", "store"]]);
  const dir = await mkdtemp(path.join(tmpdir(), "methods-"));
  try {
    assert.deepEqual(typeErrors(checkSource(methods), dir), []);
    // The check fails when the two differ: a table that gave memories.get a second option.
    const wrong = methods.map(([m, o]) => (m === "memories.get" ? [m, [...o, "extra"]] : [m, o]));
    const errors = typeErrors(checkSource(wrong), dir);
    assert.equal(errors.length, 1, errors.join("\n"));
    assert.match(errors[0], /table/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
