import type { Command } from 'commander';
import { z } from 'zod';
import { openRagAgent, type RagRunResult } from '../../agent/rag-agent.ts';
import { ValidationError } from '../../errors/index.ts';
import { createChatModel } from '../../models/chat/create-chat-model.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { json, type CliIo } from '../io.ts';
import { formatStepLines } from '../step-lines.ts';

interface AskFlags extends PrincipalFlags {
  thread?: string;
  llm?: string;
  history?: string;
  json?: boolean;
}

const historySchema = z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }));

function parseHistory(text: string) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('--history is not valid JSON.', { hint: 'Pass a JSON array of {"role": "user"|"assistant", "content": "…"}.' });
  }
  const parsed = historySchema.safeParse(value);
  if (!parsed.success) throw new ValidationError('--history must be an array of {role, content} turns.', { hint: 'role is "user" or "assistant".' });
  return parsed.data;
}

/** The `--json` shape: the answer contract plus the run's trace. */
export const runJson = (run: RagRunResult) => ({
  ...(run.answer ?? { answer: null, answerable: false, confidence: 0, citations: [], missing_information: [] }),
  status: run.status,
  mode: run.mode,
  thread_id: run.thread_id,
  run_id: run.run_id,
  standalone_question: run.standalone_question,
  sub_questions: run.sub_questions,
  evidence_ids: run.evidence_ids,
  tool_calls: run.tool_calls,
  steps: run.steps,
  errors: run.errors,
  memories: run.memories,
  ...(run.pending_action ? { pending_action: run.pending_action } : {}),
});

/** The answer with numbered citations and the run line, as a terminal shows it. */
export function human(run: RagRunResult): string {
  const pending = run.pending_action;
  const lines = pending
    ? [
        `waiting for approval: ${pending.tool} ${JSON.stringify(pending.args)}`,
        `decide with: evident approve ${run.thread_id} [--reject | --edit '{"text": "…"}']`,
      ]
    : [run.answer?.answer ?? '(no answer)'];
  if (run.answer?.citations.length) {
    lines.push('', 'Sources:');
    // The chunk id starts with the doc_id, so it alone says which document and which passage.
    run.answer.citations.forEach((citation, i) =>
      lines.push(`[${i + 1}] ${citation.chunk_id}${citation.page ? `, p. ${citation.page}` : ''}: "${citation.quote}"`),
    );
  }
  for (const call of run.tool_calls) lines.push('', `tool ${call.name}: ${String(call.arguments.sql ?? JSON.stringify(call.arguments))}`);
  lines.push('', `thread ${run.thread_id} · run ${run.run_id} · ${run.mode}`);
  return `${lines.join('\n')}\n`;
}

export function registerAskCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('ask')
    .description('Ask the rag agent: an answer with numbered citations, or a refusal that says what is missing')
    .argument('<question>', 'the question')
    .option('--thread <id>', 'continue this conversation thread')
    .option('--as <user>', 'ask as this stored user (their groups apply)')
    .option('--groups <a,b>', 'ask as an ad-hoc member of these groups')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .option('--history <json>', 'seed the thread with earlier turns: [{"role":"user","content":"…"}, …]')
    .option('--json', 'print the answer contract and the run trace as JSON')
    .action(async (question: string, flags: AskFlags, command: Command) => {
      const history = flags.history === undefined ? undefined : parseHistory(flags.history);
      await withEvident(command.optsWithGlobals<GlobalOptions>(), flags.llm ? { llm: flags.llm } : {}, async (evident) => {
        await evident.assertEmbedderMatches();
        const principal = await principalFromFlags(evident, flags);
        const chat = await createChatModel(evident.config);
        const agent = openRagAgent(evident, chat ? { chat: { id: chat.id, model: chat.model } } : {});
        try {
          const run = await agent.ask({
            question,
            principal,
            ...(flags.thread ? { threadId: flags.thread } : {}),
            ...(history ? { history } : {}),
            // Steps go to stderr as they complete, so stdout stays the answer (or pure JSON with --json).
            onStep: (event) => io.err(formatStepLines(event)),
          });
          io.out(flags.json ? json(runJson(run)) : human(run));
          for (const error of run.errors) io.err(`error: ${error.message} (${error.code})\n`);
          if (run.status === 'failed') setExit(2);
        } finally {
          agent.close();
          await chat?.close();
        }
      });
    });
}
