import type { StepEvent } from '../api/wire-types.ts';
import { StepItem } from './step-item.tsx';

/**
 * The nodes of a run as they completed. Open while the run streams, so each step appears as it happens; a
 * finished run's steps fold away under the answer's heading.
 */
export function RunSteps({ steps, live }: { steps: StepEvent[]; live: boolean }) {
  if (steps.length === 0 && !live) return null;
  return (
    <details className="run-steps" open={live || undefined} data-testid="run-steps">
      <summary>
        {live ? 'Working' : 'How this was answered'} · {steps.length} step{steps.length === 1 ? '' : 's'}
        {live && <span className="spinner" aria-hidden="true" />}
      </summary>
      <ol>
        {steps.map((step, i) => (
          <StepItem key={`${step.node}-${i}`} step={step} />
        ))}
      </ol>
    </details>
  );
}
