import type { Command } from 'commander';
import { LOCAL_OPERATOR } from '../../domain/principal.ts';
import { NotFoundError } from '../../errors/index.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

export function registerDocsCommand(program: Command, io: CliIo): void {
  const docs = program.command('docs').description('List and remove ingested documents');
  docs
    .command('list')
    .description('List documents (those the principal may see)')
    .option('--as <user>', 'list as this stored user')
    .option('--groups <a,b>', 'list as an ad-hoc member of these groups')
    .option('--json', 'print as JSON')
    .action(async (flags: PrincipalFlags & { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const documents = await evident.store.listDocuments(await principalFromFlags(evident, flags));
        if (flags.json) return io.out(wireJson(documents));
        if (documents.length === 0) return io.out('No documents. Add some with `evident ingest <folder>`.\n');
        io.out(
          formatTable(
            ['doc_id', 'type', 'chunks', 'pages', 'acl', 'title'],
            documents.map((d) => [
              d.docId,
              d.type,
              d.chunkCount,
              d.pageCount ?? '-',
              d.acl.join(',') || 'public',
              d.title,
            ]),
          ),
        );
      });
    });
  docs
    .command('rm')
    .description(
      "Remove a document with its chunks, vectors and tables, and the documents found inside it (an e-mail's attachments)",
    )
    .argument('<doc_id>', 'as shown by `evident docs list`')
    .action(async (docId: string, _flags: unknown, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        if (!(await evident.store.deleteDocument(docId))) {
          throw new NotFoundError('document', docId, 'See `evident docs list` for the doc_ids.');
        }
        // The CLI acts as the local operator; the deletion is recorded in the audit log (a failed record fails the command).
        await evident.audit.admin({
          actor: LOCAL_OPERATOR,
          action: 'document.delete',
          target: docId,
          surface: 'cli',
        });
        io.out(`removed ${docId}\n`);
      });
    });
}
