import type { BaseMessage } from '@langchain/core/messages';

/** Who said a message, reduced to the three roles every chat template knows. */
export type ChatRole = 'system' | 'user' | 'assistant';

export function roleOf(message: BaseMessage): ChatRole {
  const type = message.getType();
  if (type === 'system' || type === 'developer') return 'system';
  if (type === 'ai') return 'assistant';
  return 'user';
}

/** A message's text; tool results are labelled so a model without tool support still sees whose output it is. */
export function messageText(message: BaseMessage): string {
  const text = message.text;
  if (message.getType() === 'tool') {
    const name = (message as BaseMessage & { name?: string }).name;
    return `Tool result${name ? ` (${name})` : ''}:\n${text}`;
  }
  return text;
}

/** The whole message list as one text, `role: text` per message, as a reader (or a test) would want to see it. */
export function messagesToText(messages: readonly BaseMessage[]): string {
  return messages.map((message) => `${roleOf(message)}: ${messageText(message)}`).join('\n\n');
}
