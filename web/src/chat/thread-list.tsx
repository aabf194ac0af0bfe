import type { Thread } from '@langchain/langgraph-sdk';
import type { AgentValues } from '../api/wire-types.ts';

/** A thread as `POST /threads/search` lists it; Evident adds the thread's latest question. */
export type ThreadListItem = Thread<AgentValues> & { last_question?: string | null };

/**
 * A thread's name in the list: the title the UI stored in its metadata when its first question created it, else
 * its latest question (threads started by other clients), else its age.
 */
function threadTitle(thread: ThreadListItem): string {
  const title = thread.metadata?.title;
  if (typeof title === 'string' && title.trim()) return title;
  if (thread.last_question) return thread.last_question;
  return `Thread of ${new Date(thread.created_at).toLocaleString()}`;
}

/** The user's threads, newest first, and a way to start a new one. */
export function ThreadList({
  threads,
  selected,
  onSelect,
  onNew,
}: {
  threads: ThreadListItem[];
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
