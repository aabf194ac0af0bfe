import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentRuntime } from '../../agent/agent-runtime.ts';
import type { AgentTrace } from '../../runs/run-trace.ts';
import type { Principal } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import type { IngestProgress } from '../../ingest/ingest-progress.ts';
import type { LocatedCase } from '../cases/read-cases.ts';
import { principalForCase, type UserDirectory } from '../cases/read-users.ts';
import { pendingActionsOf } from '../../runs/policy/authorize-decision.ts';
import { agentTraceOf, withPendingActions } from './agent-trace-of.ts';
import { scoreCase, type CaseResult } from './score-case.ts';
import { summarizeResults, type AgentSummary } from './summarize-results.ts';
import type { FeedbackSummary } from '../report/feedback-summary.ts';

/** What `evident eval run --json` prints. */
export interface EvalReport {
  meta: {
    cases_file: string;
    corpus: string;
    agents: string[];
    mode: string;
    documents: number;
    failed_documents: number;
    started_at: string;
    elapsed_ms: number;
  };
  summary: Record<string, AgentSummary>;
  cases: CaseResult[];
  /** How users rated each agent's answers in the deployment's store; absent when it has no store to read. */
  feedback?: FeedbackSummary;
}

export type EvalProgress =
  | { phase: 'ingest'; progress: IngestProgress }
  | {
      phase: 'case';
      done: number;
      total: number;
      result: CaseResult;
      passedSoFar: Readonly<Record<string, { passed: number; done: number }>>;
    };

export interface RunEvalOptions {
  cases: readonly LocatedCase[];
  casesFile: string;
  corpus: string;
  users: UserDirectory;
  /** Agent names, or `all` for every agent the runtime registers. */
  agent: string;
  onProgress?: (progress: EvalProgress) => void;
}

export function assertCorpusFolder(corpus: string): void {
  if (!existsSync(corpus) || !statSync(corpus).isDirectory()) {
    throw new ValidationError(`The corpus folder ${corpus} does not exist.`, {
      hint: "Pass --corpus <dir>: the folder whose files the cases' doc ids are relative to.",
    });
  }
}

export function agentsToRun(runtime: AgentRuntime, agent: string): string[] {
  const registered = [...runtime.runs.agents.keys()];
  if (agent === 'all') return registered;
  const names = agent
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !runtime.runs.agents.has(name));
  if (unknown.length || names.length === 0) {
    throw new ValidationError(`No agent named ${unknown.map((name) => `"${name}"`).join(', ') || '""'}.`, {
      hint: `Agents here: ${registered.join(', ')}, or all.`,
    });
  }
  return names;
}

/** A run that could not even start (or whose state cannot be read) still gets a result: every layer it lacks is n/a. */
const failedTrace = (message: string): AgentTrace => ({
  standalone_question: null,
  retrieved_doc_ids: null,
  kept_doc_ids: null,
  evidence: null,
  answer: null,
  tool_calls: null,
  status: 'failed',
  errors: [{ node: 'run', code: 'run_failed', message }],
});

/** Asks one case on a fresh thread seeded with its history, as its user, and reads the run's final state. */
async function runCase(
  runtime: AgentRuntime,
  agent: string,
  located: LocatedCase,
  principal: Principal,
): Promise<{ trace: AgentTrace; ms: number }> {
  const { evalCase } = located;
  const threadId = `eval-${agent}-${randomUUID()}`;
  const started = performance.now();
  try {
    const run = await runtime.runs.start({
      agent,
      threadId,
      principal,
      action: { kind: 'ask', question: evalCase.question, history: evalCase.history },
      createThread: true,
    });
    const finished = await runtime.runs.wait(run.runId, new AbortController().signal);
    const ms = performance.now() - started;
    const { agent: definition, snapshot } = await runtime.runs.threadState(threadId, principal);
    if (!definition || !snapshot) return { trace: failedTrace('the run left no state'), ms };
    const trace = withPendingActions(
      agentTraceOf(definition, snapshot.values as Record<string, unknown>),
      pendingActionsOf(snapshot),
    );
    // A graph that threw leaves its state mid-run: the run record says how it ended.
    if (finished && (finished.status === 'failed' || finished.status === 'cancelled') && trace.status !== 'failed') {
      return {
        trace: {
          ...trace,
          status: finished.status,
          errors: [...trace.errors, { node: 'run', code: finished.status, message: finished.error ?? finished.status }],
        },
        ms,
      };
    }
    return { trace, ms };
  } catch (error) {
    return {
      trace: failedTrace(error instanceof Error ? error.message : String(error)),
      ms: performance.now() - started,
    };
  }
}

/**
 * Ingests the corpus (with its ACLs) into `evident`'s store, then runs every case as its user through the run
 * runtime for each chosen agent, and scores every layer of every run.
 */
export async function runEval(evident: Evident, options: RunEvalOptions): Promise<EvalReport> {
  const startedAt = new Date();
  const began = performance.now();
  assertCorpusFolder(options.corpus);
  // Every principal is resolved before anything runs, so a bad users file fails at once.
  const principals = options.cases.map((located) => principalForCase(located, options.users));
  const runtime = await evident.agents();
  const chat = await evident.chatModel();
  const agents = agentsToRun(runtime, options.agent);
  await evident.assertEmbedderMatches();
  const ingest = await evident.ingestor.ingest([options.corpus], {
    onProgress: (progress) => options.onProgress?.({ phase: 'ingest', progress }),
  });
  const results: CaseResult[] = [];
  const passedSoFar: Record<string, { passed: number; done: number }> = Object.fromEntries(
    agents.map((agent) => [agent, { passed: 0, done: 0 }]),
  );
  const total = agents.length * options.cases.length;
  for (const agent of agents) {
    for (const [index, located] of options.cases.entries()) {
      const { trace, ms } = await runCase(runtime, agent, located, principals[index] as Principal);
      const result = scoreCase(located.evalCase, agent, trace, ms);
      results.push(result);
      const tally = passedSoFar[agent] as { passed: number; done: number };
      tally.done++;
      if (result.passed) tally.passed++;
      options.onProgress?.({ phase: 'case', done: results.length, total, result, passedSoFar });
    }
  }
  return {
    meta: {
      cases_file: options.casesFile,
      corpus: resolve(options.corpus),
      agents,
      mode: chat?.id ?? 'offline',
      documents: ingest.added + ingest.updated + ingest.unchanged,
      failed_documents: ingest.failed,
      started_at: startedAt.toISOString(),
      elapsed_ms: Math.round(performance.now() - began),
    },
    summary: summarizeResults(results),
    cases: results,
  };
}
