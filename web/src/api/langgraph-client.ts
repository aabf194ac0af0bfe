import { Client } from '@langchain/langgraph-sdk/client';

/**
 * The LangGraph SDK client for the server's standard routes (assistants, threads, runs) at the server root.
 * Requests are not retried: a run stream must not be started twice, and errors should reach the user at once.
 */
export function createLangGraphClient(apiKey: string): Client {
  return new Client({ apiUrl: window.location.origin, apiKey, callerOptions: { maxRetries: 0 } });
}
