import { useCallback, useState } from 'react';
import { ErrorNotice } from '../common/error-notice.tsx';
import type { AdminApi } from './admin-api.ts';
import { adminHref } from './admin-route.ts';
import type { SessionSummary } from './admin-wire-types.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { formatTime } from './format-time.ts';
import { useAction } from './use-action.ts';
import { useLoaded } from './use-loaded.ts';
import { UserPicker } from './user-picker.tsx';

const VIA: Record<string, string> = { key: 'API key', oidc: 'identity provider' };

function SessionTable({
  sessions,
  busy,
  onRevoke,
}: {
  sessions: SessionSummary[];
  busy: boolean;
  onRevoke: (id: string) => void;
}) {
  if (sessions.length === 0) return <p className="muted">No open sessions.</p>;
  return (
    <table className="document-table admin-table" data-testid="session-table">
      <thead>
        <tr>
          <th>User</th>
          <th>Signed in with</th>
          <th>Created</th>
          <th>Last seen</th>
          <th>Expires</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.id}>
            <td>
              {session.user}
              {session.current && <span className="badge">this session</span>}
            </td>
            <td>{VIA[session.via] ?? session.via}</td>
            <td className="muted">{formatTime(session.created_at)}</td>
            <td className="muted">{formatTime(session.last_seen_at)}</td>
            <td
              className="muted"
              title={`Unused until ${formatTime(session.idle_expires_at)}, at the latest ${formatTime(session.expires_at)}`}
            >
              {formatTime(session.idle_expires_at < session.expires_at ? session.idle_expires_at : session.expires_at)}
            </td>
            <td>
              <ConfirmButton
                action="Revoke"
                label={`Revoke ${session.user}'s session ${session.id}`}
                onConfirm={() => onRevoke(session.id)}
                disabled={busy}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The browser sessions of one user or of everyone, page by page: revoke one and it is signed out at once. */
function SessionList({ admin, user }: { admin: AdminApi; user: string | undefined }) {
  // Pages after the first, loaded with "More"; a reload starts again from the first.
  const [more, setMore] = useState<{ sessions: SessionSummary[]; next: string | null } | undefined>();
  const first = useLoaded(
    useCallback(async () => {
      setMore(undefined);
      return admin.sessions({ user });
    }, [admin, user]),
  );
  const action = useAction();
  const next = more ? more.next : (first.data?.next_cursor ?? null);

  const loadMore = () =>
    void action.run(async () => {
      const page = await admin.sessions({ user, cursor: next });
      setMore((m) => ({ sessions: [...(m?.sessions ?? []), ...page.sessions], next: page.next_cursor }));
    });
  const revoke = async (id: string) => {
    await action.run(() => admin.revokeSession(id));
    await first.reload();
  };

  return (
    <>
      {first.error && <ErrorNotice error={first.error} />}
      {action.error && <ErrorNotice error={action.error} onDismiss={action.clear} />}
      {first.data && (
        <SessionTable
          sessions={[...first.data.sessions, ...(more?.sessions ?? [])]}
          busy={action.busy}
          onRevoke={(id) => void revoke(id)}
        />
      )}
      {next && (
        <button type="button" onClick={loadMore} disabled={action.busy}>
          More sessions
        </button>
      )}
    </>
  );
}

export function SessionsSection({ admin, user }: { admin: AdminApi; user: string | undefined }) {
  const users = useLoaded(useCallback(() => admin.users(), [admin]));
  return (
    <section className="admin-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p className="muted">
        Who is signed in to the web UI, and how. A revoked session is signed out at its next request.
      </p>
      {users.error && <ErrorNotice error={users.error} />}
      {users.data && (
        <div className="admin-fields inline">
          <label htmlFor="sessions-user">User</label>
          <UserPicker
            id="sessions-user"
            users={users.data}
            value={user ?? ''}
            anyone="Every user"
            onChange={(name) => window.location.assign(name ? adminHref('sessions', name) : adminHref('sessions'))}
          />
        </div>
      )}
      <SessionList key={user ?? ''} admin={admin} user={user} />
    </section>
  );
}
