import type { StepEvent } from '../api/wire-types.ts';
import { StepDetails } from './step-details.tsx';

/** One completed graph node: its name, how long it took, its summary and decisions. */
export function StepItem({ step }: { step: StepEvent }) {
  return (
    <li className="step" data-node={step.node}>
      <div className="step-head">
        <span className="step-node">{step.node}</span>
        <span className="step-summary">{step.summary}</span>
        <span className="step-duration muted">{Math.round(step.duration_ms)} ms</span>
      </div>
      <StepDetails step={step} />
    </li>
  );
}
