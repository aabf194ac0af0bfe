import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.CsrfError';
const symbol = Symbol.for(marker);

/**
 * A state-changing request authenticated by the session cookie without the session's CSRF token, or sent from
 * another site (its `Origin` or `Sec-Fetch-Site` says so): a cross-site request riding on the browser's cookie.
 */
export class CsrfError extends EvidentError {
  private readonly [symbol] = true;

  constructor(reason: string) {
    super('csrf_rejected', `Refused a state-changing request made with the session cookie: ${reason}.`, {
      category: 'user',
      hint: "Send the session's CSRF token (from GET /v1/me or GET /v1/sessions/current) in the x-csrf-token header, from a page of this server; automation should send an API key instead of a cookie.",
    });
  }

  static override isInstance(error: unknown): error is CsrfError {
    return EvidentError.hasMarker(error, marker);
  }
}
