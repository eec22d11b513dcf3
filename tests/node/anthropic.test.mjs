// memory-tool-wasm/anthropic with the official SDK's real tool runner
// (`client.beta.messages.toolRunner`) over a fetch that replays recorded Messages API turns
// (tests/node/fixtures/anthropic-turns.json). Checks what the runner sent back (each
// tool_result's exact content, order, tool_use_id and is_error), in every mode the runner has:
// threaded (the default), `thread: false`, streamed, and streamed with tools run eagerly.
// The texts here are those of docs/TOOL.md, string for string: a changed or prefixed text fails.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import { betaMemoryTool } from "@anthropic-ai/sdk/helpers/beta/memory";
import { replayFetch } from "./fixtures/replay-fetch.mjs";
import { MODEL, NOTE_VIEW, FINAL_PATHS, answersFor, pngBytes } from "./fixtures/anthropic-conversation.mjs";

const built = existsSync(new URL("../../pkg/memory_tool_wasm_bg.wasm", import.meta.url));
if (!built) {
  console.error(
    "\n*** anthropic.test.mjs: pkg/memory_tool_wasm_bg.wasm is missing — run `npm run build`." +
      " SKIPPING every SDK test that needs the core. ***\n",
  );
}
const { MemoryTool, MemoryToolError, InMemoryStorage } = built ? await import("memory-tool-wasm") : {};
const { memoryTool, sdkHandlers } = await import("memory-tool-wasm/anthropic");

const suite = built ? describe : describe.skip;

const RECORDING = JSON.parse(readFileSync(new URL("./fixtures/anthropic-turns.json", import.meta.url), "utf8"));
const TURNS = RECORDING.turns;
const ANSWERS = answersFor(TURNS);
const PNG = pngBytes();

/** A client whose every request goes to the replayed `turns`. */
function replayClient(turns) {
  const replay = replayFetch(turns);
  const client = new Anthropic({ apiKey: "test", fetch: replay.fetch, maxRetries: 0 });
  return { client, requests: replay.requests };
}

/** A MemoryTool over fresh in-memory storage with the diagram in it; its execute calls are counted. */
async function memoryWithDiagram(options = {}) {
  const memory = await MemoryTool.open({ storage: "memory", ...options });
  await memory.writeFile("/memories/diagram.png", PNG);
  const executed = [];
  const counted = {
    execute: (input) => {
      executed.push(input);
      return memory.execute(input);
    },
  };
  return { memory, counted, executed };
}

/** The user's first message. */
const firstMessage = () => ({ role: "user", content: RECORDING.user });

/**
 * Runs the recorded conversation through the SDK's tool runner with `runnerParams` added;
 * `consume` drives the runner (default: await it to the end).
 */
async function runConversation(runnerParams = {}, consume = (runner) => runner) {
  const { client, requests } = replayClient(TURNS);
  const { memory, counted, executed } = await memoryWithDiagram();
  const runner = client.beta.messages.toolRunner({
    model: MODEL,
    max_tokens: 1024,
    messages: [firstMessage()],
    tools: [memoryTool(counted)],
    ...runnerParams,
  });
  const final = await consume(runner, executed);
  return { requests, memory, executed, final, runner };
}

/** Checks the store after the conversation: the note as created (the bad edit changed nothing). */
async function assertFinalStore(memory) {
  const paths = (await memory.memories.list()).map((entry) => entry.path);
  assert.deepEqual(paths, FINAL_PATHS);
  assert.deepEqual(await memory.execute({ command: "view", path: "/memories/notes/project.md" }), {
    content: NOTE_VIEW,
    isError: false,
  });
  assert.deepEqual((await memory.execute({ command: "view", path: "/memories/diagram.png" })).content, ANSWERS[1].content[1].content);
}

/** Checks the three requests of a threaded run: the first with the tool, then only the answers. */
function assertThreadedRequests(requests, { stream }) {
  assert.equal(requests.length, 3, "one request per recorded turn");
  for (const request of requests) {
    assert.equal(request.method, "POST");
    assert.match(request.url, /\/v1\/messages(\?|$)/);
    assert.equal(request.body.stream, stream);
    assert.equal(request.body.model, MODEL);
  }
  const [first, second, third] = requests.map((request) => request.body);
  assert.deepEqual(first.tools, [{ type: "memory_20250818", name: "memory" }]);
  assert.deepEqual(first.messages, [firstMessage()]);
  assert.deepEqual(first.thread, { type: "create" });
  assert.deepEqual(second.messages, [ANSWERS[0]]);
  assert.deepEqual(second.thread, { type: "continue", previous_message_id: TURNS[0].id });
  assert.deepEqual(third.messages, [ANSWERS[1]]);
  assert.deepEqual(third.thread, { type: "continue", previous_message_id: TURNS[1].id });
}

