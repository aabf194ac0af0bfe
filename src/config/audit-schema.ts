import { z } from 'zod';

/**
 * The audit log (`src/audit/`). `questions` says how a question or search query is recorded: `hash` (the default)
 * keeps only its SHA-256 — the log is append-only and cannot be purged, and questions carry personal and
 * confidential text, so by default the log proves who asked which question (an admin can hash a question to find it)
 * without becoming a second copy of everything asked; `text` keeps it verbatim, for deployments that must read it.
 */
export const auditSchema = z
  .object({
    questions: z
      .enum(['hash', 'text'])
      .default('hash')
      .describe(
        'How a question or search query is recorded: `hash` keeps only its SHA-256 (the log cannot be purged), `text` keeps it verbatim.',
      ),
  })
  .prefault({});
export type AuditConfig = z.infer<typeof auditSchema>;
