import pg from 'pg';
import { openPostgresStore } from '../store/postgres/store.ts';
import { dropSchemas, freshSchema } from './postgres-test-database.ts';

/**
 * Empty PostgreSQL stores for a test file without migrating a new schema for every test. A template schema is
 * migrated once, by `openPostgresStore` itself (so it holds whatever `POSTGRES_MIGRATIONS` lists, with the rows its
 * steps insert); a schema whose store a test has closed is then reset to equal it before the next test takes it:
 *
 * - tables, views and sequences the template lacks are dropped (`chunk_vectors`, made at the first embedder's write;
 *   the checkpointer's tables), and so is every ingested table with its role (and any query role left behind);
 * - what is left must be, object for object, the template: relations, columns with types and defaults, constraints,
 *   indexes, triggers, functions, types and privileges, compared with the schema names masked. A schema that differs
 *   is dropped and a new one migrated instead;
 * - every table that holds rows, and every table the template has rows in, is truncated (a new, empty file, as a
 *   fresh schema has: no dead tuples that an approximate index scan or a scan order could see), the template's rows
 *   are copied in, and every sequence is set to where the template's stands. A value a step took from the moment it
 *   ran is the template's: `acl_epoch`'s WAL position is older than a new schema's would be, which changes nothing a
 *   test sees, since a store reads the primary's position when it opens (read-replicas.ts) and that is later still.
 *
 * All in one transaction, with triggers off (`session_replication_role = replica`, so the audit log's append-only
 * trigger lets the reset through), which needs a superuser: without one, or when anything fails, each test gets a
 * freshly migrated schema as before. Tests of migrations and upgrades migrate their own schemas and do not use this.
 */
export class PostgresSchemaPool {
  private template: Promise<Template | undefined> | undefined;
  private readonly idle: string[] = [];
  private readonly created = new Set<string>();
  private connection: Promise<pg.Client> | undefined;

  constructor(
    private readonly url: string,
    private readonly prefix = 'evident_test',
  ) {}

  /** A schema holding an empty store at the latest migration, handed to no one else until it is released. */
  async take(): Promise<string> {
    const template = await this.templateOnce();
    const reused = this.idle.pop();
    if (template && reused !== undefined && (await this.reset(reused, template))) return reused;
    return this.migrated();
  }

  /** Gives back a schema whose store (and everything else using it) is closed, for a later `take`. */
  release(schema: string): void {
    if (this.created.has(schema) && !this.idle.includes(schema)) this.idle.push(schema);
  }

  /** Drops every schema this pool made, the template's too, with their ingested tables and roles. */
  async drop(): Promise<void> {
    await this.template?.catch(() => undefined);
    await (await this.connection?.catch(() => undefined))?.end();
    this.connection = undefined;
    await dropSchemas(this.url, this.created);
    this.created.clear();
    this.idle.length = 0;
  }

  private async migrated(): Promise<string> {
    const schema = freshSchema(this.prefix);
    this.created.add(schema);
    await (await openPostgresStore(this.url, { schema })).close();
    return schema;
  }

  private templateOnce(): Promise<Template | undefined> {
    this.template ??= this.readTemplate();
    return this.template;
  }

  private async readTemplate(): Promise<Template | undefined> {
    const schema = freshSchema(`${this.prefix}_template`);
    this.created.add(schema);
    await (await openPostgresStore(this.url, { schema })).close();
    const client = await this.client();
    const superuser = await client.query<{ on: string }>("SELECT current_setting('is_superuser') AS on");
    if (superuser.rows[0]?.on !== 'on') return undefined;
    const relations = await client.query<Relation>(relationsOf(schema));
    const seeded: Template['seeded'] = [];
    for (const { name, kind } of relations.rows) {
      if (kind !== 'r' || (await client.query(`SELECT 1 FROM ${qualified(schema, name)} LIMIT 1`)).rowCount === 0) {
        continue;
      }
      const columns = await client.query<{ name: string }>(INSERTABLE_COLUMNS, [schema, name]);
      seeded.push({ table: name, columns: columns.rows.map((column) => quote(column.name)).join(', ') });
    }
    const sequences = await client.query<Template['sequences'][number]>(SEQUENCES, [schema]);
    const fingerprint = await client.query<{ fingerprint: string }>(fingerprintQuery(schema));
    return {
      schema,
      relations: new Set(relations.rows.map((relation) => relation.name)),
      seeded,
      sequences: sequences.rows,
      fingerprint: fingerprint.rows[0]?.fingerprint ?? '',
    };
  }

