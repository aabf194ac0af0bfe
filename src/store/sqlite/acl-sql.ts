/**
 * The documents a principal may see, as a self-contained subquery over `@keys` (a JSON array of ACL entries):
 * public documents (no ACL rows) and documents with an entry among the keys. It is uncorrelated, so SQLite
 * evaluates it once per statement, and every content query applies it before ranking, counting or limiting.
 */
export const VISIBLE_DOC_PKS = `(
  SELECT d.pk FROM documents d
  WHERE NOT EXISTS (SELECT 1 FROM document_acl a WHERE a.doc_pk = d.pk)
     OR d.pk IN (SELECT a.doc_pk FROM document_acl a WHERE a.entry IN (SELECT value FROM json_each(@keys)))
)`;

/**
 * `AND <docPkColumn> IN (visible documents)` for a principal's ACL keys, or nothing for an admin (`keys`
 * undefined). Statements are prepared per variant, so the admin path carries no filter at all.
 */
export const aclCondition = (docPkColumn: string, keys: readonly string[] | undefined): string =>
  keys === undefined ? '' : ` AND ${docPkColumn} IN ${VISIBLE_DOC_PKS}`;
