import { useEffect, useState } from 'react';

export const ADMIN_SECTIONS = ['users', 'groups', 'keys', 'sessions'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

export interface AdminRoute {
  section: AdminSection;
  /** The user a section is opened for (`#/admin/keys/alice`), if any. */
  user?: string;
}

/** `#/admin`, `#/admin/<section>` or `#/admin/<section>/<user>`; anything else under `#/admin` opens the users. */
export function adminRouteOf(hash: string): AdminRoute {
  const [, section, user] = hash.replace(/^#\/admin\/?/, '').match(/^([^/]*)(?:\/(.+))?$/) ?? [];
  const found = ADMIN_SECTIONS.find((name) => name === section) ?? 'users';
  if (!user) return { section: found };
  try {
    return { section: found, user: decodeURIComponent(user) };
  } catch {
    return { section: found };
  }
}

export const adminHref = (section: AdminSection, user?: string): string =>
  `#/admin/${section}${user ? `/${encodeURIComponent(user)}` : ''}`;

/** The admin route of the URL hash, following its changes. */
export function useAdminRoute(): AdminRoute {
  const [route, setRoute] = useState<AdminRoute>(() => adminRouteOf(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(adminRouteOf(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
