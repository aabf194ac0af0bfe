import { useState, type FormEvent } from 'react';
import type { ApprovalDecision, PendingAction } from '../api/wire-types.ts';

function ArgValue({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span>{value}</span>;
  return <pre>{JSON.stringify(value, null, 2)}</pre>;
}

/**
 * A side effect the run waits for: the tool and its arguments, and the three decisions. "Edit" changes the text
 * the tool runs with; nothing happens until the user decides.
 */
export function ApprovalCard({
  pending,
  onDecide,
  busy,
}: {
  pending: PendingAction;
  onDecide: (decision: ApprovalDecision) => void;
  busy: boolean;
}) {
  const initialText = typeof pending.args.text === 'string' ? pending.args.text : '';
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(initialText);

  const submitEdit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) onDecide({ decision: 'edit', args: { text: text.trim() } });
  };

  return (
    <section className="approval card" data-testid="approval-card" aria-label="Approval needed">
      <h3>Approval needed</h3>
      <p>
        The agent wants to run <code className="tool-name">{pending.tool}</code> with:
      </p>
      <dl className="tool-args">
        {Object.entries(pending.args).map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>
              <ArgValue value={value} />
            </dd>
          </div>
        ))}
      </dl>
      {editing ? (
        <form onSubmit={submitEdit} className="approval-edit">
          <label htmlFor="approval-text">text</label>
          <textarea id="approval-text" value={text} onChange={(event) => setText(event.target.value)} rows={3} />
          <div className="actions">
            <button type="submit" className="primary" disabled={busy || !text.trim()}>
              Approve edited
            </button>
            <button type="button" onClick={() => setEditing(false)} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" className="primary" onClick={() => onDecide({ decision: 'approve' })} disabled={busy}>
            Approve
          </button>
          <button type="button" onClick={() => setEditing(true)} disabled={busy}>
            Edit
          </button>
          <button type="button" className="danger" onClick={() => onDecide({ decision: 'reject' })} disabled={busy}>
            Reject
          </button>
        </div>
      )}
    </section>
  );
}
