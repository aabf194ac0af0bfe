import { ValidationError } from '../errors/index.ts';

const ACL_ENTRY = /^(user|group):[^\s,:]+$/;

/** Validates and normalises ACL entries (`user:bob`, `group:legal`); duplicates are dropped, order kept. */
export function parseAcl(entries: readonly unknown[], origin: string): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    const value = typeof entry === 'string' ? entry.trim() : entry;
    if (typeof value !== 'string' || !ACL_ENTRY.test(value)) {
      throw new ValidationError(`Invalid ACL entry ${JSON.stringify(entry)} in ${origin}.`, {
        hint: 'Use entries like "group:legal" or "user:bob".',
      });
    }
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

/** `group:legal,user:bob` → entries. */
export const parseAclList = (list: string, origin: string): string[] =>
  parseAcl(
    list
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
    origin,
  );
