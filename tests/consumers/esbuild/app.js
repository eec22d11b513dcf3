// A page bundled by esbuild (default browser platform) with the .wasm as a file asset, handed to
// the package through the `wasm` option, resolved against the bundle's own URL (docs/BUNDLERS.md),
// so the page loading it may be anywhere. It writes a note on the first load and reads it on
// every load, so a reload shows that IndexedDB kept it.
import { MemoryTool } from "memory-tool-wasm";
import wasm from "memory-tool-wasm/wasm";

const report = (value) => {
  window.result = value;
  document.documentElement.dataset.state = "done";
};

try {
  const memory = await MemoryTool.open({ wasm: new URL(wasm, import.meta.url), store: "esbuild-consumer" });
  const before = await memory.execute({ command: "view", path: "/memories/note.md" });
  if (before.isError) {
    await memory.execute({ command: "create", path: "/memories/note.md", file_text: "kept across reloads\n" });
  }
  const bad = await memory.execute({ command: "view", path: "/etc/passwd" });
  const after = await memory.execute({ command: "view", path: "/memories/note.md" });
  report({ before, bad, after, storage: memory.constructor.name });
} catch (error) {
  report({ error: String(error?.stack ?? error) });
}
