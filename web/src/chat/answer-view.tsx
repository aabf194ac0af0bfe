import type { Answer } from '../api/wire-types.ts';
import { AnswerText } from './answer-text.tsx';
import { OriginLabel } from './origin-label.tsx';
import { RefusalView } from './refusal-view.tsx';
import { SourceList } from './source-list.tsx';

/** The final answer: text with citation markers, its sources, confidence and origin; a refusal looks different. */
export function AnswerView({
  answer,
  mode,
  onOpenCitation,
}: {
  answer: Answer;
  mode: string | undefined;
  onOpenCitation: (index: number) => void;
}) {
  if (!answer.answerable) return <RefusalView answer={answer} mode={mode} />;
  return (
    <section className="answer card" data-testid="answer">
      <AnswerText text={answer.answer} citations={answer.citations} onOpen={onOpenCitation} />
      <SourceList citations={answer.citations} onOpen={onOpenCitation} />
      <footer className="answer-meta">
        <OriginLabel mode={mode} />
        <span className="muted">confidence {Math.round(answer.confidence * 100)}%</span>
      </footer>
    </section>
  );
}
