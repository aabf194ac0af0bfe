import { Client } from '@langchain/langgraph-sdk/client';

/**
 * The LangGraph SDK client for the server's standard routes (assistants, threads, runs) at the server root, as the
 * signed-in browser: no key (`apiKey: null` also stops the SDK looking for one), the session cookie sent with every
 * same-origin request, and the session's CSRF token in `x-csrf-token` for the runs and threads it creates.
 * Requests are not retried: a run stream must not be started twice, and errors should reach the user at once.
 */
export function createLangGraphClient(csrfToken: string): Client {
  return new Client({
    apiUrl: window.location.origin,
    apiKey: null,
    defaultHeaders: { 'x-csrf-token': csrfToken },
    callerOptions: { maxRetries: 0 },
  });
}
