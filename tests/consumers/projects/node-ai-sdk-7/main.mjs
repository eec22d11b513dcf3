// The newest AI SDK (`ai` 7 with `@ai-sdk/anthropic` 4, which need Node 22; the test runs this
// with the Node 22 binary the project installs): `generateText`, then `streamText`, each with
// `memoryTool(memory, { anthropic })` over its own MemoryTool, against the fake endpoint at
// $FAKE_ANTHROPIC. The test reads what reached the endpoint; this prints what the runs saw.
import { generateText, streamText, stepCountIs } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { MemoryTool } from "memory-tool-wasm";
import { memoryTool } from "memory-tool-wasm/ai-sdk";

const anthropic = createAnthropic({ baseURL: `${process.env.FAKE_ANTHROPIC}/v1`, apiKey: "test" });
const model = anthropic("claude-sonnet-4-5");
const png = Buffer.from(process.env.PNG_BASE64, "base64");

async function freshMemory() {
  const memory = await MemoryTool.open({ storage: "memory" });
  await memory.writeFile("/memories/diagram.png", png);
  return memory;
}

const generated = await generateText({
  model,
  prompt: "Remember this.",
  tools: { memory: memoryTool(await freshMemory(), { anthropic }) },
  stopWhen: stepCountIs(3),
});

const errors = [];
const streamed = streamText({
  model,
  prompt: "Remember this.",
  tools: { memory: memoryTool(await freshMemory(), { anthropic }) },
  stopWhen: stepCountIs(3),
  onError: ({ error }) => errors.push(String(error)),
});
let chunks = 0;
for await (const _ of streamed.textStream) chunks++;

console.log(
  JSON.stringify({
    node: process.version,
    generate: { text: generated.text, steps: generated.steps.length },
    stream: { text: await streamed.text, steps: (await streamed.steps).length, chunks, errors },
  }),
);
