import { z } from 'zod';

const KiB = 1024;
const MiB = 1024 * KiB;

/** A whole number within [min, max]: every limit is itself bounded, so a typo cannot switch one off. */
const bound = (min: number, max: number, fallback: number) => z.number().int().min(min).max(max).default(fallback);

/**
 * What one HTTP request may carry. The server reads every JSON body through one reader that enforces the byte and
 * depth limits before parsing, and each route checks its own fields; over a limit is `payload_too_large` (413) for
 * the body and `input_too_large` (400) for a field, with a hint naming the setting. Upload bodies are bounded by
 * `ingest.maxFileBytes` instead.
 */
export const limitBoundsSchema = z
  .object({
    maxBodyBytes: bound(KiB, 256 * MiB, MiB).describe(
      'Bytes of one JSON request body, on every JSON route; larger ones are refused before they are read whole.',
    ),
    maxJsonDepth: bound(4, 1_000, 32).describe(
      'Nesting depth (objects and arrays) of a JSON request body; checked on the raw text, before parsing.',
    ),
    maxQueryChars: bound(16, 100_000, 2_000).describe('Characters of a search query (`POST /v1/search`).'),
    maxQueryTerms: bound(1, 10_000, 128).describe(
      "Distinct terms of a search query once analysed: the keyword channel's cost grows with them.",
    ),
    maxQuestionChars: bound(16, 1_000_000, 4_000).describe(
      "Characters of a run's question (LangGraph runs, the last user message of a chat completion).",
    ),
    maxMessages: bound(1, 10_000, 200).describe('Messages in one run input or chat completion.'),
    maxMetadataBytes: bound(0, 16 * MiB, 16 * KiB).describe(
      "Bytes of a thread's or run's metadata (and of a thread search's filter), serialised as JSON.",
    ),
    maxMetadataDepth: bound(1, 100, 8).describe('Nesting depth of a thread\'s or run\'s metadata (`{"a": 1}` is 1).'),
  })
  .strict();

export const limitsSchema = limitBoundsSchema.prefault({});

export type LimitsConfig = z.infer<typeof limitsSchema>;

/** The documented defaults, for an app built without a loaded config. */
export const LIMITS_DEFAULTS: LimitsConfig = limitsSchema.parse({});

export type LimitName = keyof LimitsConfig;

/** The variable of a limit: `maxBodyBytes` ← `EVIDENT_MAX_BODY_BYTES`. */
export const limitEnvName = (name: LimitName): string =>
  `EVIDENT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** How an error's hint names a limit: its config key and its variable. */
export const limitSetting = (name: LimitName): string => `limits.${name} (${limitEnvName(name)})`;
