import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../errors/index.ts';
import type { ConvertedSet } from '../../eval/datasets/converted-set.ts';
import {
  conversionScopes,
  rgbVariants,
  underspecifiedPolicies,
  type ConversionScope,
  type RgbVariant,
  type UnderspecifiedPolicy,
} from '../../eval/datasets/convert-options.ts';
import { intFlag } from '../context.ts';
import type { CliIo } from '../io.ts';

interface ConvertFlags {
  out: string;
  limit?: string;
  scope?: string;
  variant?: string;
  passages?: string;
  noiseRate?: string;
  seed?: string;
  underspecified?: string;
}

/** The options every converter may read; each takes the ones its dataset has. */
interface ConvertOptions {
  scope: ConversionScope;
  limit?: number;
  variant?: RgbVariant;
  passages?: number;
  noiseRate?: number;
  seed?: number;
  underspecified?: UnderspecifiedPolicy;
}

interface Converter {
  /** The scopes the dataset's task makes sense in; the first is the default. */
  scopes: readonly ConversionScope[];
  convert: (src: string, options: ConvertOptions) => Promise<ConvertedSet>;
}

/** The datasets `eval convert` knows, with the scope each defaults to (the setting the dataset's own task uses). */
// Each converter loads when it runs (a CSV parser, a dataset reader), not with every CLI start.
const CONVERTERS: Record<string, Converter> = {
  wtq: {
    scopes: ['question', 'shared'],
    convert: async (src, options) =>
      (await import('../../eval/datasets/wikitablequestions.ts')).convertWikiTableQuestions(src, options),
  },
  musique: {
    scopes: ['shared', 'question'],
    convert: async (src, options) => (await import('../../eval/datasets/musique.ts')).convertMusique(src, options),
  },
  // RGB's passages are per question by construction (and the negative case must not see its positives).
  rgb: {
    scopes: ['question'],
    convert: async (src, options) => (await import('../../eval/datasets/rgb.ts')).convertRgb(src, options),
  },
  // One pooled corpus, so an unanswerable turn meets on-topic passages without its answer.
  mtrag: {
    scopes: ['shared'],
    convert: async (src, options) => (await import('../../eval/datasets/mtrag.ts')).convertMtrag(src, options),
  },
  hotpotqa: {
    scopes: ['question', 'shared'],
    convert: async (src, options) => (await import('../../eval/datasets/hotpotqa.ts')).convertHotpotQa(src, options),
  },
};

function scopeOf(flag: string | undefined, dataset: string, converter: Converter): ConversionScope {
  if (flag === undefined) return converter.scopes[0] as ConversionScope;
  if (!(conversionScopes as readonly string[]).includes(flag))
    throw new ValidationError(`--scope must be one of ${conversionScopes.join(', ')}, got ${JSON.stringify(flag)}.`);
  if (!(converter.scopes as readonly string[]).includes(flag))
    throw new ValidationError(`${dataset} converts only with --scope ${converter.scopes.join(' or ')}.`);
  return flag as ConversionScope;
}

function choiceOf<T extends string>(name: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value))
    throw new ValidationError(`${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}.`);
  return value as T;
}

function rateOf(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1)
    throw new ValidationError(`${name} must be a number from 0 to 1, got ${JSON.stringify(value)}.`);
  return parsed;
}

function seedOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new ValidationError(`--seed must be a non-negative integer, got ${JSON.stringify(value)}.`);
  return parsed;
}

/** `evident eval convert <dataset> <src> --out <dir>`: a public dataset as a cases file and a corpus folder for `eval run`. */
export function registerEvalConvertCommand(evalCommand: Command, io: CliIo): void {
  evalCommand
    .command('convert')
    .description(
      'Convert WikiTableQuestions (wtq), MuSiQue (musique), RGB (rgb), MTRAG (mtrag) or HotpotQA (hotpotqa) into cases.jsonl and a corpus folder for `eval run`',
    )
    .argument('<dataset>', Object.keys(CONVERTERS).join(', '))
    .argument('<src>', 'the dataset folder (wtq, musique) or its questions file (musique, rgb, mtrag, hotpotqa)')
    .requiredOption('--out <dir>', 'a new or empty folder for cases.jsonl and corpus/')
    .option('--limit <n>', 'convert only the first n questions (and the documents they use)')
    .option(
      '--scope <scope>',
      'question: each question sees only its own documents (wtq, rgb, hotpotqa default); shared: all of them (musique, mtrag default)',
    )
    .option(
      '--variant <variant>',
      `rgb: ${rgbVariants.join('|')} (negative passages only, expect a refusal; positives among negatives, expect the answer; both)`,
      'negative',
    )
    .option('--passages <n>', 'rgb: passages per case, sampled as RGB does (default: all of them)')
    .option(
      '--noise-rate <rate>',
      "rgb, with --passages: the share of a positive case's passages that are negatives (default 0)",
    )
    .option('--seed <n>', 'rgb: seeds the passage sampling and order (default 0)')
    .option(
      '--underspecified <policy>',
      `mtrag: ${underspecifiedPolicies.join('|')} (UNDERSPECIFIED turns answerable when they have reference contexts; always refused; left out)`,
      'by-contexts',
    )
    .action(async (dataset: string, src: string, flags: ConvertFlags) => {
      const converter = CONVERTERS[dataset];
      if (!converter)
        throw new ValidationError(`Unknown dataset ${JSON.stringify(dataset)}.`, {
          hint: `Use one of: ${Object.keys(CONVERTERS).join(', ')}.`,
        });
      const limit = intFlag('--limit', flags.limit);
      const passages = intFlag('--passages', flags.passages);
      const noiseRate = rateOf('--noise-rate', flags.noiseRate);
      const seed = seedOf(flags.seed);
      const variant = choiceOf('--variant', flags.variant, rgbVariants);
      const underspecified = choiceOf('--underspecified', flags.underspecified, underspecifiedPolicies);
      const scope = scopeOf(flags.scope, dataset, converter);
      const set = await converter.convert(resolve(src), {
        scope,
        ...(limit ? { limit } : {}),
        ...(variant ? { variant } : {}),
        ...(passages ? { passages } : {}),
        ...(noiseRate !== undefined ? { noiseRate } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(underspecified ? { underspecified } : {}),
      });
      const { writeConvertedSet } = await import('../../eval/datasets/converted-set.ts');
      const written = await writeConvertedSet(set, resolve(flags.out));
      io.out(
        `${written.cases} cases, ${written.documents} documents (scope: ${scope}) → ${written.casesFile}\n` +
          `run them: evident eval run ${written.casesFile} --corpus ${written.corpusDir}\n`,
      );
    });
}
