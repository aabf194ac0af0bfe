import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.DirectoryConflictError';
const symbol = Symbol.for(marker);

/** A directory (SCIM) create or rename names a user or group that exists: SCIM's `uniqueness` (409). */
export class DirectoryConflictError extends EvidentError {
  private readonly [symbol] = true;

  constructor(kind: 'user' | 'group', name: string) {
    const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
    super('directory_conflict', `A ${kind} named ${shown} exists.`, {
      category: 'user',
      hint:
        kind === 'user'
          ? 'Find it with filter=userName eq "<name>" and update it by its id.'
          : 'Find it with filter=displayName eq "<name>" and update it by its id, or choose another name.',
    });
  }

  static override isInstance(error: unknown): error is DirectoryConflictError {
    return EvidentError.hasMarker(error, marker);
  }
}
