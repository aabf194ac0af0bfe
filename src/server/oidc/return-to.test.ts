import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.ts';

describe('safeReturnTo', () => {
  it('keeps a path of this server with its query and hash', () => {
    expect(safeReturnTo('/')).toBe('/');
    expect(safeReturnTo('/#/documents?doc=a')).toBe('/#/documents?doc=a');
    expect(safeReturnTo('/v1/x?y=1')).toBe('/v1/x?y=1');
  });

  it('turns anything that could leave the server into /', () => {
    for (const value of [
      undefined,
      '',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'evil.example',
      '/\tevil',
      `/${'a'.repeat(3000)}`,
    ])
      expect(safeReturnTo(value), String(value)).toBe('/');
  });
});
