import type { Answer } from '../api/wire-types.ts';
import { AnswerText, CitationMarker } from './answer-text.tsx';
import { OriginLabel } from './origin-label.tsx';
import { RefusalView } from './refusal-view.tsx';

/** The final answer: text with citation markers, its sources, confidence and origin; a refusal looks different. */
export function AnswerView({ answer, mode, onOpenCitation }: { answer: Answer; mode: string | undefined; onOpenCitation: (index: number) => void }) {
  if (!answer.answerable) return <RefusalView answer={answer} mode={mode} />;
  return (
    <section className="answer card" data-testid="answer">
      <AnswerText text={answer.answer} citations={answer.citations} onOpen={onOpenCitation} />
      {answer.citations.length > 0 && (
        <ol className="sources">
          {answer.citations.map((citation, i) => (
            <li key={`${citation.chunk_id}-${i}`}>
              <CitationMarker index={i + 1} onOpen={onOpenCitation} /> <code>{citation.doc_id}</code>
              {citation.page !== undefined && <span className="muted"> p. {citation.page}</span>}
              <span className="quote"> “{citation.quote}”</span>
            </li>
          ))}
        </ol>
      )}
      <footer className="answer-meta">
        <OriginLabel mode={mode} />
        <span className="muted">confidence {Math.round(answer.confidence * 100)}%</span>
      </footer>
    </section>
  );
}
