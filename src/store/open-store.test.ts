import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { openStore } from './open-store.ts';

describe('openStore', () => {
  it('refuses read replicas without a primary, saying which variable to set', async () => {
    const opening = openStore({ db: '/nonexistent/never-opened.db', databaseReadUrls: ['postgres://replica/rag'] });
    await expect(opening).rejects.toSatisfy(
      (error: unknown) =>
        ConfigError.isInstance(error) && /EVIDENT_DATABASE_URL/.test((error as ConfigError).hint ?? ''),
    );
  });
});
