import { expect, it } from 'vitest';
import { loadConfig } from './index.ts';

const load = (env: Record<string, string>) => loadConfig({ env, cwd: '/nonexistent-evident-config-dir' });

it('reads the SCIM token from EVIDENT_SCIM_TOKEN and refuses one shorter than 32 characters', () => {
  expect(load({}).scim.token).toBeUndefined();
  expect(load({ EVIDENT_SCIM_TOKEN: 'a'.repeat(32) }).scim).toMatchObject({ token: 'a'.repeat(32), maxPageSize: 100 });
  expect(() => load({ EVIDENT_SCIM_TOKEN: 'short-token' })).toThrow(/scim\.token needs at least 32 characters/);
  expect(() => load({ EVIDENT_SCIM_MAX_PAGE_SIZE: '5000' })).toThrow(/scim\.maxPageSize/);
});
