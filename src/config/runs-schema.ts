import { z } from 'zod';

/**
 * Crash-safe runs (ARCHITECTURE §6): the process executing a run renews its lease every `heartbeatMs`; a run whose
 * lease went `leaseMs` without renewal is orphaned (its process died): its thread is free, and a server on the store
 * resumes it from its last checkpoint (or ends it failed). Every run manager looks for orphans at start-up and every
 * `heartbeatMs`. The lease is a small multiple of the heartbeat, so one late heartbeat (a busy event loop, a slow
 * store) does not lose a run. `maxConcurrent` and `maxConcurrentPerUser` bound how many runs a process executes at
 * once, so one user or a burst cannot take every step of the one event loop.
 */
export const runsSchema = z
  .object({
    heartbeatMs: z
      .number()
      .int()
      .min(50)
      .max(600_000)
      .default(5_000)
      .describe('How often the process executing a run renews its lease, and looks for orphaned runs.'),
    leaseMs: z
      .number()
      .int()
      .min(150)
      .max(3_600_000)
      .default(20_000)
      .describe(
        'A run whose lease went this long unrenewed is orphaned: it is resumed from its last checkpoint or ended as failed. At least 3 × `heartbeatMs`.',
      ),
    maxConcurrent: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(64)
      .describe('Runs one process executes at once; one more is refused with 429 (`too_many_runs`) and Retry-After.'),
    maxConcurrentPerUser: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(16)
      .describe("Runs of one user (a thread's owner) one process executes at once."),
    detailStreamMaxBytes: z
      .number()
      .int()
      .min(4_096)
      .max(1_073_741_824)
      .default(8 * 1024 * 1024)
      .describe(
        'Bytes of JSON one run execution may store of the detail stream modes (`events`, `debug`, `checkpoints`, `tasks`, `tools`, recorded only when the run was created asking for them); past it each mode ends with a `truncated` notice and the rest of it is not recorded.',
      ),
  })
  .prefault({})
  .refine((runs) => runs.leaseMs >= 3 * runs.heartbeatMs, {
    message: 'runs.leaseMs must be at least 3 × runs.heartbeatMs',
  });
export type RunsConfig = z.infer<typeof runsSchema>;
