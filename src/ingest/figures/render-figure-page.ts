import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '../ocr/run-tool.ts';

/** pdftoppm prints little; more than this is not a rendering. */
const MAX_TOOL_OUTPUT_BYTES = 64 * 1024;

export interface PageRender {
  /** The PDF, already written to a private folder. */
  pdfPath: string;
  dir: string;
  page: number;
  /** Pixels of the longer side: the image is at most this squared, whatever the page's size. */
  side: number;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

/** One page as a colour PNG (poppler's `pdftoppm`, a bounded child process); a failure says why. */
export async function renderFigurePage(render: PageRender): Promise<Buffer> {
  const { dir, page, pdfPath } = render;
  const prefix = join(dir, `figure-page-${page}`);
  const n = String(page);
  const result = await runTool(
    'pdftoppm',
    ['-f', n, '-l', n, '-scale-to', String(render.side), '-png', '-singlefile', pdfPath, prefix],
    { timeoutMs: render.timeoutMs, maxOutputBytes: MAX_TOOL_OUTPUT_BYTES, env: render.env, cwd: dir },
  );
  if (!result.ok) {
    const { failure } = result;
    throw new Error(
      failure.kind === 'failed'
        ? `pdftoppm could not render page ${page} (${failure.message})`
        : `pdftoppm did not render page ${page} (${failure.kind.replace(/_/g, ' ')})`,
    );
  }
  const image = `${prefix}.png`;
  try {
    return await readFile(image);
  } finally {
    await rm(image, { force: true });
  }
}
