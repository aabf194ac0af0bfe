import type { Command } from 'commander';
import { FEEDBACK_RATINGS, FEEDBACK_REASONS, type FeedbackRating, type FeedbackReason } from '../../domain/feedback.ts';
import { ValidationError } from '../../errors/index.ts';
import type { FeedbackRecord } from '../../store/store.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { formatTable, type CliIo } from '../io.ts';

interface ListFlags {
  agent?: string;
  rating?: string;
  user?: string;
  runId?: string;
  since?: string;
  until?: string;
  hasCorrection?: string;
  limit?: string;
  cursor?: string;
  json?: boolean;
}

interface RateFlags extends PrincipalFlags {
  up?: boolean;
  down?: boolean;
  reason?: string;
  comment?: string;
  correction?: string;
  json?: boolean;
}

/** The feedback code, loaded when a feedback command runs rather than with every CLI start. */
async function feedbackModules() {
  const [filters, json, service] = await Promise.all([
    import('../../feedback/feedback-filters.ts'),
    import('../../feedback/feedback-json.ts'),
    import('../../feedback/run-feedback.ts'),
  ]);
  return { ...filters, ...json, ...service };
}

/** `evident feedback`: everyone's ratings of answers, as `GET /v1/feedback` lists them; `feedback rate` rates a run. */
export function registerFeedbackCommand(program: Command, io: CliIo): void {
  const feedback = program
    .command('feedback')
    .description("List ratings of answers (newest first, filtered and paged), or rate a run's answer")
    .option('--agent <name>', "only ratings of this agent's answers")
    .option('--rating <rating>', `only ${FEEDBACK_RATINGS.join(' or ')}`)
    .option('--user <name>', "only this rater's ratings")
    .option('--run-id <id>', 'only ratings of this run')
    .option('--since <time>', 'rated from this ISO time or date, inclusive')
    .option('--until <time>', 'rated up to this ISO time or date, inclusive')
    .option('--has-correction <true|false>', 'only ratings with (true) or without (false) a correction')
    .option('--limit <n>', 'ratings per page (default 50, at most 200)')
    .option('--cursor <id>', 'the next page: the cursor the previous page printed')
    .option('--json', 'print the page as JSON (as GET /v1/feedback answers)')
    .action(async (flags: ListFlags, command: Command) => {
      const { feedbackQueryOf, listFeedbackPage, feedbackPageJson } = await feedbackModules();
      // Checked before the store opens, with the route's own rules.
      const query = feedbackQueryOf({
        agent: flags.agent,
        rating: flags.rating,
        user: flags.user,
        run_id: flags.runId,
        since: flags.since,
        until: flags.until,
        has_correction: flags.hasCorrection,
        limit: flags.limit,
        cursor: flags.cursor,
      });
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const { LOCAL_OPERATOR } = await import('../../domain/principal.ts');
        const page = await listFeedbackPage({ store: evident.store }, LOCAL_OPERATOR, query);
        if (flags.json) return io.out(`${JSON.stringify(feedbackPageJson(page), null, 2)}\n`);
        if (page.feedback.length === 0) return io.out('No feedback matches.\n');
        io.out(
          formatTable(
            ['id', 'rated', 'rater', 'agent', 'run', 'rating', 'reason', 'question', 'correction'],
            page.feedback.map(row),
          ),
        );
        if (page.nextCursor)
          io.err(
            `more: evident feedback --cursor ${page.nextCursor}${flags.limit ? ` --limit ${flags.limit}` : ''} (with the same filters)\n`,
          );
      });
    });
  feedback
    .command('rate')
    .description("Rate a run's answer up or down (a run of your own thread with --as; any run as the local operator)")
    .argument('<run_id>', 'the run whose answer is rated')
    .option('--up', 'the answer was right')
    .option('--down', 'the answer was wrong')
    .option('--reason <reason>', `why: ${FEEDBACK_REASONS.join(', ')}`)
    .option('--comment <text>', 'free text')
    .option('--correction <text>', 'the right answer (an evaluation case exported from this rating expects it)')
    .option('--as <user>', 'rate as this stored user')
    .option('--groups <a,b>', 'rate as an ad-hoc member of these groups')
    .option('--json', 'print the stored rating as JSON')
    .action(async (runId: string, flags: RateFlags, command: Command) => {
      if (Boolean(flags.up) === Boolean(flags.down))
        throw new ValidationError('Pass exactly one of --up or --down.', {
          hint: 'evident feedback rate <run_id> --down --correction "the right answer"',
        });
      if (flags.reason !== undefined && !(FEEDBACK_REASONS as readonly string[]).includes(flags.reason))
        throw new ValidationError(`--reason ${flags.reason} is not a known reason.`, {
          hint: `Use one of: ${FEEDBACK_REASONS.join(', ')}; say more with --comment.`,
        });
      const rating: FeedbackRating = flags.up ? 'up' : 'down';
      const { rateRun, feedbackRecordJson } = await feedbackModules();
      const global = command.optsWithGlobals<GlobalOptions & { json?: boolean }>();
      await withEvident(global, {}, async (evident) => {
        const principal = await principalFromFlags(evident, flags);
        const runtime = await evident.agents();
        const record = await rateRun(
          { store: evident.store, runs: runtime.runs },
          principal,
          runId,
          {
            rating,
            reason: flags.reason as FeedbackReason | undefined,
            comment: flags.comment,
            correction: flags.correction,
          },
          'cli',
        );
        if (flags.json || global.json) return io.out(`${JSON.stringify(feedbackRecordJson(record), null, 2)}\n`);
        io.out(`rated run ${record.runId} ${record.rating} as ${record.rater}\n`);
      });
    });
}

const short = (text: string | undefined | null, max = 50) =>
  text == null ? '-' : JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);

const row = (record: FeedbackRecord) => [
  record.id,
  record.updatedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
  record.rater,
  record.agent,
  record.runId.slice(0, 8),
  record.rating,
  record.reason ?? '-',
  short(record.question),
  short(record.correction),
];
