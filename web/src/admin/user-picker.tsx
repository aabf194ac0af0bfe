import type { AdminUser } from './admin-wire-types.ts';

/** A choice of user by name; `anyone` adds an "every user" first option whose value is ''. */
export function UserPicker({
  id,
  users,
  value,
  onChange,
  anyone,
}: {
  id: string;
  users: readonly AdminUser[];
  value: string;
  onChange: (user: string) => void;
  anyone?: string;
}) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      {anyone !== undefined ? (
        <option value="">{anyone}</option>
      ) : (
        <option value="" disabled>
          Choose a user
        </option>
      )}
      {users.map((user) => (
        <option key={user.name} value={user.name}>
          {user.name}
        </option>
      ))}
    </select>
  );
}
