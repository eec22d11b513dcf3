// One cold start (bench/cold.html): from the import of the implementation to the text of a
// first `view /memories`, over IndexedDB, in a page that has loaded nothing else of it. impl:
// `dist` the package's one-file build (dist/memory-tool-wasm.js: the main entry's browser
// file, and `memory-tool-wasm/bundle`), `preload` the same with the page's
// `<link rel="preload">` of the .wasm (docs/BUNDLERS.md#a-fast-first-command; added here at
// the clock's start, as if the page's head had it), `src` its source modules
// (src/js/index.js), `dexie` the Dexie version of the commands (bench/alternatives/dexie.mjs).
// With `fill=N`, first writes N files of 1 KB (untimed: the next loads view them). The figures
// go to `window.result`.

const params = new URLSearchParams(location.search);
const impl = params.get("impl") ?? "dist";
const store = params.get("store") ?? "cold";
const fill = Number(params.get("fill") ?? 0);
const VIEW = { command: "view", path: "/memories" };

/** @returns {Promise<{ ms: number, text: string }>} */
async function coldStart() {
  const t0 = performance.now();
  if (impl === "dexie") {
    const { openDexieMemory } = await import("./alternatives/dexie.mjs");
    const memory = await openDexieMemory(`bench-cold-dexie:${store}`);
    if (fill > 0) {
      await memory.fill(Array.from({ length: fill }, (_, i) => ({ path: `/memories/n${i}.md`, content: "x".repeat(1024) })));
    }
    const result = await memory.execute(VIEW);
    return { ms: performance.now() - t0, text: String(result.content) };
  }
  if (impl === "preload") {
    const link = document.createElement("link");
    link.rel = "preload";
    link.href = "../pkg/memory_tool_wasm_bg.wasm";
    link.as = "fetch";
    link.type = "application/wasm";
    link.crossOrigin = "anonymous";
    document.head.append(link);
  }
  const url = impl === "src" ? "../src/js/index.js" : "../dist/memory-tool-wasm.js";
  const { MemoryTool } = await import(url);
  const tool = await MemoryTool.open({ store: `${impl}-${store}` });
  for (let i = 0; i < fill; i++) await tool.execute({ command: "create", path: `/memories/n${i}.md`, file_text: "x".repeat(1024) });
  const result = await tool.execute(VIEW);
  const ms = performance.now() - t0;
  tool.close();
  return { ms, text: String(result.content) };
}

coldStart().then(
  ({ ms, text }) => {
    /** @type {any} */ (window).result = { ms, firstLine: text.split("\n")[0], lines: text.split("\n").length };
    document.documentElement.dataset.state = "done";
  },
  (error) => {
    /** @type {any} */ (window).result = { error: String(error?.stack ?? error) };
    document.documentElement.dataset.state = "done";
  },
);
