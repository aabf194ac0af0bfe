import { checkIdentifier, escapeUnsafe, UNSAFE_ID_CHAR } from '../domain/identifier.ts';
import { isAdmin, principalAclKeys, type Principal } from '../domain/principal.ts';
import { parseAcl } from '../domain/acl.ts';
import { ValidationError } from '../errors/index.ts';
import type { ItemSearch, ItemWrite, NamespaceListing } from './ports/memory-store.ts';

/**
 * The Store API's rules, written once above the backends: namespace conventions, bounds, the search index's text, the
 * value filter and the namespace listing. Both adapters apply them the same way.
 *
 * Namespaces:
 * - `["users", <user id>, …]` is that user's own namespace: they alone read and write it (admins included: no one
 *   else). The agents' memories are items of `["users", <user>, "memories"]`.
 * - Every other namespace is shared: its first label (the root) carries an ACL (owner, readers, writers), created
 *   by the first write under it (the writer owns it, nobody else may read it until the owner says so) and changed
 *   by its owner or an admin.
 */

/** The first label of every user's own namespace. */
export const USERS_ROOT = 'users';
/** The label the agents save memories under, inside the user's own namespace. */
export const MEMORIES_LABEL = 'memories';

export const MAX_NAMESPACE_DEPTH = 10;
export const MAX_LABEL_CHARS = 256;
/** A value as stored (JSON text, UTF-8 bytes). */
export const MAX_ITEM_VALUE_BYTES = 65_536;
/** Levels of objects and arrays in a value. */
export const MAX_ITEM_VALUE_DEPTH = 32;
/** Characters of a value's searchable text (what the keyword and vector channels see); the rest is not indexed. */
export const MAX_INDEXED_TEXT_CHARS = 8_000;
export const MAX_INDEX_FIELDS = 32;
export const MAX_SEARCH_LIMIT = 100;
export const MAX_SEARCH_OFFSET = 10_000;
export const MAX_FILTER_FIELDS = 32;
export const MAX_NAMESPACES_LIMIT = 1_000;
/**
 * Items a ranked or filtered search considers: the most recently updated this many under the prefix the caller may
 * read (relevance and the filter are computed on them, the same on every backend).
 */
export const MAX_SEARCH_CANDIDATES = 5_000;
/** Distinct namespaces a listing considers before its suffix, depth and page apply. */
export const MAX_LISTED_NAMESPACES = 10_000;
/** Ten years. */
export const MAX_TTL_MINUTES = 5_256_000;
export const MAX_ACL_ENTRIES = 256;

/** Joins a namespace's labels in the store; labels hold no control characters, so it cannot occur in one. */
export const LABEL_SEPARATOR = '\u001f';

export const joinNamespace = (namespace: readonly string[]): string => namespace.join(LABEL_SEPARATOR);
export const splitNamespace = (joined: string): string[] => joined.split(LABEL_SEPARATOR);

const shown = (text: string) => JSON.stringify(escapeUnsafe(text.length > 64 ? `${text.slice(0, 64)}…` : text));

/**
 * The user id of a user's own namespace (`["users", <id>, …]`) may hold a `.`, as user names may; every other label
 * may not (the SDK joins labels with `.` in a get, where `users.<your id>.…` is read as yours: see the store routes).
 */
const isUserLabel = (labels: readonly unknown[], i: number): boolean => i === 1 && labels[0] === USERS_ROOT;

/** Refuses a label that is empty, too long, holds a `.` (the SDK joins labels with it) or an unsafe character. */
function checkLabel(label: unknown, what: string, wildcard: boolean, userId = false): void {
  if (typeof label !== 'string' || label.length === 0)
    throw new ValidationError(`${what} has an empty label.`, { hint: 'Every namespace label is a non-empty string.' });
  if (label.length > MAX_LABEL_CHARS)
    throw new ValidationError(`${what} has a label of ${label.length} characters; the limit is ${MAX_LABEL_CHARS}.`, {
      hint: 'Use shorter labels.',
    });
  if (label.includes('.') && !userId)
    throw new ValidationError(`${what} has the label ${shown(label)}, which holds a period.`, {
      hint: 'Namespace labels cannot contain periods: the client joins them with one.',
    });
  if (UNSAFE_ID_CHAR.test(label))
    throw new ValidationError(
      `${what} has the label ${shown(label)}, which holds a control or bidirectional character.`,
      {
        hint: 'Use printable characters only.',
      },
    );
  if (!wildcard && label === '*')
    throw new ValidationError(`${what} uses "*", which only a prefix or suffix may use.`, { hint: 'Name the label.' });
}

