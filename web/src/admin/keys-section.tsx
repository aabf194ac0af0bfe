import { useCallback, useState } from 'react';
import { ErrorNotice } from '../common/error-notice.tsx';
import type { AdminApi } from './admin-api.ts';
import { adminHref } from './admin-route.ts';
import type { ApiKeySummary, CreatedApiKey } from './admin-wire-types.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { formatTime } from './format-time.ts';
import { NewKeyNotice } from './new-key-notice.tsx';
import { useAction } from './use-action.ts';
import { useLoaded } from './use-loaded.ts';
import { UserPicker } from './user-picker.tsx';

function KeyTable({ keys, busy, onRevoke }: { keys: ApiKeySummary[]; busy: boolean; onRevoke: (id: string) => void }) {
  if (keys.length === 0) return <p className="muted">No keys.</p>;
  return (
    <table className="document-table admin-table" data-testid="key-table">
      <thead>
        <tr>
          <th>Key id</th>
          <th>Created</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id}>
            <td>
              <code>{key.id}</code>
            </td>
            <td className="muted">{formatTime(key.created_at)}</td>
            <td>
              <ConfirmButton
                action="Revoke"
                label={`Revoke key ${key.id}`}
                onConfirm={() => onRevoke(key.id)}
                disabled={busy}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One user's API keys: create one (shown once, with a copy button) or revoke one. */
function UserKeys({ admin, user }: { admin: AdminApi; user: string }) {
  const keys = useLoaded(useCallback(() => admin.keys(user), [admin, user]));
  const action = useAction();
  const [created, setCreated] = useState<CreatedApiKey | undefined>();

  const create = async () => {
    await action.run(async () => setCreated(await admin.createKey(user)));
    await keys.reload();
  };
  const revoke = async (id: string) => {
    await action.run(() => admin.revokeKey(id));
    await keys.reload();
  };

  return (
    <>
      <div className="actions">
        <button type="button" className="primary" onClick={() => void create()} disabled={action.busy}>
          Create a key for {user}
        </button>
      </div>
      {created && <NewKeyNotice created={created} onDismiss={() => setCreated(undefined)} />}
      {keys.error && <ErrorNotice error={keys.error} />}
      {action.error && <ErrorNotice error={action.error} onDismiss={action.clear} />}
      {keys.data && <KeyTable keys={keys.data} busy={action.busy} onRevoke={(id) => void revoke(id)} />}
    </>
  );
}

/** API keys per user, for scripts, CLIs and agents; the user is chosen here or in the URL (`#/admin/keys/alice`). */
export function KeysSection({ admin, user }: { admin: AdminApi; user: string | undefined }) {
  const users = useLoaded(useCallback(() => admin.users(), [admin]));
  return (
    <section className="admin-section" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">A key acts as its user, with the user's groups and role as they are at each request.</p>
      {users.error && <ErrorNotice error={users.error} />}
      {users.data && (
        <div className="admin-fields inline">
          <label htmlFor="keys-user">User</label>
          <UserPicker
            id="keys-user"
            users={users.data}
            value={user ?? ''}
            onChange={(name) => window.location.assign(adminHref('keys', name))}
          />
        </div>
      )}
      {user && <UserKeys key={user} admin={admin} user={user} />}
    </section>
  );
}
