import type { LoadedDocument } from '../../domain/index.ts';

/** Turns the bytes of one file type into reading-order blocks. `path` is used for messages and titles only. */
export interface Loader {
  readonly type: string;
  load(bytes: Buffer, path: string): Promise<LoadedDocument>;
}
