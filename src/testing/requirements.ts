import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/**
 * What some tests need from the machine that the repository cannot provide: a shared dataset or model, a browser, a
 * database. Without it a test is skipped (and the run prints one summary line per missing requirement, see
 * `requirements-reporter.ts`); under CI nothing may be skipped, so the same test fails and says what is missing.
 */
export interface Requirement<T> {
  /** The kind of tests, as the summary line counts them: "browser", "PostgreSQL", "dataset". */
  readonly kind: string;
  /** Which one, when a kind has several (a dataset's folder name); the summary lists them. */
  readonly detail?: string;
  /** What the tests use: a path or a URL. Only meaningful when `missing` is undefined. */
  readonly value: T;
  /** Why the requirement is not met, or undefined when it is. */
  readonly missing: string | undefined;
  /** The command or step that meets it. */
  readonly hint: string;
}

/** What a skipped (or, under CI, failed) test records for the reporter. */
export interface MissingRequirement {
  kind: string;
  detail?: string;
  missing: string;
  hint: string;
}

declare module 'vitest' {
  interface TaskMeta {
    requirement?: MissingRequirement;
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** `../shared` beside the checkout: data and models the project did not write, read in place. */
export const SHARED_DIR = resolve(ROOT, '../shared');
const PLACE_SHARED = `place the shared folder beside the checkout (${SHARED_DIR})`;

/** `CI` as CI systems (and `.ci/run`) set it; `CI=false` or `CI=0` is not CI. */
export const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());

/** A folder or file under `../shared/datasets`. */
export function sharedDataset(name: string): Requirement<string> {
  const datasets = resolve(SHARED_DIR, 'datasets');
  const path = resolve(datasets, name);
  // One reason for every dataset when the whole folder is absent, so the summary says it once.
  const missing = !existsSync(datasets)
    ? '../shared/datasets missing'
    : existsSync(path)
      ? undefined
      : `../shared/datasets/${name} missing`;
  const hint = existsSync(datasets) ? `put ${name} there (see ../shared/datasets/README.md)` : PLACE_SHARED;
  return { kind: 'dataset', detail: name, value: path, missing, hint };
}

/** A model file under `../shared/models`. */
export function sharedModel(file: string): Requirement<string> {
  const path = resolve(SHARED_DIR, 'models', file);
  return {
    kind: 'model',
    detail: file,
    value: path,
    missing: existsSync(path) ? undefined : `../shared/models/${file} missing`,
    hint: PLACE_SHARED,
  };
}

/** Chromium for the browser tests: `EVIDENT_TEST_CHROMIUM` when set, else Debian's `/usr/bin/chromium`. */
export function chromiumBrowser(): Requirement<string> {
  const path = process.env.EVIDENT_TEST_CHROMIUM || '/usr/bin/chromium';
  let missing: string | undefined;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    missing = `Chromium not found at ${path}`;
  }
  return {
    kind: 'browser',
    value: path,
    missing,
    hint: 'apt-get install chromium (or set EVIDENT_TEST_CHROMIUM to a Chromium binary)',
  };
}

/**
 * The tools that OCR scanned PDFs, image files and DOCX pictures: poppler's `pdftoppm` (which also renders the tests'
 * images of text) and `tesseract` (which decodes PNG, JPEG and TIFF itself) with the English and Simplified Chinese packs.
 */
export function ocrTools(): Requirement<undefined> {
  const has = (command: string, args: string[]): string | undefined => {
    try {
      return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
    } catch {
      return undefined;
    }
  };
  const languages = (has('tesseract', ['--list-langs']) ?? '').split('\n').map((line) => line.trim());
  const lacking = [
    ...(has('pdftoppm', ['-v']) === undefined ? ['pdftoppm'] : []),
    ...(languages.length <= 1
      ? ['tesseract']
      : ['eng', 'chi_sim'].filter((lang) => !languages.includes(lang)).map((lang) => `tesseract ${lang}`)),
  ];
  return {
    kind: 'OCR',
    value: undefined,
    missing: lacking.length === 0 ? undefined : `${lacking.join(', ')} not installed`,
    hint: 'apt-get install --no-install-recommends tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim poppler-utils',
  };
}

