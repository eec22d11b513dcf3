// What users have, fed to `run` and `runAll` without a cast: the Anthropic SDK's own message and
// block types (`Message`, `BetaMessage`, their `.content`, the tool-use blocks and their `…Param`
// forms, what the tool runner and `finalMessage()` give) and LangChain's (`AIMessage` and its
// `content`), and the results passed back where each takes them (`MessageParam`,
// `BetaMessageParam`, `new HumanMessage({ content })`). Compiled by `tsc -p tests/types/tsconfig.json`
// (strict, skipLibCheck false) against the declarations installed in node_modules; never run.

import Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlock,
  Message,
  MessageParam,
  ToolUseBlock,
  ToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type {
  BetaAssistantMessageParam,
  BetaContentBlock,
  BetaMessage,
  BetaMessageParam,
  BetaToolUseBlock,
  BetaToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/beta/messages";
import { AIMessage, AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import type { MemoryTool, ToolResultBlock } from "../../src/js/index.js";

declare const memory: MemoryTool;
declare const client: Anthropic;

// The plain loop with `messages.create`: the response in, the results back as the next turn.
export async function sdkLoop(): Promise<MessageParam[]> {
  const messages: MessageParam[] = [{ role: "user", content: "What do you remember?" }];
  for (;;) {
    const response: Message = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      tools: [memory.toolParam],
      messages,
    });
    messages.push({ role: "assistant", content: response.content });
    const results: ToolResultBlock[] = await memory.runAll(response);
    if (results.length === 0) return messages;
    messages.push({ role: "user", content: results });
  }
}

// The same with the beta client, and with a streamed message's `finalMessage()`.
export async function betaLoop(): Promise<BetaMessageParam[]> {
  const messages: BetaMessageParam[] = [{ role: "user", content: "What do you remember?" }];
  for (;;) {
    const response: BetaMessage = await client.beta.messages
      .stream({ model: "claude-sonnet-4-5", max_tokens: 1024, tools: [memory.toolParam], messages })
      .finalMessage();
    messages.push({ role: "assistant", content: response.content });
    const results = await memory.runAll(response.content);
    if (results.length === 0) return messages;
    messages.push({ role: "user", content: results });
  }
}

// Each SDK type on its own: messages, their content, content blocks, tool-use blocks.
declare const message: Message;
declare const beta: BetaMessage;
declare const blocks: ContentBlock[];
declare const betaBlocks: BetaContentBlock[];
declare const readonlyBlocks: ReadonlyArray<ContentBlock>;
declare const use: ToolUseBlock;
declare const betaUse: BetaToolUseBlock;
declare const useParam: ToolUseBlockParam;
declare const betaUseParam: BetaToolUseBlockParam;
declare const assistantParam: MessageParam;
declare const betaAssistantParam: BetaAssistantMessageParam;

export async function eachType(): Promise<ToolResultBlock[]> {
  const all: ToolResultBlock[][] = [
    await memory.runAll(message),
    await memory.runAll(message.content),
    await memory.runAll(beta),
    await memory.runAll(beta.content),
    await memory.runAll(blocks),
    await memory.runAll(betaBlocks),
    await memory.runAll(readonlyBlocks),
    await memory.runAll(assistantParam),
    await memory.runAll(assistantParam.content),
    await memory.runAll(betaAssistantParam),
    await memory.runAll(betaAssistantParam.content),
    await memory.runAll([use, betaUse, useParam, betaUseParam]),
    [await memory.run(use), await memory.run(betaUse), await memory.run(useParam), await memory.run(betaUseParam)],
  ];
  return all.flat();
}

// The tool runner's messages (what `for await (const message of runner)` gives).
export async function runnerMessages(): Promise<void> {
  const runner = client.beta.messages.toolRunner({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user", content: "Hi" }],
    tools: [],
  });
  for await (const step of runner) {
    const results = await memory.runAll(step);
    const next: BetaMessageParam = { role: "user", content: results };
    void next;
  }
}

// Object literals with the fields of real blocks and messages (no excess-property error).
export async function literals(): Promise<void> {
  await memory.runAll([
    { type: "text", text: "Let me look." },
    { type: "tool_use", id: "toolu_1", name: "memory", input: { command: "view", path: "/memories" } },
  ]);
  await memory.runAll({
    id: "msg_1",
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_2", name: "memory", input: {}, caller: { type: "direct" } }],
  });
  await memory.runAll({ role: "assistant", content: "No tool use." });
  await memory.runAll("No tool use.");
}

// LangChain (@langchain/core's message classes; @langchain/anthropic's own declarations do not
// compile without skipLibCheck, so its ChatAnthropic is left out): an AIMessage or the
// AIMessageChunk that `invoke` gives, its content, the README's tool_calls mapping, and the
// results back in a HumanMessage.
declare const chunk: AIMessageChunk;
export async function langChain(ai: AIMessage): Promise<void> {
  await memory.runAll(chunk);
  await memory.runAll(chunk.content);
  const fromMessage = await memory.runAll(ai);
  const fromContent = await memory.runAll(ai.content);
  const uses = (ai.tool_calls ?? []).map((c) => ({ type: "tool_use", id: c.id ?? "", name: c.name, input: c.args }));
  const fromCalls = await memory.runAll(uses);
  const reply = new HumanMessage({ content: [...fromMessage, ...fromContent, ...fromCalls] });
  const short = new HumanMessage({ content: fromCalls });
  void [reply, short];
}

// Still typed: what is not a message is refused.
export async function refused(): Promise<void> {
  // @ts-expect-error a number is not a message
  await memory.runAll(5);
  // @ts-expect-error blocks need a type
  await memory.runAll([{ id: "toolu_1" }]);
  // @ts-expect-error run takes one tool_use block, not a message
  await memory.run(message);
}
