import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/api-error.ts';
import { ErrorNotice } from '../common/error-notice.tsx';
import type { AdminApi } from './admin-api.ts';
import type { AdminUser, Role } from './admin-wire-types.ts';
import { parseGroupNames } from './group-names.ts';
import { useAction } from './use-action.ts';

/** Adds a user with their groups and role. A name already taken is refused here: editing is done in the list. */
export function NewUserForm({
  admin,
  users,
  onSaved,
}: {
  admin: AdminApi;
  users: readonly AdminUser[];
  onSaved: () => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [groups, setGroups] = useState('');
  const [role, setRole] = useState<Role>('member');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const userName = name.trim();
    const done = await action.run(async () => {
      if (users.some((user) => user.name === userName))
        throw new ApiError(`A user named ${userName} already exists.`, {
          code: 'user_exists',
          hint: 'Edit their groups and role in the list below, or choose another name.',
        });
      await admin.saveUser({ name: userName, groups: parseGroupNames(groups), roles: [role] });
    });
    if (!done) return;
    setName('');
    setGroups('');
    setRole('member');
    await onSaved();
  };

  return (
    <form className="card admin-form" onSubmit={submit} aria-labelledby="new-user-title">
      <h2 id="new-user-title">New user</h2>
      <div className="admin-fields">
        <label>
          Name
          <input type="text" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        </label>
        <label>
          <span>
            Groups <span className="muted">(comma-separated)</span>
          </span>
          <input type="text" value={groups} onChange={(event) => setGroups(event.target.value)} autoComplete="off" />
        </label>
        <label>
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
            <option value="member">member</option>
            <option value="admin">admin</option>
          </select>
        </label>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={!name.trim() || action.busy}>
          Add user
        </button>
      </div>
      {action.error && <ErrorNotice error={action.error} onDismiss={action.clear} />}
    </form>
  );
}
