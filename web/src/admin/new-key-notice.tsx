import { useState } from 'react';
import type { CreatedApiKey } from './admin-wire-types.ts';

/** Copies with the Clipboard API, else by selecting the field and the older copy command. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.select();
    return document.execCommand('copy');
  }
}

/** A key just created, shown this once: the server keeps only its hash. */
export function NewKeyNotice({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) {
  const [copied, setCopied] = useState<boolean | undefined>();
  const fieldId = `new-key-${created.id}`;
  return (
    <div className="card new-key" role="status" data-testid="new-key">
      <p>
        <strong>New key for {created.user}</strong> — copy it now: it is not shown again.
      </p>
      <label htmlFor={fieldId}>API key</label>
      <div className="new-key-value">
        <input id={fieldId} type="text" readOnly value={created.key} onFocus={(event) => event.target.select()} />
        <button
          type="button"
          onClick={() =>
            void copyText(created.key, document.getElementById(fieldId) as HTMLInputElement | null).then(setCopied)
          }
        >
          Copy
        </button>
      </div>
      {copied === true && <p className="muted">Copied.</p>}
      {copied === false && <p className="error-hint">Could not copy: select the key and copy it by hand.</p>}
      <button type="button" className="link-button" onClick={onDismiss}>
        I have copied it
      </button>
    </div>
  );
}
