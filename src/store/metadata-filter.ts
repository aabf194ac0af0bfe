import { MAX_ID_CHARS } from '../domain/identifier.ts';
import { ValidationError } from '../errors/index.ts';

/** A metadata key as loaders write them: a snake_case word. Checked, so a backend may place it in a JSON path. */
const METADATA_KEY = /^[a-z][a-z0-9_]{0,63}$/;
/** Keys one listing may filter on: each is a condition of the query. */
const MAX_METADATA_KEYS = 8;

/** The entries of a listing's metadata filter, refused when a key is no snake_case word or a value is too long. */
export function validateMetadataFilter(filter: Readonly<Record<string, string>> | undefined): [string, string][] {
  const entries = Object.entries(filter ?? {});
  if (entries.length > MAX_METADATA_KEYS)
    throw new ValidationError(`A listing filters on at most ${MAX_METADATA_KEYS} metadata keys.`);
  for (const [key, value] of entries) {
    if (!METADATA_KEY.test(key))
      throw new ValidationError(`${JSON.stringify(key)} is no metadata key.`, {
        hint: 'Metadata keys are snake_case words: thread, message_id, from.',
      });
    if (typeof value !== 'string' || value.length > MAX_ID_CHARS)
      throw new ValidationError(`The metadata value for ${key} must be text of at most ${MAX_ID_CHARS} characters.`);
  }
  return entries;
}
