import type { Command } from 'commander';
import { createStderrLogger } from '../../logging/logger.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';

/**
 * `evident mcp`: the MCP server over stdio, for desktop clients that start it as a child process. stdout carries the
 * protocol and nothing else (logs and errors go to stderr). It acts as the local operator, or `--as <user>` with that
 * user's groups from the store, and ends when the client closes stdin or on SIGINT/SIGTERM.
 */
export function registerMcpCommand(program: Command, io: CliIo): void {
  program
    .command('mcp')
    .description(
      'Serve MCP over stdio (tools search, ask, table_query, list_documents, list_tables; document and chunk resources)',
    )
    .option(
      '--as <user>',
      'act as this stored user (their groups from the store); default: the local operator, who sees everything',
    )
    .option('--groups <a,b>', 'act as an ad-hoc member of these groups')
    .action(async (flags: PrincipalFlags, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      // The MCP SDK and the server's tools load with this command only, not with every CLI start.
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../server/routes/mcp/create-mcp-server.ts'),
      ]);
      await withEvident(global, {}, async (evident) => {
        const principal = await principalFromFlags(evident, flags);
        await evident.assertEmbedderMatches();
        const { runs } = await evident.agents();
        const logger = createStderrLogger(global.debug ? 'debug' : 'warn');
        const server = createMcpServer({ evident, runs, principal, limits: evident.config.limits }, logger);
        // One message may be as large as one HTTP body may be.
        const transport = new StdioServerTransport(process.stdin, process.stdout, {
          maxBufferSize: evident.config.limits.maxBodyBytes,
        });
        const ended = untilInputEnds();
        await server.connect(transport);
        io.err(`evident mcp: serving ${evident.store.location} over stdio as ${principal.id}\n`);
        await ended;
        await server.close();
      });
    });
}

/** Resolves when the client closes our stdin (it is done) or on SIGINT/SIGTERM. */
function untilInputEnds(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.stdin.off('end', done);
      process.stdin.off('close', done);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.stdin.on('end', done);
    process.stdin.on('close', done);
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
