// The types of memory-tool-wasm/ai-sdk's server helpers as a TypeScript app meets them, against
// the installed `ai`, `@ai-sdk/react` and `@ai-sdk/anthropic` declarations (strict, no
// skipLibCheck): `answerToolCall` takes useChat's `toolCall` and `addToolOutput` as they are,
// untyped or with the app's tools in its UI messages, and the output type is the tool's.
import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithToolCalls,
  streamText,
  convertToModelMessages,
  type InferUITools,
  type UIDataTypes,
  type UIMessage,
} from "ai";
import { anthropic } from "@ai-sdk/anthropic";
import { MemoryTool, type ToolResultContent } from "memory-tool-wasm";
import { answerToolCall, clientMemoryTool } from "memory-tool-wasm/ai-sdk";

const tools = { memory: clientMemoryTool({ anthropic }) };
type ChatMessage = UIMessage<unknown, UIDataTypes, InferUITools<typeof tools>>;

export async function POST(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: ChatMessage[] };
  const result = streamText({
    model: anthropic("claude-sonnet-4-5"),
    messages: await convertToModelMessages(messages, { tools }),
    tools,
  });
  return result.toUIMessageStreamResponse();
}

// As the README writes it. (An arrow that *returns* `answerToolCall(…, addToolOutput)` would
// make TypeScript infer useChat's result from itself: TS7022. The braces avoid it.)
export function useUntypedChat(memory: MemoryTool) {
  const { addToolOutput } = useChat({
    onToolCall: async ({ toolCall }) => {
      await answerToolCall(memory, toolCall, addToolOutput);
    },
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
  });
}

export function useTypedChat(opening: Promise<MemoryTool>) {
  const { addToolOutput, messages } = useChat<ChatMessage>({
    transport: new DefaultChatTransport({ api: "/api/chat" }),
    onToolCall: async ({ toolCall }) => {
      await answerToolCall(opening, toolCall, addToolOutput);
    },
  });
  const outputs: ToolResultContent[] = [];
  for (const message of messages) {
    for (const part of message.parts) if (part.type === "tool-memory" && part.state === "output-available") outputs.push(part.output);
  }
  return outputs;
}

// With other client tools after it, as docs/SERVER-AGENTS.md writes it.
export function useChatWithOtherTools(memory: MemoryTool) {
  const { addToolOutput } = useChat<ChatMessage>({
    onToolCall: async ({ toolCall }) => {
      if (await answerToolCall(memory, toolCall, addToolOutput)) return;
      addToolOutput({ tool: "memory", toolCallId: toolCall.toolCallId, state: "output-error", errorText: "unknown tool" });
    },
  });
}