/** The commands the model sent, in order, as `memory.execute` must have received them. */
const RECORDED_INPUTS = TURNS.flatMap((turn) =>
  turn.content.filter((block) => block.type === "tool_use").map((block) => block.input),
);

suite("memoryTool(memory) in the SDK's tool runner", () => {
  test("a recorded conversation: each tool_result is our exact text, in order, with its tool_use_id", async () => {
    const { requests, memory, executed, final } = await runConversation();
    assertThreadedRequests(requests, { stream: false });
    assert.deepEqual(executed, RECORDED_INPUTS, "every command went through memory.execute, in order");
    assert.deepEqual(final.content, TURNS[2].content);
    assert.equal(final.stop_reason, "end_turn");
    await assertFinalStore(memory);
  });

  test("thread: false sends the whole history each turn, with the same answers", async () => {
    const { requests, memory } = await runConversation({ thread: false });
    assert.equal(requests.length, 3);
    assert.equal(requests[0].body.thread, undefined);
    assert.deepEqual(requests[2].body.messages, [
      firstMessage(),
      { role: "assistant", content: TURNS[0].content },
      ANSWERS[0],
      { role: "assistant", content: TURNS[1].content },
      ANSWERS[1],
    ]);
    for (const request of requests) {
      assert.deepEqual(request.body.tools, [{ type: "memory_20250818", name: "memory" }]);
    }
    await assertFinalStore(memory);
  });

  /**
   * Drives a streaming runner: collects the streamed text, and how many commands had run when
   * each reply had finished streaming (before the loop body lets the runner answer it).
   */
  const consumeStreams = (seen) => async (runner, executed) => {
    for await (const stream of runner) {
      stream.on("text", (delta) => {
        seen.text += delta;
      });
      await stream.finalMessage();
      // Let any call started during the stream reach memory.execute.
      await new Promise((resolve) => setTimeout(resolve, 0));
      seen.executedAtReplyEnd.push(executed.length);
    }
    return runner.done();
  };

  test("streamed turns (stream: true): the same answers, the text arrives as deltas", async () => {
    const seen = { text: "", executedAtReplyEnd: [] };
    const { requests, memory, executed, runner } = await runConversation({ stream: true }, consumeStreams(seen));
    assertThreadedRequests(requests, { stream: true });
    assert.deepEqual(executed, RECORDED_INPUTS);
    // Without runToolsEagerly the runner answers a reply after the loop body.
    assert.deepEqual(seen.executedAtReplyEnd, [0, 2, 4]);
    const allText = TURNS.flatMap((turn) => turn.content.filter((b) => b.type === "text").map((b) => b.text)).join("");
    assert.equal(seen.text, allText);
    assert.deepEqual((await runner.done()).content, TURNS[2].content);
    await assertFinalStore(memory);
  });

  test("streamed with runToolsEagerly: tools start while the reply streams; answers unchanged", async () => {
    const seen = { text: "", executedAtReplyEnd: [] };
    const { requests, memory, executed, final } = await runConversation(
      { stream: true, runToolsEagerly: true },
      consumeStreams(seen),
    );
    assertThreadedRequests(requests, { stream: true });
    assert.deepEqual(executed, RECORDED_INPUTS);
    // Each reply's two commands had run by the time it finished streaming.
    assert.deepEqual(seen.executedAtReplyEnd, [2, 4, 4]);
    assert.deepEqual(final.content, TURNS[2].content);
    await assertFinalStore(memory);
  });

  test("texts that start with 'Error: ' are not prefixed again; odd commands reach the core", async () => {
    const calls = [
      { command: "view", path: "/memories/../secrets" },
      { command: "toString" },
      { path: "/memories" },
      { command: "view", path: "/memories/missing.md" },
    ];
    const expected = [
      "Error: Path /memories/../secrets would escape /memories directory",
      "Error: Unknown command `toString`. Valid commands are: view, create, str_replace, insert, delete, rename",
      "Error: Missing required parameter `command`",
      "The path /memories/missing.md does not exist. Please provide a valid path.",
    ];
    const turns = [toolTurn("msg_odd_1", calls), textTurn("msg_odd_2", "I could not do that.")];
    const { client, requests } = replayClient(turns);
    const memory = await MemoryTool.open({ storage: "memory" });
    await client.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: "Try some odd things." }],
      tools: [memoryTool(memory)],
    });
    assert.deepEqual(
      requests[1].body.messages,
      [{ role: "user", content: expected.map((content, i) => ({ type: "tool_result", tool_use_id: `toolu_odd_1_${i}`, content, is_error: true })) }],
    );
    assert.deepEqual(await memory.memories.list(), [], "nothing was written");
  });

  test("why ToolError: the runner puts 'Error: ' before a plain Error's message", async () => {
    // Pins the SDK behaviour memoryTool relies on: were it to throw a plain Error, the model
    // would read "Error: No replacement was performed, …" instead of the text of docs/TOOL.md#str_replace.
    const text = ANSWERS[1].content[0].content;
    const plain = {
      type: "custom",
      name: "plain",
      input_schema: { type: "object" },
      parse: (input) => input,
      run: () => {
        throw new Error(text);
      },
    };
    const turns = [
      {
        ...toolTurn("msg_plain_1", [{}]),
        content: [{ type: "tool_use", id: "toolu_plain", name: "plain", input: {} }],
      },
      textTurn("msg_plain_2", "ok"),
    ];
    const { client, requests } = replayClient(turns);
    await client.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: "go" }],
      tools: [plain],
    });
    assert.deepEqual(requests[1].body.messages[0].content, [
      { type: "tool_result", tool_use_id: "toolu_plain", content: `Error: ${text}`, is_error: true },
    ]);
  });

  test("extraProps go into the tool definition; type and name stay the memory tool's", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    const tool = memoryTool(memory, { cache_control: { type: "ephemeral" }, type: "custom", name: "notes" });
    assert.equal(tool.type, "memory_20250818");
    assert.equal(tool.name, "memory");
    const { client, requests } = replayClient([textTurn("msg_props", "hi")]);
    await client.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: "user", content: "hello" }],
      tools: [tool],
    });
    assert.deepEqual(requests[0].body.tools, [
      { cache_control: { type: "ephemeral" }, type: "memory_20250818", name: "memory" },
    ]);
  });

  test("has the shape of the SDK's own betaMemoryTool", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    const ours = memoryTool(memory, { defer_loading: true });
    const theirs = betaMemoryTool(sdkHandlers(memory), { defer_loading: true });
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
    for (const key of Object.keys(theirs)) assert.equal(typeof ours[key], typeof theirs[key], key);
    assert.deepEqual(JSON.parse(JSON.stringify(ours)), JSON.parse(JSON.stringify(theirs)));
    const input = { command: "view", path: "/memories" };
    assert.equal(ours.parse(input), input, "input passes through unchanged");
  });

  test("memoryTool and sdkHandlers refuse what is not a MemoryTool", async () => {
    const pending = MemoryTool.open({ storage: "memory" });
    for (const make of [memoryTool, sdkHandlers]) {
      for (const bad of [undefined, null, {}, "memory"]) {
        assert.throws(() => make(bad), (error) => error instanceof MemoryToolError && error.code === "INVALID_OPTIONS");
      }
      assert.throws(() => make(pending), /It got a promise: pass `await MemoryTool.open\(…\)`/);
    }
    (await pending).close();
  });
});

