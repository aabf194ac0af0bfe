import { describe, expect, it } from 'vitest';
import { terminalSafe } from './io.ts';

describe('terminalSafe', () => {
  it('removes escape sequences and control characters a document could carry, keeping text, tabs and line feeds', () => {
    const attack =
      'Fee: $48,000\u001b[2J\u001b[1;1H\u001b]0;pwned\u0007 ok\r\u001b[31mforged line\u001b[0m\u009b31m\u0000\u0008\ttab\nnext 年假';
    expect(terminalSafe(attack)).toBe('Fee: $48,000 okforged line31m\ttab\nnext 年假');
    expect(terminalSafe('plain text\n')).toBe('plain text\n');
  });
});
