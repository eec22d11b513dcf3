// The storage contract in the browser, as docs/STORAGE.md has a user run it: the doc's
// IndexedDB backend (indexeddb-backend.js, written from its code block) through
// `keyValueContract`, and the package's own IndexedDbStorage through `storageContract`, both
// over this page's real IndexedDB. The test reads `window.results`.
import { MemoryTool, IndexedDbStorage } from "memory-tool-wasm";
import { keyValueContract, storageContract } from "memory-tool-wasm/storage-contract";
import { IndexedDbBackend } from "./indexeddb-backend.js";

const suites = {
  IndexedDbBackend: keyValueContract(() => new IndexedDbBackend(), { MemoryTool }),
  IndexedDbStorage: storageContract(() => new IndexedDbStorage({ dbPrefix: "contract:" }), { MemoryTool }),
};
const results = [];
for (const [suite, cases] of Object.entries(suites)) {
  for (const { name, run } of cases) {
    try {
      await run();
      results.push({ suite, name, ok: true });
    } catch (error) {
      results.push({ suite, name, ok: false, error: String(error?.stack ?? error) });
    }
  }
}
window.results = results;
document.documentElement.dataset.state = "done";
