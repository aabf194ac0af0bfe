import type { Evident } from '../../evident.ts';
import { SourceError } from '../../errors/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { wireJson, type CliIo } from '../io.ts';
import { reportJson, reportText } from '../sync-output.ts';

export const isWebUrl = (path: string): boolean => /^https?:\/\//i.test(path);

/**
 * `evident ingest <url>`: each page through the web source (robots.txt, same-origin redirects, bounds, a conditional
 * request when it was ingested before), nothing deleted. True when every page was ingested or current.
 */
export async function ingestUrls(
  evident: Evident,
  urls: readonly string[],
  acl: string[] | undefined,
  io: CliIo,
  json: boolean,
  logger: Logger,
): Promise<boolean> {
  const [{ webSource, syncDepsOf }, { syncSource }] = await Promise.all([
    import('../../sources/open-sources.ts'),
    import('../../sources/sync-source.ts'),
  ]);
  let ok = true;
  for (const url of urls) {
    try {
      const report = await syncSource(webSource(evident, 'page', url, {}, acl), syncDepsOf(evident, logger), {
        deleteUnlisted: false,
      });
      io.out(json ? wireJson(reportJson(report)) : reportText(report));
      if (report.failed > 0) ok = false;
    } catch (error) {
      if (!SourceError.isInstance(error)) throw error;
      io.err(`error: ${error.toLine()}\n`);
      ok = false;
    }
  }
  return ok;
}
