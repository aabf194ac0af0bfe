import { useState } from 'react';
import type { AdminUser, Role } from './admin-wire-types.ts';
import { adminHref } from './admin-route.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { formatTime } from './format-time.ts';
import { parseGroupNames } from './group-names.ts';

export interface UserRowActions {
  save: (user: { name: string; groups: string[]; roles: Role[] }) => Promise<boolean>;
  setActive: (name: string, active: boolean) => void;
}

const roleOf = (user: AdminUser): Role => (user.roles.includes('admin') ? 'admin' : 'member');

function UserEditor({ user, actions, onDone }: { user: AdminUser; actions: UserRowActions; onDone: () => void }) {
  const [groups, setGroups] = useState(user.groups.join(', '));
  const [role, setRole] = useState<Role>(roleOf(user));
  const save = async () => {
    if (await actions.save({ name: user.name, groups: parseGroupNames(groups), roles: [role] })) onDone();
  };
  return (
    <>
      <td>
        <input
          type="text"
          aria-label={`Groups of ${user.name}`}
          value={groups}
          onChange={(event) => setGroups(event.target.value)}
        />
      </td>
      <td>
        <select
          aria-label={`Role of ${user.name}`}
          value={role}
          onChange={(event) => setRole(event.target.value as Role)}
        >
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </td>
      <td colSpan={3}>
        <span className="row-actions">
          <button type="button" className="primary" onClick={() => void save()} aria-label={`Save ${user.name}`}>
            Save
          </button>
          <button type="button" className="link-button" onClick={onDone}>
            Cancel
          </button>
        </span>
      </td>
    </>
  );
}

/** A user in the list: groups, role, status; edit in place, open their keys and sessions, (de)activate. */
export function UserRow({ user, actions }: { user: AdminUser; actions: UserRowActions }) {
  const [editing, setEditing] = useState(false);
  const inactive = user.active === false;
  return (
    <tr data-testid={`user-${user.name}`} className={inactive ? 'inactive' : undefined}>
      <td>
        <span className="user-name">{user.name}</span>
      </td>
      {editing ? (
        <UserEditor user={user} actions={actions} onDone={() => setEditing(false)} />
      ) : (
        <>
          <td data-testid="user-groups">
            {user.groups.length === 0 ? (
              <span className="muted">none</span>
            ) : (
              user.groups.map((group) => (
                <span key={group} className="acl-entry">
                  {group}
                </span>
              ))
            )}
          </td>
          <td>{user.roles.join(', ')}</td>
          <td data-testid="user-status">{inactive ? 'deactivated' : 'active'}</td>
          <td className="muted">{formatTime(user.created_at)}</td>
          <td>
            <span className="row-actions">
              <button
                type="button"
                className="link-button"
                onClick={() => setEditing(true)}
                aria-label={`Edit ${user.name}`}
              >
                Edit
              </button>
              <a href={adminHref('keys', user.name)} aria-label={`Keys of ${user.name}`}>
                Keys
              </a>
              <a href={adminHref('sessions', user.name)} aria-label={`Sessions of ${user.name}`}>
                Sessions
              </a>
              {inactive ? (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => actions.setActive(user.name, true)}
                  aria-label={`Reactivate ${user.name}`}
                >
                  Reactivate
                </button>
              ) : (
                <ConfirmButton
                  action="Deactivate"
                  label={`Deactivate ${user.name}`}
                  onConfirm={() => actions.setActive(user.name, false)}
                />
              )}
            </span>
          </td>
        </>
      )}
    </tr>
  );
}