  /** Makes `schema` equal the template (see above); false when it cannot, and the caller migrates a new one. */
  private async reset(schema: string, template: Template): Promise<boolean> {
    const client = await this.client();
    const tablesSchema = `${schema}_tables`;
    try {
      // One round trip each: what is there; drop what the template lacks and compare; empty, seed, commit.
      const [, , , relations, ingested, roles] = (await client.query(
        `BEGIN; SET LOCAL session_replication_role = replica; SET LOCAL synchronous_commit = off;
         ${relationsOf(schema)}; ${relationsOf(tablesSchema)};
         SELECT rolname AS name FROM pg_roles
         WHERE starts_with(rolname, ${literal(`${schema}_t_`)}) OR starts_with(rolname, ${literal(`${schema}_q_`)})`,
      )) as unknown as [unknown, unknown, unknown, Rows<Relation>, Rows<Relation>, Rows<{ name: string }>];
      const drops = [
        ...relations.rows
          .filter((relation) => !template.relations.has(relation.name))
          .map((relation) => dropStatement(schema, relation)),
        ...ingested.rows.map((relation) => dropStatement(tablesSchema, relation)),
        ...roles.rows.map((role) => `DROP ROLE ${quote(role.name)}`),
      ];
      const tables = relations.rows.filter(
        (relation) => relation.kind === 'r' && template.relations.has(relation.name),
      );
      const seeded = new Map(template.seeded.map((seed) => [seed.table, seed]));
      const changed = tables.map(({ name }) =>
        seeded.has(name)
          ? `SELECT ${literal(name)} AS name WHERE (SELECT string_agg(t::text, E'\\n' ORDER BY t::text) FROM ${qualified(schema, name)} t)
               IS DISTINCT FROM (SELECT string_agg(t::text, E'\\n' ORDER BY t::text) FROM ${qualified(template.schema, name)} t)`
          : `SELECT ${literal(name)} AS name WHERE EXISTS (SELECT 1 FROM ${qualified(schema, name)})`,
      );
      const results = (await client.query(
        [...drops, fingerprintQuery(schema), changed.join(' UNION ALL ')].join(';\n'),
      )) as unknown as Rows<{ fingerprint?: string; name?: string }>[];
      const found = results.at(-2)?.rows[0]?.fingerprint;
      const emptied = (results.at(-1)?.rows ?? []).map((row) => qualified(schema, row.name as string));
      if (found !== template.fingerprint) throw new Error(`${schema} is not made as the template is`);
      // A seeded table is refilled when it is empty: truncated here, or by the cascade of a table it references.
      const refill = template.seeded.map(
        ({ table, columns }) =>
          `INSERT INTO ${qualified(schema, table)} (${columns}) OVERRIDING SYSTEM VALUE
           SELECT ${columns} FROM ${qualified(template.schema, table)}
           WHERE NOT EXISTS (SELECT 1 FROM ${qualified(schema, table)})`,
      );
      const sequences = template.sequences.map(
        ({ name, value, called }) => `setval(${literal(qualified(schema, name))}::regclass, ${value}, ${called})`,
      );
      await client.query(
        [
          ...(emptied.length > 0 ? [`TRUNCATE ${emptied.join(', ')} CASCADE`] : []),
          ...refill,
          ...(sequences.length > 0 ? [`SELECT ${sequences.join(', ')}`] : []),
          'COMMIT',
        ].join(';\n'),
      );
      return true;
    } catch {
      await client.query('ROLLBACK').catch(() => undefined);
      return false;
    }
  }

  /** The pool's own connection (one at a time: a test file takes one store at a time). */
  private client(): Promise<pg.Client> {
    this.connection ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      await client.connect();
      return client;
    })();
    return this.connection;
  }
}

