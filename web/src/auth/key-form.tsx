import { useState, type FormEvent } from 'react';
import type { ApiError } from '../api/api-error.ts';
import { ErrorNotice } from '../common/error-notice.tsx';
import { ProviderSignIn } from './provider-sign-in.tsx';

/** The first screen: an API key, exchanged once for a session cookie (the browser keeps no key). */
export function KeyForm({ onSubmit, error }: { onSubmit: (key: string) => void; error: ApiError | undefined }) {
  const [key, setKey] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim()) onSubmit(key.trim());
  };
  return (
    <main className="key-screen">
      <form className="card key-form" onSubmit={submit}>
        <h1>Evident</h1>
        <p>Answers from your organisation's documents, with the evidence — or a clear “I don't know”.</p>
        <ProviderSignIn />
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          autoFocus
        />
        <button type="submit" className="primary" disabled={!key.trim()}>
          Sign in
        </button>
        <p className="muted">
          <code>npm start</code> prints an admin key on its first start; <code>evident keys create &lt;user&gt;</code>{' '}
          makes one for a user (the admin key is for automation and opens no browser session). The key is not kept in
          this browser: it opens a session that ends when you sign out.
        </p>
        {error && <ErrorNotice error={error} />}
      </form>
    </main>
  );
}
