import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.OidcSignInError';
const symbol = Symbol.for(marker);

/** Why a sign-in through the OpenID provider was refused; each says what to do, none echoes a token. */
export type OidcSignInFailure =
  | 'not_configured'
  | 'state_unknown'
  | 'provider_refused'
  | 'provider_unreachable'
  | 'token_invalid'
  | 'user_claim_missing'
  | 'user_name_invalid'
  | 'groups_invalid'
  | 'user_inactive';

const MESSAGES: Record<OidcSignInFailure, { message: string; hint: string }> = {
  not_configured: {
    message: 'Sign-in with an identity provider is not configured on this server.',
    hint: 'Sign in with an API key, or ask the operator to set oidc.issuer and oidc.clientId (EVIDENT_OIDC_*).',
  },
  state_unknown: {
    message: 'This sign-in link was already used, has expired, or was not started here.',
    hint: 'Start the sign-in again from the sign-in page.',
  },
  provider_refused: {
    message: 'The identity provider refused the sign-in.',
    hint: 'Start the sign-in again; if it keeps failing, ask the operator to check the client settings at the provider.',
  },
  provider_unreachable: {
    message: 'The identity provider could not be reached.',
    hint: 'Try again in a moment; if it keeps failing, ask the operator to check oidc.issuer.',
  },
  token_invalid: {
    message: "The identity provider's answer did not pass validation (signature, issuer, audience, expiry or nonce).",
    hint: "Start the sign-in again; if it keeps failing, ask the operator to check the provider's settings and the server's clock.",
  },
  user_claim_missing: {
    message: 'The identity provider did not say who you are in the claim this server reads.',
    hint: 'Ask the operator to check oidc.userClaim (EVIDENT_OIDC_USER_CLAIM) and the scopes asked for.',
  },
  user_name_invalid: {
    message: 'Your user name at the identity provider cannot be an Evident user name.',
    hint: 'Ask the operator to choose another oidc.userClaim, or to change the name at the provider.',
  },
  user_inactive: {
    message: 'Your Evident account is deactivated.',
    hint: 'Ask an administrator to reactivate it.',
  },
  groups_invalid: {
    message: 'The groups the identity provider sent cannot be Evident groups (too many, or an invalid name).',
    hint: 'Ask the operator to check oidc.groupsClaim (EVIDENT_OIDC_GROUPS_CLAIM) and the groups sent by the provider.',
  },
};

/** A sign-in through the OpenID provider that was refused: which step failed, never what a token held. */
export class OidcSignInError extends EvidentError {
  private readonly [symbol] = true;
  readonly failure: OidcSignInFailure;

  constructor(failure: OidcSignInFailure, options: { cause?: unknown; detail?: string } = {}) {
    const { message, hint } = MESSAGES[failure];
    super('oidc_sign_in_failed', options.detail ? `${message} ${options.detail}` : message, {
      category: failure === 'provider_unreachable' ? 'upstream' : 'user',
      hint,
      cause: options.cause,
      details: { failure },
    });
    this.failure = failure;
  }

  static override isInstance(error: unknown): error is OidcSignInError {
    return EvidentError.hasMarker(error, marker);
  }
}
