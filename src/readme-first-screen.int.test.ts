import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The README's first screen: its CLI tour is run for real (each `$ npx evident …` line as a child process against a
 * scratch store), and every line it shows must be printed; its length stays a first screen; and every relative link
 * of the README and of docs/ points at a file (and heading) that exists.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const run = promisify(execFile);

const TOUR_HEADING = '## A tour of the CLI';

/** One `$ command` of a console block and the lines shown under it. */
interface Example {
  command: string;
  shown: string[];
}

/** The console blocks of the section that starts at `heading`, as commands with their shown output. */
function consoleExamples(markdown: string, heading: string): Example[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const end = markdown.indexOf('\n## ', start + heading.length + 2);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const examples: Example[] = [];
  for (const [, body] of section.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const line of (body ?? '').split('\n')) {
      if (line.startsWith('$ ')) examples.push({ command: line.slice(2), shown: [] });
      else if (line.trim() !== '') examples.at(-1)?.shown.push(line);
    }
  }
  return examples;
}

/** Words of a command line as a POSIX shell splits them (plain words, single and double quotes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const [, double, single, plain] of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    words.push(double !== undefined ? double.replace(/\\(.)/g, '$1') : (single ?? plain ?? ''));
  }
  return words;
}

/** What differs between two runs of the same command: ids, timings, the store's absolute path. */
const normalize = (line: string): string =>
  line
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\b\d+(\.\d+)? (s|ms)\b/g, '<time> $2')
    .replace(/→ \S+$/, '→ <path>')
    .trimEnd();

describe('README first screen', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'evident-readme-'));
  // The tour runs from the checkout: here, a scratch folder where `samples` is the checkout's.
  symlinkSync(join(root, 'samples'), join(scratch, 'samples'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const examples = consoleExamples(readme, TOUR_HEADING);

  it('is a first screen: at most ~150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(160);
  });

  it('tours the CLI: ingest, search, a cited answer and a refusal', () => {
    expect(examples.map((example) => shellWords(example.command).slice(0, 3).join(' '))).toEqual([
      'npx evident ingest',
      'npx evident search',
      'npx evident ask',
      'npx evident ask',
    ]);
    const [, , answered, refused] = examples;
    expect(answered?.shown.join('\n')).toMatch(/\$48,000\.[\s\S]*Sources:\n\[1\] contracts\/ct-2024-0193\.md#0: "/);
    expect(refused?.shown[0]).toMatch(/^I don't know based on the current evidence\. Missing: /);
  });

  it('shows what each command of the tour prints, run for real in order', { timeout: 300_000 }, async () => {
    for (const { command, shown } of examples) {
      const [npx, evident, ...args] = shellWords(command);
      expect(`${npx} ${evident}`, command).toBe('npx evident');
      const { stdout, stderr } = await run(process.execPath, [join(root, 'bin/evident.js'), ...args], {
        cwd: scratch,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ONNXRUNTIME_NODE_INSTALL: 'skip' },
        timeout: 120_000,
      });
      const printed = new Set(`${stdout}\n${stderr}`.split('\n').map(normalize));
      for (const line of shown) {
        expect(printed.has(normalize(line)), `\`${command}\` prints the line\n${line}\nin:\n${stdout}`).toBe(true);
      }
    }
  });
});

describe('docs/agents.md', () => {
  it('shows the rag graph as `evident graph rag --mermaid` prints it', async () => {
    const page = readFileSync(join(root, 'docs/agents.md'), 'utf8');
    const shown = /```mermaid\n([\s\S]*?)```/.exec(page)?.[1];
    const { stdout } = await run(process.execPath, [join(root, 'bin/evident.js'), 'graph', 'rag', '--mermaid'], {
      cwd: root,
      timeout: 120_000,
    });
    expect(shown?.trim(), 'docs/agents.md: paste the output of `npx evident graph rag --mermaid`').toBe(stdout.trim());
  });
});

/** Markdown files whose relative links must resolve: the README, docs/ and the benchmark results. */
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'bench/RESULTS.md',
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const withoutCode = (markdown: string): string => markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

const anchorsOf = (file: string): Set<string> =>
  new Set(
    [...withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading ?? '')),
  );

describe('links in the README and docs/', () => {
  it.each(pages)('every relative link of %s resolves to a file and heading', (page) => {
    const file = join(root, page);
    const broken: string[] = [];
    for (const [, target] of withoutCode(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!target || /^[a-z]+:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? file : resolve(dirname(file), path);
      if (!existsSync(resolved)) broken.push(`${target} (no ${relative(root, resolved)})`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
        broken.push(`${target} (no heading #${anchor} in ${relative(root, resolved)})`);
    }
    expect(broken, `broken links in ${page}`).toEqual([]);
  });
});
