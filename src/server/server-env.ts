import type { LimitsConfig } from '../config/index.ts';
import type { Principal } from '../domain/index.ts';

/** What the middleware puts on a request's context: the limits on every request, the principal once authenticated. */
export interface ServerEnv {
  Variables: { principal: Principal; limits: LimitsConfig };
}
