import type { OcrConfig } from '../../config/ocr-schema.ts';
import { IngestError } from '../../errors/index.ts';
import { detectOcrTools } from './ocr-tools.ts';

/** What needs OCR, for the message when it cannot run: `In scan.pdf, page 2 has no text` or `photo.png is an image`. */
export interface OcrNeed {
  /** The start of a sentence that says what would be read. */
  subject: string;
  /** `it` or `them`: what the subject speaks of. */
  them: 'it' | 'them';
  /** The way out without OCR: `set ingest.ocr.enabled: false to ingest its text pages only`. */
  orElse: string;
  details: Record<string, unknown>;
}

const PACKAGES = { tesseract: 'tesseract-ocr', pdftoppm: 'poppler-utils' } as const;
const install = (packages: readonly string[]): string => `apt-get install ${packages.join(' ')}`;
const languagePackage = (language: string): string => `tesseract-ocr-${language.replace(/_/g, '-')}`;

/**
 * Fails with `ocr_unavailable`, saying what to install, when a tool in `tools` or a language of
 * `ingest.ocr.languages` is not on this machine; a file is never stored as if what needs OCR were empty.
 */
export async function requireOcrTools(
  need: OcrNeed,
  tools: readonly (keyof typeof PACKAGES)[],
  config: OcrConfig,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const found = await detectOcrTools(env);
  const missing = tools.filter((tool) => !found[tool]).map((tool) => PACKAGES[tool]);
  if (missing.length > 0) {
    const packages = [...missing, ...(found.tesseract ? [] : config.languages.map(languagePackage))];
    throw new IngestError(
      'ocr_unavailable',
      `${need.subject}; install ${missing.join(' and ')} to read ${need.them}.`,
      {
        hint: `Install the OCR tools (Debian: \`${install(packages)}\`) and ingest it again, or ${need.orElse}.`,
        details: { ...need.details, missing },
      },
    );
  }
  const absent = config.languages.filter((language) => !found.languages.has(language));
  if (absent.length > 0) {
    throw new IngestError(
      'ocr_unavailable',
      `${need.subject}, and the OCR language${absent.length === 1 ? '' : 's'} ${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} not installed.`,
      {
        hint: `Install it (Debian: \`${install(absent.map(languagePackage))}\`), or change ingest.ocr.languages (installed: ${[...found.languages].join(', ') || 'none'}).`,
        details: { ...need.details, languages: absent },
      },
    );
  }
}

/** Whether `tools` and every language of `ingest.ocr.languages` are on this machine: OCR that is a bonus, not a need. */
export async function ocrToolsReady(
  tools: readonly (keyof typeof PACKAGES)[],
  config: OcrConfig,
  env: NodeJS.ProcessEnv,
): Promise<boolean> {
  const found = await detectOcrTools(env);
  return tools.every((tool) => found[tool]) && config.languages.every((language) => found.languages.has(language));
}
