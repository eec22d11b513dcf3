// A CommonJS project: `require` of the SDK and of both entries, the SDK's tool runner against
// the fake endpoint at $FAKE_ANTHROPIC (two turns).
const { Anthropic } = require("@anthropic-ai/sdk");
const { MemoryTool } = require("memory-tool-wasm");
const { memoryTool } = require("memory-tool-wasm/anthropic");

async function main() {
  const memory = await MemoryTool.open({ storage: "memory" });
  await memory.writeFile("/memories/diagram.png", Buffer.from(process.env.PNG_BASE64, "base64"));
  const client = new Anthropic({ apiKey: "test", baseURL: process.env.FAKE_ANTHROPIC, maxRetries: 0 });
  await client.beta.messages.toolRunner({
    model: "claude-sonnet-4-5",
    max_tokens: 100,
    messages: [{ role: "user", content: "Remember this." }],
    tools: [memoryTool(memory)],
  });
  console.log("node-cjs: done");
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
