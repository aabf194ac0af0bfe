import { useMemo } from 'react';
import type { EvidentApi } from '../api/evident-api.ts';
import type { Me } from '../api/wire-types.ts';
import { AdminApi } from './admin-api.ts';
import { ADMIN_SECTIONS, adminHref, useAdminRoute, type AdminSection } from './admin-route.ts';
import { GroupsSection } from './groups-section.tsx';
import { KeysSection } from './keys-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { UsersSection } from './users-section.tsx';

const TITLES: Record<AdminSection, string> = {
  users: 'Users',
  groups: 'Groups',
  keys: 'API keys',
  sessions: 'Sessions',
};

/** Shown to a non-admin who opens `#/admin`: the server refuses them the admin routes whatever the UI shows. */
function AdminsOnly({ me }: { me: Me }) {
  return (
    <main className="admin-page">
      <div className="card admins-only" role="alert" data-testid="admins-only">
        <h2>Admins only</h2>
        <p>
          These pages manage users, groups, keys and sessions. <strong>{me.user}</strong> is not an admin; ask an admin
          if you need a change.
        </p>
        <a href="#/chat">Back to the chat</a>
      </div>
    </main>
  );
}

/** Users, groups, API keys and sessions, for admins (`#/admin/<section>`). */
export function AdminPage({ api, me }: { api: EvidentApi; me: Me }) {
  const admin = useMemo(() => new AdminApi(api), [api]);
  const route = useAdminRoute();
  if (!me.roles.includes('admin')) return <AdminsOnly me={me} />;
  return (
    <main className="admin-page">
      <nav className="admin-nav" aria-label="Admin">
        {ADMIN_SECTIONS.map((section) => (
          <a
            key={section}
            href={adminHref(section)}
            className={section === route.section ? 'active' : undefined}
            aria-current={section === route.section ? 'page' : undefined}
          >
            {TITLES[section]}
          </a>
        ))}
      </nav>
      {route.section === 'users' && <UsersSection admin={admin} />}
      {route.section === 'groups' && <GroupsSection admin={admin} />}
      {route.section === 'keys' && <KeysSection admin={admin} user={route.user} />}
      {route.section === 'sessions' && <SessionsSection admin={admin} user={route.user} />}
    </main>
  );
}
