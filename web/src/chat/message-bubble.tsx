import type { ChatMessage } from '../api/wire-types.ts';

const textOf = (content: ChatMessage['content']): string =>
  typeof content === 'string'
    ? content
    : content.map((part) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : '')).join('');

/** An earlier turn of the conversation: the user's question or the agent's reply, as text. */
export function MessageBubble({ message }: { message: ChatMessage }) {
  const mine = message.type === 'human';
  return (
    <div className={mine ? 'bubble human' : 'bubble ai'}>
      <span className="bubble-role">{mine ? 'You' : 'Evident'}</span>
      <p>{textOf(message.content)}</p>
    </div>
  );
}
