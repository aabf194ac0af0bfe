import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  ConfigError,
  DecisionForbiddenError,
  EmbedderMismatchError,
  EmptyAclError,
  ERROR_CODES,
  EvidentError,
  ForbiddenError,
  IngestError,
  IngestLimitError,
  InputTooLargeError,
  isErrorCode,
  isEvidentError,
  ModelNotFoundError,
  NoPendingApprovalError,
  NotFoundError,
  PayloadTooLargeError,
  ProviderError,
  publicErrorOf,
  QueryRejectedError,
  RemoteError,
  RouteNotFoundError,
  RunEventConflictError,
  RunFailedError,
  RunLeaseLostError,
  RunNotRunningError,
  RunOrphanedError,
  ServerUnreachableError,
  StoreError,
  StructuredOutputError,
  ThreadAgentMismatchError,
  ThreadBusyError,
  ThreadExistsError,
  ThreadForbiddenError,
  ThreadInterruptedError,
  UnauthorizedError,
  UnknownAgentError,
  ValidationError,
  type ErrorCategory,
  type ErrorCode,
} from './index.ts';

interface ErrorClass {
  name: string;
  isInstance(error: unknown): boolean;
}

interface Case {
  type: ErrorClass;
  error: EvidentError;
  code: ErrorCode;
  category: ErrorCategory;
  message: string;
  hint?: string;
  /** Classes it also is an instance of (its superclasses besides EvidentError). */
  alsoIs?: ErrorClass[];
}

