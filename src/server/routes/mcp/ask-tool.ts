import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { PendingAction } from '../../../domain/approval.ts';
import { ownThread } from '../../../runs/run-access.ts';
import type { Answer } from '../../../domain/answer.ts';
import { ClientClosedError } from '../../../errors/index.ts';
import type { Logger } from '../../../logging/logger.ts';
import { assertQuestionWithin } from '../../request-limits.ts';
import { completionParts, type CompletionOutcome } from '../openai/completion-parts.ts';
import { sourcesBlock } from '../openai/completion-content.ts';
import type { McpContext } from './mcp-context.ts';
import { guarded, toolResult } from './tool-result.ts';

const citationJson = z.object({
  chunk_id: z.string(),
  doc_id: z.string(),
  source: z.string(),
  page: z.number().optional(),
  quote: z.string(),
});

const askOutput = z.object({
  status: z.string().describe('answered | refused | interrupted (waits for an approval) | cancelled'),
  run_id: z.string(),
  thread_id: z.string(),
  agent: z.string(),
  answer: z.string().nullable(),
  answerable: z.boolean().nullable(),
  confidence: z.number().nullable(),
  citations: z.array(citationJson),
  missing_information: z.array(z.string()),
  pending_approval: z
    .object({
      approval_id: z.string(),
      tool: z.string(),
      args: z.record(z.string(), z.unknown()),
      how_to_decide: z.string(),
    })
    .nullable()
    .describe('A side effect the run proposed: it waits for a person to approve it, outside MCP, and has not run.'),
});

type AskJson = z.infer<typeof askOutput>;

/** Where a decision on a pending action is given: never through MCP, which has no approve tool. */
const howToDecide = (threadId: string, agent: string) =>
  `Not executed. An authorised person decides with \`evident approve ${threadId}\`, in the web UI, or with ` +
  `POST /threads/${threadId}/runs/wait {"assistant_id":"${agent}","command":{"resume":{"decision":"approve"}}} (or "reject").`;

function askJson(outcome: CompletionOutcome, ids: { runId: string; threadId: string; agent: string }): AskJson {
  const answer: Answer | undefined = outcome.answer;
  const pending: PendingAction | undefined = outcome.pendingAction;
  return {
    status: outcome.status,
    run_id: ids.runId,
    thread_id: ids.threadId,
    agent: ids.agent,
    answer: answer?.answer ?? null,
    answerable: answer?.answerable ?? null,
    confidence: answer?.confidence ?? null,
    citations: answer?.citations ?? [],
    missing_information: answer?.missing_information ?? [],
    pending_approval: pending
      ? {
          approval_id: pending.approval_id,
          tool: pending.tool,
          args: pending.args,
          how_to_decide: howToDecide(ids.threadId, ids.agent),
        }
      : null,
  };
}

function askText(json: AskJson, outcome: CompletionOutcome): string {
  const lines = [json.answer ?? ''];
  if (json.pending_approval) {
    const { tool, args, approval_id, how_to_decide } = json.pending_approval;
    lines.push(
      `Pending approval ${approval_id}: the ${tool} action with ${JSON.stringify(args)} waits for a person's decision. ${how_to_decide}`,
    );
  }
  const sources = sourcesBlock(outcome.answer).trim();
  if (sources) lines.push(sources);
  lines.push(`(${json.status} · agent ${json.agent} · thread ${json.thread_id} · run ${json.run_id})`);
  return lines.filter(Boolean).join('\n\n');
}

function runFailed(outcome: CompletionOutcome, runId: string, threadId: string): CallToolResult {
  const error = { code: outcome.error?.code ?? 'run_failed', message: outcome.error?.message ?? 'The run failed.' };
  return {
    content: [
      {
        type: 'text',
        text: `${error.message} (${error.code}; thread ${threadId}, run ${runId}). Ask again, or see the run's events.`,
      },
    ],
    isError: true,
  };
}

/**
 * `ask`: a question to an agent, as one run of THE run engine (recorded, permission-filtered at every step, readable
 * again through the LangGraph API), on a new thread or the caller's own `thread_id`. It waits for the run's end and
 * returns the answer contract; a side effect the run proposes comes back as a pending approval and never runs here.
 */
export function registerAskTool(server: McpServer, context: McpContext, logger: Logger): void {
  const { runs, principal } = context;
  const agents = [...runs.agents.keys()] as [string, ...string[]];
  server.registerTool(
    'ask',
    {
      title: 'Ask a question (cited answer)',
      description:
        'Answers a question from the documents you may read, through an Evident agent: rag (retrieve, check, answer), ' +
        'react (tool loop with RAG fusion) or controllable (plan, retrieve, grade). Returns the answer with citations ' +
        '(chunk_id, doc_id, quote), answerable=false with missing_information when the evidence is not enough, and ' +
        'thread_id to continue the conversation. Side effects (e.g. saving a memory) are never executed here: they come ' +
        'back as a pending approval for a person to decide.',
      inputSchema: {
        question: z.string().trim().min(1, 'a non-empty question is required'),
        agent: z
          .enum(agents)
          .optional()
          .describe(`Which agent (default ${runs.agents.has('rag') ? 'rag' : agents[0]}).`),
        thread_id: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .optional()
          .describe('Continue one of your threads (as returned by an earlier ask).'),
      },
      outputSchema: askOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(logger, 'ask', async () => {
        assertQuestionWithin(args.question, context.limits);
        const agent = args.agent ?? (runs.agents.has('rag') ? 'rag' : agents[0]);
        // Only the owner continues a thread; anyone else's id reads as a missing one.
        if (args.thread_id) await ownThread(context.evident.store, args.thread_id, principal);
        const run = await runs.start({
          agent,
          threadId: args.thread_id ?? randomUUID(),
          principal,
          action: { kind: 'ask', question: args.question, history: [] },
          createThread: args.thread_id === undefined,
          surface: 'mcp',
        });
        let outcome: CompletionOutcome | undefined;
        for await (const part of completionParts(runs.events(run.runId, 0, extra.signal, principal)))
          if (part.kind === 'end') outcome = part.outcome;
        // Only a client that went away leaves without an outcome; the run goes on, recorded.
        if (!outcome) throw new ClientClosedError();
        // The `end` event is stored before the run lets go of its thread: wait for that, so a next ask on the thread is not `thread_busy`.
        await runs.wait(run.runId, extra.signal);
        // A run's recorded error is already its public form.
        if (outcome.status === 'failed') return runFailed(outcome, run.runId, run.threadId);
        const json = askJson(outcome, { runId: run.runId, threadId: run.threadId, agent: run.agent });
        return toolResult(askText(json, outcome), json);
      }),
  );
}
