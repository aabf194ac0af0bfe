import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.QueryTooLargeError';
const symbol = Symbol.for(marker);

/** Which bound of a table query was crossed. */
export type QueryBound = 'result' | 'value' | 'memory';

const SETTING: Record<QueryBound, { what: string; setting: string; hint: string }> = {
  result: {
    what: 'result',
    setting: 'tables.maxResultBytes, EVIDENT_TABLE_MAX_RESULT_BYTES',
    hint: 'Select fewer columns or rows, or aggregate in SQL (COUNT, SUM, GROUP BY) instead of returning raw values.',
  },
  value: {
    what: 'single value',
    setting: 'tables.maxValueBytes, EVIDENT_TABLE_MAX_VALUE_BYTES',
    hint: 'Return shorter values (substr, length) instead of whole long texts or blobs.',
  },
  memory: {
    what: 'working memory',
    setting: 'tables.maxMemoryBytes, EVIDENT_TABLE_MAX_MEMORY_BYTES',
    hint: 'Build smaller intermediate values: avoid very long strings or blobs and large sorts of them.',
  },
};

/**
 * A table query stopped because its result, one of its values, or the memory it needed went over a configured
 * bound. The query was stopped where the bound was crossed; nothing past it was read or returned.
 */
export class QueryTooLargeError extends EvidentError {
  private readonly [symbol] = true;

  constructor(bound: QueryBound, limitBytes: number) {
    const { what, setting, hint } = SETTING[bound];
    super(
      'query_too_large',
      `The query's ${what} went over the limit of ${limitBytes} bytes (${setting}) and the query was stopped.`,
      {
        category: 'user',
        hint: `${hint} Or raise the limit.`,
        details: { bound, limitBytes },
      },
    );
  }

  static override isInstance(error: unknown): error is QueryTooLargeError {
    return EvidentError.hasMarker(error, marker);
  }
}
