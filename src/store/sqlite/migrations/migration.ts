import type { Database } from 'better-sqlite3';

/** One schema step. `up` runs inside the transaction that records it in `schema_migrations`. */
export interface Migration {
  version: number;
  name: string;
  up: (db: Database) => void;
}
