/**
 * The principal filter as a SQL condition on a document alias: public documents (no ACL entries) and documents
 * with an entry among the principal's keys (GIN on `documents.acl`). Always true for an admin (`keys` undefined).
 * `param` is the number of the bind parameter the keys take.
 */
export function aclFilter(
  documentAlias: string,
  keys: readonly string[] | undefined,
  param: number,
): { sql: string; params: unknown[] } {
  if (keys === undefined) return { sql: 'true', params: [] };
  return {
    sql: `(${documentAlias}.acl = '{}' OR ${documentAlias}.acl && $${param}::text[])`,
    params: [[...keys]],
  };
}