/** A namespace an item is put in, read from or deleted from: 1..MAX_NAMESPACE_DEPTH valid labels. */
export function checkNamespace(namespace: readonly unknown[], what = 'The namespace'): asserts namespace is string[] {
  if (!Array.isArray(namespace) || namespace.length === 0)
    throw new ValidationError(`${what} is empty.`, { hint: 'Give at least one label, e.g. ["users", "<you>"].' });
  if (namespace.length > MAX_NAMESPACE_DEPTH)
    throw new ValidationError(`${what} has ${namespace.length} labels; the limit is ${MAX_NAMESPACE_DEPTH}.`, {
      hint: 'Use a shallower namespace.',
    });
  namespace.forEach((label, i) => checkLabel(label, what, false, isUserLabel(namespace, i)));
  if (namespace[0] === USERS_ROOT && namespace.length < 2)
    throw new ValidationError(`${what} ["users"] names no user.`, { hint: 'Use ["users", "<your user id>", …].' });
}

/** A prefix or suffix of a search or a listing: 0..MAX_NAMESPACE_DEPTH labels, `*` matching any one label. */
export function checkNamespacePattern(pattern: readonly unknown[], what: string): asserts pattern is string[] {
  if (!Array.isArray(pattern))
    throw new ValidationError(`${what} is not a list of labels.`, { hint: 'Send a list of strings.' });
  if (pattern.length > MAX_NAMESPACE_DEPTH)
    throw new ValidationError(`${what} has ${pattern.length} labels; the limit is ${MAX_NAMESPACE_DEPTH}.`, {
      hint: 'Use a shorter prefix or suffix.',
    });
  pattern.forEach((label, i) => checkLabel(label, what, true, isUserLabel(pattern, i)));
}

/** Where permissions attach: a user's own namespace, or a shared namespace's root. */
export type Space = { kind: 'personal'; user: string; id: string } | { kind: 'shared'; root: string; id: string };

/** The permission unit of a (valid) namespace. Ids never collide: a personal one holds the separator, a root cannot. */
export function spaceOf(namespace: readonly string[]): Space {
  const [root, user] = namespace as [string, string | undefined];
  if (root === USERS_ROOT && user !== undefined)
    return { kind: 'personal', user, id: joinNamespace([USERS_ROOT, user]) };
  return { kind: 'shared', root, id: root };
}

export const personalSpaceId = (user: string): string => joinNamespace([USERS_ROOT, user]);

/** The namespace an agent saves a user's memories in. */
export const memoriesNamespace = (user: string): string[] => [USERS_ROOT, user, MEMORIES_LABEL];

/** Who asks, as the item queries filter by it: their own space, their ACL keys (undefined for an admin), their id. */
export interface ItemAccess {
  user: string;
  personal: string;
  /** ACL entries the principal matches; undefined for an admin, who reads and writes every shared namespace. */
  keys: string[] | undefined;
}

export const itemAccessOf = (principal: Principal): ItemAccess => ({
  user: principal.id,
  personal: personalSpaceId(principal.id),
  keys: isAdmin(principal) ? undefined : (principalAclKeys(principal) ?? []),
});

/** A shared root is created by its first writer: refuse the reserved one. */
export function checkSharedRoot(root: unknown): asserts root is string {
  checkLabel(root, 'The namespace', false);
  if (root === USERS_ROOT)
    throw new ValidationError('"users" holds each user\'s own namespace and has no ACL.', {
      hint: 'Choose another first label for a shared namespace.',
    });
}

/** An ACL given to a shared namespace: valid entries, deduplicated, bounded. */
export function normalizeNamespaceAcl(acl: { read: readonly unknown[]; write: readonly unknown[] }): {
  read: string[];
  write: string[];
} {
  const read = parseAcl(acl.read, 'the namespace ACL (read)');
  const write = parseAcl(acl.write, 'the namespace ACL (write)');
  if (read.length + write.length > MAX_ACL_ENTRIES)
    throw new ValidationError(`A namespace ACL has at most ${MAX_ACL_ENTRIES} entries.`, { hint: 'Use groups.' });
  return { read, write };
}

/**
 * Whether a parsed value nests objects and arrays deeper than `limit` (counted as the server's JSON reader counts
 * brackets, `server/json-depth.ts`, which bounds request bodies before they get here; this bounds every other writer).
 */
function nestsDeeper(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit <= 0) return true;
  for (const child of Object.values(value)) if (nestsDeeper(child, limit - 1)) return true;
  return false;
}

