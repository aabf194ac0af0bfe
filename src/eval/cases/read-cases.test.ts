import { describe, expect, it } from 'vitest';
import { isEvidentError } from '../../errors/index.ts';
import { parseCases } from './read-cases.ts';
import { principalForCase } from './read-users.ts';

const errorOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (isEvidentError(error)) return error.toLine();
    throw error;
  }
  throw new Error('expected an error');
};

describe('parseCases', () => {
  it('reads one case a line, skipping blank lines, with defaults', () => {
    const cases = parseCases(
      '{"id": "a", "user": "alice", "question": "Q?"}\n\n{"id": "b", "user": "bob", "question": "R?", "expect": {"answerable": false}}\n',
      'set.jsonl',
    );
    expect(cases.map((c) => [c.evalCase.id, c.line])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
    expect(cases[0]?.evalCase).toMatchObject({ history: [], tags: [], expect: {} });
  });

  it('names the file, the line and the zod issue of a bad case', () => {
    const message = errorOf(() =>
      parseCases(
        '{"id": "a", "user": "alice", "question": "Q?"}\n{"id": "b", "user": "bob", "question": "R?", "expect": {"answerable": "yes"}}',
        'set.jsonl',
      ),
    );
    expect(message).toMatch(/^set\.jsonl:2 is not a valid case: expect\.answerable: .*boolean/);
    expect(
      errorOf(() =>
        parseCases('{"id": "a", "user": "alice", "question": "Q?", "expect": {"relevant": []}}', 's.jsonl'),
      ),
    ).toMatch(/s\.jsonl:1 .*relevant/);
  });

  it('names the line of malformed JSON, a duplicate id, and an empty file', () => {
    expect(errorOf(() => parseCases('{"id": "a", "user": "u", "question": "Q?"}\n{"id": ', 'set.jsonl'))).toMatch(
      /^set\.jsonl:2 is not valid JSON/,
    );
    expect(
      errorOf(() =>
        parseCases(
          '{"id": "a", "user": "u", "question": "Q?"}\n{"id": "a", "user": "u", "question": "R?"}',
          'set.jsonl',
        ),
      ),
    ).toContain('set.jsonl:2: case id "a" is already used on line 1');
    expect(errorOf(() => parseCases('\n\n', 'empty.jsonl'))).toContain('empty.jsonl holds no cases');
  });
});

describe('principalForCase', () => {
  const [alice, zed, zedWithGroups] = parseCases(
    [
      '{"id": "a", "user": "alice", "question": "Q?"}',
      '{"id": "z", "user": "zed", "question": "Q?"}',
      '{"id": "g", "user": "zed", "groups": ["sales"], "question": "Q?"}',
    ].join('\n'),
    'set.jsonl',
  );
  const users = { file: 'users.json', groups: new Map([['alice', ['legal']]]) };

  it('takes the groups from the users file unless the case gives its own', () => {
    expect(principalForCase(alice!, users)).toEqual({ id: 'alice', groups: ['legal'], roles: ['member'] });
    expect(principalForCase(zedWithGroups!, users)).toEqual({ id: 'zed', groups: ['sales'], roles: ['member'] });
  });

  it('names the users file and the case line for an unknown user', () => {
    expect(errorOf(() => principalForCase(zed!, users))).toMatch(
      /^set\.jsonl:2: case "z" asks as "zed", who is not in users\.json\. Add .* to users\.json/,
    );
  });

  it('without a users file, a user has only the groups the case gives', () => {
    expect(principalForCase(zed!, { file: undefined, groups: new Map() })).toEqual({
      id: 'zed',
      groups: [],
      roles: ['member'],
    });
  });
});
