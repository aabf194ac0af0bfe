import { useState } from 'react';

/**
 * A destructive action asked twice on the same spot: the first click arms it, "Confirm …" does it, "Keep" disarms.
 * `label` names the action and what it acts on, for screen readers (`Revoke key k_123`).
 */
export function ConfirmButton({
  action,
  label,
  onConfirm,
  disabled = false,
}: {
  action: string;
  label: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return (
      <button
        type="button"
        className="link-button"
        onClick={() => setArmed(true)}
        aria-label={label}
        disabled={disabled}
      >
        {action}
      </button>
    );
  }
  return (
    <span className="confirm-delete">
      <button
        type="button"
        className="danger"
        aria-label={`Confirm: ${label}`}
        onClick={() => {
          setArmed(false);
          onConfirm();
        }}
      >
        Confirm {action.toLowerCase()}
      </button>
      <button type="button" className="link-button" onClick={() => setArmed(false)}>
        Keep
      </button>
    </span>
  );
}
