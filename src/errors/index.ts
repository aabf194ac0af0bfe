export { ForbiddenError, UnauthorizedError } from './auth-errors.ts';
export { EvidentError, isEvidentError, type ErrorCategory, type EvidentErrorOptions } from './evident-error.ts';
export {
  ConfigError,
  EmbedderMismatchError,
  IngestError,
  NotFoundError,
  ProviderError,
  QueryRejectedError,
  StoreError,
  StructuredOutputError,
  type StructuredOutputIssue,
  ValidationError,
} from './errors.ts';
export { PayloadTooLargeError } from './payload-too-large-error.ts';
export { ThreadForbiddenError } from './thread-forbidden-error.ts';
