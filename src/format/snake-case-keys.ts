/**
 * The one mapping from in-process records (camelCase, TypeScript's naming) to JSON on a surface (snake_case, as the
 * answer contract: ARCHITECTURE §8). A key already in snake_case is unchanged, so already-wire values pass through.
 */

/** `chunkCount` → `chunk_count`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Rest}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Rest>}`
  : S;

/**
 * Keys whose values are data chosen by a client or a model (a thread's `metadata`, a tool call's `arguments`), not
 * Evident's own fields: kept verbatim, whatever their naming.
 */
export const VERBATIM_KEYS = ['metadata', 'arguments', 'args'] as const;
type VerbatimKey = (typeof VERBATIM_KEYS)[number];

/** T as JSON with every key of Evident's own objects in snake_case (values under the verbatim keys as they are). */
export type SnakeCased<T> = T extends readonly (infer Item)[]
  ? SnakeCased<Item>[]
  : T extends Date | Uint8Array | Float32Array
    ? T
    : T extends object
      ? { [K in keyof T as K extends string ? SnakeCase<K> : K]: K extends VerbatimKey ? T[K] : SnakeCased<T[K]> }
      : T;

export const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

const verbatim = new Set<string>(VERBATIM_KEYS);

/** A copy of `value` with the keys of every plain object (in arrays too) in snake_case. Other values are kept. */
export function snakeCaseKeys<T>(value: T): SnakeCased<T> {
  return convert(value) as SnakeCased<T>;
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[snakeCase(key)] = verbatim.has(key) ? child : convert(child);
  return out;
}
