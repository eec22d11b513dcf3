// memory-tool-wasm: Claude's memory tool (memory_20250818) in the browser, over IndexedDB.

export { MemoryTool } from "./memory-tool.js";
export { MemoryStores } from "./memory-stores.js";
export { MemoryToolError } from "./errors.js";
export { IndexedDbStorage } from "./storage-indexeddb.js";
export { InMemoryStorage } from "./storage-memory.js";
export { KeyValueStorage } from "./storage-kv.js";
export { formatSize, slugOf } from "./text.js";
