import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.WebhooksDisabledError';
const symbol = Symbol.for(marker);

/** A run names a webhook, but this deployment has no webhook secret to sign it with. */
export class WebhooksDisabledError extends EvidentError {
  private readonly [symbol] = true;

  constructor() {
    super('webhooks_disabled', 'Webhooks are off on this server: it has no webhooks.secret to sign them with.', {
      category: 'user',
      hint: 'Remove webhook from the request, or ask the operator to set webhooks.secret (EVIDENT_WEBHOOK_SECRET) and webhooks.allowedHosts.',
      details: { setting: 'webhooks.secret' },
    });
  }

  static override isInstance(error: unknown): error is WebhooksDisabledError {
    return EvidentError.hasMarker(error, marker);
  }
}