// The messages and hints are the ones clients and tests have relied on; a change here is a change of behaviour.
const CASES: Case[] = [
  {
    type: ConfigError,
    error: new ConfigError('Bad flag.'),
    code: 'config_invalid',
    category: 'user',
    message: 'Bad flag.',
  },
  {
    type: IngestError,
    error: new IngestError('file_empty', 'a.md is empty (0 bytes).'),
    code: 'file_empty',
    category: 'user',
    message: 'a.md is empty (0 bytes).',
  },
  {
    type: IngestLimitError,
    error: new IngestLimitError('a.docx', 'expands to more than 1.0 MiB', {
      setting: 'ingest.maxExpandedBytes',
      env: 'EVIDENT_MAX_EXPANDED_BYTES',
      limit: '1.0 MiB',
    }),
    code: 'file_limit_exceeded',
    category: 'user',
    message: 'a.docx expands to more than 1.0 MiB, over the ingest.maxExpandedBytes limit of 1.0 MiB.',
    hint: 'Split the file, or raise ingest.maxExpandedBytes (EVIDENT_MAX_EXPANDED_BYTES) if it is genuine.',
    alsoIs: [IngestError],
  },
  {
    type: EmptyAclError,
    error: new EmptyAclError('--acl'),
    code: 'acl_empty',
    category: 'user',
    message: 'The ACL in --acl is empty, which would make the documents it covers visible to everyone.',
    hint: 'Name who may read them (e.g. group:legal,user:bob), or write "public" to make them visible to every user on purpose.',
  },
  {
    type: EmbedderMismatchError,
    error: new EmbedderMismatchError({ id: 'a', dimension: 2 }, { id: 'b', dimension: 3 }),
    code: 'embedder_mismatch',
    category: 'user',
    message: "The store's vectors were built by embedder a (dimension 2), but b (dimension 3) is configured.",
    hint: 'Run `evident reindex` to rebuild the vectors with b, or configure a again.',
  },
  {
    type: NotFoundError,
    error: new NotFoundError('document', 'x'),
    code: 'not_found',
    category: 'user',
    message: 'No document named "x".',
  },
  {
    type: ModelNotFoundError,
    error: new ModelNotFoundError('gpt-4o', ['rag', 'react']),
    code: 'not_found',
    category: 'user',
    message: 'No model named "gpt-4o".',
    hint: 'Models here: rag, react (GET /v1/models).',
    alsoIs: [NotFoundError],
  },
  {
    type: RouteNotFoundError,
    error: new RouteNotFoundError('GET', '/nope'),
    code: 'not_found',
    category: 'user',
    message: 'No route GET /nope.',
  },
  {
    type: ValidationError,
    error: new ValidationError('limit must be 1–1000.'),
    code: 'invalid_input',
    category: 'user',
    message: 'limit must be 1–1000.',
  },
  {
    type: ProviderError,
    error: new ProviderError('ollama', 'unreachable'),
    code: 'provider_failed',
    category: 'upstream',
    message: 'ollama: unreachable',
  },
  {
    type: StoreError,
    error: new StoreError('cannot open'),
    code: 'store_failed',
    category: 'system',
    message: 'cannot open',
  },
  {
    type: QueryRejectedError,
    error: new QueryRejectedError('query_timeout', 'stopped'),
    code: 'query_timeout',
    category: 'user',
    message: 'stopped',
  },
  {
    type: StructuredOutputError,
    error: new StructuredOutputError('Plan', 2, [{ path: ['steps', 0], message: 'Required' }]),
    code: 'structured_output_invalid',
    category: 'upstream',
    message: "The model's answer did not match the Plan schema after 2 attempts: Required at steps.0.",
    hint: 'Use a stronger model, one that supports structured output (JSON schema), or raise the retry bound.',
  },
  {
    type: UnauthorizedError,
    error: new UnauthorizedError(),
    code: 'unauthorized',
    category: 'user',
    message: 'Missing or invalid API key.',
    hint: 'Send `Authorization: Bearer <key>` (or `x-api-key`); create a key with `evident keys create <user>`.',
  },
  {
    type: ForbiddenError,
    error: new ForbiddenError('list users'),
    code: 'forbidden',
    category: 'user',
    message: 'Only an admin may list users.',
    hint: 'Use an admin key.',
  },
  {
    type: DecisionForbiddenError,
    error: new DecisionForbiddenError('send_email'),
    code: 'forbidden',
    category: 'user',
    message: 'Only an admin may decide on send_email actions.',
    hint: 'Ask an admin to approve it.',
    alsoIs: [ForbiddenError],
  },
  {
    type: ThreadForbiddenError,
    error: new ThreadForbiddenError('t1', 'bob'),
    code: 'thread_forbidden',
    category: 'user',
    message: 'Thread t1 is not available to bob.',
    hint: 'Omit --thread to start a new thread, or continue one of your own.',
  },
  {
    type: PayloadTooLargeError,
    error: new PayloadTooLargeError(10),
    code: 'payload_too_large',
    category: 'user',
    message: "The request is larger than the server's limit of 10 bytes.",
  },
  {
    type: InputTooLargeError,
    error: new InputTooLargeError({
      what: 'the query',
      unit: 'terms',
      limit: 128,
      actual: 300,
      setting: 'limits.maxQueryTerms (EVIDENT_MAX_QUERY_TERMS)',
      fix: 'Send a shorter query',
    }),
    code: 'input_too_large',
    category: 'user',
    message: 'The query has 300 terms; the limit is 128.',
    hint: 'Send a shorter query, or raise limits.maxQueryTerms (EVIDENT_MAX_QUERY_TERMS).',
  },
  {
    type: ThreadBusyError,
    error: new ThreadBusyError('t1'),
    code: 'thread_busy',
    category: 'user',
    message: 'Thread t1 has a run in progress.',
    hint: 'Join or cancel the running run first, or send multitask_strategy "enqueue" (run after it), "interrupt" (stop it) or "rollback" (stop and delete it).',
  },
  {
    type: ThreadInterruptedError,
    error: new ThreadInterruptedError('t1', 'send_email'),
    code: 'thread_interrupted',
    category: 'user',
    message: 'Thread t1 waits for a decision on send_email before a new question.',
    hint: 'Resume it with a command: {"resume": {"decision": "approve" | "edit" | "reject"}}.',
  },
  {
    type: ThreadExistsError,
    error: new ThreadExistsError('t1'),
    code: 'thread_exists',
    category: 'user',
    message: 'Thread t1 already exists.',
    hint: 'Omit thread_id to get a new one, or use if_exists: "do_nothing".',
  },
  {
    type: ThreadAgentMismatchError,
    error: new ThreadAgentMismatchError('t1', 'rag', 'react'),
    code: 'thread_agent_mismatch',
    category: 'user',
    message: 'Thread t1 belongs to the rag agent, not react.',
    hint: 'Start a new thread for react, or ask rag on this one.',
  },
  {
    type: RunEventConflictError,
    error: new RunEventConflictError({ runId: 'r1', seq: 3 }, new Error('unique')),
    code: 'run_event_conflict',
    category: 'system',
    message: 'Run r1 already has an event 3.',
  },
  {
    type: RunOrphanedError,
    error: new RunOrphanedError('r1'),
    code: 'run_orphaned',
    category: 'upstream',
    message: 'The process running this run stopped; run r1 could not be resumed from a checkpoint of its own.',
    hint: 'Ask again: the thread accepts a new question.',
  },
  {
    type: RunLeaseLostError,
    error: new RunLeaseLostError('r1', 'host:1:ab'),
    code: 'run_lease_lost',
    category: 'system',
    message: 'Run r1 is no longer held by host:1:ab.',
  },
  {
    type: RunNotRunningError,
    error: new RunNotRunningError('r1', 'answered'),
    code: 'run_not_running',
    category: 'user',
    message: 'Run r1 is not running (it is answered).',
    hint: 'Only a running run can be cancelled.',
  },
  {
    type: NoPendingApprovalError,
    error: new NoPendingApprovalError('t1'),
    code: 'no_pending_approval',
    category: 'user',
    message: 'Thread t1 has no action waiting for a decision.',
    hint: 'A run waits for a decision when it ends with an __interrupt__ ("waiting for approval" in the CLI).',
  },
  {
    type: UnknownAgentError,
    error: new UnknownAgentError('nope', ['rag', 'react']),
    code: 'unknown_agent',
    category: 'user',
    message: 'Unknown agent "nope".',
    hint: 'Agents: rag, react.',
  },
  {
    type: ClientClosedError,
    error: new ClientClosedError(),
    code: 'client_closed',
    category: 'user',
    message: 'The client closed the request before the run ended.',
  },
  {
    type: RunFailedError,
    error: new RunFailedError({ error: 'provider_failed', message: 'ollama: unreachable', hint: 'Start it.' }),
    code: 'provider_failed',
    category: 'system',
    message: 'ollama: unreachable',
    hint: 'Start it.',
  },
  {
    type: ServerUnreachableError,
    error: new ServerUnreachableError('http://127.0.0.1:1', 'did not answer'),
    code: 'server_unreachable',
    category: 'upstream',
    message: 'The Evident server at http://127.0.0.1:1 did not answer.',
    hint: 'Check the URL (the server root, e.g. http://127.0.0.1:8080) and that `evident serve` runs there.',
  },
  {
    type: RemoteError,
    error: new RemoteError({
      status: 400,
      code: 'input_too_large',
      message: 'The query is too long.',
      hint: 'Send a shorter query.',
    }),
    code: 'input_too_large',
    category: 'user',
    message: 'The query is too long.',
    hint: 'Send a shorter query.',
  },
];

