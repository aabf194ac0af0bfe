import type { PostgresMigration } from './migration.ts';

/**
 * Each audit entry's chain value: the SHA-256 of the previous entry's value and of its own fields (audit-rules.ts), so
 * an entry changed or removed by a connection that dropped the trigger breaks the chain (`evident audit verify`).
 * Entries written before this step have none; the chain starts with the first one written after it.
 */
export const auditChain: PostgresMigration = {
  version: 12,
  name: 'audit-chain',
  up: () => `ALTER TABLE audit_log ADD COLUMN chain text;`,
};
