import type { Context } from 'hono';
import type { ScimConfig } from '../../../config/index.ts';
import type { Principal } from '../../../domain/index.ts';
import type { AuditRecorder } from '../../../audit/audit-recorder.ts';
import type { Store } from '../../../store/store.ts';
import { ValidationError } from '../../../errors/index.ts';

/**
 * Who the audit log names for a SCIM change: the provisioning client, a reserved id (a colon) that no user can take.
 * It is no principal of any request: the SCIM token opens `/scim/v2` only.
 */
export const SCIM_CLIENT: Principal = { id: 'evident:scim', groups: [], roles: [] };

/** What the SCIM routes work with. */
export interface ScimDeps {
  store: Store;
  audit: AuditRecorder;
  config: ScimConfig;
}

/** The scheme and host resources' `location`s are given under (the request's own). */
export const originOf = (c: Context): string => new URL(c.req.url).origin;

/** Refuses (412) a write whose `If-Match` names another version than the resource's current one. */
export function assertIfMatch(c: Context, version: string): void {
  const header = c.req.header('if-match');
  if (header === undefined || header.trim() === '*') return;
  const wanted = header.split(',').map((tag) => tag.trim());
  if (!wanted.includes(version))
    throw new ValidationError('The resource changed since the version named in If-Match.', {
      hint: 'GET it again and retry with its current ETag.',
      details: { status: 412 },
    });
}
