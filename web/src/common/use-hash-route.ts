import { useEffect, useState } from 'react';

export const PAGES = ['chat', 'documents', 'graph'] as const;
/** The top bar's pages, and `admin` (`#/admin` and its sections, `#/admin/users`), which only admins see a link to. */
export type Page = (typeof PAGES)[number] | 'admin';

const isAdminHash = (hash: string): boolean => hash === '#/admin' || hash.startsWith('#/admin/');
const pageOf = (hash: string): Page =>
  isAdminHash(hash) ? 'admin' : (PAGES.find((page) => hash === `#/${page}`) ?? 'chat');

/** The current page from the URL hash (`#/documents`), so reloads and the back button keep the page without a router. */
export function useHashRoute(): Page {
  const [page, setPage] = useState<Page>(() => pageOf(window.location.hash));
  useEffect(() => {
    const onChange = () => setPage(pageOf(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return page;
}
