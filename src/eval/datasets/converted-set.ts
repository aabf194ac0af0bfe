import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { ValidationError } from '../../errors/index.ts';
import { ACL_SIDECAR_SUFFIX } from '../../ingest/discover.ts';
import { evalCaseSchema, type EvalCase } from '../cases/eval-case.ts';
import type { ConversionScope } from './convert-options.ts';

/** A corpus file of a converted set: its doc id (path under `corpus/`), its bytes, and who may read it. */
export interface ConvertedFile {
  docId: string;
  content: string | Uint8Array;
  /** Written as the `<file>.acl.json` sidecar; absent means every principal may read it. */
  acl?: string[];
}

/** A public dataset turned into Evident's shape: cases to run and the corpus folder they run on. */
export interface ConvertedSet {
  cases: EvalCase[];
  files: ConvertedFile[];
}

export interface WrittenSet {
  casesFile: string;
  corpusDir: string;
  cases: number;
  documents: number;
}

/** A doc id must stay inside the corpus folder: relative, forward slashes, no `.`/`..` segments. */
function assertSafeDocId(docId: string): void {
  const normal = posix.normalize(docId);
  if (
    normal !== docId ||
    docId.startsWith('/') ||
    docId.split('/').some((part) => part === '..' || part === '.' || part === '')
  ) {
    throw new ValidationError(`The converted doc id ${JSON.stringify(docId)} is not a plain relative path.`, {
      hint: 'This is a converter bug: doc ids must be paths inside the corpus folder.',
    });
  }
}

/**
 * Writes `<out>/cases.jsonl` and `<out>/corpus/…` (with ACL sidecars). The folder must be new or empty, so a smaller
 * conversion never leaves the documents of an earlier, larger one in its corpus.
 */
export async function writeConvertedSet(set: ConvertedSet, out: string): Promise<WrittenSet> {
  if (existsSync(out) && (await readdir(out)).length > 0) {
    throw new ValidationError(`${out} is not empty.`, {
      hint: 'Convert into a new or empty folder (outside the repository: the data is not ours to commit).',
    });
  }
  const corpusDir = join(out, 'corpus');
  const seen = new Set<string>();
  for (const file of set.files) {
    assertSafeDocId(file.docId);
    if (seen.has(file.docId))
      throw new ValidationError(`Two converted documents share the doc id ${file.docId}.`, {
        hint: 'This is a converter bug.',
      });
    seen.add(file.docId);
    const path = join(corpusDir, ...file.docId.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
    if (file.acl) await writeFile(path + ACL_SIDECAR_SUFFIX, `${JSON.stringify({ acl: file.acl })}\n`);
  }
  const lines = set.cases.map((evalCase) => {
    const { history, ...rest } = evalCaseSchema.parse(evalCase);
    return JSON.stringify(history.length ? { ...rest, history } : rest);
  });
  await mkdir(out, { recursive: true });
  const casesFile = join(out, 'cases.jsonl');
  await writeFile(casesFile, `${lines.join('\n')}\n`);
  return { casesFile, corpusDir, cases: set.cases.length, documents: set.files.length };
}

export { conversionScopes, type ConversionScope } from './convert-options.ts';

/** An ACL group name from any id: entries may not hold spaces, commas or colons. */
export const groupName = (prefix: string, id: string): string =>
  `${prefix}-${id.replace(/[^\p{L}\p{N}_.-]+/gu, '-').replace(/^-+|-+$/g, '')}`;
