import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ServerUnreachableError';
const symbol = Symbol.for(marker);

/** An Evident server a client adapter was pointed at did not answer, or answered as something other than Evident. */
export class ServerUnreachableError extends EvidentError {
  private readonly [symbol] = true;

  constructor(url: string, reason: string, cause?: unknown) {
    super('server_unreachable', `The Evident server at ${url} ${reason}.`, {
      category: 'upstream',
      hint: 'Check the URL (the server root, e.g. http://127.0.0.1:8080) and that `evident serve` runs there.',
      ...(cause === undefined ? {} : { cause }),
    });
  }

  static override isInstance(error: unknown): error is ServerUnreachableError {
    return EvidentError.hasMarker(error, marker);
  }
}
