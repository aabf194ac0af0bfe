import { useCallback, useState, type FormEvent } from 'react';
import { ErrorNotice } from '../common/error-notice.tsx';
import type { AdminApi } from './admin-api.ts';
import type { AdminUser } from './admin-wire-types.ts';
import { GroupCard } from './group-card.tsx';
import { groupsOfUsers, parseGroupNames, withGroup, withoutGroup } from './group-names.ts';
import { useAction } from './use-action.ts';
import { useLoaded } from './use-loaded.ts';
import { UserPicker } from './user-picker.tsx';

/** A new group is a name given to its first member. */
function NewGroupForm({
  users,
  busy,
  onAdd,
}: {
  users: readonly AdminUser[];
  busy: boolean;
  onAdd: (user: string, group: string) => Promise<boolean>;
}) {
  const [group, setGroup] = useState('');
  const [user, setUser] = useState('');
  const name = parseGroupNames(group)[0] ?? '';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onAdd(user, name)) {
      setGroup('');
      setUser('');
    }
  };
  return (
    <form className="card admin-form" onSubmit={submit} aria-labelledby="new-group-title">
      <h3 id="new-group-title">New group</h3>
      <div className="admin-fields">
        <label>
          Group name
          <input type="text" value={group} onChange={(event) => setGroup(event.target.value)} autoComplete="off" />
        </label>
        <label htmlFor="new-group-member">First member</label>
        <UserPicker id="new-group-member" users={users} value={user} onChange={setUser} />
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={!name || !user || busy}>
          Create group
        </button>
      </div>
    </form>
  );
}

/** The groups as the users carry them, each with its members: add or remove a member. */
export function GroupsSection({ admin }: { admin: AdminApi }) {
  const users = useLoaded(useCallback(() => admin.users(), [admin]));
  const action = useAction();

  const change = async (name: string, groupsOf: (groups: readonly string[]) => string[]) => {
    const done = await action.run(async () => {
      // The user's groups as the server has them now, so a change made elsewhere meanwhile is not undone.
      const user = (await admin.users()).find((u) => u.name === name);
      if (!user) throw new Error(`The user ${name} no longer exists.`);
      await admin.saveUser({ name, groups: groupsOf(user.groups) });
    });
    await users.reload();
    return done;
  };

  const all = users.data ?? [];
  return (
    <section className="admin-section" aria-labelledby="groups-title">
      <h2 id="groups-title">Groups</h2>
      <p className="muted">
        Groups decide who reads which documents (a document's ACL names them: <code>group:legal</code>). They are read
        from the users: a group lists everyone whose groups include it.
      </p>
      {users.error && <ErrorNotice error={users.error} />}
      {action.error && <ErrorNotice error={action.error} onDismiss={action.clear} />}
      {users.data && (
        <>
          <NewGroupForm
            users={all}
            busy={action.busy}
            onAdd={(user, group) => change(user, (g) => withGroup(g, group))}
          />
          {groupsOfUsers(all).length === 0 && <p className="muted">No user is in a group yet.</p>}
          <div className="group-grid">
            {groupsOfUsers(all).map((group) => (
              <GroupCard
                key={group.group}
                group={group}
                users={all}
                busy={action.busy}
                onAdd={(user) => void change(user, (g) => withGroup(g, group.group))}
                onRemove={(user) => void change(user, (g) => withoutGroup(g, group.group))}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
