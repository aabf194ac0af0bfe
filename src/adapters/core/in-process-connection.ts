import { randomUUID } from 'node:crypto';
import { ownThread } from '../../runs/run-access.ts';
import { auditedSearch } from '../../audit/audited-search.ts';
import type { Principal } from '../../domain/index.ts';
import { UnknownAgentError, ValidationError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { scoreViewFor, searchResultJson } from '../../retrieval/search-result-json.ts';
import { assertQueryWithin, assertQuestionWithin } from '../../server/request-limits.ts';
import type { AuditSurface } from '../../store/store.ts';
import { askInputOf, searchInputOf } from './adapter-input.ts';
import {
  DEFAULT_ADAPTER_AGENT,
  type AdapterAskOptions,
  type AdapterSearchOptions,
  type AskResultJson,
  type EvidentConnection,
} from './evident-connection.ts';

/** An `Evident` of this process and who asks through it: a principal, or a stored user (groups read at each use). */
export type InProcessTarget = { evident: Evident } & (
  | { principal: Principal; user?: never }
  | { user: string; principal?: never }
);

/**
 * Evident in this process, bound to one principal. A stored user's groups and roles are read from the store at every
 * call, not once, so a user removed from a group stops seeing its documents on the next search.
 */
export function inProcessConnection(target: InProcessTarget, surface: AuditSurface): EvidentConnection {
  const { evident } = target;
  const hasUser = typeof target.user === 'string' && target.user.trim() !== '';
  if (hasUser === Boolean(target.principal)) {
    // Fail closed: no default principal, so forgetting one can never mean "the operator who sees everything".
    throw new ValidationError(
      'Bind the Evident adapter to exactly one of `user` (a stored user name) or `principal`.',
      {
        hint: 'E.g. `{ evident, user: "alice" }`; add users with `evident users add <name> --groups …`.',
      },
    );
  }
  const principal = async (): Promise<Principal> => target.principal ?? evident.principalFor(target.user as string);
  const limits = evident.config.limits;

  return {
    target: 'in-process',
    async search(text: string, options: AdapterSearchOptions = {}) {
      const { query, topK, channels } = searchInputOf({ query: text, ...options });
      assertQueryWithin(query, limits);
      await evident.assertEmbedderMatches();
      const asker = await principal();
      // Recorded in the audit log (as the framework's surface) before any result leaves, as every front end's searches are.
      const trace = await auditedSearch(evident, {
        query,
        principal: asker,
        surface,
        options: { ...(topK ? { topK } : {}), ...(channels ? { channels } : {}) },
      });
      // The same view as POST /v1/search: raw channel scores carry statistics of documents a non-admin cannot read.
      const view = scoreViewFor(asker);
      return trace.results.map((result) => searchResultJson(result, view));
    },
    async ask(text: string, given: AdapterAskOptions = {}): Promise<AskResultJson> {
      const { question, ...options } = askInputOf({ question: text, ...given });
      assertQuestionWithin(question, limits);
      await evident.assertEmbedderMatches();
      const asker = await principal();
      const { runs } = await evident.agents();
      const agent = options.agent ?? DEFAULT_ADAPTER_AGENT;
      if (!runs.agents.has(agent)) throw new UnknownAgentError(agent, [...runs.agents.keys()]);
      // Only the owner continues a thread; anyone else's id reads as missing (as on /v1/chat/completions).
      if (options.threadId !== undefined) await ownThread(evident.store, options.threadId, asker);
      const request = {
        agent,
        threadId: options.threadId ?? randomUUID(),
        principal: asker,
        action: { kind: 'ask' as const, question, history: [] },
        createThread: options.threadId === undefined,
        surface,
      };
      // The engine starts the run from an empty context (not as a nested graph of a calling LangGraph agent), and
      // returns once the run is done, its thread free for the next ask.
      const run = await runs.run(request);
      return {
        status: run.status,
        thread_id: run.thread_id,
        run_id: run.run_id,
        ...(run.answer ?? {}),
        ...(run.pending_action ? { pending_action: run.pending_action } : {}),
      };
    },
  };
}