describe('error classes', () => {
  it.each(CASES.map((c) => [c.type.name, c] as const))('%s has its code, category, message and hint', (_name, c) => {
    expect(c.error).toBeInstanceOf(EvidentError);
    expect(c.error.name).toBe(c.type.name);
    expect({ code: c.error.code, category: c.error.category, message: c.error.message }).toEqual({
      code: c.code,
      category: c.category,
      message: c.message,
    });
    if (c.hint !== undefined) expect(c.error.hint).toBe(c.hint);
    expect(isErrorCode(c.error.code)).toBe(true);
  });

  it.each(CASES.map((c) => [c.type.name, c] as const))(
    '%s.isInstance accepts its own errors and no other class does',
    (_name, c) => {
      expect(c.type.isInstance(c.error)).toBe(true);
      expect(EvidentError.isInstance(c.error)).toBe(true);
      expect(isEvidentError(c.error)).toBe(true);
      for (const other of CASES) {
        if (other.type === c.type) continue;
        expect(other.type.isInstance(c.error), `${other.type.name}.isInstance(${c.type.name})`).toBe(
          c.alsoIs?.includes(other.type) ?? false,
        );
      }
    },
  );

  it('isInstance rejects what is not one of its errors', () => {
    const lookalike = Object.assign(new Error('No document named "x".'), { code: 'not_found', category: 'user' });
    for (const value of [
      lookalike,
      new Error('x'),
      null,
      undefined,
      'not_found',
      42,
      { [Symbol.for('evident.error.NotFoundError')]: 'yes' },
    ]) {
      expect(NotFoundError.isInstance(value)).toBe(false);
      expect(EvidentError.isInstance(value)).toBe(false);
    }
  });

  it('isInstance recognises an error of another copy of the module, where instanceof does not', async () => {
    // A query string makes Vite load a second, separate instance of the module, as a second bundle would.
    const specifier = './thread-busy-error.ts?copy';
    const copy = (await import(specifier)) as typeof import('./thread-busy-error.ts');
    const foreign = new copy.ThreadBusyError('t1');
    expect(copy.ThreadBusyError).not.toBe(ThreadBusyError);
    expect(foreign).not.toBeInstanceOf(ThreadBusyError);
    expect(ThreadBusyError.isInstance(foreign)).toBe(true);
    expect(EvidentError.isInstance(foreign)).toBe(true);
    expect(ThreadExistsError.isInstance(foreign)).toBe(false);
  });

  it('every code some class raises is in the union', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const c of CASES) expect(ERROR_CODES).toContain(c.code);
    expect(isErrorCode('no_such_code')).toBe(false);
  });

  it("a server's refusal keeps its code; OpenAI-shaped and unknown codes map to Evident's by code, then status", () => {
    expect(new RemoteError({ status: 404, code: 'model_not_found', message: 'm' }).code).toBe('unknown_agent');
    expect(new RemoteError({ status: 403, code: 'from_a_newer_version' }).code).toBe('forbidden');
    expect(new RemoteError({ status: 502 })).toMatchObject({
      code: 'internal',
      category: 'upstream',
      status: 502,
      message: 'The Evident server answered 502.',
    });
  });

  it('a recorded run failure keeps its code, and one this version does not know becomes run_failed', () => {
    expect(new RunFailedError({ error: 'thread_busy', message: 'm' }).code).toBe('thread_busy');
    expect(new RunFailedError({ error: 'from_a_newer_version' }).code).toBe('run_failed');
    expect(new RunFailedError({}).message).toBe('The run failed.');
  });

  it('RunEventConflictError says which event when the store names it', () => {
    const cause = new Error('duplicate key');
    const error = new RunEventConflictError(undefined, cause);
    expect(error.message).toBe('A run already has one of these event numbers.');
    expect(error.cause).toBe(cause);
  });
});

