import { dirname, join } from 'node:path';
import type { Evident } from '../evident.ts';
import { FolderSource } from './folder-source.ts';
import { PageValidatorCache } from './web/page-validators.ts';
import { WebSource, type WebBounds } from './web/web-source.ts';
import type { Logger } from '../logging/logger.ts';
import type { SyncDeps } from './sync-source.ts';

/** The store's own files, never listed as documents when the store lives inside a synced folder. */
const storeFiles = (evident: Evident): string[] =>
  evident.store.backend === 'sqlite'
    ? ['', '-wal', '-shm', '-journal'].map((suffix) => evident.store.location + suffix)
    : [];

/** What a sync of this Evident needs: its store and ingestor, and the share of a source one sync may delete. */
export const syncDepsOf = (evident: Pick<Evident, 'store' | 'ingestor' | 'config'>, logger?: Logger): SyncDeps => ({
  store: evident.store,
  ingestor: evident.ingestor,
  maxDeleteShare: evident.config.ingest.maxDeleteShare,
  ...(logger ? { logger } : {}),
});

/** One connector per folder, with the config's ingest bounds. */
export function folderSources(
  evident: Evident,
  roots: readonly string[],
  logger: Logger,
  aclOverride?: string[],
): FolderSource[] {
  return roots.map(
    (root) =>
      new FolderSource(root, { limits: evident.config.ingest, logger, exclude: storeFiles(evident), aclOverride }),
  );
}

/** Where page validators (ETag, Last-Modified) are kept between runs: beside the SQLite store file. */
export const validatorsPath = (evident: Evident): string => join(dirname(evident.config.db), 'web-validators.json');

export function webSource(
  evident: Evident,
  mode: 'sitemap' | 'page',
  url: string,
  bounds: Partial<WebBounds>,
  aclOverride?: string[],
): WebSource {
  return new WebSource({ mode, url, bounds, validators: new PageValidatorCache(validatorsPath(evident)), aclOverride });
}
