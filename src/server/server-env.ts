import type { LimitsConfig } from '../config/index.ts';
import type { Principal } from '../domain/index.ts';
import type { SessionRecord } from '../store/ports/session-store.ts';

/**
 * What the middleware puts on a request's context: the limits on every request, the principal once authenticated,
 * and the browser session when the request was authenticated by the session cookie (undefined for a key).
 */
export interface ServerEnv {
  Variables: { principal: Principal; limits: LimitsConfig; session: SessionRecord | undefined };
}
