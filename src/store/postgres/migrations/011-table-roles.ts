import type { PostgresMigration } from './migration.ts';

/**
 * A role per ingested table that may read that table alone, and a role that may look up the tables' schema: a
 * member's table query runs as a role of its own, member of the roles of the tables it may read (table-roles.ts), so
 * the server enforces the ACL whatever the statement runs. Roles for the tables ingested before this step.
 */
export const tableRoles: PostgresMigration = {
  version: 11,
  name: 'table-roles',
  up: ({ schema, tables }) => `
    DO $$ BEGIN
      CREATE ROLE "${schema}_usage" NOLOGIN;
    EXCEPTION WHEN duplicate_object THEN NULL;
    END $$;
    GRANT USAGE ON SCHEMA "${tables}" TO "${schema}_usage";
    DO $$
    DECLARE
      t record;
      r text;
    BEGIN
      FOR t IN SELECT sql_name FROM doc_tables LOOP
        r := '${schema}_t_' || left(md5(t.sql_name), 16);
        BEGIN
          EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        EXCEPTION WHEN duplicate_object THEN NULL;
        END;
        EXECUTE format('GRANT SELECT ON %I.%I TO %I', '${tables}', t.sql_name, r);
      END LOOP;
    END $$;
  `,
};
