import type { Command } from 'commander';
import { auditPageJson, readAuditPage } from '../../audit/audit-entry-json.ts';
import { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from '../../audit/audit-limits.ts';
import { AUDIT_ACTIONS, type AuditEntry } from '../../store/store.ts';
import { withEvident, type GlobalOptions } from '../context.ts';
import { formatTable, type CliIo } from '../io.ts';

interface AuditFlags {
  actor?: string;
  action?: string;
  runId?: string;
  since?: string;
  until?: string;
  limit?: string;
  cursor?: string;
  json?: boolean;
}

/** `evident audit`: the store's audit log, newest first, with the filters and paging of `GET /v1/audit`. */
export function registerAuditCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const audit = program
    .command('audit')
    .description('Read the audit log (searches, asks, approvals, admin actions), newest first')
    .option('--actor <principal>', 'only this principal (a user, evident:admin-key, evident:local)')
    .option('--action <action>', `only this action: ${AUDIT_ACTIONS.join(', ')}`)
    .option('--run-id <id>', "only this run's entries")
    .option('--since <time>', 'from this ISO time or date, inclusive')
    .option('--until <time>', 'up to this ISO time or date, inclusive')
    .option('--limit <n>', `entries per page (default ${DEFAULT_AUDIT_LIMIT}, at most ${MAX_AUDIT_LIMIT})`)
    .option('--cursor <id>', 'the next page: the cursor the previous page printed')
    .option('--json', 'print the page as JSON (as GET /v1/audit answers)')
    .action(async (flags: AuditFlags, command: Command) => {
      // Checked before the store opens, with the route's own rules (loaded with the command, not with the CLI).
      const { auditQueryOf } = await import('../../audit/audit-filters.ts');
      const query = auditQueryOf({
        actor: flags.actor,
        action: flags.action,
        run_id: flags.runId,
        since: flags.since,
        until: flags.until,
        limit: flags.limit,
        cursor: flags.cursor,
      });
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const page = await readAuditPage(evident.store, query);
        if (flags.json) return io.out(`${JSON.stringify(auditPageJson(page), null, 2)}\n`);
        if (page.entries.length === 0) return io.out('No audit entries match.\n');
        io.out(
          formatTable(
            ['id', 'at', 'actor', 'action', 'via', 'what', 'returned', 'cited', 'withheld'],
            page.entries.map(row),
          ),
        );
        if (page.nextCursor)
          io.err(
            `more: evident audit --cursor ${page.nextCursor}${flags.limit ? ` --limit ${flags.limit}` : ''} (with the same filters)\n`,
          );
      });
    });
  audit
    .command('verify')
    .description(
      "Check the audit log's hash chain: an entry changed or removed in place breaks it (exit 1); keep the printed head elsewhere to anchor the log's end",
    )
    .option('--json', 'print {entries, head, broken} as JSON')
    .action(async (_flags: unknown, command: Command) => {
      // `--json` may be read by `audit` itself, which has one too.
      const options = command.optsWithGlobals<GlobalOptions & { json?: boolean }>();
      await withEvident(options, {}, async (evident) => {
        const report = await evident.store.verifyAudit();
        if (report.broken) setExit(1);
        if (options.json) return io.out(`${JSON.stringify(report, null, 2)}\n`);
        io.out(
          report.broken
            ? `audit log broken at entry ${report.broken.id}: ${report.broken.reason} (${report.entries} entries read)\n`
            : `audit log intact: ${report.entries} entries, head ${report.head || '(empty)'}\n`,
        );
      });
    });
}

const list = (ids: string[] | undefined) => (ids === undefined ? '-' : ids.length === 0 ? '(none)' : ids.join(','));

/** What the entry concerned, in one cell: a target, a decision, a run, a question (or the start of its hash). */
function what(entry: AuditEntry): string {
  const parts = [
    entry.decision,
    entry.target,
    entry.runId ? `run ${entry.runId.slice(0, 8)}` : undefined,
    entry.outcome,
    entry.question !== undefined
      ? JSON.stringify(entry.question.length > 60 ? `${entry.question.slice(0, 59)}…` : entry.question)
      : undefined,
    entry.questionSha256 ? `sha256:${entry.questionSha256.slice(0, 12)}` : undefined,
  ];
  return parts.filter(Boolean).join(' ');
}

const row = (entry: AuditEntry) => [
  entry.id,
  entry.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
  entry.actor,
  entry.action,
  entry.surface ?? '-',
  what(entry),
  list(entry.returnedDocIds),
  list(entry.citedDocIds),
  entry.withheld ?? '-',
];
