import type { ApiError } from '../api/api-error.ts';

/** An API error as the user sees it: the message, then the server's hint on what to do. */
export function ErrorNotice({ error, onDismiss }: { error: ApiError; onDismiss?: () => void }) {
  return (
    <div className="error-notice" role="alert">
      <p className="error-message">
        <strong>{error.message}</strong>
        {error.status !== undefined && (
          <span className="error-code">
            {' '}
            ({error.code}, HTTP {error.status})
          </span>
        )}
      </p>
      {error.hint && <p className="error-hint">{error.hint}</p>}
      {onDismiss && (
        <button type="button" className="link-button" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}