/** The value as stored, bounded in bytes and depth; refused unless it is a JSON object. */
export function serializeValue(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ValidationError('An item value must be a JSON object.', { hint: 'Send {"field": …}.' });
  if (nestsDeeper(value, MAX_ITEM_VALUE_DEPTH))
    throw new ValidationError(`An item value nests more than ${MAX_ITEM_VALUE_DEPTH} levels.`, {
      hint: 'Store flatter JSON.',
    });
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_ITEM_VALUE_BYTES)
    throw new ValidationError(`An item value is ${bytes} bytes as JSON; the limit is ${MAX_ITEM_VALUE_BYTES}.`, {
      hint: 'Store a smaller value, or split it into several items.',
    });
  return text;
}

/** Checks every field of an item write before any SQL. */
export function validateItemWrite(item: ItemWrite): string {
  checkNamespace(item.namespace);
  checkIdentifier('item key', item.key);
  if (item.ttlMinutes !== undefined) checkTtl(item.ttlMinutes);
  if (item.text !== undefined && item.text.length > MAX_INDEXED_TEXT_CHARS)
    throw new ValidationError(`An item's searchable text has more than ${MAX_INDEXED_TEXT_CHARS} characters.`);
  if (item.vector !== undefined && (item.text === undefined || item.vector.length === 0))
    throw new ValidationError('An indexed item needs both its text and a non-empty vector.');
  return serializeValue(item.value);
}

export function checkTtl(minutes: number): void {
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_TTL_MINUTES)
    throw new ValidationError(`ttl must be a number of minutes in (0, ${MAX_TTL_MINUTES}]; got ${String(minutes)}.`, {
      hint: 'Send ttl in minutes, or null for an item that never expires.',
    });
}

/** When an item with `ttlMinutes` put or refreshed at `now` expires. */
export const expiryOf = (now: Date, ttlMinutes: number | null | undefined): Date | null =>
  ttlMinutes === null || ttlMinutes === undefined ? null : new Date(now.getTime() + ttlMinutes * 60_000);

export function checkSearch(search: ItemSearch): void {
  checkNamespacePattern(search.namespacePrefix, 'The namespace prefix');
  checkPage(search.limit, search.offset, MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET);
  if (search.filter !== undefined) checkFilter(search.filter);
}

export function checkListing(listing: NamespaceListing): void {
  if (listing.prefix) checkNamespacePattern(listing.prefix, 'The prefix');
  if (listing.suffix) checkNamespacePattern(listing.suffix, 'The suffix');
  if (
    listing.maxDepth !== undefined &&
    (!Number.isInteger(listing.maxDepth) || listing.maxDepth < 1 || listing.maxDepth > MAX_NAMESPACE_DEPTH)
  )
    throw new ValidationError(`max_depth must be an integer in 1..${MAX_NAMESPACE_DEPTH}.`);
  checkPage(listing.limit, listing.offset, MAX_NAMESPACES_LIMIT, MAX_SEARCH_OFFSET);
}

function checkPage(limit: number, offset: number, maxLimit: number, maxOffset: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    throw new ValidationError(`limit must be an integer in 1..${maxLimit}; got ${String(limit)}.`, {
      hint: 'Page with offset.',
    });
  if (!Number.isInteger(offset) || offset < 0 || offset > maxOffset)
    throw new ValidationError(`offset must be an integer in 0..${maxOffset}; got ${String(offset)}.`, {
      hint: 'Narrow the search (a longer prefix, a filter) instead of paging further.',
    });
}

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);

function checkFilter(filter: Record<string, unknown>): void {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter))
    throw new ValidationError('filter must be an object of value fields.', { hint: 'Send {"field": value}.' });
  const fields = Object.keys(filter);
  if (fields.length > MAX_FILTER_FIELDS)
    throw new ValidationError(`filter has ${fields.length} fields; the limit is ${MAX_FILTER_FIELDS}.`);
  for (const field of fields) {
    const condition = filter[field];
    if (isOperatorObject(condition)) {
      for (const op of Object.keys(condition))
        if (!OPERATORS.has(op))
          throw new ValidationError(`filter field ${shown(field)} uses the unknown operator ${shown(op)}.`, {
            hint: 'Use $eq, $ne, $gt, $gte, $lt or $lte.',
          });
    }
  }
}

const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.keys(value).length > 0 &&
  Object.keys(value).every((key) => key.startsWith('$'));

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a as object);
  const bKeys = Object.keys(b as object);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((key) => Object.hasOwn(b as object, key) && deepEqual((a as never)[key], (b as never)[key]));
}

function compare(actual: unknown, op: string, expected: unknown): boolean {
  if (op === '$eq') return deepEqual(actual, expected);
  if (op === '$ne') return !deepEqual(actual, expected);
  // Order compares numbers with numbers and strings with strings; anything else does not match.
  const comparable =
    (typeof actual === 'number' && typeof expected === 'number') ||
    (typeof actual === 'string' && typeof expected === 'string');
  if (!comparable) return false;
  const a = actual as number | string;
  const b = expected as number | string;
  if (op === '$gt') return a > b;
  if (op === '$gte') return a >= b;
  if (op === '$lt') return a < b;
  return a <= b;
}

