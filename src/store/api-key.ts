import { createHash, randomBytes } from 'node:crypto';

/** A user's API key as listed: never the key itself, which is shown once when created and stored only as a hash. */
export interface ApiKeyRecord {
  id: string;
  user: string;
  createdAt: string;
}

/** Prefix that makes a leaked key recognisable to secret scanners and in logs. */
const KEY_PREFIX = 'evk_';

/** A new key and its id. 32 random bytes: a hash lookup needs no slow KDF when the key itself has full entropy. */
export function generateApiKey(): { id: string; key: string } {
  return { id: randomBytes(8).toString('hex'), key: KEY_PREFIX + randomBytes(32).toString('base64url') };
}

/** What backends store and look up instead of the key (hex sha256). */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
