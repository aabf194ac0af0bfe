import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.ConfigError';
const symbol = Symbol.for(marker);

/** Invalid configuration (flags, env, config file). */
export class ConfigError extends EvidentError {
  private readonly [symbol] = true;

  constructor(message: string, options: EvidentErrorOptions = {}) {
    super('config_invalid', message, { category: 'user', ...options });
  }

  static override isInstance(error: unknown): error is ConfigError {
    return EvidentError.hasMarker(error, marker);
  }
}