describe('publicErrorOf', () => {
  it('shows user and upstream errors as they are', () => {
    expect(publicErrorOf(new NotFoundError('document', 'x', 'List them with `evident docs`.'))).toEqual({
      code: 'not_found',
      message: 'No document named "x".',
      hint: 'List them with `evident docs`.',
    });
    expect(publicErrorOf(new ProviderError('ollama', 'unreachable'))).toEqual({
      code: 'provider_failed',
      message: 'ollama: unreachable',
      hint: null,
    });
  });

  it('keeps system errors and foreign errors to their opaque public form', () => {
    const opaque = { message: 'The server failed to handle the request.', hint: 'See the server log.' };
    expect(publicErrorOf(new StoreError('SQLITE_CANTOPEN /secret/path/evident.db'))).toEqual({
      code: 'store_failed',
      ...opaque,
    });
    expect(publicErrorOf(new RunEventConflictError({ runId: 'r1', seq: 1 }, null))).toEqual({
      code: 'run_event_conflict',
      ...opaque,
    });
    expect(publicErrorOf(new Error('password=hunter2'))).toEqual({ code: 'internal', ...opaque });
    expect(publicErrorOf('thrown string')).toEqual({ code: 'internal', ...opaque });
  });
});

describe('no inline codes', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));

  /**
   * Files that still construct the base class with a code of their own, each waiting for its owner to switch to the
   * class named here. Remove a line when its file is switched (the last test fails while a line is stale).
   */
  const ALLOWED: Record<string, string> = {};

  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'errors' && dir === root ? [] : sources(path);
      return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
    });
  const files = sources(root);
  const constructing = files.filter((file) => /new\s+EvidentError\s*\(/.test(readFileSync(join(root, file), 'utf8')));
  const subclassing = files.filter((file) => /extends\s+EvidentError\b/.test(readFileSync(join(root, file), 'utf8')));

  it('no file outside src/errors constructs EvidentError with a code of its own: it throws the class of that error', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(constructing.filter((file) => !(file in ALLOWED))).toEqual([]);
  });

  it('every kind of error is a class in src/errors', () => {
    expect(subclassing).toEqual([]);
  });

  it('the allow-list names only files that still need it', () => {
    expect(Object.keys(ALLOWED).filter((file) => !constructing.includes(file))).toEqual([]);
  });
});
