import { z } from 'zod';

/**
 * Scheduled runs (crons): every `evident serve` process runs a scheduler that looks for due crons every `pollMs` and
 * claims each tick in the store, so a tick runs once whatever the number of servers. The bounds keep one user from
 * filling the store or the run engine with schedules.
 */
export const cronsSchema = z
  .object({
    scheduler: z
      .boolean()
      .default(true)
      .describe(
        'Run the cron scheduler in this server process; off, the process serves the cron routes but starts no ticks.',
      ),
    pollMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(1_000)
      .describe('How often the scheduler looks for due crons.'),
    minIntervalSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .default(60)
      .describe(
        'The shortest time between two ticks a schedule may have; a schedule that could tick more often (e.g. every second) is refused.',
      ),
    maxPerUser: z.number().int().min(1).max(10_000).default(20).describe('Crons one user may have.'),
    maxPayloadBytes: z
      .number()
      .int()
      .min(256)
      .max(1_048_576)
      .default(16_384)
      .describe("Bytes of one cron's run payload (input, config, metadata…) as JSON."),
    historyLimit: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(500)
      .describe("Ticks kept in each cron's history (the oldest are deleted)."),
    groups: z
      .array(z.string().min(1).max(128))
      .max(64)
      .default([])
      .describe(
        'Only members of these groups (and admins) may create crons, and a cron ticks only while its creator still is one; empty: every user.',
      ),
  })
  .prefault({});
export type CronsConfig = z.infer<typeof cronsSchema>;