/** Whether a value matches every field of the filter. */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  for (const [field, condition] of Object.entries(filter)) {
    const actual = Object.hasOwn(value, field) ? value[field] : undefined;
    if (isOperatorObject(condition)) {
      for (const [op, expected] of Object.entries(condition)) if (!compare(actual, op, expected)) return false;
    } else if (!deepEqual(actual, condition)) return false;
  }
  return true;
}

/** Whether `namespace` starts with `prefix` (`*` matches any one label). */
export const matchesPrefix = (namespace: readonly string[], prefix: readonly string[]): boolean =>
  prefix.length <= namespace.length && prefix.every((label, i) => label === '*' || label === namespace[i]);

/** Whether `namespace` ends with `suffix` (`*` matches any one label). */
export const matchesSuffix = (namespace: readonly string[], suffix: readonly string[]): boolean =>
  suffix.length <= namespace.length &&
  suffix.every((label, i) => label === '*' || label === namespace[namespace.length - suffix.length + i]);

/** The literal labels a pattern starts with (up to its first `*`): what SQL can narrow by. */
export const literalHead = (pattern: readonly string[]): string[] => {
  const wildcard = pattern.indexOf('*');
  return wildcard < 0 ? [...pattern] : pattern.slice(0, wildcard);
};

/** The page of a listing from the distinct readable namespaces: suffix, depth, dedupe, sort, offset, limit. */
export function pageNamespaces(namespaces: readonly string[][], listing: NamespaceListing): string[][] {
  const seen = new Map<string, string[]>();
  for (const namespace of namespaces) {
    if (listing.prefix && !matchesPrefix(namespace, listing.prefix)) continue;
    if (listing.suffix && !matchesSuffix(namespace, listing.suffix)) continue;
    const cut = listing.maxDepth === undefined ? namespace : namespace.slice(0, listing.maxDepth);
    seen.set(joinNamespace(cut), cut);
  }
  return [...seen.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(listing.offset, listing.offset + listing.limit)
    .map(([, namespace]) => namespace);
}

/** The dot paths an item's `index` option names, validated (`$` is the whole value). */
export function checkIndexFields(fields: readonly unknown[]): string[] {
  if (fields.length > MAX_INDEX_FIELDS)
    throw new ValidationError(`index names ${fields.length} fields; the limit is ${MAX_INDEX_FIELDS}.`);
  return fields.map((field) => {
    if (typeof field !== 'string' || field.length === 0 || field.length > MAX_LABEL_CHARS)
      throw new ValidationError('index fields are non-empty strings (dot paths such as "text" or "profile.bio").');
    return field;
  });
}

function collectStrings(value: unknown, out: string[], budget: { chars: number }): void {
  if (budget.chars <= 0) return;
  if (typeof value === 'string') {
    if (value.trim()) {
      out.push(value);
      budget.chars -= value.length;
    }
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    out.push(String(value));
    budget.chars -= 8;
  } else if (Array.isArray(value)) {
    for (const element of value) collectStrings(element, out, budget);
  } else if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) collectStrings(child, out, budget);
  }
}

function atPath(value: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [value];
  if (Array.isArray(value)) return value.flatMap((element) => atPath(element, path));
  if (value === null || typeof value !== 'object') return [];
  const [head, ...rest] = path as [string, ...string[]];
  return Object.hasOwn(value, head) ? atPath((value as Record<string, unknown>)[head], rest) : [];
}

/**
 * The text an item is searched by: the strings (and numbers) of its value, or of the fields `index` names; none when
 * `index` is false or nothing textual is there. Bounded to MAX_INDEXED_TEXT_CHARS.
 */
export function indexedTextOf(
  value: Record<string, unknown>,
  index: false | readonly string[] | undefined,
): string | undefined {
  if (index === false) return undefined;
  const parts: string[] = [];
  const budget = { chars: MAX_INDEXED_TEXT_CHARS };
  if (index === undefined || index.includes('$')) collectStrings(value, parts, budget);
  else
    for (const field of index)
      for (const found of atPath(value, field.split('.'))) collectStrings(found, parts, budget);
  const text = parts.join('\n').slice(0, MAX_INDEXED_TEXT_CHARS).trim();
  return text ? text : undefined;
}

/** Parses a stored value; a row that is not a JSON object is a store fault, never shown as data. */
export function parseStoredValue(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('a stored item value is not a JSON object');
  return parsed as Record<string, unknown>;
}
