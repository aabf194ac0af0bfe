import { parseAcl } from '../domain/acl.ts';
import { EmptyAclError, ValidationError } from '../errors/index.ts';

/** The one word that makes documents visible to every principal on purpose. */
export const PUBLIC_ACL = 'public';

/**
 * An ACL as a person writes it: a comma-separated string (`--acl`, an upload's `acl` field, front matter) or a list
 * (YAML, a sidecar's JSON). `public` alone means visible to everyone and gives `[]`; an ACL that names no one
 * (`""`, `","`, `[]`, a YAML null) is an `EmptyAclError`, never public, since it is what an unset variable or a
 * template leaves behind. Entries are checked by `parseAcl` (`user:bob`, `group:legal`).
 */
export function parseAclValue(value: unknown, origin: string): string[] {
  const items =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value)
        ? value
        : value === null || value === undefined
          ? []
          : [value];
  const entries = items.map((item) => (typeof item === 'string' ? item.trim() : item)).filter((item) => item !== '');
  if (entries.length === 0) throw new EmptyAclError(origin);
  const isPublic = (item: unknown) => typeof item === 'string' && item.toLowerCase() === PUBLIC_ACL;
  if (entries.some(isPublic)) {
    if (entries.length > 1) {
      throw new ValidationError(`The ACL in ${origin} combines "${PUBLIC_ACL}" with other entries.`, {
        hint: `Write "${PUBLIC_ACL}" alone to make the documents visible to everyone, or only the entries who may read them.`,
      });
    }
    return [];
  }
  return parseAcl(entries, origin);
}
