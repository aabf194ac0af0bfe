import type { Me } from '../api/wire-types.ts';

/** Who the session acts as: the user, their groups (what they may read) and roles; and signing out. */
export function WhoAmI({ me, onSignOut }: { me: Me; onSignOut: () => void }) {
  return (
    <div className="who-am-i">
      <span className="user-name" data-testid="user-name">
        {me.user}
      </span>
      {me.groups.length > 0 && <span className="muted"> · {me.groups.join(', ')}</span>}
      {me.roles.includes('admin') && <span className="badge">admin</span>}
      <button type="button" className="link-button" onClick={onSignOut}>
        Sign out
      </button>
    </div>
  );
}
