import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.NamespaceForbiddenError';
const symbol = Symbol.for(marker);

/**
 * A write (put, delete, ACL change) in a Store API namespace the caller may not write. It names only the namespace the
 * caller sent and who they are: nothing of the items there, not even whether any exist.
 */
export class NamespaceForbiddenError extends EvidentError {
  private readonly [symbol] = true;

  constructor(namespace: readonly string[], user: string, action = 'write in') {
    const shown = JSON.stringify(namespace.map((label) => (label.length > 64 ? `${label.slice(0, 64)}…` : label)));
    super('namespace_forbidden', `${user} may not ${action} the namespace ${shown}.`, {
      category: 'user',
      hint: 'Write under ["users", "<your user id>", …], or ask the namespace\'s owner to add you to its write ACL.',
    });
  }

  static override isInstance(error: unknown): error is NamespaceForbiddenError {
    return EvidentError.hasMarker(error, marker);
  }
}
