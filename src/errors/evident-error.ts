import type { ErrorCode } from './error-code.ts';

/** Who has to act on an error: the user (fix the input), the system (a bug or environment), or an upstream service. */
export type ErrorCategory = 'user' | 'system' | 'upstream';

export interface EvidentErrorOptions {
  category?: ErrorCategory;
  cause?: unknown;
  /** What the user can do about it, shown after the message. */
  hint?: string;
  details?: Record<string, unknown>;
}

// A registered symbol, not `instanceof`: an error from another copy of this module (another bundle, a worker's
// realm, two installed versions) is still recognised.
const marker = 'evident.error';
const symbol = Symbol.for(marker);

/**
 * The base of every error Evident raises on purpose: a stable code, a category, a message that says what to do.
 * Raise one of its subclasses (one per kind of error, in `src/errors/`), which write the code, message and hint once.
 */
export class EvidentError extends Error {
  private readonly [symbol] = true; // read by hasMarker
  readonly code: ErrorCode;
  readonly category: ErrorCategory;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: EvidentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.category = options.category ?? 'user';
    this.hint = options.hint;
    this.details = options.details ?? {};
  }

  /** One line for a terminal or a log: message, then the hint. */
  toLine(): string {
    return this.hint ? `${this.message} ${this.hint}` : this.message;
  }

  static isInstance(error: unknown): error is EvidentError {
    return EvidentError.hasMarker(error, marker);
  }

  /** Whether `error` carries the marker a class sets on its instances (and its subclasses' instances). */
  protected static hasMarker(error: unknown, marker: string): boolean {
    const markerSymbol = Symbol.for(marker);
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[markerSymbol] === true;
  }
}

export const isEvidentError = (error: unknown): error is EvidentError => EvidentError.isInstance(error);
