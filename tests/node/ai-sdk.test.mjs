// memory-tool-wasm/ai-sdk with the Vercel AI SDK (`ai` and `@ai-sdk/anthropic`) against a fake
// Anthropic endpoint on 127.0.0.1, whole (generateText) and streamed (streamText): each
// tool_result the provider sends back is the one `memory.run` gives for the same input on the
// same files, byte for byte, with is_error and image blocks; unusual inputs get the core's own
// texts (the provider's zod schema is not the judge); the call's id lands in created_by. And the
// key on the server, memory in the page: `clientMemoryTool` declared on a server that answers
// with `streamText(…).toUIMessageStreamResponse()`, the AI SDK's own Chat (what useChat wraps)
// with `answerToolCall` in `onToolCall`: the same tool_results reach the endpoint.

import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import {
  AbstractChat,
  DefaultChatTransport,
  convertToModelMessages,
  generateText,
  lastAssistantMessageIsCompleteWithToolCalls,
  stepCountIs,
  streamText,
} from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { fakeAnthropic, toolTurn, textTurn, UNUSUAL_INPUTS } from "./fixtures/fake-anthropic.mjs";
import { pngBytes } from "./fixtures/anthropic-conversation.mjs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) console.error("\n*** ai-sdk.test.mjs: pkg/ is not built; SKIPPING. ***\n");
const suite = built ? describe : describe.skip;
const { MemoryTool, MemoryToolError } = built ? await import("memory-tool-wasm") : {};
const { memoryTool, clientMemoryTool, answerToolCall } = await import("memory-tool-wasm/ai-sdk");

/** A memory over fresh in-memory storage with the diagram in it. */
async function memoryWithDiagram() {
  const memory = await MemoryTool.open({ storage: "memory" });
  await memory.writeFile("/memories/diagram.png", pngBytes());
  return memory;
}

/** What `memory.run` answers for the tool_use blocks of `turn`, in order, on a fresh memory. */
async function expectedResults(turn) {
  const memory = await memoryWithDiagram();
  const results = [];
  for (const block of turn.content) results.push(await memory.run(block));
  memory.close();
  return results;
}

const inputs = UNUSUAL_INPUTS.map(([, input]) => input);

