import type { Principal } from '../domain/index.ts';

/** What the auth middleware puts on every `/v1` request's context. */
export interface ServerEnv {
  Variables: { principal: Principal };
}