interface Template {
  schema: string;
  /** The names of its tables, views and sequences. */
  relations: Set<string>;
  /** The tables its migrations put rows in, with the columns an insert may write. */
  seeded: { table: string; columns: string }[];
  /** Where each of its sequences stands (`setval` arguments). */
  sequences: { name: string; value: string; called: boolean }[];
  fingerprint: string;
}

type Rows<T> = { rows: T[] };
interface Relation {
  name: string;
  kind: string;
}

const DROP_KIND: Record<string, string> = {
  r: 'TABLE',
  p: 'TABLE',
  v: 'VIEW',
  m: 'MATERIALIZED VIEW',
  S: 'SEQUENCE',
  f: 'FOREIGN TABLE',
};

const dropStatement = (schema: string, { name, kind }: Relation): string =>
  `DROP ${DROP_KIND[kind] ?? 'TABLE'} IF EXISTS ${qualified(schema, name)} CASCADE`;

/** A schema's tables, views and sequences (not those a column owns: they go with their table). */
const relationsOf = (schema: string): string => `
  SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = ${literal(schema)} AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
    AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                    AND d.deptype IN ('a', 'i') AND d.refobjsubid > 0)`;

const INSERTABLE_COLUMNS = `
  SELECT a.attname AS name FROM pg_attribute a
  WHERE a.attrelid = format('%I.%I', $1::text, $2::text)::regclass AND a.attnum > 0 AND NOT a.attisdropped
    AND a.attgenerated = '' ORDER BY a.attnum`;

const SEQUENCES = `
  SELECT sequencename AS name, coalesce(last_value, start_value)::text AS value, last_value IS NOT NULL AS called
  FROM pg_sequences WHERE schemaname = $1`;

/**
 * Every object of a store's schema and of its ingested tables' schema, with the schema names masked: relations with
 * their privileges, columns (type, nullability, default, identity, generation), constraints, indexes, triggers (the
 * foreign keys' own, named by oid, are the constraints), functions and types.
 */
const fingerprintQuery = (schema: string): string =>
  `WITH ns AS (
       SELECT oid, CASE WHEN nspname = ${literal(schema)} THEN 'store' ELSE 'tables' END AS part FROM pg_namespace
       WHERE nspname IN (${literal(schema)}, ${literal(`${schema}_tables`)})
     ), items AS (
       SELECT ns.part || ' relation ' || c.relname || ' ' || c.relkind::text || ' ' || coalesce(c.relacl::text, '') AS item
       FROM pg_class c JOIN ns ON ns.oid = c.relnamespace
       UNION ALL
       SELECT ns.part || ' column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
              || ' ' || a.attnotnull || ' ' || a.attidentity::text || ' ' || a.attgenerated::text || ' '
              || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN ns ON ns.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attnum > 0 AND NOT a.attisdropped
       UNION ALL
       SELECT ns.part || ' constraint ' || co.conname || ' ' || pg_get_constraintdef(co.oid)
       FROM pg_constraint co JOIN ns ON ns.oid = co.connamespace
       UNION ALL
       SELECT ns.part || ' index ' || pg_get_indexdef(i.indexrelid)
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN ns ON ns.oid = c.relnamespace
       UNION ALL
       SELECT ns.part || ' trigger ' || pg_get_triggerdef(t.oid)
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN ns ON ns.oid = c.relnamespace
       WHERE NOT t.tgisinternal
       UNION ALL
       SELECT ns.part || ' function ' || p.proname || ' ' || md5(replace(coalesce(p.prosrc, ''), ${literal(schema)}, '<schema>'))
       FROM pg_proc p JOIN ns ON ns.oid = p.pronamespace
       UNION ALL
       SELECT ns.part || ' type ' || t.typname || ' ' || t.typtype::text
       FROM pg_type t JOIN ns ON ns.oid = t.typnamespace
     )
     SELECT md5(coalesce(string_agg(replace(item, ${literal(schema)}, '<schema>'), E'\n' ORDER BY replace(item, ${literal(schema)}, '<schema>')), ''))
       AS fingerprint
     FROM items`;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const qualified = (schema: string, name: string): string => `${quote(schema)}.${quote(name)}`;
const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;