suite("sdkHandlers(memory) with the SDK's betaMemoryTool", () => {
  test("the recorded conversation gives the same answers", async () => {
    const { client, requests } = replayClient(TURNS);
    const { memory } = await memoryWithDiagram();
    const final = await client.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 1024,
      messages: [firstMessage()],
      tools: [betaMemoryTool(sdkHandlers(memory))],
    });
    assertThreadedRequests(requests, { stream: false });
    assert.deepEqual(final.content, TURNS[2].content);
    await assertFinalStore(memory);
  });

  test("one handler per command and nothing else: toString is no handler", async () => {
    const memory = await MemoryTool.open({ storage: "memory" });
    const handlers = sdkHandlers(memory);
    assert.deepEqual(Object.keys(handlers), ["view", "create", "str_replace", "insert", "delete", "rename"]);
    assert.equal(handlers.toString, undefined);
    // betaMemoryTool answers an unknown command itself (memoryTool leaves it to the core).
    const tool = betaMemoryTool(handlers);
    await assert.rejects(async () => tool.run({ command: "toString" }), { message: "toString not implemented" });
    await assert.rejects(async () => tool.run({ command: "view", path: "/etc" }), (error) => {
      assert.equal(error.name, "ToolError");
      assert.equal(error.content, "Error: Path must be /memories or start with /memories/, got: /etc");
      return true;
    });
  });
});

