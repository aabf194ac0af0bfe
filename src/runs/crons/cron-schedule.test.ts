import { describe, expect, it } from 'vitest';
import { isEvidentError } from '../../errors/index.ts';
import { CronSchedule } from './cron-schedule.ts';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return isEvidentError(error) ? `${error.code}: ${error.message}` : `other: ${String(error)}`;
  }
  return 'accepted';
};

describe('cron schedules', () => {
  it('ticks in its time zone, and not at or after its end time', () => {
    const paris = CronSchedule.parse('0 9 * * *', 'Europe/Paris', null, 60);
    // 09:00 in Paris in winter is 08:00 UTC.
    expect(paris.nextAfter(new Date('2030-01-10T07:00:00Z'))?.toISOString()).toBe('2030-01-10T08:00:00.000Z');
    const utc = CronSchedule.parse('0 9 * * *', 'UTC', '2030-01-11T09:00:00Z', 60);
    expect(utc.nextAfter(new Date('2030-01-10T10:00:00Z'))).toBeNull();
    expect(utc.nextAfter(new Date('2030-01-10T08:00:00Z'))?.toISOString()).toBe('2030-01-10T09:00:00.000Z');
  });

  it('runs the latest missed tick once, not every missed one', () => {
    const hourly = CronSchedule.parse('0 * * * *', 'UTC', null, 60);
    const earliest = new Date('2030-01-10T01:00:00Z');
    expect(hourly.latestDue(earliest, new Date('2030-01-10T05:30:00Z')).toISOString()).toBe('2030-01-10T05:00:00.000Z');
    expect(hourly.latestDue(earliest, new Date('2030-01-10T01:00:00Z')).toISOString()).toBe('2030-01-10T01:00:00.000Z');
    // Past its end time, the last tick before the end is the one still due.
    const ending = CronSchedule.parse('0 * * * *', 'UTC', '2030-01-10T03:30:00Z', 60);
    expect(ending.latestDue(earliest, new Date('2030-01-10T05:30:00Z')).toISOString()).toBe(earliest.toISOString());
  });

  it('refuses schedules that tick more often than the configured minimum', () => {
    expect(refusal(() => CronSchedule.parse('* * * * * *', 'UTC', null, 60))).toMatch(/^invalid_input: .*1 s apart/);
    expect(refusal(() => CronSchedule.parse('*/30 * * * * *', 'UTC', null, 60))).toMatch(/30 s apart/);
    // Two seconds of one minute, 59 s apart going forward, 1 s apart across the minute's end.
    expect(refusal(() => CronSchedule.parse('0,59 * * * * *', 'UTC', null, 60))).toMatch(/1 s apart/);
    expect(refusal(() => CronSchedule.parse('0,1 0 * * *', 'UTC', null, 120))).toMatch(/60 s apart/);
    expect(refusal(() => CronSchedule.parse('* * * * *', 'UTC', null, 60))).toBe('accepted');
    expect(refusal(() => CronSchedule.parse('0 0 * * *', 'UTC', null, 3600))).toBe('accepted');
    expect(refusal(() => CronSchedule.parse('* * * * * *', 'UTC', null, 1))).toBe('accepted');
  });

  it('refuses what is no schedule, no time zone or no end time, with a hint', () => {
    expect(refusal(() => CronSchedule.parse('every monday', 'UTC', null, 60))).toMatch(/^invalid_input: The schedule/);
    expect(refusal(() => CronSchedule.parse('', 'UTC', null, 60))).toMatch(/^invalid_input/);
    expect(refusal(() => CronSchedule.parse(`${'1,'.repeat(200)}1 * * * *`, 'UTC', null, 60))).toMatch(
      /^invalid_input/,
    );
    expect(refusal(() => CronSchedule.parse('0 9 * * *', 'Mars/Olympus', null, 60))).toMatch(/no time zone/);
    expect(refusal(() => CronSchedule.parse('0 9 * * *', 'UTC; DROP', null, 60))).toMatch(/no time zone/);
    expect(refusal(() => CronSchedule.parse('0 9 * * *', 'UTC', 'tomorrow', 60))).toMatch(/no date/);
    // 30 February never comes: valid syntax may still mean no tick at all.
    expect(refusal(() => CronSchedule.parse('0 0 31 2 *', 'UTC', null, 60))).toMatch(/^invalid_input/);
  });
});
