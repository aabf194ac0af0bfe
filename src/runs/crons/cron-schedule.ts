import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { ValidationError } from '../../errors/index.ts';

/** The longest schedule text accepted (a cron line is short; a long one is a mistake or an attack). */
export const MAX_SCHEDULE_CHARS = 256;
/** The longest time zone name accepted (IANA names are far shorter). */
const MAX_TIMEZONE_CHARS = 64;

const SYNTAX_HINT =
  'Use cron syntax: 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first, e.g. "0 9 * * 1-5".';

/** Whether `timezone` is an IANA zone this runtime knows (`UTC`, `Europe/Paris`…). */
function checkTimezone(timezone: string): void {
  if (timezone.length > MAX_TIMEZONE_CHARS || !/^[A-Za-z0-9_+\-/]+$/.test(timezone))
    throw new ValidationError(`${JSON.stringify(timezone.slice(0, 64))} is no time zone.`, {
      hint: 'Give an IANA time zone such as "UTC" or "Europe/Paris".',
    });
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ValidationError(`${JSON.stringify(timezone)} is no time zone.`, {
      hint: 'Give an IANA time zone such as "UTC" or "Europe/Paris".',
    });
  }
}

/** The smallest step between two values of one field (wrapping round its range), or undefined for one value. */
function smallestStep(values: readonly number[], range: number): number | undefined {
  if (values.length < 2) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  let step = range - ((sorted.at(-1) as number) - (sorted[0] as number));
  for (let i = 1; i < sorted.length; i++) step = Math.min(step, (sorted[i] as number) - (sorted[i - 1] as number));
  return step;
}

/**
 * A lower bound of the time between two ticks, in seconds, read from the expression's fields: the finest field with
 * more than one value sets it (several seconds: their smallest step; one second and several minutes: the smallest
 * minute step; and so on). One value in each of second, minute and hour means ticks at least a day apart (23 hours
 * across a daylight-saving change).
 */
function smallestGapSeconds(expression: CronExpression): number {
  const { second, minute, hour } = expression.fields;
  const seconds = smallestStep(second.values as number[], 60);
  if (seconds !== undefined) return seconds;
  const minutes = smallestStep(minute.values as number[], 60);
  if (minutes !== undefined) return minutes * 60;
  const hours = smallestStep(hour.values as number[], 24);
  if (hours !== undefined) return hours * 3600;
  return 23 * 3600;
}

/** A cron's schedule, read once: when it ticks, in its time zone, until its end time. */
export class CronSchedule {
  private constructor(
    readonly schedule: string,
    readonly timezone: string,
    private readonly endTime: Date | undefined,
  ) {}

  /**
   * Validates the schedule (cron syntax, time zone, end time) and its shortest interval against `minIntervalSeconds`:
   * a schedule that could tick more often is refused with a message that says how to schedule less often.
   */
  static parse(schedule: string, timezone: string, endTime: string | null, minIntervalSeconds: number): CronSchedule {
    if (typeof schedule !== 'string' || schedule.trim() === '' || schedule.length > MAX_SCHEDULE_CHARS)
      throw new ValidationError(`A schedule is cron syntax of 1 to ${MAX_SCHEDULE_CHARS} characters.`, {
        hint: SYNTAX_HINT,
      });
    checkTimezone(timezone);
    let end: Date | undefined;
    if (endTime !== null) {
      end = new Date(endTime);
      if (Number.isNaN(end.getTime()))
        throw new ValidationError(`end_time ${JSON.stringify(endTime.slice(0, 64))} is no date.`, {
          hint: 'Give an ISO 8601 instant, e.g. "2030-01-01T00:00:00Z".',
        });
    }
    let expression: CronExpression;
    try {
      expression = CronExpressionParser.parse(schedule.trim(), { tz: timezone, strict: false });
    } catch (error) {
      throw new ValidationError(`The schedule ${JSON.stringify(schedule)} is not valid: ${(error as Error).message}.`, {
        hint: SYNTAX_HINT,
      });
    }
    const gap = smallestGapSeconds(expression);
    if (gap < minIntervalSeconds)
      throw new ValidationError(
        `The schedule ${JSON.stringify(schedule)} can tick ${gap} s apart; this server runs crons at most every ${minIntervalSeconds} s.`,
        {
          hint: `Schedule at most once every ${minIntervalSeconds} seconds (an operator sets crons.minIntervalSeconds).`,
        },
      );
    return new CronSchedule(schedule.trim(), timezone, end);
  }

  /** The first tick strictly after `after`, or null when there is none before the end time. */
  nextAfter(after: Date): Date | null {
    const expression = CronExpressionParser.parse(this.schedule, { tz: this.timezone, currentDate: after });
    let next: Date;
    try {
      next = expression.next().toDate();
    } catch {
      // No date matches (30 February): the cron never ticks.
      return null;
    }
    return this.endTime && next.getTime() >= this.endTime.getTime() ? null : next;
  }

  /**
   * The latest tick at or before `now` (and at or after `earliest`): what a scheduler runs when it finds the cron due.
   * Ticks missed while no server ran are not run one by one; the latest of them is run once.
   */
  latestDue(earliest: Date, now: Date): Date {
    const expression = CronExpressionParser.parse(this.schedule, {
      tz: this.timezone,
      currentDate: new Date(now.getTime() + 1),
    });
    try {
      const latest = expression.prev().toDate();
      if (latest.getTime() < earliest.getTime()) return earliest;
      // Past the end time (the servers were down when it came): the last tick before it, which is still due.
      return this.endTime && latest.getTime() >= this.endTime.getTime() ? earliest : latest;
    } catch {
      return earliest;
    }
  }
}
