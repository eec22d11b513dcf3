// An ES module of a Node-only project using both entries.
import { MemoryTool, InMemoryStorage, type MemoryToolOptions } from "memory-tool-wasm";
import { memoryTool } from "memory-tool-wasm/anthropic";

const options: MemoryToolOptions = { storage: new InMemoryStorage(), wasm: new Uint8Array(0) };
const memory = await MemoryTool.open(options);
const tool = memoryTool(memory);
const name: string = tool.name;
const result: { content: unknown; isError: boolean } = await memory.execute({ command: "view", path: "/memories" });
void name;
void result;

