import { useCallback, useState } from 'react';
import type { ApiError } from './api/api-error.ts';
import { apiKeyStorage } from './api/api-key-storage.ts';
import { KeyForm } from './auth/key-form.tsx';
import { Session } from './session.tsx';

/** Asks for an API key until one works, then shows the signed-in session. */
export function App() {
  const [apiKey, setApiKey] = useState<string | undefined>(() => apiKeyStorage.read());
  const [rejected, setRejected] = useState<ApiError | undefined>();

  const signIn = useCallback((key: string) => {
    apiKeyStorage.write(key);
    setRejected(undefined);
    setApiKey(key);
  }, []);
  const signOut = useCallback((reason?: ApiError) => {
    apiKeyStorage.forget();
    setRejected(reason);
    setApiKey(undefined);
  }, []);

  if (!apiKey) return <KeyForm onSubmit={signIn} error={rejected} />;
  return <Session key={apiKey} apiKey={apiKey} onSignOut={signOut} />;
}
