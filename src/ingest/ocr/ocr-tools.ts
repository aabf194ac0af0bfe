import { runTool } from './run-tool.ts';

/** What this machine has for OCR, as found on a `PATH`. */
export interface OcrTools {
  pdftoppm: boolean;
  tesseract: boolean;
  /** Installed tesseract language packs (`eng`, `chi_sim`, …). */
  languages: ReadonlySet<string>;
}

const DETECT_TIMEOUT_MS = 15_000;
const found = new Map<string, Promise<OcrTools>>();

/**
 * OCR tools on `env.PATH`, looked up once per process (and per `PATH`, which a caller may narrow). A lookup that
 * misses a tool is not kept: a long-running server sees tools installed after it started.
 */
export function detectOcrTools(env: NodeJS.ProcessEnv = process.env): Promise<OcrTools> {
  const key = env.PATH ?? '';
  let tools = found.get(key);
  if (!tools) {
    tools = detect(env);
    found.set(key, tools);
    void tools.then((result) => {
      if (!result.pdftoppm || !result.tesseract) found.delete(key);
    });
  }
  return tools;
}

async function detect(env: NodeJS.ProcessEnv): Promise<OcrTools> {
  const run = { timeoutMs: DETECT_TIMEOUT_MS, maxOutputBytes: 256 * 1024, env };
  const [poppler, tesseract] = await Promise.all([
    runTool('pdftoppm', ['-v'], run),
    runTool('tesseract', ['--list-langs'], run),
  ]);
  // `--list-langs` prints a header line, then one language per line.
  const languages = tesseract.ok
    ? new Set(
        tesseract.stdout
          .split('\n')
          .slice(1)
          .map((line) => line.trim())
          .filter((line) => /^[a-z][a-z0-9_]*$/.test(line)),
      )
    : new Set<string>();
  return { pdftoppm: poppler.ok, tesseract: tesseract.ok, languages };
}
