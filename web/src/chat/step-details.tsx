import type { ChannelHits, StepEvent } from '../api/wire-types.ts';

const SHOWN_IDS = 5;

function HitsList({ hits }: { hits: ChannelHits[] }) {
  return (
    <ul className="hits">
      {hits.map((group) => (
        <li key={`${group.query}\u0000${group.channel}`}>
          <span className="channel">{group.channel}</span>{' '}
          <span className="hit-count">{group.chunk_ids.length} hits</span> for “{group.query}”
          {group.chunk_ids.length > 0 && (
            <span className="muted">
              {' '}
              — {group.chunk_ids.slice(0, SHOWN_IDS).join(', ')}
              {group.chunk_ids.length > SHOWN_IDS && ` and ${group.chunk_ids.length - SHOWN_IDS} more`}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** What a node decided, beyond its one-line summary: only the fields the step carries are shown. */
export function StepDetails({ step }: { step: StepEvent }) {
  return (
    <>
      {step.standalone_question && (
        <p className="step-detail">
          Standalone question: <q>{step.standalone_question}</q>
        </p>
      )}
      {step.sub_questions && step.sub_questions.length > 0 && (
        <ul className="step-detail">
          {step.sub_questions.map((question) => (
            <li key={question}>{question}</li>
          ))}
        </ul>
      )}
      {step.hits && <HitsList hits={step.hits} />}
      {step.evidence && (
        <p className="step-detail">
          Evidence:{' '}
          {step.evidence.map((item) => (
            <code key={item.chunk_id} className="evidence-id" title={`score ${item.score.toFixed(4)}`}>
              {item.chunk_id}
            </code>
          ))}
        </p>
      )}
      {step.answerability && (
        <div className="step-detail">
          <span className={step.answerability.answerable ? 'verdict yes' : 'verdict no'}>
            {step.answerability.answerable ? 'answerable' : 'not answerable'}
          </span>
          <ul>
            {step.answerability.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}
      {step.tool_calls?.map((call, i) => (
        <p key={`${call.name}-${i}`} className="step-detail">
          <code>{call.name}</code> {call.ok ? '✓' : '✗'} {call.result_summary}{' '}
          <span className="muted">({call.duration_ms} ms)</span>
        </p>
      ))}
    </>
  );
}
