// The README's AI SDK recipe in a page bundled by Vite: `generateText` and `streamText` with
// `memoryTool(memory, { anthropic })` and a multi-step stop condition, each over its own
// IndexedDB store, against the Messages API at `?api=ORIGIN` (the fake endpoint behind CORS).
// The first load runs both and reports what they saw; a reload finds the stores already
// written and reports what IndexedDB kept. Everything goes in `window.result`.
import { generateText, streamText, stepCountIs } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { MemoryTool } from "memory-tool-wasm";
import { memoryTool } from "memory-tool-wasm/ai-sdk";

const api = new URLSearchParams(location.search).get("api");
const anthropic = createAnthropic({
  baseURL: `${api}/v1`,
  apiKey: "test",
  // The API answers a page's (CORS) request only with this header.
  headers: { "anthropic-dangerous-direct-browser-access": "true" },
});
const model = anthropic("claude-sonnet-4-5");
const NOTES = { command: "view", path: "/memories/notes.md" };

/** @param {unknown} value */
function report(value) {
  window.result = value;
  document.documentElement.dataset.state = "done";
}

/** Writes the image the model's tool calls view, as in the Node consumer test. */
async function addImage(memory) {
  const png = new Uint8Array(await (await fetch("./diagram.png")).arrayBuffer());
  await memory.writeFile("/memories/diagram.png", png);
}

async function main() {
  const generateMemory = await MemoryTool.open({ store: "ai-generate" });
  const streamMemory = await MemoryTool.open({ store: "ai-stream" });
  if (!(await generateMemory.execute(NOTES)).isError) {
    report({ load: "reload", generate: await generateMemory.execute(NOTES), stream: await streamMemory.execute(NOTES) });
    return;
  }
  await addImage(generateMemory);
  const generated = await generateText({
    model,
    prompt: "Remember this.",
    tools: { memory: memoryTool(generateMemory, { anthropic }) },
    stopWhen: stepCountIs(3),
  });

  await addImage(streamMemory);
  const errors = [];
  const streamed = streamText({
    model,
    prompt: "Remember this.",
    tools: { memory: memoryTool(streamMemory, { anthropic }) },
    stopWhen: stepCountIs(3),
    onError: ({ error }) => errors.push(String(error)),
  });
  let chunks = 0;
  for await (const _ of streamed.textStream) chunks++;
  report({
    load: "first",
    generate: { text: generated.text, steps: generated.steps.length, notes: await generateMemory.execute(NOTES) },
    stream: {
      text: await streamed.text,
      steps: (await streamed.steps).length,
      chunks,
      errors,
      notes: await streamMemory.execute(NOTES),
    },
  });
}

main().catch((error) => report({ error: String(error?.stack ?? error) }));
