import { useCallback, useEffect, useState } from 'react';
import { toApiError, type ApiError } from './api/api-error.ts';
import { browserSession } from './api/browser-session.ts';
import { KeyForm } from './auth/key-form.tsx';
import { signOutAtProvider } from './auth/provider-sign-out.ts';
import { ErrorNotice } from './common/error-notice.tsx';
import { Session } from './session.tsx';

type SignIn =
  | { state: 'checking' }
  | { state: 'signed-out'; reason?: ApiError | undefined }
  | { state: 'failed'; error: ApiError }
  | { state: 'signed-in'; csrfToken: string; sessionId: string; via?: 'key' | 'oidc' };

/**
 * Signs the browser in with the session cookie: a reload finds the session the cookie names; without one, the key
 * screen exchanges a pasted key for a session (or the provider's button signs in), and the key is kept nowhere.
 */
export function App() {
  const [signIn, setSignIn] = useState<SignIn>({ state: 'checking' });

  const check = useCallback(() => {
    setSignIn({ state: 'checking' });
    browserSession.current().then(
      (session) =>
        setSignIn(
          session
            ? { state: 'signed-in', csrfToken: session.csrf_token, sessionId: session.id, via: session.via }
            : { state: 'signed-out' },
        ),
      (failure: unknown) => setSignIn({ state: 'failed', error: toApiError(failure) }),
    );
  }, []);

  useEffect(() => {
    browserSession.discardStoredKey();
    check();
  }, [check]);

  const signInWithKey = useCallback(async (key: string) => {
    try {
      const session = await browserSession.signIn(key);
      setSignIn({ state: 'signed-in', csrfToken: session.csrf_token, sessionId: session.id });
    } catch (failure) {
      setSignIn({ state: 'signed-out', reason: toApiError(failure) });
    }
  }, []);

  const current = signIn.state === 'signed-in' ? signIn.csrfToken : undefined;
  const viaProvider = signIn.state === 'signed-in' && signIn.via === 'oidc';
  const signOut = useCallback(
    async (reason?: ApiError) => {
      // A provider's session is ended by the server's logout route, which goes on to the provider's sign-out.
      if (current && !reason && viaProvider) return signOutAtProvider();
      // A session the server refused (401) has ended already; otherwise it is ended on the server now.
      if (current && !reason) await browserSession.signOut(current).catch(() => undefined);
      setSignIn({ state: 'signed-out', reason });
    },
    [current, viaProvider],
  );

  if (signIn.state === 'checking') return <main className="key-screen muted">Checking your session…</main>;
  if (signIn.state === 'failed') {
    return (
      <main className="key-screen">
        <ErrorNotice error={signIn.error} />
        <button type="button" onClick={check}>
          Try again
        </button>
      </main>
    );
  }
  if (signIn.state === 'signed-out') return <KeyForm onSubmit={signInWithKey} error={signIn.reason} />;
  return <Session key={signIn.sessionId} csrfToken={signIn.csrfToken} onSignOut={signOut} />;
}
