// Test scaffolding, not a README block: opens the store a page's program uses (`?store=`, else
// the default), with `?do=seed` puts into it the image the model will view, and reports the
// store's versions in `window.result`, then `<html data-state="done">`.
import { MemoryTool } from "memory-tool-wasm";

const params = new URLSearchParams(location.search);
try {
  const memory = await MemoryTool.open(params.get("store") ? { store: params.get("store") } : {});
  if (params.get("do") === "seed") {
    const png = await fetch("/diagram.png");
    await memory.writeFile("/memories/diagram.png", new Uint8Array(await png.arrayBuffer()));
  }
  const { data } = await memory.versions.list({ limit: 100 });
  window.result = { versions: data.map((v) => ({ operation: v.operation, path: v.path, created_by: v.created_by })) };
  memory.close();
} catch (error) {
  window.result = { error: String(error?.stack ?? error) };
}
document.documentElement.dataset.state = "done";
