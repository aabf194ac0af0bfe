import { parse, type Filter } from 'scim2-parse-filter';
import { scimInvalid } from './scim-errors.ts';

/** The most nodes (comparisons and logical operators) one filter may have, whatever its length. */
const MAX_FILTER_NODES = 64;

/** An attribute a filter may name: whether its strings compare case-exactly (RFC 7643 `caseExact`). */
export type FilterAttributes = Readonly<Record<string, { caseExact: boolean }>>;

export const USER_FILTER_ATTRIBUTES: FilterAttributes = {
  id: { caseExact: true },
  username: { caseExact: false },
  displayname: { caseExact: false },
  externalid: { caseExact: true },
  active: { caseExact: true },
  'groups.value': { caseExact: true },
  'groups.display': { caseExact: false },
  'meta.created': { caseExact: true },
  'meta.lastmodified': { caseExact: true },
};

export const GROUP_FILTER_ATTRIBUTES: FilterAttributes = {
  id: { caseExact: true },
  displayname: { caseExact: false },
  externalid: { caseExact: true },
  'members.value': { caseExact: true },
  'members.display': { caseExact: false },
  'meta.created': { caseExact: true },
  'meta.lastmodified': { caseExact: true },
};

const CORE_URN_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;
const normalPath = (path: string): string => path.replace(CORE_URN_PREFIX, '').toLowerCase();

const invalid = (message: string) =>
  scimInvalid(
    'invalidFilter',
    message,
    'Send a filter as RFC 7644 §3.4.2.2 writes them, e.g. userName eq "bjensen" or externalId eq "a1" and active eq true.',
  );

/** Parses and checks a filter: bounded in length and size, naming only attributes the resource type has. */
export function parseScimFilter(text: string, attributes: FilterAttributes, maxChars: number): Filter {
  if (text.length > maxChars) throw invalid(`The filter has ${text.length} characters; the limit is ${maxChars}.`);
  let filter: Filter;
  try {
    filter = parse(text);
  } catch {
    throw invalid('The filter could not be parsed.');
  }
  let nodes = 0;
  const check = (node: Filter, prefix: string): void => {
    nodes += 1;
    if (nodes > MAX_FILTER_NODES) throw invalid(`The filter has more than ${MAX_FILTER_NODES} terms.`);
    switch (node.op) {
      case 'and':
      case 'or':
        for (const child of node.filters) check(child, prefix);
        return;
      case 'not':
        check(node.filter, prefix);
        return;
      case '[]':
        check(node.valFilter, `${normalPath(node.attrPath)}.`);
        return;
      default: {
        const path = prefix + normalPath(node.attrPath);
        if (!attributes[path])
          throw invalid(
            `A filter here may name ${Object.keys(attributes).join(', ')}; not ${node.attrPath.slice(0, 64)}.`,
          );
      }
    }
  };
  check(filter, '');
  return filter;
}

/** The values at a path of a resource (attribute names case-insensitive; multi-valued attributes flattened). */
function valuesAt(resource: unknown, path: string): unknown[] {
  let current: unknown[] = [resource];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const item of current) {
      if (typeof item !== 'object' || item === null) continue;
      const key = Object.keys(item).find((k) => k.toLowerCase() === part);
      const value = key === undefined ? undefined : (item as Record<string, unknown>)[key];
      if (Array.isArray(value)) next.push(...value);
      else if (value !== undefined && value !== null) next.push(value);
    }
    current = next;
  }
  return current;
}

function compare(op: string, actual: unknown, expected: unknown, caseExact: boolean): boolean {
  if (typeof actual === 'string' && typeof expected === 'string') {
    const a = caseExact ? actual : actual.toLowerCase();
    const e = caseExact ? expected : expected.toLowerCase();
    switch (op) {
      case 'eq':
        return a === e;
      case 'ne':
        return a !== e;
      case 'co':
        return a.includes(e);
      case 'sw':
        return a.startsWith(e);
      case 'ew':
        return a.endsWith(e);
      case 'gt':
        return a > e;
      case 'ge':
        return a >= e;
      case 'lt':
        return a < e;
      case 'le':
        return a <= e;
    }
    return false;
  }
  if (op === 'eq') return actual === expected;
  if (op === 'ne') return actual !== expected;
  return false;
}

/** Whether a resource (its SCIM JSON) matches a checked filter. */
export function matchesFilter(resource: unknown, filter: Filter, attributes: FilterAttributes, prefix = ''): boolean {
  switch (filter.op) {
    case 'and':
      return filter.filters.every((f) => matchesFilter(resource, f, attributes, prefix));
    case 'or':
      return filter.filters.some((f) => matchesFilter(resource, f, attributes, prefix));
    case 'not':
      return !matchesFilter(resource, filter.filter, attributes, prefix);
    case '[]': {
      const path = normalPath(filter.attrPath);
      return valuesAt(resource, path).some((item) =>
        matchesFilter(item, filter.valFilter, attributes, `${prefix}${path}.`),
      );
    }
    case 'pr':
      return valuesAt(resource, normalPath(filter.attrPath)).length > 0;
    default: {
      const path = normalPath(filter.attrPath);
      const caseExact = attributes[prefix + path]?.caseExact ?? true;
      const values = valuesAt(resource, path);
      const op = filter.op.toLowerCase();
      if (op === 'ne') return values.every((v) => compare('ne', v, filter.compValue, caseExact));
      return values.some((v) => compare(op, v, filter.compValue, caseExact));
    }
  }
}

/**
 * An equality the store can look up instead of listing everything: the filter's own `attr eq "value"`, or one of an
 * `and`'s terms. Undefined when the filter needs every resource.
 */
export function lookupOf(filter: Filter): { attribute: string; value: string } | undefined {
  if (filter.op === 'and') {
    for (const child of filter.filters) {
      const found = lookupOf(child);
      if (found) return found;
    }
    return undefined;
  }
  if (filter.op.toLowerCase() === 'eq' && 'compValue' in filter && typeof filter.compValue === 'string')
    return { attribute: normalPath(filter.attrPath), value: filter.compValue };
  return undefined;
}
