/** Who has to act on an error: the user (fix the input), the system (a bug or environment), or an upstream service. */
export type ErrorCategory = 'user' | 'system' | 'upstream';

export interface EvidentErrorOptions {
  category?: ErrorCategory;
  cause?: unknown;
  /** What the user can do about it, shown after the message. */
  hint?: string;
  details?: Record<string, unknown>;
}

/** The base of every error Evident raises on purpose: a stable code, a category, a message that says what to do. */
export class EvidentError extends Error {
  readonly code: string;
  readonly category: ErrorCategory;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, options: EvidentErrorOptions = {}) {
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
}

export const isEvidentError = (error: unknown): error is EvidentError => error instanceof EvidentError;
