export { EvidentError, isEvidentError, type ErrorCategory, type EvidentErrorOptions } from './evident-error.ts';
export {
  ConfigError,
  EmbedderMismatchError,
  IngestError,
  NotFoundError,
  ProviderError,
  QueryRejectedError,
  StoreError,
  ValidationError,
} from './errors.ts';
