import { useEffect, useMemo, useState } from 'react';
import { toApiError, type ApiError } from './api/api-error.ts';
import { EvidentApi } from './api/evident-api.ts';
import { createLangGraphClient } from './api/langgraph-client.ts';
import type { Me } from './api/wire-types.ts';
import { AssistantChooser } from './chat/assistant-chooser.tsx';
import { ChatPage } from './chat/chat-page.tsx';
import { useAssistants } from './chat/use-assistants.ts';
import { ErrorNotice } from './common/error-notice.tsx';
import { PAGES, useHashRoute, type Page } from './common/use-hash-route.ts';
import { DocumentsPage } from './documents/documents-page.tsx';
import { GraphPage } from './graph/graph-page.tsx';
import { WhoAmI } from './auth/who-am-i.tsx';
import { AdminPage } from './admin/admin-page.tsx';

const PAGE_TITLES: Record<Page, string> = { chat: 'Chat', documents: 'Documents', graph: 'Graph', admin: 'Admin' };

/**
 * The signed-in UI: reads who the session is with `/v1/me`, then shows the page the URL names. Every request goes
 * with the session cookie and its CSRF token; a session the server refuses (ended, revoked) signs out.
 */
export function Session({ csrfToken, onSignOut }: { csrfToken: string; onSignOut: (reason?: ApiError) => void }) {
  const api = useMemo(() => new EvidentApi(window.location.origin, csrfToken), [csrfToken]);
  const client = useMemo(() => createLangGraphClient(csrfToken), [csrfToken]);
  const [me, setMe] = useState<Me | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const page = useHashRoute();
  const assistants = useAssistants(client);

  useEffect(() => {
    let current = true;
    api.me().then(
      (who) => current && setMe(who),
      (failure: unknown) => {
        if (!current) return;
        const apiError = toApiError(failure);
        if (apiError.status === 401) onSignOut(apiError);
        else setError(apiError);
      },
    );
    return () => {
      current = false;
    };
  }, [api, onSignOut]);

  if (error) {
    return (
      <main className="key-screen">
        <ErrorNotice error={error} />
        <button type="button" onClick={() => onSignOut()}>
          Sign out
        </button>
      </main>
    );
  }
  if (!me) return <main className="key-screen muted">Checking your session…</main>;

  return (
    <div className={page === 'chat' ? 'app chat-app' : 'app'}>
      <header className="top-bar">
        <span className="brand">Evident</span>
        <nav>
          {PAGES.map((name) => (
            <a
              key={name}
              href={`#/${name}`}
              className={name === page ? 'active' : undefined}
              aria-current={name === page ? 'page' : undefined}
            >
              {PAGE_TITLES[name]}
            </a>
          ))}
          {me.roles.includes('admin') && (
            <a
              href="#/admin"
              className={page === 'admin' ? 'active' : undefined}
              aria-current={page === 'admin' ? 'page' : undefined}
            >
              {PAGE_TITLES.admin}
            </a>
          )}
        </nav>
        <AssistantChooser assistants={assistants} />
        <WhoAmI me={me} onSignOut={() => onSignOut()} />
      </header>
      {assistants.error && <ErrorNotice error={assistants.error} />}
      {/* The chat stays mounted on other pages, so a run keeps streaming and the chosen thread stays chosen. */}
      <div className="chat-frame" hidden={page !== 'chat'}>
        <ChatPage client={client} api={api} assistantId={assistants.selected} />
      </div>
      {page === 'documents' && <DocumentsPage api={api} me={me} />}
      {page === 'graph' && <GraphPage client={client} assistantId={assistants.selected} />}
      {page === 'admin' && <AdminPage api={api} me={me} />}
    </div>
  );
}
