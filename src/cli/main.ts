import { Command, CommanderError } from 'commander';
import { isEvidentError } from '../errors/index.ts';
import { registerApproveCommand } from './commands/approve-command.ts';
import { registerAuditCommand } from './commands/audit-command.ts';
import { registerAskCommand } from './commands/ask-command.ts';
import { registerChatCommand } from './commands/chat-command.ts';
import { registerCronsCommand } from './commands/crons-command.ts';
import { registerForkCommand } from './commands/fork-command.ts';
import { registerThreadsCommand } from './commands/threads-command.ts';
import { registerDocsCommand } from './commands/docs-command.ts';
import { registerEvalCommand } from './commands/eval-command.ts';
import { registerFeedbackCommand } from './commands/feedback-command.ts';
import { registerGraphCommand } from './commands/graph-command.ts';
import { registerIngestCommand } from './commands/ingest-command.ts';
import { registerMemoriesCommand } from './commands/memories-command.ts';
import { registerReindexCommand } from './commands/reindex-command.ts';
import { registerKeysCommand } from './commands/keys-command.ts';
import { registerMcpCommand } from './commands/mcp-command.ts';
import { registerSearchCommand } from './commands/search-command.ts';
import { registerServeCommand } from './commands/serve-command.ts';
import { registerStatusCommand } from './commands/status-command.ts';
import { registerSyncCommand } from './commands/sync-command.ts';
import { registerTablesCommand } from './commands/tables-command.ts';
import { registerUsersCommand } from './commands/users-command.ts';
import { registerWatchCommand } from './commands/watch-command.ts';
import { processIo, type CliIo } from './io.ts';

export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('evident')
    .description('Evident: evidence-first retrieval over your documents')
    .option('--db <path>', 'SQLite store file (env EVIDENT_DB; default ./.evident/evident.db)')
    .option(
      '--database-url <url>',
      'PostgreSQL store instead of --db: postgres://user:password@host/db[?schema=name] (env EVIDENT_DATABASE_URL)',
    )
    .option(
      '--database-read-urls <urls>',
      'hot standbys of --database-url that take reads, comma-separated postgres:// URLs (env EVIDENT_DATABASE_READ_URLS)',
    )
    .option('--config <file>', 'config file (default ./evident.config.json when present)')
    .option('--embedder <spec>', 'offline | transformers:<model or folder> | ollama:<model> | openai:<model>')
    .option(
      '--reranker <spec>',
      'offline | none | cross-encoder:<model or folder> | llm (the chat model of EVIDENT_LLM)',
    )
    .option('--debug', 'print stack traces and debug logs')
    .showHelpAfterError('(run with --help for usage)')
    // Subcommands inherit both settings, so every parse error comes back here as one line and an exit code.
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  registerIngestCommand(program, io, setExit);
  registerSyncCommand(program, io, setExit);
  registerWatchCommand(program, io);
  registerSearchCommand(program, io);
  registerDocsCommand(program, io);
  registerUsersCommand(program, io);
  registerTablesCommand(program, io);
  registerReindexCommand(program, io);
  registerStatusCommand(program, io);
  registerEvalCommand(program, io);
  registerAskCommand(program, io, setExit);
  registerApproveCommand(program, io, setExit);
  registerMemoriesCommand(program, io);
  registerChatCommand(program, io, setExit);
  registerThreadsCommand(program, io);
  registerCronsCommand(program, io);
  registerForkCommand(program, io, setExit);
  registerGraphCommand(program, io);
  registerKeysCommand(program, io);
  registerAuditCommand(program, io, setExit);
  registerFeedbackCommand(program, io);
  registerServeCommand(program, io);
  registerMcpCommand(program, io);
  return program;
}

/** Runs the CLI and returns the exit code. Failures print one line; stacks only with --debug. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => (exitCode = code));
  const debug = argv.includes('--debug');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander already printed its one line
    if (isEvidentError(error)) {
      io.err(`error: ${error.toLine()}\n`);
      if (debug) io.err(`${error.stack}\n`);
      return error.category === 'user' ? 1 : 2;
    }
    io.err(
      `error: unexpected failure: ${(error as Error)?.message ?? String(error)}${debug ? '' : ' (run with --debug for details)'}\n`,
    );
    if (debug) io.err(`${(error as Error)?.stack}\n`);
    return 2;
  }
}
