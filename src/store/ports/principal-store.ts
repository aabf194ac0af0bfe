import type { Principal } from '../../domain/index.ts';
import type { ApiKeyRecord } from '../api-key.ts';

export interface UserRecord {
  name: string;
  groups: string[];
  roles: Principal['roles'];
  /** False once deactivated (SCIM, `evident users deactivate`): their keys and sessions stop, they match nothing. */
  active: boolean;
  createdAt: string;
}

/** Who may ask: users with their groups and roles, and the API keys that stand for them. */
export interface PrincipalStore {
  upsertUser(user: { name: string; groups: string[]; roles?: Principal['roles'] }): Promise<UserRecord>;
  getUser(name: string): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;

  /** A new API key for an existing user (`not_found` otherwise). The key is returned once; only its hash is stored. */
  createApiKey(user: string): Promise<{ key: string; id: string }>;
  /**
   * The principal whose key this is, with the user's current groups and roles; undefined for an unknown or revoked
   * key, or a user who is not active.
   */
  principalForApiKey(key: string): Promise<Principal | undefined>;
  /** The user's keys (ids and dates, never the keys), in creation order. */
  listApiKeys(user: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key at once. False when there was no key with that id. */
  revokeApiKey(id: string): Promise<boolean>;
  /** Activates or deactivates a user at once; undefined when there is no such user. */
  setUserActive(name: string, active: boolean): Promise<UserRecord | undefined>;
}
