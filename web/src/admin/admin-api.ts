import type { EvidentApi } from '../api/evident-api.ts';
import type { AdminUser, ApiKeySummary, CreatedApiKey, Role, SessionPage } from './admin-wire-types.ts';

const SESSION_PAGE_SIZE = 100;
const segment = encodeURIComponent;

/** The admin routes the admin pages call, through the signed-in session's credentials. The server checks the role. */
export class AdminApi {
  constructor(private readonly api: EvidentApi) {}

  async users(): Promise<AdminUser[]> {
    return (await this.api.send<{ users: AdminUser[] }>('GET', '/v1/users')).users;
  }

  /** Creates the user or replaces their groups (and roles, when given): `POST /v1/users`. */
  async saveUser(user: { name: string; groups: string[]; roles?: Role[] }): Promise<AdminUser> {
    return (await this.api.send<{ user: AdminUser }>('POST', '/v1/users', user)).user;
  }

  /** Deactivates or reactivates a user: their keys and sessions stop (or start again) working at once. */
  async setActive(name: string, active: boolean): Promise<AdminUser> {
    return (await this.api.send<{ user: AdminUser }>('PATCH', `/v1/users/${segment(name)}`, { active })).user;
  }

  async keys(user: string): Promise<ApiKeySummary[]> {
    return (await this.api.send<{ keys: ApiKeySummary[] }>('GET', `/v1/users/${segment(user)}/keys`)).keys;
  }

  createKey(user: string): Promise<CreatedApiKey> {
    return this.api.send<CreatedApiKey>('POST', `/v1/users/${segment(user)}/keys`);
  }

  async revokeKey(id: string): Promise<void> {
    await this.api.send('DELETE', `/v1/keys/${segment(id)}`);
  }

  /** One page of sessions, of one user or of everyone, newest first. */
  sessions(query: { user?: string | undefined; cursor?: string | null | undefined }): Promise<SessionPage> {
    const params = new URLSearchParams({ limit: String(SESSION_PAGE_SIZE) });
    if (query.user) params.set('user', query.user);
    if (query.cursor) params.set('cursor', query.cursor);
    return this.api.send<SessionPage>('GET', `/v1/sessions?${params.toString()}`);
  }

  async revokeSession(id: string): Promise<void> {
    await this.api.send('DELETE', `/v1/sessions/${segment(id)}`);
  }
}
