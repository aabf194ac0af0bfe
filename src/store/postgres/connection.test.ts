import { describe, expect, it } from 'vitest';
import { isEvidentError } from '../../errors/index.ts';
import { parsePostgresUrl } from './connection.ts';
import { openPostgresStore } from './store.ts';

describe('postgres connection', () => {
  it('takes the schema from ?schema= and never shows the password', () => {
    const target = parsePostgresUrl('postgres://evident:s3cret@db.internal:5432/rag?schema=tenant_a&sslmode=require');
    expect(target.schema).toBe('tenant_a');
    expect(target.connectionString).toBe('postgres://evident:s3cret@db.internal:5432/rag?sslmode=require');
    expect(target.location).toBe('postgres://evident@db.internal:5432/rag?sslmode=require&schema=tenant_a');
    expect(parsePostgresUrl('postgresql://db/rag').schema).toBe('evident');
    expect(parsePostgresUrl('postgres://db/rag', 'override').schema).toBe('override');
  });

  it('refuses a URL that is not postgres:// or a schema name that is not a plain identifier', () => {
    for (const [url, text] of [
      ['mysql://db/rag', 'must start with postgres://'],
      ['not a url', 'not a valid URL'],
      ['postgres://db/rag?schema=Bad-Name', 'Invalid schema name'],
      ['postgres://db/rag?schema=x;drop', 'Invalid schema name'],
    ]) {
      expect(() => parsePostgresUrl(url as string), url).toThrow(text as string);
    }
  });

  it('names the server without its password and says what to check when it cannot connect', async () => {
    const error: unknown = await openPostgresStore('postgres://evident:s3cret@127.0.0.1:1/rag').catch(
      (caught: unknown) => caught,
    );
    expect(isEvidentError(error)).toBe(true);
    const { message, hint, code } = error as { message: string; hint: string; code: string };
    expect(code).toBe('store_failed');
    expect(message).toContain('Cannot connect to PostgreSQL at postgres://evident@127.0.0.1:1/rag');
    expect(`${message} ${hint}`).not.toContain('s3cret');
    expect(hint).toMatch(/server is running.*EVIDENT_DATABASE_URL/);
  });
});
