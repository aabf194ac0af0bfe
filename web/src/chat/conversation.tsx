import { useEffect, useRef } from 'react';
import type { ApprovalDecision, AgentValues } from '../api/wire-types.ts';
import { AnswerView } from './answer-view.tsx';
import { ApprovalCard } from './approval-card.tsx';
import type { OpenedCitation } from './citation-panel.tsx';
import { MessageBubble } from './message-bubble.tsx';
import { RunSteps } from './run-steps.tsx';
import type { RunView } from './run-view.ts';
import { TokenStream } from './token-stream.tsx';
import type { ThreadSnapshot } from './use-thread-chat.ts';

interface ConversationProps {
  snapshot: ThreadSnapshot | undefined;
  run: RunView | undefined;
  onOpenCitation: (opened: OpenedCitation) => void;
  onDecide: (decision: ApprovalDecision) => void;
}

/**
 * The selected thread: earlier turns (answers with their citations), then the latest turn in full — the run's steps (live while it
 * streams), the answer with its citations or the refusal, and an approval card when the run waits for one.
 * While a run streams, the thread is shown as it was before it, since its state is still being rewritten.
 */
export function Conversation({ snapshot, run, onOpenCitation, onDecide }: ConversationProps) {
  const streaming = run?.phase === 'streaming';
  const values: AgentValues | undefined = snapshot?.values;
  const messages = values?.messages ?? [];
  const answer = streaming ? undefined : (values?.answer ?? undefined);
  const earlier = answer && messages.at(-1)?.type === 'ai' ? messages.slice(0, -1) : messages;
  const pending = streaming ? undefined : (snapshot?.pending ?? run?.pending);
  const steps = run?.steps ?? values?.steps ?? [];
  const end = useRef<HTMLDivElement>(null);
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
      {earlier.map((message, i) => (
        <MessageBubble key={i} message={message} onOpenCitation={onOpenCitation} />
      ))}
      {streaming && run.question && <MessageBubble message={{ type: 'human', content: run.question }} />}
      <RunSteps steps={steps} live={streaming} />
      {streaming && <TokenStream tokens={run.tokens} />}
      {answer && <AnswerView answer={answer} mode={values?.mode} onOpenCitation={openAnswerCitation} />}
      {pending && <ApprovalCard key={pending.approval_id} pending={pending} onDecide={onDecide} busy={streaming} />}
      <div ref={end} />
    </div>
  );
}
