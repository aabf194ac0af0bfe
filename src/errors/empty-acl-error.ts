import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.EmptyAclError';
const symbol = Symbol.for(marker);

/**
 * An ACL that was given but names no one (`--acl ""` from an unset variable, `acl=,`, `acl: []`). Taking it as
 * "visible to everyone" would publish restricted documents by accident, so it is refused; public is spelled out.
 */
export class EmptyAclError extends EvidentError {
  private readonly [symbol] = true;

  /** `origin` says where the ACL was given: `--acl`, `the "acl" field`, `the front matter of a.md`. */
  constructor(origin: string) {
    super('acl_empty', `The ACL in ${origin} is empty, which would make the documents it covers visible to everyone.`, {
      category: 'user',
      hint: 'Name who may read them (e.g. group:legal,user:bob), or write "public" to make them visible to every user on purpose.',
      details: { origin },
    });
  }

  static override isInstance(error: unknown): error is EmptyAclError {
    return EvidentError.hasMarker(error, marker);
  }
}
