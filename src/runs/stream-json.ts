import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';

/** A message as the LangGraph API sends it: a plain object with its type, not LangChain's serialised constructor form. */
export function messageJson(message: BaseMessage): Record<string, unknown> {
  const type = message instanceof AIMessageChunk ? 'AIMessageChunk' : message.getType();
  return {
    type,
    id: message.id ?? null,
    content: message.content,
    ...('tool_calls' in message && Array.isArray(message.tool_calls) && message.tool_calls.length
      ? { tool_calls: message.tool_calls }
      : {}),
  };
}

/** A `messages` stream chunk `[message, metadata]` in JSON: the message as above, the metadata's plain fields. */
export function messageTupleJson(chunk: unknown): unknown {
  if (!Array.isArray(chunk) || chunk.length !== 2) return chunk;
  const [message, metadata] = chunk as [BaseMessage, Record<string, unknown>];
  const plain = Object.fromEntries(
    Object.entries(metadata ?? {}).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value)),
  );
  return [messageJson(message), plain];
}
