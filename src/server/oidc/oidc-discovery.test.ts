import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcSchema } from '../../config/oidc-schema.ts';
import { OidcSignInError } from '../../errors/index.ts';
import { OidcDiscovery } from './oidc-discovery.ts';

/** A provider's discovery endpoint on 127.0.0.1 that can be made to fail; it counts the reads. */
let server: Server;
let issuer: string;
let failing = false;
let reads = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    // Any path's discovery document names the root issuer, so one under /realms/x names another issuer.
    if (!request.url?.endsWith('/.well-known/openid-configuration')) return response.writeHead(404).end();
    reads++;
    if (failing) return response.writeHead(503).end('down');
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failureOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (error: unknown) => (OidcSignInError.isInstance(error) ? error.failure : String(error)),
  );

describe('OidcDiscovery', () => {
  it('reads the discovery document once, waits after a failure, and reads it again on refresh', async () => {
    const discovery = new OidcDiscovery(oidcSchema.parse({ issuer, clientId: 'evident', publicUrl: issuer }), 200);
    failing = true;
    reads = 0;
    expect(await failureOf(discovery.configuration())).toBe('provider_unreachable');
    expect(reads).toBe(1);
    failing = false;
    // Within the wait after a failure, no request is made.
    expect(await failureOf(discovery.configuration())).toBe('provider_unreachable');
    expect(reads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const config = await discovery.configuration();
    expect(config.serverMetadata().token_endpoint).toBe(`${issuer}/token`);
    await discovery.configuration();
    expect(reads).toBe(2);
    discovery.refresh();
    await discovery.configuration();
    expect(reads).toBe(3);
  });

  it('refuses a discovery document naming another issuer', async () => {
    const other = new OidcDiscovery(
      oidcSchema.parse({ issuer: `${issuer}/realms/x`, clientId: 'evident', publicUrl: issuer }),
      0,
    );
    reads = 0;
    expect(await failureOf(other.configuration())).toBe('provider_unreachable');
    expect(reads).toBe(1);
  });
});
