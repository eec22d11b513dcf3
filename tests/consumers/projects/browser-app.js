// The browser consumers' page script (copied into each project as src/app.js): opens the tool
// over IndexedDB, writes a note on the first load, reads it on every load, and puts what it
// saw in `window.result`. `open` gets the project's `wasm` option (esbuild only).
import { MemoryTool } from "memory-tool-wasm";

export async function run(options = {}) {
  const report = (value) => {
    window.result = value;
    document.documentElement.dataset.state = "done";
  };
  try {
    const memory = await MemoryTool.open({ store: "consumer", ...options });
    const before = await memory.execute({ command: "view", path: "/memories/note.md" });
    if (before.isError) {
      await memory.execute({ command: "create", path: "/memories/note.md", file_text: "kept across reloads\n" });
    }
    const bad = await memory.execute({ command: "view", path: "/etc/passwd" });
    const after = await memory.execute({ command: "view", path: "/memories/note.md" });
    report({ before, bad, after, indexedDB: memory.mounts?.length ?? 1 });
  } catch (error) {
    report({ error: String(error?.stack ?? error) });
  }
}
