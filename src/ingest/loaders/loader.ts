import type { LoadedDocument } from '../../domain/index.ts';
import type { IngestLimits } from '../limits.ts';

/**
 * Turns the bytes of one file type into reading-order blocks. `path` is used for messages and titles only; `limits`
 * (the `ingest.*` bounds, their defaults when omitted) are checked before and while the work they bound is done.
 * Every failure is an `IngestError`: a file a loader cannot read never escapes as an untyped error.
 */
export interface Loader {
  readonly type: string;
  load(bytes: Buffer, path: string, limits?: IngestLimits): Promise<LoadedDocument>;
}
