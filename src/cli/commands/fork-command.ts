import type { Command } from 'commander';
import { openRagAgent } from '../../agent/rag-agent.ts';
import { createChatModel } from '../../models/chat/create-chat-model.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { json, type CliIo } from '../io.ts';
import { human, runJson } from './ask-command.ts';

interface ForkFlags extends PrincipalFlags {
  llm?: string;
  json?: boolean;
}

/** `evident fork <thread> <checkpoint> ["<question>"]`: a new run from an earlier checkpoint; the old branch stays. */
export function registerForkCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('fork')
    .description('Run again from an earlier checkpoint of a thread: a new question from the end of a run, or a replay from mid-run')
    .argument('<thread>', 'thread id')
    .argument('<checkpoint>', 'checkpoint id (see `evident checkpoints <thread>`)')
    .argument('[question]', 'the question to ask from that checkpoint')
    .option('--as <user>', 'as this stored user (the thread must be theirs)')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .option('--json', 'print the answer contract and the run trace as JSON')
    .action(async (threadId: string, checkpointId: string, question: string | undefined, flags: ForkFlags, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), flags.llm ? { llm: flags.llm } : {}, async (evident) => {
        await evident.assertEmbedderMatches();
        const principal = await principalFromFlags(evident, flags);
        const chat = await createChatModel(evident.config);
        const agent = openRagAgent(evident, chat ? { chat: { id: chat.id, model: chat.model } } : {});
        try {
          const run = await agent.fork({ threadId, checkpointId, principal, ...(question === undefined ? {} : { question }) });
          io.out(flags.json ? json({ ...runJson(run), forked_from: checkpointId }) : human(run));
          for (const error of run.errors) io.err(`error: ${error.message} (${error.code})\n`);
          if (run.status === 'failed') setExit(2);
        } finally {
          agent.close();
          await chat?.close();
        }
      });
    });
}
