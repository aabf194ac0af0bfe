import type { PostgresMigration } from './migration.ts';

/**
 * Where the primary's WAL stood after the last change of who may read what (a document version, an ACL, a deletion),
 * by any process: a standby serves a read of documents only once it has replayed it (read-replicas.ts).
 */
export const aclEpoch: PostgresMigration = {
  version: 13,
  name: 'acl-epoch',
  up: () => `
    CREATE TABLE acl_epoch (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      position pg_lsn NOT NULL DEFAULT pg_current_wal_insert_lsn()
    );
    INSERT INTO acl_epoch DEFAULT VALUES;
  `,
};
