import { useCallback } from 'react';
import { ErrorNotice } from '../common/error-notice.tsx';
import type { AdminApi } from './admin-api.ts';
import type { Role } from './admin-wire-types.ts';
import { NewUserForm } from './new-user-form.tsx';
import { useAction } from './use-action.ts';
import { useLoaded } from './use-loaded.ts';
import { UserRow, type UserRowActions } from './user-row.tsx';

/** Every user with their groups and role: add one, edit groups and role, deactivate or reactivate. */
export function UsersSection({ admin }: { admin: AdminApi }) {
  const users = useLoaded(useCallback(() => admin.users(), [admin]));
  const action = useAction();

  const actions: UserRowActions = {
    save: async (user: { name: string; groups: string[]; roles: Role[] }) => {
      const done = await action.run(() => admin.saveUser(user));
      await users.reload();
      return done;
    },
    setActive: (name, active) => {
      void action.run(() => admin.setActive(name, active)).then(() => users.reload());
    },
  };

  return (
    <section className="admin-section" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <p className="muted">
        A user reads what their groups may read; an admin reads everything and manages users. A change applies to their
        keys and sessions at once.
      </p>
      {users.data && <NewUserForm admin={admin} users={users.data} onSaved={users.reload} />}
      {users.error && <ErrorNotice error={users.error} />}
      {action.error && <ErrorNotice error={action.error} onDismiss={action.clear} />}
      {users.data && (
        <table className="document-table admin-table" data-testid="user-table">
          <thead>
            <tr>
              <th>User</th>
              <th>Groups</th>
              <th>Role</th>
              <th>Status</th>
              <th>Created</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => (
              <UserRow key={user.name} user={user} actions={actions} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
