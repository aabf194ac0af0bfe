import type { Client } from '@langchain/langgraph-sdk';
import { useEffect, useState } from 'react';
import type { EvidentApi } from '../api/evident-api.ts';
import { ErrorNotice } from '../common/error-notice.tsx';
import { CitationPanel, type OpenedCitation } from './citation-panel.tsx';
import { Conversation } from './conversation.tsx';
import { QuestionForm } from './question-form.tsx';
import { ThreadList } from './thread-list.tsx';
import { useThreadChat } from './use-thread-chat.ts';

/** Threads on the left, the conversation in the middle, the opened source on the right. */
export function ChatPage({
  client,
  api,
  assistantId,
}: {
  client: Client;
  api: EvidentApi;
  assistantId: string | undefined;
}) {
  const chat = useThreadChat(client, assistantId);
  const [opened, setOpened] = useState<OpenedCitation | undefined>();
  const streaming = chat.run?.phase === 'streaming';

  // A source belongs to the answer it was opened from.
  useEffect(() => {
    setOpened(undefined);
  }, [chat.threadId, chat.run]);

  return (
    <main className="chat-page">
      <ThreadList
        threads={chat.threads}
        selected={chat.threadId}
        onSelect={chat.selectThread}
        onNew={chat.startNewThread}
      />
      <section className="chat-main">
        <Conversation
          snapshot={chat.snapshot}
          run={chat.run}
          onOpenCitation={setOpened}
          onDecide={chat.decide}
          client={client}
          api={api}
        />
        {chat.run?.error && <ErrorNotice error={chat.run.error} />}
        {chat.error && <ErrorNotice error={chat.error} />}
        <QuestionForm onAsk={chat.ask} disabled={streaming || !assistantId} />
      </section>
      {opened && <CitationPanel api={api} opened={opened} onClose={() => setOpened(undefined)} />}
    </main>
  );
}
