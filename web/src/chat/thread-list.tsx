import type { Thread } from '@langchain/langgraph-sdk';
import type { RagValues } from '../api/wire-types.ts';

/** A thread's name in the list: its first question, else when it was started. */
function threadTitle(thread: Thread<RagValues>): string {
  const first = thread.values?.messages?.find((message) => message.type === 'human');
  if (first && typeof first.content === 'string' && first.content.trim()) return first.content;
  if (thread.values?.question) return thread.values.question;
  return `Thread of ${new Date(thread.created_at).toLocaleString()}`;
}

/** The user's threads, newest first, and a way to start a new one. */
export function ThreadList({
  threads,
  selected,
  onSelect,
  onNew,
}: {
  threads: Thread<RagValues>[];
  selected: string | undefined;
  onSelect: (threadId: string) => void;
  onNew: () => void;
}) {
  return (
    <nav className="thread-list" aria-label="Threads">
      <button type="button" className="primary new-thread" onClick={onNew}>
        New thread
      </button>
      <ul>
        {threads.map((thread) => (
          <li key={thread.thread_id}>
            <button
              type="button"
              className={thread.thread_id === selected ? 'thread selected' : 'thread'}
              onClick={() => onSelect(thread.thread_id)}
              title={thread.thread_id}
            >
              <span className="thread-title">{threadTitle(thread)}</span>
              <span className="muted thread-time">
                {new Date(thread.updated_at).toLocaleString()}
                {thread.status === 'interrupted' && ' · waiting for approval'}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {threads.length === 0 && <p className="muted">No threads yet: ask a question.</p>}
    </nav>
  );
}
