import type { Command } from 'commander';
import { ValidationError } from '../../errors/index.ts';
import { intFlag, withEvident, type GlobalOptions } from '../context.ts';
import type { CliIo } from '../io.ts';

interface FromFeedbackFlags {
  out?: string;
  rating?: string;
  agent?: string;
  user?: string;
  since?: string;
  until?: string;
  hasCorrection?: string;
  max?: string;
}

/** Cases one export writes unless asked, and at most. */
const DEFAULT_MAX_CASES = 1_000;
const MAX_CASES = 10_000;
/** Ratings read per store query. */
const PAGE = 200;

/** `evident eval from-feedback`: users' ratings of answers as evaluation cases, so a reported wrong answer is a test. */
export function registerEvalFromFeedbackCommand(evalCommand: Command, io: CliIo): void {
  evalCommand
    .command('from-feedback')
    .description(
      "Write users' ratings of answers as evaluation cases (JSONL): a correction is the expected answer, a thumbs-down must not repeat its answer, a thumbs-up keeps it",
    )
    .option('--out <file>', 'write the cases here (default: stdout)')
    .option('--rating <rating>', 'only up or only down ratings')
    .option('--agent <name>', "only ratings of this agent's answers")
    .option('--user <name>', "only this rater's ratings")
    .option('--since <time>', 'rated from this ISO time or date, inclusive')
    .option('--until <time>', 'rated up to this ISO time or date, inclusive')
    .option('--has-correction <true|false>', 'only ratings with (true) or without (false) a correction')
    .option(
      '--max <n>',
      `at most this many cases, newest ratings first (default ${DEFAULT_MAX_CASES}, at most ${MAX_CASES})`,
    )
    .action(async (flags: FromFeedbackFlags, command: Command) => {
      const max = intFlag('--max', flags.max) ?? DEFAULT_MAX_CASES;
      if (max > MAX_CASES)
        throw new ValidationError(`--max ${max} is more than ${MAX_CASES} cases.`, {
          hint: 'Export in slices with --since and --until.',
        });
      const [{ feedbackQueryOf }, { adHocGroups, caseFromFeedback }, { writeReport }] = await Promise.all([
        import('../../feedback/feedback-filters.ts'),
        import('../../eval/cases/from-feedback.ts'),
        import('../../eval/report/write-report.ts'),
      ]);
      const query = feedbackQueryOf({
        rating: flags.rating,
        agent: flags.agent,
        user: flags.user,
        since: flags.since,
        until: flags.until,
        has_correction: flags.hasCorrection,
        limit: String(Math.min(PAGE, max)),
      });
      const lines: string[] = [];
      const tally = { up: 0, down: 0, correction: 0 };
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const groupsOf = new Map<string, readonly string[] | undefined>();
        const groups = async (user: string) => {
          if (!groupsOf.has(user)) groupsOf.set(user, adHocGroups(user) ?? (await evident.store.getUser(user))?.groups);
          return groupsOf.get(user);
        };
        let beforeId: number | undefined;
        while (lines.length < max) {
          const want = Math.min(PAGE, max - lines.length);
          const page = await evident.store.listFeedback({ ...query, limit: want, ...(beforeId ? { beforeId } : {}) });
          for (const record of page) {
            lines.push(JSON.stringify(caseFromFeedback(record, await groups(record.user))));
            tally[record.rating]++;
            if (record.correction) tally.correction++;
          }
          if (page.length < want) break;
          beforeId = page.at(-1)?.id;
        }
      });
      const text = lines.length ? `${lines.join('\n')}\n` : '';
      const summary = `${lines.length} cases from feedback (${tally.up} up, ${tally.down} down, ${tally.correction} with a correction)`;
      if (flags.out) {
        await writeReport(flags.out, text);
        io.err(`${summary} written to ${flags.out}\n`);
      } else {
        io.out(text);
        io.err(`${summary}\n`);
      }
    });
}