/** Poppler's `pdftoppm` alone: what renders a PDF's pages (a figure's page for the vision model). */
export function pdfRenderer(): Requirement<undefined> {
  let found = true;
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore', timeout: 15_000 });
  } catch {
    found = false;
  }
  return {
    kind: 'pdftoppm',
    value: undefined,
    missing: found ? undefined : 'pdftoppm not installed',
    hint: 'apt-get install --no-install-recommends poppler-utils',
  };
}

/** A font that covers Simplified Chinese, for test pages Chromium renders. */
export function chineseFont(): Requirement<undefined> {
  let fonts = '';
  try {
    fonts = execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8', timeout: 15_000 });
  } catch {
    // fc-list missing: no font either.
  }
  return {
    kind: 'font',
    value: undefined,
    missing: fonts.trim() ? undefined : 'no Chinese font installed',
    hint: 'apt-get install --no-install-recommends fonts-wqy-zenhei',
  };
}

/** A PostgreSQL with pgvector the tests may create schemas in: `EVIDENT_TEST_DATABASE_URL`. */
export function postgresDatabase(): Requirement<string> {
  const url = process.env.EVIDENT_TEST_DATABASE_URL;
  return {
    kind: 'PostgreSQL',
    // A well-formed stand-in, so a skipped block's collection-time code (e.g. URL parsing) still runs.
    value: url || 'postgres://localhost/evident_test_database_url_unset',
    missing: url ? undefined : 'EVIDENT_TEST_DATABASE_URL is not set',
    hint: 'export EVIDENT_TEST_DATABASE_URL=$(../shared/scripts/start-postgres.sh | tail -n 1)',
  };
}

function recorded(requirement: Requirement<unknown>, missing: string): MissingRequirement {
  const { kind, detail, hint } = requirement;
  return detail === undefined ? { kind, missing, hint } : { kind, detail, missing, hint };
}

const label = (requirement: Requirement<unknown>): string =>
  requirement.detail === undefined ? requirement.kind : `${requirement.kind} ${requirement.detail}`;

function failure(missing: string, hint: string): Error {
  return new Error(`${missing}: under CI nothing is skipped — ${hint}`);
}

/**
 * A describe block that needs `requirement`. Met: `body` gets its value. Missing: the block's tests are collected and
 * reported as skipped (so `body` must not touch the requirement outside hooks and tests); under CI the block is one
 * failing test that names what is missing instead.
 */
export function describeWith<T>(requirement: Requirement<T>, name: string, body: (value: T) => void): void {
  const { missing } = requirement;
  if (missing === undefined) {
    describe(name, () => body(requirement.value));
    return;
  }
  const meta = { requirement: recorded(requirement, missing) };
  if (IN_CI) {
    describe(name, { meta }, () => {
      it(`needs ${label(requirement)}`, () => {
        throw failure(missing, requirement.hint);
      });
    });
    return;
  }
  describe(`${name} (skipped: ${missing})`, { skip: true, meta }, () => body(requirement.value));
}

/** One test that needs `requirement`, skipped or (under CI) failed as `describeWith` does. */
export function itWith<T>(
  requirement: Requirement<T>,
  name: string,
  fn: (value: T) => unknown,
  timeout?: number,
): void {
  const { missing } = requirement;
  const options = timeout === undefined ? {} : { timeout };
  if (missing === undefined) {
    it(name, options, async () => {
      await fn(requirement.value);
    });
    return;
  }
  const meta = { requirement: recorded(requirement, missing) };
  if (IN_CI) {
    it(name, { ...options, meta }, () => {
      throw failure(missing, requirement.hint);
    });
    return;
  }
  it(`${name} (skipped: ${missing})`, { ...options, skip: true, meta }, () => undefined);
}
