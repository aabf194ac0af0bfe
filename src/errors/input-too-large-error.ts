import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.InputTooLargeError';
const symbol = Symbol.for(marker);

export interface InputBound {
  /** What was too large, as the client knows it: `the query`, `metadata`, `the request body`. */
  what: string;
  /** What was measured: `characters`, `terms`, `bytes`, `levels of nesting`, `messages`. */
  unit: string;
  limit: number;
  /** The size found, when it was measured whole (a depth scan stops at the limit). */
  actual?: number;
  /** The setting that raises the limit, e.g. `limits.maxQueryChars (EVIDENT_MAX_QUERY_CHARS)`. */
  setting: string;
  /** How to stay within it, e.g. `Send a shorter query`. */
  fix: string;
}

/** One field of a request is over a configured limit; the request was refused before any work on it. */
export class InputTooLargeError extends EvidentError {
  private readonly [symbol] = true;

  constructor(bound: InputBound) {
    const found = bound.actual === undefined ? `more than ${bound.limit}` : String(bound.actual);
    super('input_too_large', `${capitalised(bound.what)} has ${found} ${bound.unit}; the limit is ${bound.limit}.`, {
      category: 'user',
      hint: `${bound.fix}, or raise ${bound.setting}.`,
      details: {
        limit: bound.limit,
        unit: bound.unit,
        ...(bound.actual === undefined ? {} : { actual: bound.actual }),
      },
    });
  }

  static override isInstance(error: unknown): error is InputTooLargeError {
    return EvidentError.hasMarker(error, marker);
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
