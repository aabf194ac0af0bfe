import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.StructuredOutputError';
const symbol = Symbol.for(marker);

/** One reason a model's answer did not match a schema: where in the object, and what was wrong. */
export interface StructuredOutputIssue {
  path: (string | number)[];
  message: string;
}

/**
 * A chat model kept answering with output that does not match the schema, after the validation errors were fed back
 * a bounded number of times. `issues` are those of the last attempt.
 */
export class StructuredOutputError extends EvidentError {
  private readonly [symbol] = true;
  readonly issues: StructuredOutputIssue[];

  constructor(
    schemaName: string,
    attempts: number,
    issues: StructuredOutputIssue[],
    options: EvidentErrorOptions = {},
  ) {
    const first = issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
    super(
      'structured_output_invalid',
      `The model's answer did not match the ${schemaName} schema after ${attempts} attempt${attempts === 1 ? '' : 's'}${first ? `: ${first.message}${where}` : ''}.`,
      {
        category: 'upstream',
        hint: 'Use a stronger model, one that supports structured output (JSON schema), or raise the retry bound.',
        ...options,
        details: { schema: schemaName, attempts, issues, ...options.details },
      },
    );
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is StructuredOutputError {
    return EvidentError.hasMarker(error, marker);
  }
}
