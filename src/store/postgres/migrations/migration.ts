/** The names one store's objects live under: its schema, the schema of its ingested tables, and their reader role. */
export interface SchemaNames {
  schema: string;
  tables: string;
  reader: string;
}

/** The names of the store in `schema`. */
export const schemaNames = (schema: string): SchemaNames => ({
  schema,
  tables: `${schema}_tables`,
  reader: `${schema}_reader`,
});

/** One schema step: SQL run (with `search_path` set to the store's schema) in the transaction that records it. */
export interface PostgresMigration {
  version: number;
  name: string;
  up: (names: SchemaNames) => string;
}
