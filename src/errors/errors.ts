import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

/** Invalid configuration (flags, env, config file). */
export class ConfigError extends EvidentError {
  constructor(message: string, options: EvidentErrorOptions = {}) {
    super('config_invalid', message, { category: 'user', ...options });
  }
}

/** A file that cannot be ingested; the reason is per file and the rest of the batch goes on. */
export class IngestError extends EvidentError {
  constructor(
    code:
      | 'file_empty'
      | 'file_too_large'
      | 'file_unsupported'
      | 'file_encoding'
      | 'pdf_corrupt'
      | 'pdf_encrypted'
      | 'file_corrupt'
      | 'file_unreadable'
      | 'path_not_found'
      | 'acl_invalid',
    message: string,
    options: EvidentErrorOptions = {},
  ) {
    super(code, message, { category: 'user', ...options });
  }
}

/** The store holds vectors of another embedder than the one configured. */
export class EmbedderMismatchError extends EvidentError {
  constructor(stored: { id: string; dimension: number }, configured: { id: string; dimension: number }) {
    super(
      'embedder_mismatch',
      `The store's vectors were built by embedder ${stored.id} (dimension ${stored.dimension}), but ${configured.id} (dimension ${configured.dimension}) is configured.`,
      {
        category: 'user',
        hint: `Run \`evident reindex\` to rebuild the vectors with ${configured.id}, or configure ${stored.id} again.`,
        details: { stored, configured },
      },
    );
  }
}

/** Something asked for does not exist (a document, a user). */
export class NotFoundError extends EvidentError {
  constructor(what: string, id: string, hint?: string) {
    super('not_found', `No ${what} named ${JSON.stringify(id)}.`, { category: 'user', ...(hint ? { hint } : {}) });
  }
}

/** Bad input to an operation: the message names the field and the fix. */
export class ValidationError extends EvidentError {
  constructor(message: string, options: EvidentErrorOptions = {}) {
    super('invalid_input', message, { category: 'user', ...options });
  }
}

/** A model provider (embedder, reranker, chat) failed or is unreachable. */
export class ProviderError extends EvidentError {
  constructor(provider: string, message: string, options: EvidentErrorOptions = {}) {
    super('provider_failed', `${provider}: ${message}`, { category: 'upstream', ...options });
  }
}

/** The store could not be opened or migrated. */
export class StoreError extends EvidentError {
  constructor(message: string, options: EvidentErrorOptions = {}) {
    super('store_failed', message, { category: 'system', ...options });
  }
}

/**
 * A read-only table query that was refused (not one SELECT, or a table outside the allowed ones) or stopped
 * (time limit). The message says what is allowed and never whether a refused table exists.
 */
export class QueryRejectedError extends EvidentError {
  constructor(code: 'query_rejected' | 'query_timeout', message: string, options: EvidentErrorOptions = {}) {
    super(code, message, { category: 'user', ...options });
  }
}

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
  readonly issues: StructuredOutputIssue[];

  constructor(schemaName: string, attempts: number, issues: StructuredOutputIssue[], options: EvidentErrorOptions = {}) {
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
}
