// The JavaScript side's layers (docs/ARCHITECTURE.md#layout), as tests/architecture.rs checks
// the Rust core's: every import of every module, read from its source, against the rules
// between the parts. A failure names the file, the import and the rule it breaks.
//
// - The demo (www/) uses the package only through its public entries (the names of
//   package.json's `exports`, which the demo's import map points at): no relative import
//   leaves www/.
// - No adapter module (src/js/ but sync*.js) imports sync: sync is built on the adapter, never
//   the other way.
// - Sync (src/js/sync*.js) imports only sync modules and the adapter's one key for running a
//   host call as another actor (host-call-as.js); everything else it reaches through the
//   MemoryTool it is given (the public host API). Types it may name anywhere (JSDoc).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The source without its comments (JSDoc `import("…")` types are comments), and with every
 * string emptied but module specifiers (the string after `from`, `import` or `import(`).
 * @param {string} source
 */
export function stripComments(source) {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      const start = i;
      i++;
      while (i < source.length && source[i] !== c) i += source[i] === "\\" ? 2 : 1;
      i++;
      // A module specifier stays; any other string is emptied (its text is not code).
      out += /(\bfrom|\bimport|\bimport\s*\()\s*$/.test(out) ? source.slice(start, i) : `${c}${c}`;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * Every module specifier `source` imports at run time: static imports and re-exports, side-effect
 * imports, and dynamic `import("…")` of a string literal.
 * @param {string} source
 * @returns {string[]}
 */
export function importsOf(source) {
  const code = stripComments(source);
  const found = [];
  const patterns = [
    /\bimport\s+[^"'`;()]*?\bfrom\s*["']([^"']+)["']/g,
    /\bexport\s+[^"'`;()]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The .js files below `dir`, as paths relative to the repository. @param {string} dir */
async function modulesBelow(dir) {
  const entries = await readdir(path.join(ROOT, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".js"))
    .map((e) => path.relative(ROOT, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
}

const isSync = (/** @type {string} */ file) => /^sync[^/]*\.js$/.test(path.basename(file));

/**
 * What breaks the rules, as "file: import (rule)" lines.
 * @param {Record<string, string>} sources repository-relative path → source
 * @param {string[]} entryNames the package's public entry names (`memory-tool-wasm`, …)
 */
export function layerProblems(sources, entryNames) {
  const problems = [];
  for (const [file, source] of Object.entries(sources)) {
    for (const specifier of importsOf(source)) {
      const relative = specifier.startsWith(".");
      const target = relative ? path.normalize(path.join(path.dirname(file), specifier)) : specifier;
      if (file.startsWith("www/")) {
        if (relative && !target.startsWith("www/")) {
          problems.push(`${file}: ${specifier} (the demo uses the package only through its public entries)`);
        } else if (!relative && specifier.startsWith("memory-tool-wasm") && !entryNames.includes(specifier)) {
          problems.push(`${file}: ${specifier} (not one of the package's entries: ${entryNames.join(", ")})`);
        }
      } else if (file.startsWith("src/js/") && !isSync(file)) {
        if (relative && target.startsWith("src/js/") && isSync(target)) {
          problems.push(`${file}: ${specifier} (no adapter module imports sync: sync is built on the adapter)`);
        }
      } else if (file.startsWith("src/js/") && isSync(file)) {
        const allowed = relative && target.startsWith("src/js/") && (isSync(target) || target === "src/js/host-call-as.js");
        if (!allowed) {
          problems.push(`${file}: ${specifier} (sync imports only sync modules and host-call-as.js; the rest through the MemoryTool it is given)`);
        }
      }
    }
  }
  return problems;
}

async function sourcesOf(files) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const file of files) out[file] = await readFile(path.join(ROOT, file), "utf8");
  return out;
}

test("the JavaScript layers: demo → package entries; adapter ↛ sync; sync → sync and the host API", async () => {
  const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8"));
  const entryNames = Object.keys(pkg.exports).map((key) => (key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`));
  const files = [...(await modulesBelow("www")), ...(await modulesBelow("src/js"))];
  assert.ok(files.some(isSync) && files.some((f) => f.startsWith("www/")), `modules found: ${files.length}`);
  const problems = layerProblems(await sourcesOf(files), entryNames);
  assert.deepEqual(problems, [], problems.join("\n"));
  console.log(`# ${files.length} modules, their imports within the layers`);
});

test("the layer check sees every form of import, and no type in a comment", () => {
  assert.deepEqual(
    importsOf(`
      import a from "./a.js";
      import { b,
        c } from './b.js';
      export { d } from "./d.js";
      export * from "./e.js";
      import "./side.js";
      const lazy = await import("./lazy.js");
      /** @typedef {import("./types.js").T} T */
      // import x from "./commented.js";
      const s = "import y from './in-a-string.js'";
    `),
    ["./a.js", "./b.js", "./d.js", "./e.js", "./side.js", "./lazy.js"],
  );
  const entries = ["memory-tool-wasm", "memory-tool-wasm/sync"];
  assert.deepEqual(
    layerProblems(
      {
        "www/panel.js": 'import { x } from "../src/js/memory-tool.js";\nimport { y } from "memory-tool-wasm/internal";\nimport { z } from "./ok.js";',
        "src/js/memory-tool.js": 'import { k } from "./sync-actor.js";',
        "src/js/sync.js": 'import { e } from "./errors.js";\nimport { p } from "./sync-plan.js";',
      },
      entries,
    ),
    [
      "www/panel.js: ../src/js/memory-tool.js (the demo uses the package only through its public entries)",
      "www/panel.js: memory-tool-wasm/internal (not one of the package's entries: memory-tool-wasm, memory-tool-wasm/sync)",
      "src/js/memory-tool.js: ./sync-actor.js (no adapter module imports sync: sync is built on the adapter)",
      "src/js/sync.js: ./errors.js (sync imports only sync modules and host-call-as.js; the rest through the MemoryTool it is given)",
    ],
  );
});

/**
 * Where the adapter's code (its comments aside) holds a text that is the core's to say: a text
 * the model reads (`Error: …`), the refusal of an unknown option, or the model's mark taken off
 * a core text (docs/ARCHITECTURE.md#layout: every text the model reads is in
 * src/format/texts.rs, every option a method takes in src/commands/methods.rs).
 * @param {Record<string, string>} sources repository-relative path → source
 */
export function textProblems(sources) {
  const problems = [];
  for (const [file, source] of Object.entries(sources)) {
    const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
    if (/["'`]Error: /.test(code)) problems.push(`${file}: a text the model reads (the core's: src/format/texts.rs)`);
    if (/unknown option|the only option is|the options are/.test(code)) {
      problems.push(`${file}: the refusal of an unknown option (the core's: src/commands/methods.rs)`);
    }
    if (/\^Error: /.test(code)) problems.push(`${file}: strips the model's mark off a core text (the core speaks to the host itself)`);
  }
  return problems;
}

test("the adapter keeps no text of the core's: no model text, no option refusal, no stripped mark", async () => {
  // MemoryTool.open, MemoryStores.open and preload check their options before the core is
  // loaded (their `wasm` option says where it is): their refusals are the one exception.
  const before = new Set(["src/js/options.js", "src/js/memory-stores.js", "src/js/memory-tool.js"]);
  const files = (await modulesBelow("src/js")).filter((file) => !isSync(file));
  const sources = await sourcesOf(files);
  for (const file of before) {
    sources[file] = sources[file]
      .split("\n")
      .filter((line) => !/MemoryStores\.open: unknown option|MemoryTool\.preload: unknown option|invalidOptions\(`Unknown option/.test(line))
      .join("\n");
  }
  assert.deepEqual(textProblems(sources), []);
  // The check sees each kind.
  assert.deepEqual(
    textProblems({
      "a.js": 'const t = "Error: The memory store could not be reached.";',
      "b.js": "throw new Error(`x: unknown option \\`${n}\\`; the options are a, b.`);",
      "c.js": 'text.replace(/^Error: /, "")',
      "d.js": '// "Error: a comment" is fine\n/* the options are a, b */ const ok = 1;',
    }),
    [
      "a.js: a text the model reads (the core's: src/format/texts.rs)",
      "b.js: the refusal of an unknown option (the core's: src/commands/methods.rs)",
      "c.js: strips the model's mark off a core text (the core speaks to the host itself)",
    ],
  );
});

// One home for the export's rules: the core's ExportCursor (src/commands/bundle/export.rs).
// A module of the adapter that knew why an entry is left out, how to read the whole history,
// how the bundle's lists close or how big a page is would be a second export driver, whose
// rules could drift from the core's (docs/ARCHITECTURE.md#layout).
test("no JavaScript module keeps a rule of the export: its reasons, its reads, its envelope", async () => {
  const rules = [
    "its content is missing",
    "its record cannot be read",
    "its content does not match its content_sha256",
    "its memory was left out",
    "memver_~",
    '"versions":[',
    '"skipped":',
    "CHUNK_BYTES",
    "BATCH_BYTES",
    "bundleEntries",
  ];
  const files = await modulesBelow("src/js");
  assert.ok(files.includes("src/js/export-stream.js"), `modules found: ${files.length}`);
  const sources = await sourcesOf(files);
  const problems = [];
  for (const [file, source] of Object.entries(sources)) {
    for (const rule of rules) if (source.includes(rule)) problems.push(`${file}: ${JSON.stringify(rule)} (the export's rules are the core's)`);
  }
  assert.deepEqual(problems, [], problems.join("\n"));
});
