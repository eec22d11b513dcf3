// A Node ES module project: the official SDK's tool runner, the AI SDK and the LangChain recipe,
// each over its own MemoryTool, against the fake endpoint at $FAKE_ANTHROPIC. Every path gets
// the same tool calls (two turns each); the test reads what reached the endpoint.
import Anthropic from "@anthropic-ai/sdk";
import { MemoryTool } from "memory-tool-wasm";
import { memoryTool } from "memory-tool-wasm/anthropic";
import { memoryTool as aiSdkMemoryTool } from "memory-tool-wasm/ai-sdk";
import { generateText, stepCountIs } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { ChatAnthropic, tools } from "@langchain/anthropic";
import { HumanMessage } from "@langchain/core/messages";

const origin = process.env.FAKE_ANTHROPIC;
const png = Buffer.from(process.env.PNG_BASE64, "base64");
const model = "claude-sonnet-4-5";

async function freshMemory() {
  const memory = await MemoryTool.open({ storage: "memory" });
  await memory.writeFile("/memories/diagram.png", png);
  return memory;
}

// The official SDK's tool runner.
const client = new Anthropic({ apiKey: "test", baseURL: origin, maxRetries: 0 });
await client.beta.messages.toolRunner({
  model,
  max_tokens: 100,
  messages: [{ role: "user", content: "Remember this." }],
  tools: [memoryTool(await freshMemory())],
});

// The Vercel AI SDK.
const anthropic = createAnthropic({ baseURL: `${origin}/v1`, apiKey: "test" });
await generateText({
  model: anthropic(model),
  prompt: "Remember this.",
  tools: { memory: aiSdkMemoryTool(await freshMemory(), { anthropic }) },
  stopWhen: stepCountIs(3),
});

// LangChain.js: the README's recipe.
const memory = await freshMemory();
const chat = new ChatAnthropic({ model, apiKey: "test", anthropicApiUrl: origin, maxRetries: 0 }).bindTools([
  tools.memory_20250818(),
]);
const messages = [new HumanMessage("Remember this.")];
for (;;) {
  const ai = await chat.invoke(messages);
  messages.push(ai);
  const uses = (ai.tool_calls ?? []).map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args }));
  const results = await memory.runAll(uses);
  if (results.length === 0) break;
  messages.push(new HumanMessage({ content: results }));
}
console.log("node-esm: done");
