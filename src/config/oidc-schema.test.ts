import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { loadConfig } from './index.ts';
import { oidcPostLogoutUri, oidcRedirectUri } from './oidc-schema.ts';

const fromEnv = (env: Record<string, string>) => loadConfig({ env, cwd: '/nonexistent-evident-config', flags: {} });
const BASE = {
  EVIDENT_OIDC_ISSUER: 'https://login.example.com/realms/acme',
  EVIDENT_OIDC_CLIENT_ID: 'evident',
  EVIDENT_OIDC_PUBLIC_URL: 'https://evident.example.com',
};

describe('oidc config', () => {
  it('is off unless set, and takes every EVIDENT_OIDC_* variable with defaults for the rest', () => {
    expect(fromEnv({}).oidc).toBeUndefined();
    const oidc = fromEnv(BASE).oidc;
    expect(oidc).toEqual({
      issuer: 'https://login.example.com/realms/acme',
      clientId: 'evident',
      publicUrl: 'https://evident.example.com',
      scopes: ['openid', 'profile', 'email'],
      userClaim: 'preferred_username',
      groupsClaim: 'groups',
      groupsFromToken: true,
      clockSkewSeconds: 30,
      displayName: 'your organisation',
    });
    expect(oidc && oidcRedirectUri(oidc)).toBe('https://evident.example.com/auth/oidc/callback');
    expect(oidc && oidcPostLogoutUri(oidc)).toBe('https://evident.example.com/');
    const full = fromEnv({
      ...BASE,
      EVIDENT_OIDC_CLIENT_SECRET: 's3cret',
      EVIDENT_OIDC_REDIRECT_URI: 'https://evident.example.com/custom/callback',
      EVIDENT_OIDC_SCOPES: 'openid, email, groups',
      EVIDENT_OIDC_USER_CLAIM: 'email',
      EVIDENT_OIDC_GROUPS_CLAIM: 'roles',
      EVIDENT_OIDC_ADMIN_GROUP: 'evident-admins',
      EVIDENT_OIDC_AUDIENCE: 'api://evident',
      EVIDENT_OIDC_CLOCK_SKEW_SECONDS: '10',
      EVIDENT_OIDC_DISPLAY_NAME: 'Acme SSO',
    }).oidc;
    expect(full).toMatchObject({
      clientSecret: 's3cret',
      scopes: ['openid', 'email', 'groups'],
      userClaim: 'email',
      groupsClaim: 'roles',
      adminGroup: 'evident-admins',
      audience: 'api://evident',
      clockSkewSeconds: 10,
      displayName: 'Acme SSO',
    });
    expect(full && oidcRedirectUri(full)).toBe('https://evident.example.com/custom/callback');
  });

  it('allows http only for a loopback issuer', () => {
    expect(fromEnv({ ...BASE, EVIDENT_OIDC_ISSUER: 'http://127.0.0.1:8080' }).oidc?.issuer).toBe(
      'http://127.0.0.1:8080',
    );
    expect(fromEnv({ ...BASE, EVIDENT_OIDC_ISSUER: 'http://localhost:8080/realms/x' }).oidc).toBeDefined();
    for (const issuer of ['http://login.example.com', 'http://10.0.0.5', 'ftp://login.example.com', 'not a url'])
      expect(() => fromEnv({ ...BASE, EVIDENT_OIDC_ISSUER: issuer }), issuer).toThrow(ConfigError);
  });

  it('refuses a config without a callback, without openid in the scopes, a missing client id, and unbounded values', () => {
    const { EVIDENT_OIDC_PUBLIC_URL: _, ...noCallback } = BASE;
    expect(() => fromEnv(noCallback)).toThrow(/redirectUri|publicUrl/);
    expect(() => fromEnv({ ...BASE, EVIDENT_OIDC_SCOPES: 'profile,email' })).toThrow(/openid/);
    expect(() => fromEnv({ ...BASE, EVIDENT_OIDC_CLIENT_ID: '' })).toThrow(ConfigError);
    expect(() => fromEnv({ EVIDENT_OIDC_ISSUER: BASE.EVIDENT_OIDC_ISSUER })).toThrow(ConfigError);
    expect(() => fromEnv({ ...BASE, EVIDENT_OIDC_CLOCK_SKEW_SECONDS: '3600' })).toThrow(ConfigError);
    expect(() => fromEnv({ ...BASE, EVIDENT_OIDC_USER_CLAIM: 'has space' })).toThrow(ConfigError);
    expect(() => fromEnv({ ...BASE, EVIDENT_OIDC_REDIRECT_URI: 'http://evident.example.com/cb' })).toThrow(ConfigError);
  });
});
