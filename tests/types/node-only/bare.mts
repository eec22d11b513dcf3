// The core entry with no environment types.
import { MemoryTool, type MemoryToolOptions, type IndexedDbStorageOptions } from "memory-tool-wasm";

const options: MemoryToolOptions = { storage: "memory", wasm: new Uint8Array(0) };
const storageOptions: IndexedDbStorageOptions = { dbPrefix: "app:" };
const memory = await MemoryTool.open(options);
void storageOptions;
void memory;
