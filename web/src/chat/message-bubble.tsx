import type { ChatMessage } from '../api/wire-types.ts';
import { AnswerText } from './answer-text.tsx';
import type { OpenedCitation } from './citation-panel.tsx';
import { SourceList } from './source-list.tsx';

const textOf = (content: ChatMessage['content']): string =>
  typeof content === 'string'
    ? content
    : content
        .map((part) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : ''))
        .join('');

/**
 * An earlier turn of the conversation: the user's question, or the agent's reply — with its citation markers and
 * sources when the thread's history kept them, so they open as a fresh answer's do.
 */
export function MessageBubble({
  message,
  onOpenCitation,
}: {
  message: ChatMessage;
  onOpenCitation?: (opened: OpenedCitation) => void;
}) {
  const mine = message.type === 'human';
  const text = textOf(message.content);
  const citations = message.citations ?? [];
  const open = (index: number) => {
    const citation = citations[index - 1];
    if (citation) onOpenCitation?.({ index, citation, evidence: message.evidence ?? [] });
  };
  return (
    <div className={mine ? 'bubble human' : 'bubble ai'} data-testid={mine ? undefined : 'earlier-answer'}>
      <span className="bubble-role">{mine ? 'You' : 'Evident'}</span>
      {citations.length > 0 && onOpenCitation ? (
        <>
          <AnswerText text={text} citations={citations} onOpen={open} />
          <SourceList citations={citations} onOpen={open} />
        </>
      ) : (
        <p>{text}</p>
      )}
    </div>
  );
}
