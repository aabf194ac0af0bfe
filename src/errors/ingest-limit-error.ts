import { IngestError } from './ingest-error.ts';
import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.IngestLimitError';
const symbol = Symbol.for(marker);

/** The bound a file went over: its config key, its variable, and the limit in the unit a reader knows. */
export interface IngestLimit {
  /** `ingest.maxExpandedBytes` */
  setting: string;
  /** `EVIDENT_MAX_EXPANDED_BYTES` */
  env: string | undefined;
  /** `256.0 MiB`, `1,000,000 cells` */
  limit: string;
}

/** A file over one of the `ingest.*` bounds (expansion, XML, tables, text, chunks): it fails alone, fast. */
export class IngestLimitError extends IngestError {
  private readonly [symbol] = true;

  /** `subject what` reads as a sentence: `report.docx` + `expands to more than 256.0 MiB`. */
  constructor(subject: string, what: string, bound: IngestLimit) {
    const raise = bound.env ? `${bound.setting} (${bound.env})` : bound.setting;
    super('file_limit_exceeded', `${subject} ${what}, over the ${bound.setting} limit of ${bound.limit}.`, {
      hint: `Split the file, or raise ${raise} if it is genuine.`,
      details: { ...bound },
    });
  }

  static override isInstance(error: unknown): error is IngestLimitError {
    return EvidentError.hasMarker(error, marker);
  }
}
