import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../errors/index.ts';
import { conversionScopes, writeConvertedSet, type ConversionScope, type ConvertedSet } from '../../eval/datasets/converted-set.ts';
import { convertMusique } from '../../eval/datasets/musique.ts';
import { convertWikiTableQuestions } from '../../eval/datasets/wikitablequestions.ts';
import { intFlag } from '../context.ts';
import type { CliIo } from '../io.ts';

interface ConvertFlags {
  out: string;
  limit?: string;
  scope?: string;
}

/** The datasets `eval convert` knows, with the scope each defaults to (the setting the dataset's own task uses). */
const CONVERTERS: Record<string, { scope: ConversionScope; convert: (src: string, options: { limit?: number; scope: ConversionScope }) => Promise<ConvertedSet> }> = {
  wtq: { scope: 'question', convert: convertWikiTableQuestions },
  musique: { scope: 'shared', convert: convertMusique },
};

function scopeOf(flag: string | undefined, fallback: ConversionScope): ConversionScope {
  if (flag === undefined) return fallback;
  if (!(conversionScopes as readonly string[]).includes(flag)) throw new ValidationError(`--scope must be one of ${conversionScopes.join(', ')}, got ${JSON.stringify(flag)}.`);
  return flag as ConversionScope;
}

/** `evident eval convert wtq|musique <src> --out <dir>`: a public dataset as a cases file and a corpus folder for `eval run`. */
export function registerEvalConvertCommand(evalCommand: Command, io: CliIo): void {
  evalCommand
    .command('convert')
    .description('Convert WikiTableQuestions (wtq) or MuSiQue (musique) into cases.jsonl and a corpus folder for `eval run`')
    .argument('<dataset>', Object.keys(CONVERTERS).join(' or '))
    .argument('<src>', 'the dataset folder (or, for musique, its questions file)')
    .requiredOption('--out <dir>', 'a new or empty folder for cases.jsonl and corpus/')
    .option('--limit <n>', 'convert only the first n questions (and the documents they use)')
    .option('--scope <scope>', 'question: each question sees only its own documents (wtq default); shared: all of them (musique default)')
    .action(async (dataset: string, src: string, flags: ConvertFlags) => {
      const converter = CONVERTERS[dataset];
      if (!converter) throw new ValidationError(`Unknown dataset ${JSON.stringify(dataset)}.`, { hint: `Use one of: ${Object.keys(CONVERTERS).join(', ')}.` });
      const limit = intFlag('--limit', flags.limit);
      const scope = scopeOf(flags.scope, converter.scope);
      const set = await converter.convert(resolve(src), { scope, ...(limit ? { limit } : {}) });
      const written = await writeConvertedSet(set, resolve(flags.out));
      io.out(
        `${written.cases} cases, ${written.documents} documents (scope: ${scope}) → ${written.casesFile}\n` +
          `run them: evident eval run ${written.casesFile} --corpus ${written.corpusDir}\n`,
      );
    });
}
