import { envNameOf } from '../config/env-vars.ts';
import { INGEST_DEFAULTS, type IngestConfig } from '../config/ingest-schema.ts';
import { IngestLimitError } from '../errors/index.ts';

/** The `ingest.*` bounds a loader and the ingestor work within (the config section as it is). */
export type IngestLimits = IngestConfig;

export { INGEST_DEFAULTS };

const UNITS: Partial<Record<keyof IngestLimits, string>> = {
  maxArchiveEntries: 'entries',
  maxXmlElements: 'elements',
  maxNestingDepth: 'levels',
  maxTableCells: 'cells',
  maxTableColumns: 'columns',
  maxDocumentChars: 'characters',
  maxDocumentChunks: 'chunks',
  maxDocumentSeconds: 's',
};

export const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} B`;

/** A bound's value as a reader knows it: `256.0 MiB`, `1,000,000 cells`. */
export function formatLimit(key: keyof IngestLimits, value: number): string {
  return key.endsWith('Bytes') ? formatBytes(value) : `${value.toLocaleString('en-US')} ${UNITS[key] ?? ''}`.trim();
}

/** The `ingest.*` keys that bound a file (the others say how ingestion runs: workers, batches). */
export type IngestLimitKey = { [K in keyof IngestLimits]-?: K extends `max${string}` ? K : never }[keyof IngestLimits];

/** The typed error for `subject` (a file name) going over `ingest.<key>`; `what` says by how much, as a verb phrase. */
export function limitExceeded(
  key: IngestLimitKey,
  subject: string,
  what: string,
  limits: IngestLimits,
): IngestLimitError {
  return new IngestLimitError(subject, what, {
    setting: `ingest.${key}`,
    env: envNameOf(['ingest', key]),
    limit: formatLimit(key, limits[key]),
  });
}