suite("two MemoryTools over one InMemoryStorage, each in its own runner", () => {
  test("what one conversation writes, the other reads; a read-only one cannot write", async () => {
    const storage = new InMemoryStorage();
    const writer = await MemoryTool.open({ storage, store: "team" });
    const reader = await MemoryTool.open({ storage, store: "team", access: "read_only" });
    const elsewhere = await MemoryTool.open({ storage, store: "other" });

    const first = replayClient([
      toolTurn("msg_w1", [{ command: "create", path: "/memories/handoff.md", file_text: "Ship on Friday.\n" }]),
      textTurn("msg_w2", "Saved."),
    ]);
    await first.client.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: "Leave a note for the next agent." }],
      tools: [memoryTool(writer)],
    });
    assert.deepEqual(first.requests[1].body.messages[0].content, [
      { type: "tool_result", tool_use_id: "toolu_w1_0", content: "File created successfully at: /memories/handoff.md" },
    ]);

    const second = replayClient([
      toolTurn("msg_r1", [
        { command: "view", path: "/memories/handoff.md" },
        { command: "create", path: "/memories/reply.md", file_text: "Got it." },
      ]),
      textTurn("msg_r2", "The note says to ship on Friday."),
    ]);
    await second.client.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: "What did the last agent leave?" }],
      tools: [memoryTool(reader)],
    });
    assert.deepEqual(second.requests[1].body.messages[0].content, [
      {
        type: "tool_result",
        tool_use_id: "toolu_r1_0",
        content: "Here's the content of /memories/handoff.md with line numbers:\n     1\tShip on Friday.\n     2\t",
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_r1_1",
        content: "Error: Cannot create /memories/reply.md: this memory is read-only",
        is_error: true,
      },
    ]);

    assert.deepEqual((await writer.memories.list()).map((m) => m.path), ["/handoff.md"]);
    assert.deepEqual(await elsewhere.memories.list(), [], "another store of the same storage is apart");
    for (const m of [writer, reader, elsewhere]) m.close();
  });
});

describe("the anthropic entry is browser-safe", () => {
  test("it imports only the SDK's ToolError (no imports of its own) and our errors module", async () => {
    const source = readFileSync(new URL("../../src/js/anthropic.js", import.meta.url), "utf8");
    assert.deepEqual(importsOf(source).sort(), ["./anthropic-tool.js", "@anthropic-ai/sdk/lib/tools/ToolError"]);
    const tool = readFileSync(new URL("../../src/js/anthropic-tool.js", import.meta.url), "utf8");
    assert.deepEqual(importsOf(tool), ["./errors.js"]);
    const toolError = readFileSync(new URL(import.meta.resolve("@anthropic-ai/sdk/lib/tools/ToolError")), "utf8");
    assert.deepEqual(importsOf(toolError), [], "ToolError.mjs imports nothing (no node: modules)");
    const errors = readFileSync(new URL("../../src/js/errors.js", import.meta.url), "utf8");
    assert.deepEqual(importsOf(errors), []);
  });

  test("the runner's ToolError is the one the entry throws", async () => {
    const { ToolError } = await import("@anthropic-ai/sdk/lib/tools/ToolError");
    const fake = { execute: async () => ({ content: "Error: no", isError: true }) };
    await assert.rejects(async () => memoryTool(fake).run({}), (error) => error instanceof ToolError && error.content === "Error: no");
    // The class the SDK's resources re-export (Anthropic.Beta.Messages.ToolError) is the same.
    assert.equal(Anthropic.Beta.Messages.ToolError, ToolError);
  });
});

/** Static import specifiers of an ES module's source (`import … from "x"`, `import "x"`, `import("x")`). */
function importsOf(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found = [];
  for (const match of code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+\sfrom\s*)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)) {
    found.push(match[1] ?? match[2]);
  }
  for (const match of code.matchAll(/\bexport\s+[\w*{}\s,$]+\sfrom\s*["']([^"']+)["']|\brequire\s*\(\s*["']([^"']+)["']/g)) {
    found.push(match[1] ?? match[2]);
  }
  return found;
}

/** A recorded assistant turn that calls the memory tool once per input; ids `toolu_<id tail>_<i>`. */
function toolTurn(id, inputs) {
  const tail = id.replace(/^msg_/, "");
  return {
    id,
    type: "message",
    role: "assistant",
    model: MODEL,
    content: inputs.map((input, i) => ({ type: "tool_use", id: `toolu_${tail}_${i}`, name: "memory", input })),
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

/** A recorded assistant turn that ends the conversation with text. */
function textTurn(id, text) {
  return {
    id,
    type: "message",
    role: "assistant",
    model: MODEL,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 10 },
  };
}
