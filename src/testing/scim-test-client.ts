import { expect } from 'vitest';
import { LEGAL_PHRASE, SCIM_TEST_ADMIN_KEY, type ScimTestServer } from './scim-test-server.ts';

/** The RFC 7644 §3.3 example User, as a provisioning client sends it (attributes Evident does not keep included). */
export const bjensenBody = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: 'bjensen@example.com',
  externalId: 'bjensen',
  name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
  emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
  active: true,
};

export const patchOp = (...operations: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: operations,
});

/** The documents a user's key finds for the legal phrase (401 → undefined: the key no longer works). */
export async function legalHits(server: ScimTestServer, key: string): Promise<number | undefined> {
  const response = await server.call('POST', '/v1/search', { key, json: { query: LEGAL_PHRASE } });
  if (response.status === 401) return undefined;
  expect(response.status).toBe(200);
  return (response.json?.results as unknown[]).length;
}

/** A new API key for a user, made by the admin through /v1. */
export async function keyFor(server: ScimTestServer, name: string): Promise<string> {
  const response = await server.call('POST', `/v1/users/${encodeURIComponent(name)}/keys`, {
    key: SCIM_TEST_ADMIN_KEY,
  });
  expect(response.status).toBe(201);
  return response.json?.key as string;
}

/** Expects a SCIM error body with this status (and scimType, when given), as application/scim+json. */
export function expectScimError(
  response: { status: number; headers: Headers; json: Record<string, unknown> | undefined },
  status: number,
  scimType?: string,
): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  expect(response.json).toMatchObject({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    ...(scimType ? { scimType } : {}),
  });
  expect(typeof response.json?.detail).toBe('string');
}