suite("memory-tool-wasm/ai-sdk", () => {
  /** @type {Awaited<ReturnType<typeof fakeAnthropic>>} */
  let server;
  before(async () => {
    server = await fakeAnthropic([]);
  });
  after(() => server.close());

  for (const mode of ["generateText", "streamText"]) {
    test(`${mode}: every tool_result is memory.run's, with is_error and images`, async () => {
      const turns = [toolTurn(`${mode}_1`, inputs), textTurn(`${mode}_2`, "Done.")];
      const fake = await fakeAnthropic(turns);
      try {
        const anthropic = createAnthropic({ baseURL: fake.baseURL, apiKey: "test" });
        const memory = await memoryWithDiagram();
        const params = {
          model: anthropic("claude-sonnet-4-5"),
          prompt: "Remember this.",
          tools: { memory: memoryTool(memory, { anthropic }) },
          stopWhen: stepCountIs(3),
        };
        let text;
        if (mode === "generateText") {
          text = (await generateText(params)).text;
        } else {
          const result = streamText(params);
          text = await result.text;
        }
        assert.equal(text, "Done.");
        assert.equal(fake.requests.length, 2);
        const sent = fake.requests[0].body;
        assert.deepEqual(
          sent.tools.map((t) => ({ type: t.type, name: t.name })),
          [{ type: "memory_20250818", name: "memory" }],
          "the API gets the memory tool itself",
        );
        const results = fake.requests[1].body.messages.at(-1).content;
        const expected = await expectedResults(turns[0]);
        assert.equal(results.length, expected.length);
        for (const [i, want] of expected.entries()) {
          const got = results[i];
          const about = UNUSUAL_INPUTS[i][0];
          assert.equal(got.type, "tool_result");
          assert.equal(got.tool_use_id, want.tool_use_id, about);
          assert.deepEqual(got.content, want.content, about);
          assert.equal(got.is_error === true, want.is_error === true, `${about}: is_error`);
        }
        const { data } = await memory.versions.list();
        const byTool = data.filter((v) => v.created_by?.type === "tool");
        assert.deepEqual(
          byTool.map((v) => [v.operation, v.created_by.tool_use_id]).reverse(),
          [["created", `toolu_${mode}_1_1`], ["modified", `toolu_${mode}_1_2`]],
          "the writes record the calls' toolCallIds",
        );
        memory.close();
      } finally {
        await fake.close();
      }
    });
  }

  test("the unusual inputs get the core's texts, not the provider schema's", async () => {
    const [turn] = [toolTurn("texts", inputs)];
    const expected = await expectedResults(turn);
    const byAbout = Object.fromEntries(UNUSUAL_INPUTS.map(([about], i) => [about, expected[i]]));
    assert.equal(byAbout["str_replace with no new_str (a delete)"].is_error, undefined, "a delete, done");
    for (const result of expected) {
      assert.doesNotMatch(JSON.stringify(result.content), /invalid_type|invalid_union|Invalid input|zod/i);
    }
    assert.ok(Array.isArray(byAbout["a view of an image"].content), "an image view is content blocks");
  });

  test("refuses what is not a MemoryTool or not a provider, when the tool is built", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    const anthropic = createAnthropic({ apiKey: "test" });
    assert.throws(() => memoryTool(MemoryTool.open({ storage: "memory" }), { anthropic }), (e) =>
      e instanceof MemoryToolError && e.code === "INVALID_OPTIONS" && /It got a promise/.test(e.message),
    );
    assert.throws(() => memoryTool(memory, {}), (e) => e.code === "INVALID_OPTIONS" && /options\.anthropic/.test(e.message));
    assert.throws(() => memoryTool(memory), (e) => e.code === "INVALID_OPTIONS");
    memory.close();
  });

  test("key on the server, memory in the page: clientMemoryTool, the AI SDK's Chat, answerToolCall", async () => {
    const turns = [toolTurn("client_1", inputs), textTurn("client_2", "Done.")];
    const fake = await fakeAnthropic(turns);
    try {
      // The server: a route handler, Request in, Response out (Next.js's `POST`, Hono's handler).
      const anthropic = createAnthropic({ baseURL: fake.baseURL, apiKey: "test" });
      const tools = { memory: clientMemoryTool({ anthropic }) };
      assert.equal(tools.memory.execute, undefined, "declared, not run: the call goes to the page");
      const handler = async (request) => {
        const { messages } = await request.json();
        const result = streamText({
          model: anthropic("claude-sonnet-4-5"),
          messages: await convertToModelMessages(messages, { tools }),
          tools,
        });
        return result.toUIMessageStreamResponse();
      };
      // The page: the memory over its own storage, the AI SDK's Chat (useChat's), no key.
      const memory = await memoryWithDiagram();
      const chat = new TestChat({
        transport: new DefaultChatTransport({ api: "http://app.test/api/chat", fetch: (url, init) => handler(new Request(url, init)) }),
        sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
        onToolCall: ({ toolCall }) => answerToolCall(memory, toolCall, chat.addToolOutput),
      });
      await chat.sendMessage({ text: "Remember this." });
      await until(() => chat.status === "ready" && fake.requests.length === 2);
      assert.equal(chat.error, undefined);
      const last = chat.messages.at(-1);
      assert.equal(last.parts.filter((p) => p.type === "text").map((p) => p.text).join(""), "Done.");

      assert.deepEqual(
        fake.requests[0].body.tools.map((t) => ({ type: t.type, name: t.name })),
        [{ type: "memory_20250818", name: "memory" }],
      );
      const sent = fake.requests[1].body.messages.at(-1).content;
      const expected = await expectedResults(turns[0]);
      assert.equal(sent.length, expected.length);
      for (const [i, want] of expected.entries()) {
        const about = UNUSUAL_INPUTS[i][0];
        assert.equal(JSON.stringify(sent[i]), JSON.stringify(want), `${about}: the tool_result, byte for byte`);
      }
      assert.ok(expected.some((r) => r.is_error === true) && expected.some((r) => Array.isArray(r.content)));
      // The UI parts: errors as output-error (what the page shows), the rest as their content.
      const parts = chat.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool-memory");
      assert.deepEqual(parts.map((p) => p.state), expected.map((r) => (r.is_error ? "output-error" : "output-available")));
      const { data } = await memory.versions.list();
      assert.deepEqual(
        data.filter((v) => v.created_by?.type === "tool").map((v) => [v.operation, v.created_by.tool_use_id]).reverse(),
        [["created", "toolu_client_1_1"], ["modified", "toolu_client_1_2"]],
        "the page's writes record the calls' toolCallIds",
      );
      memory.close();
    } finally {
      await fake.close();
    }
  });

  test("what docs/SERVER-AGENTS.md says happens without the helpers: the provider's own tool, or no tools for convertToModelMessages", async () => {
    const turn = toolTurn("plain", inputs);
    const expected = await expectedResults(turn);
    const sentWith = async (declare, convert) => {
      const fake = await fakeAnthropic([turn, textTurn("plain_end", "Done.")]);
      try {
        const anthropic = createAnthropic({ baseURL: fake.baseURL, apiKey: "test" });
        const tools = { memory: declare(anthropic) };
        const handler = async (request) => {
          const { messages } = await request.json();
          return streamText({ model: anthropic("claude-sonnet-4-5"), messages: await convert(messages, tools), tools }).toUIMessageStreamResponse();
        };
        const memory = await memoryWithDiagram();
        const chat = new TestChat({
          transport: new DefaultChatTransport({ api: "http://app.test/api/chat", fetch: (url, init) => handler(new Request(url, init)) }),
          sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
          onToolCall: ({ toolCall }) => answerToolCall(memory, toolCall, chat.addToolOutput),
        });
        await chat.sendMessage({ text: "Remember this." });
        await until(() => chat.status === "ready" && fake.requests.length === 2);
        memory.close();
        return Object.fromEntries(UNUSUAL_INPUTS.map(([about], i) => [about, fake.requests[1].body.messages.at(-1).content[i]]));
      } finally {
        await fake.close();
      }
    };
    const want = Object.fromEntries(UNUSUAL_INPUTS.map(([about], i) => [about, expected[i]]));
    // The provider's own memory tool: its zod schema answers unusual inputs on the server, with
    // a text that says nothing; the page never sees them.
    const plain = await sentWith((anthropic) => anthropic.tools.memory_20250818({}), (messages, tools) => convertToModelMessages(messages, { tools }));
    const unusual = ["str_replace with no new_str (a delete)", 'insert_line as a string ("1")', "an unknown command", "no command at all", "view_range of three numbers"];
    for (const about of unusual) {
      assert.deepEqual([plain[about].content, plain[about].is_error], ["An error occurred.", true], about);
      assert.notEqual(plain[about].content, want[about].content, about);
    }
    // clientMemoryTool without `{ tools }` for convertToModelMessages: the texts arrive, but an
    // image view reaches the model as the JSON text of its blocks, not as an image.
    const untold = await sentWith((anthropic) => clientMemoryTool({ anthropic }), (messages) => convertToModelMessages(messages));
    for (const about of unusual) assert.equal(JSON.stringify(untold[about]), JSON.stringify(want[about]), about);
    // Texts and errors arrive whole in every column; an image view only with both helpers.
    // (With the provider's tool, the refused delete leaves the file as it was: its view is left out.)
    assert.equal(JSON.stringify(untold["a view of the file"]), JSON.stringify(want["a view of the file"]));
    for (const sent of [plain, untold]) {
      for (const about of ["a create", "a view of a missing file", "a path outside /memories"]) {
        assert.equal(JSON.stringify(sent[about]), JSON.stringify(want[about]), about);
      }
      assert.equal(sent["a view of an image"].content, JSON.stringify(want["a view of an image"].content));
      assert.equal(sent["a view of an image"].is_error, undefined);
    }
  });

  test("answerToolCall: another tool's call is left alone; bad arguments are refused", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    const outputs = [];
    const add = (output) => outputs.push(output);
    assert.equal(await answerToolCall(memory, { toolCallId: "c1", toolName: "weather", input: {} }, add), false);
    assert.deepEqual(outputs, []);
    // The promise MemoryTool.open gives is taken too.
    const opening = MemoryTool.open({ storage: "memory" });
    assert.equal(await answerToolCall(opening, { toolCallId: "c2", toolName: "memory", input: { command: "view", path: "/etc" } }, add), true);
    assert.deepEqual(outputs, [
      { tool: "memory", toolCallId: "c2", state: "output-error", errorText: "Error: Path must be /memories or start with /memories/, got: /etc" },
    ]);
    const refused = (e) => e instanceof MemoryToolError && e.code === "INVALID_OPTIONS";
    await assert.rejects(answerToolCall(memory, { toolCallId: "c3", toolName: "memory", input: {} }, undefined), refused);
    await assert.rejects(answerToolCall(memory, undefined, add), refused);
    await assert.rejects(answerToolCall({}, { toolCallId: "c4", toolName: "memory", input: {} }, add), refused);
    assert.throws(() => clientMemoryTool({}), (e) => refused(e) && /clientMemoryTool/.test(e.message));
    memory.close();
    (await opening).close();
  });
});

/** The AI SDK's Chat over plain state, as @ai-sdk/react's Chat is over React's. */
class TestChat extends AbstractChat {
  constructor(init) {
    let messages = [];
    super({
      ...init,
      state: {
        status: "ready",
        error: undefined,
        get messages() {
          return messages;
        },
        set messages(value) {
          messages = value;
        },
        pushMessage: (message) => {
          messages = [...messages, message];
        },
        popMessage: () => {
          messages = messages.slice(0, -1);
        },
        replaceMessage: (index, message) => {
          messages = messages.map((m, i) => (i === index ? message : m));
        },
        snapshot: (value) => structuredClone(value),
      },
    });
  }
}

/** Resolves once `done()` holds (within 10 s). */
async function until(done) {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(done(), "timed out");
}
