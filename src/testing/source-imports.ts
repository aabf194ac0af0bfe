import { readFileSync } from 'node:fs';

/** One import of a source file, as written. */
export interface SourceImport {
  specifier: string;
  /** `import type` / `export type`, or a dynamic import inside `typeof import(…)`: erased at run time. */
  typeOnly: boolean;
  /** `import('…')`: loads when the code reaching it runs, not with the module. */
  dynamic: boolean;
}

/** Comments out, so an example in a doc comment is not an import; strings that merely look like comments stay. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const STATIC = /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?(?:[\w\s{},*$]+?\s+from\s*)?['"]([^'"\n]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/**
 * Every static `import … from`, `export … from`, side-effect `import '…'` and dynamic `import('…')` of a source file
 * (read as text: the import-rule tests of the architecture and of the CLI's start-up share this one reading).
 */
export function importsOf(path: string): SourceImport[] {
  const source = withoutComments(readFileSync(path, 'utf8'));
  const found: SourceImport[] = [];
  for (const match of source.matchAll(STATIC))
    found.push({ specifier: match[3] as string, typeOnly: Boolean(match[2]), dynamic: false });
  for (const match of source.matchAll(DYNAMIC))
    found.push({
      specifier: match[1] as string,
      typeOnly: /typeof\s*$/.test(source.slice(0, match.index)),
      dynamic: true,
    });
  return found;
}
