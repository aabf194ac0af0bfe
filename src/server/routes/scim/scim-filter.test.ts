import { describe, expect, it } from 'vitest';
import {
  GROUP_FILTER_ATTRIBUTES,
  lookupOf,
  matchesFilter,
  parseScimFilter,
  USER_FILTER_ATTRIBUTES,
} from './scim-filter.ts';

const user = {
  id: 'u-1',
  userName: 'BJensen@example.com',
  externalId: 'Ext-1',
  active: true,
  groups: [{ value: 'g-1', display: 'legal' }],
  meta: { created: '2026-01-02T00:00:00.000Z', lastModified: '2026-03-04T00:00:00.000Z' },
};
const matches = (filter: string, resource: object = user) =>
  matchesFilter(resource, parseScimFilter(filter, USER_FILTER_ATTRIBUTES, 512), USER_FILTER_ATTRIBUTES);

describe('SCIM filters', () => {
  it('compares userName without case and externalId and ids with it, as RFC 7643 says', () => {
    expect(matches('userName eq "bjensen@EXAMPLE.com"')).toBe(true);
    expect(matches('USERNAME Eq "bjensen@example.com"')).toBe(true);
    expect(matches('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "bjen"')).toBe(true);
    expect(matches('externalId eq "ext-1"')).toBe(false);
    expect(matches('externalId eq "Ext-1"')).toBe(true);
    expect(matches('id eq "U-1"')).toBe(false);
  });

  it('evaluates every operator, logic, presence and value paths', () => {
    expect(matches('active eq true and (userName co "jensen" or externalId eq "x")')).toBe(true);
    expect(matches('active eq false or userName ew "@example.org"')).toBe(false);
    expect(matches('not (active eq true)')).toBe(false);
    expect(matches('userName ne "someone"')).toBe(true);
    expect(matches('externalId pr')).toBe(true);
    expect(matches('displayName pr')).toBe(false);
    expect(matches('meta.lastModified gt "2026-03-01T00:00:00Z"')).toBe(true);
    expect(matches('meta.created ge "2026-02-01T00:00:00Z"')).toBe(false);
    expect(matches('groups[display eq "LEGAL"]')).toBe(true);
    expect(matches('groups.value eq "g-1"')).toBe(true);
    expect(matches('groups[value eq "g-2"]')).toBe(false);
  });

  it('refuses unknown attributes, unparsable text, long filters and too many terms with invalidFilter', () => {
    const refused = (filter: string, maxChars = 512) => {
      try {
        parseScimFilter(filter, USER_FILTER_ATTRIBUTES, maxChars);
        return undefined;
      } catch (error) {
        return (error as { details?: { scimType?: string } }).details?.scimType;
      }
    };
    expect(refused('password eq "x"')).toBe('invalidFilter');
    expect(refused('groups[secret eq "x"]')).toBe('invalidFilter');
    expect(refused('userName eq')).toBe('invalidFilter');
    expect(refused('(userName eq "x"')).toBe('invalidFilter');
    expect(refused('userName eq "x"', 10)).toBe('invalidFilter');
    expect(refused(Array.from({ length: 70 }, (_, i) => `userName eq "u${i}"`).join(' or '), 4096)).toBe(
      'invalidFilter',
    );
    expect(refused('members[value eq "x"]')).toBe('invalidFilter');
    expect(() => parseScimFilter('members[value eq "x"]', GROUP_FILTER_ATTRIBUTES, 512)).not.toThrow();
  });

  it('names the equality the store can look up, also inside an and', () => {
    const parse = (text: string) => parseScimFilter(text, GROUP_FILTER_ATTRIBUTES, 512);
    expect(lookupOf(parse('displayName eq "legal"'))).toEqual({ attribute: 'displayname', value: 'legal' });
    expect(lookupOf(parse('members[value eq "u"] and id eq "g"'))).toEqual({ attribute: 'id', value: 'g' });
    expect(lookupOf(parse('displayName eq "a" or displayName eq "b"'))).toBeUndefined();
    expect(lookupOf(parse('displayName sw "a"'))).toBeUndefined();
  });
});
