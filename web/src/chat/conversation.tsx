import type { Client } from '@langchain/langgraph-sdk';
import { useEffect, useRef } from 'react';
import type { EvidentApi } from '../api/evident-api.ts';
import type { ApprovalDecision, AgentValues } from '../api/wire-types.ts';
import { AnswerView } from './answer-view.tsx';
import { ApprovalCard } from './approval-card.tsx';
import type { OpenedCitation } from './citation-panel.tsx';
import { FeedbackBar } from './feedback-bar.tsx';
import { MessageBubble } from './message-bubble.tsx';
import { RunSteps } from './run-steps.tsx';
import type { RunView } from './run-view.ts';
import { TokenStream } from './token-stream.tsx';
import { useAnswerRuns } from './use-answer-runs.ts';
import type { ThreadSnapshot } from './use-thread-chat.ts';

interface ConversationProps {
  snapshot: ThreadSnapshot | undefined;
  run: RunView | undefined;
  onOpenCitation: (opened: OpenedCitation) => void;
  onDecide: (decision: ApprovalDecision) => void;
  /** For the rating bar under each answer: the thread's runs (LangGraph API) and the ratings (`/v1`). */
  client: Client;
  api: EvidentApi;
}

/**
 * The selected thread: earlier turns (answers with their citations), then the latest turn in full — the run's steps (live while it
 * streams), the answer with its citations or the refusal, and an approval card when the run waits for one.
 * While a run streams, the thread is shown as it was before it, since its state is still being rewritten.
 */
export function Conversation({ snapshot, run, onOpenCitation, onDecide, client, api }: ConversationProps) {
  const streaming = run?.phase === 'streaming';
  const values: AgentValues | undefined = snapshot?.values;
  const messages = values?.messages ?? [];
  const answer = streaming ? undefined : (values?.answer ?? undefined);
  const earlier = answer && messages.at(-1)?.type === 'ai' ? messages.slice(0, -1) : messages;
  const pending = streaming ? undefined : (snapshot?.pending ?? run?.pending);
  const steps = run?.steps ?? values?.steps ?? [];
  const end = useRef<HTMLDivElement>(null);
  // The runs of the answers shown, newest first: the latest answer is the newest run's, earlier ones count back.
  const answerRuns = useAnswerRuns(client, snapshot?.threadId, snapshot);
  const aiCount = earlier.filter((message) => message.type === 'ai').length + (answer ? 1 : 0);
  let aiSeen = 0;
  const runOfAnswer = (fromEnd: number): string | undefined => answerRuns[fromEnd];
  const openAnswerCitation = (index: number) => {
    const citation = answer?.citations[index - 1];
    if (citation) onOpenCitation({ index, citation, evidence: values?.evidence ?? [] });
  };

  // Keeps the newest part in view as steps, tokens, the answer or an approval arrive. (A block body: newer
  // browsers return a promise from scrollIntoView, which React would take for a cleanup function.)
  useEffect(() => {
    void end.current?.scrollIntoView({ block: 'end' });
  }, [steps.length, run?.tokens, answer, pending]);

  return (
    <div className="conversation" data-testid="conversation">
      {earlier.map((message, i) => {
        const runId = message.type === 'ai' && !streaming ? runOfAnswer(aiCount - 1 - aiSeen++) : undefined;
        return (
          <div key={i}>
            <MessageBubble message={message} onOpenCitation={onOpenCitation} />
            {runId && <FeedbackBar api={api} runId={runId} />}
          </div>
        );
      })}
      {streaming && run.question && <MessageBubble message={{ type: 'human', content: run.question }} />}
      <RunSteps steps={steps} live={streaming} />
      {streaming && <TokenStream tokens={run.tokens} />}
      {answer && <AnswerView answer={answer} mode={values?.mode} onOpenCitation={openAnswerCitation} />}
      {answer && !pending && answerRuns[0] && <FeedbackBar api={api} runId={answerRuns[0]} />}
      {pending && <ApprovalCard key={pending.approval_id} pending={pending} onDecide={onDecide} busy={streaming} />}
      <div ref={end} />
    </div>
  );
}
