import { createHash } from 'node:crypto';
import type { AuditConfig } from '../config/audit-schema.ts';
import type { AuditEntryWrite } from '../store/store.ts';

/** A question or query as the audit log keeps it: verbatim, or its SHA-256 (hex of the UTF-8 text), by config. */
export function questionFields(
  question: string,
  mode: AuditConfig['questions'],
): Pick<AuditEntryWrite, 'question' | 'questionSha256'> {
  return mode === 'text' ? { question } : { questionSha256: questionSha256(question) };
}

/** What an admin computes to find a question in a hashed log (`evident audit --question "…"` does it for them). */
export const questionSha256 = (question: string): string => createHash('sha256').update(question, 'utf8').digest('hex');
