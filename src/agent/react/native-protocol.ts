import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { checkCall, type CheckedCall } from './react-tools.ts';
import type { ReactTurn } from './react-state.ts';
import { parseTextReply } from './text-protocol.ts';

/** A native reply's calls, each checked; a reply without calls is read as the text protocol before it is refused. */
export interface NativeReply {
  thought: string;
  raw: string;
  calls: { id: string; name: string; args: Record<string, unknown>; call: CheckedCall }[];
  problem?: string;
}

export function readNativeReply(message: AIMessage, iteration: number): NativeReply {
  const raw = message.text.trim();
  const toolCalls = message.tool_calls ?? [];
  if (toolCalls.length === 0) {
    // Some models answer in the text protocol even with tools bound; accept that rather than correcting it.
    const text = parseTextReply(raw);
    if (text.action)
      return {
        thought: text.thought,
        raw: text.raw,
        calls: [{ id: `call-${iteration}-0`, name: text.action.name, args: text.action.args, call: text.action.call }],
      };
    return {
      thought: raw,
      raw,
      calls: [],
      problem: 'The reply calls no tool. Call a tool, or call final_answer to answer.',
    };
  }
  return {
    thought: raw,
    raw,
    calls: toolCalls.map((call, index) => ({
      id: call.id || `call-${iteration}-${index}`,
      name: call.name,
      args: call.args,
      call: checkCall(call.name, call.args),
    })),
  };
}

/** One turn as native tool calling shows it: the model's message with its calls, then one tool message per call. */
export function nativeTurnMessages(turn: ReactTurn): BaseMessage[] {
  if (turn.calls.length === 0) {
    return [
      new AIMessage(turn.raw || turn.thought),
      ...turn.observations.map((o) => new HumanMessage(`Observation: ${o.content}`)),
    ];
  }
  const messages: BaseMessage[] = [
    new AIMessage({
      content: turn.raw,
      tool_calls: turn.calls.map((call) => ({
        id: call.id,
        name: call.tool,
        args: call.input,
        type: 'tool_call' as const,
      })),
    }),
  ];
  for (const call of turn.calls) {
    const observation = turn.observations.find((o) => o.call_id === call.id);
    if (observation)
      messages.push(new ToolMessage({ tool_call_id: call.id, name: call.tool, content: observation.content }));
  }
  return messages;
}
