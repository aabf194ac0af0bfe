import { scimPatch, type ScimPatchOperation, type ScimResource } from 'scim-patch';
import { scimInvalid } from './scim-errors.ts';
import { SCIM_PATCH } from './scim-schemas.ts';

const MAX_PATH_CHARS = 512;
const CORE_URN_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;

const invalid = (
  message: string,
  scimType: 'invalidSyntax' | 'invalidValue' | 'invalidPath' | 'noTarget' = 'invalidSyntax',
) =>
  scimInvalid(
    scimType,
    message,
    'Send {"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"active","value":false}]} as RFC 7644 §3.5.2 writes it.',
  );

/** `"True"`/`"False"`, as Entra ID sends `active`, as booleans; anything else as it came. */
const booleanOf = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : value;
};

/**
 * The operations of a PATCH body (RFC 7644 §3.5.2) that touch what Evident stores (`attributes`, by their canonical
 * names), with the spellings providers send made regular: ops in any case, `active` as a string, paths with the core
 * schema's URN. Operations on attributes Evident does not keep (name, emails, extensions) are dropped: there is
 * nothing to change.
 */
export function patchOperations(
  body: unknown,
  attributes: readonly string[],
  maxOperations: number,
): ScimPatchOperation[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('A PATCH body is a JSON object.');
  const { schemas, Operations } = body as { schemas?: unknown; Operations?: unknown };
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(SCIM_PATCH)))
    throw invalid(`A PATCH body's schemas list ${SCIM_PATCH}.`);
  if (!Array.isArray(Operations) || Operations.length === 0)
    throw invalid('A PATCH body has a non-empty Operations list.');
  if (Operations.length > maxOperations)
    throw scimInvalid(
      'tooMany',
      `A PATCH may carry at most ${maxOperations} operations; ${Operations.length} were sent.`,
      'Send the changes in several PATCH requests, or raise scim.maxOperations.',
    );
  const canonical = new Map(attributes.map((name) => [name.toLowerCase(), name]));
  const kept: ScimPatchOperation[] = [];
  for (const raw of Operations) {
    if (typeof raw !== 'object' || raw === null) throw invalid('Each operation is a JSON object.');
    const { op, path, value } = raw as { op?: unknown; path?: unknown; value?: unknown };
    const verb = typeof op === 'string' ? op.toLowerCase() : undefined;
    if (verb !== 'add' && verb !== 'remove' && verb !== 'replace')
      throw invalid('An operation\'s "op" is "add", "remove" or "replace".');
    if (path !== undefined && (typeof path !== 'string' || path.length === 0 || path.length > MAX_PATH_CHARS))
      throw invalid(`An operation's "path" is a string of 1 to ${MAX_PATH_CHARS} characters.`, 'invalidPath');
    if (path === undefined) {
      if (verb === 'remove') throw invalid('A "remove" operation names a path.', 'noTarget');
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw invalid('An operation without a path has an object value.', 'invalidValue');
      const picked: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const name = canonical.get(key.replace(CORE_URN_PREFIX, '').toLowerCase());
        if (name) picked[name] = name === 'active' ? booleanOf(item) : item;
      }
      if (Object.keys(picked).length > 0) kept.push({ op: verb, value: picked } as ScimPatchOperation);
      continue;
    }
    const bare = path.replace(CORE_URN_PREFIX, '');
    if (/^urn:/i.test(bare)) continue;
    const root = bare.split(/[.[]/, 1)[0]?.toLowerCase() ?? '';
    const name = canonical.get(root);
    if (!name) continue;
    const rest = bare.slice(root.length);
    const normalPath = `${name}${rest}`;
    if (verb === 'remove' && rest === '' && Array.isArray(value)) {
      // Entra ID removes members as a value list: each one, by its value, whatever else its entry says.
      for (const item of value) {
        const member = (item as { value?: unknown } | null)?.value;
        if (typeof member !== 'string' || !/^[^"\\]{1,256}$/.test(member))
          throw invalid('Each value to remove is an object with a "value" (an id).', 'invalidValue');
        kept.push({ op: 'remove', path: `${name}[value eq "${member}"]` });
      }
      continue;
    }
    if (verb === 'remove')
      kept.push(
        (value === undefined
          ? { op: 'remove', path: normalPath }
          : { op: 'remove', path: normalPath, value }) as ScimPatchOperation,
      );
    else kept.push({ op: verb, path: normalPath, value: name === 'active' && rest === '' ? booleanOf(value) : value });
  }
  return kept;
}

/** The resource with the operations applied, or a SCIM error naming what was wrong. */
export function appliedPatch<T extends object>(resource: T, operations: ScimPatchOperation[]): T {
  if (operations.length === 0) return resource;
  try {
    const patched = scimPatch(structuredClone(resource) as unknown as ScimResource, operations, {
      mutateDocument: true,
      treatMissingAsAdd: true,
    });
    return patched as unknown as T;
  } catch (error) {
    const scimType = (error as { scimType?: unknown }).scimType;
    throw invalid(
      `The PATCH could not be applied: ${error instanceof Error ? error.message.slice(0, 200) : 'invalid operation'}.`,
      scimType === 'noTarget' || scimType === 'invalidPath' || scimType === 'invalidValue' ? scimType : 'invalidValue',
    );
  }
}
