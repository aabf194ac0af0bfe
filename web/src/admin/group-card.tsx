import { useState } from 'react';
import type { AdminUser } from './admin-wire-types.ts';
import { ConfirmButton } from './confirm-button.tsx';
import type { GroupMembers } from './group-names.ts';
import { UserPicker } from './user-picker.tsx';

/** A group and its members: remove one (asked twice), or add a user who is not in it yet. */
export function GroupCard({
  group,
  users,
  busy,
  onAdd,
  onRemove,
}: {
  group: GroupMembers;
  users: readonly AdminUser[];
  busy: boolean;
  onAdd: (user: string) => void;
  onRemove: (user: string) => void;
}) {
  const [chosen, setChosen] = useState('');
  const others = users.filter((user) => !group.members.includes(user.name));
  const pickerId = `add-to-${group.group}`;
  return (
    <article className="card group-card" data-testid={`group-${group.group}`} aria-labelledby={`${pickerId}-title`}>
      <h3 id={`${pickerId}-title`}>
        {group.group} <span className="muted">· {group.members.length}</span>
      </h3>
      <ul className="member-list">
        {group.members.map((member) => (
          <li key={member}>
            <span>{member}</span>
            <ConfirmButton
              action="Remove"
              label={`Remove ${member} from ${group.group}`}
              onConfirm={() => onRemove(member)}
              disabled={busy}
            />
          </li>
        ))}
      </ul>
      {group.members.length === 1 && (
        <p className="muted">A group exists while someone is in it: removing its last member removes it.</p>
      )}
      {others.length > 0 && (
        <div className="add-member">
          <label htmlFor={pickerId}>Add a member to {group.group}</label>
          <UserPicker id={pickerId} users={others} value={chosen} onChange={setChosen} />
          <button
            type="button"
            disabled={!chosen || busy}
            onClick={() => {
              onAdd(chosen);
              setChosen('');
            }}
          >
            Add
          </button>
        </div>
      )}
    </article>
  );
}
