import type { Answer } from '../api/wire-types.ts';
import { OriginLabel } from './origin-label.tsx';

/** A refusal: the evidence the user may see does not answer the question; says what is missing instead of guessing. */
export function RefusalView({ answer, mode }: { answer: Answer; mode: string | undefined }) {
  return (
    <section className="refusal card" data-testid="refusal" aria-label="Not answerable from the evidence">
      <h3>Not answerable from the evidence you can see</h3>
      <p>{answer.answer}</p>
      {answer.missing_information.length > 0 && (
        <>
          <h4>Missing information</h4>
          <ul className="missing-information">
            {answer.missing_information.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </>
      )}
      <footer className="answer-meta">
        <OriginLabel mode={mode} />
      </footer>
    </section>
  );
}
