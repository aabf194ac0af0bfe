import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceError } from '../../errors/index.ts';
import { sha256 } from '../../ingest/prepare-document.ts';
import type { Connector, ConnectorItem, ConnectorPage, FetchResult, StoredDocument } from '../connector.ts';
import { boundedFetch, type FetchBounds } from './bounded-fetch.ts';
import type { PageValidatorCache } from './page-validators.ts';
import { parseRobots } from './robots.ts';
import { parseSitemap } from './sitemap.ts';

export interface WebBounds extends FetchBounds {
  /** Pages one listing may hold; a sitemap listing more fails (a cut listing would delete the rest). */
  maxPages: number;
  /** Levels of sitemap indexes below the given sitemap. */
  maxDepth: number;
}

export const WEB_DEFAULTS: WebBounds = {
  maxPages: 1000,
  maxDepth: 2,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  timeoutMs: 15_000,
};

export interface WebSourceOptions {
  /** `sitemap`: every page the sitemap lists; `page`: this one page. */
  mode: 'sitemap' | 'page';
  url: string;
  bounds?: Partial<WebBounds>;
  validators: PageValidatorCache;
  aclOverride?: string[] | undefined;
}

/** A URL left out of a listing, and why. */
export interface SkippedUrl {
  url: string;
  reason: 'off_origin' | 'robots';
}

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

/**
 * A web site as a connector: the pages of its sitemap (or one page), same origin only, as robots.txt allows.
 * doc_id and source are the page's URL (without fragment); a site's documents are those whose source is on its
 * origin. Pages are fetched conditionally (If-None-Match / If-Modified-Since) when the store holds the version the
 * validators came with, so an unchanged page costs a 304, and read with the HTML loader.
 */
export class WebSource implements Connector {
  readonly label: string;
  readonly aclOverride: string[] | undefined;
  readonly origin: string;
  readonly skipped: SkippedUrl[] = [];
  /** Full answers and 304s of this run's fetches. */
  readonly fetches = { full: 0, notModified: 0 };
  private readonly start: URL;
  private readonly bounds: WebBounds;
  private allowed: ((url: URL) => boolean) | undefined;
  private folder: string | undefined;
  private written = 0;

  constructor(private readonly options: WebSourceOptions) {
    let start: URL;
    try {
      start = new URL(options.url);
    } catch (cause) {
      throw new SourceError('source_invalid', `${JSON.stringify(options.url)} is not a URL.`, {
        cause,
        hint: 'Give an http:// or https:// URL.',
      });
    }
    if (start.protocol !== 'http:' && start.protocol !== 'https:') {
      throw new SourceError('source_invalid', `${start.href} is not an http or https URL.`, {
        hint: 'Give an http:// or https:// URL.',
      });
    }
    if (start.username || start.password) {
      throw new SourceError(
        'source_invalid',
        'A URL with a user name or password is not synced (it would be stored as the source).',
        { hint: 'Give the URL without credentials.' },
      );
    }
    start.hash = '';
    this.start = start;
    this.origin = start.origin;
    this.bounds = { ...WEB_DEFAULTS, ...options.bounds };
    this.label = options.mode === 'sitemap' ? `sitemap ${start.href}` : `page ${start.href}`;
    this.aclOverride = options.aclOverride;
  }

  owns(document: { source: string }): boolean {
    return document.source.startsWith(`${this.origin}/`);
  }

  async list(): Promise<ConnectorPage> {
    const allowed = await this.robots();
    const item = (url: URL): ConnectorItem => ({ docId: url.href, source: url.href, acl: this.aclOverride ?? [] });
    if (this.options.mode === 'page') {
      if (!allowed(this.start)) {
        throw new SourceError(
          'source_refused',
          `${this.start.href} is disallowed for evident by ${this.origin}/robots.txt.`,
          { hint: "Ask the site's owner to allow it." },
        );
      }
      return { items: [item(this.start)], cursor: undefined };
    }
    const pages = new Map<string, URL>();
    const queue: { url: URL; depth: number }[] = [{ url: this.start, depth: 0 }];
    let sitemaps = 0;
    while (queue.length > 0) {
      const { url, depth } = queue.shift() as { url: URL; depth: number };
      if ((sitemaps += 1) > this.bounds.maxPages) throw this.overPages('sitemaps');
      const fetched = await boundedFetch(url, this.origin, this.bounds, allowed);
      if (fetched.status !== 200) {
        throw new SourceError(
          'source_unavailable',
          `${url.href} answered HTTP ${fetched.status}, so the site's pages are unknown and nothing was synced.`,
          {
            hint: 'Check the sitemap URL; a sitemap that is away is never taken as an empty site.',
          },
        );
      }
      const sitemap = parseSitemap(fetched.body.toString('utf8'));
      if (!sitemap)
        throw new SourceError('source_invalid', `${url.href} is not a sitemap (no <urlset> or <sitemapindex>).`, {
          hint: 'Give the URL of the sitemap XML, e.g. /sitemap.xml.',
        });
      for (const entry of sitemap.entries) {
        const target = this.onSite(entry.loc, url);
        if (!target || !allowed(target)) {
          if (target) this.skipped.push({ url: target.href, reason: 'robots' });
          continue;
        }
        if (sitemap.kind === 'index') {
          if (depth + 1 > this.bounds.maxDepth) {
            throw new SourceError(
              'source_limit_exceeded',
              `${url.href} nests sitemaps deeper than ${this.bounds.maxDepth} levels.`,
              { hint: 'Raise --max-depth if the site is built that way.' },
            );
          }
          queue.push({ url: target, depth: depth + 1 });
        } else {
          pages.set(target.href, target);
          if (pages.size > this.bounds.maxPages) throw this.overPages('pages');
        }
      }
    }
    return { items: [...pages.values()].map(item), cursor: undefined };
  }

  async fetch(item: ConnectorItem, stored: StoredDocument | undefined): Promise<FetchResult> {
    const url = new URL(item.docId);
    const { validators } = this.options;
    const previous = await validators.get(url.href);
    const conditional: Record<string, string> = {};
    if (stored && previous && previous.contentHash === stored.contentHash) {
      if (previous.etag) conditional['if-none-match'] = previous.etag;
      if (previous.lastModified) conditional['if-modified-since'] = previous.lastModified;
    }
    try {
      const fetched = await boundedFetch(
        url,
        this.origin,
        this.bounds,
        this.allowed ?? (await this.robots()),
        conditional,
      );
      if (fetched.status === 304 && Object.keys(conditional).length > 0) {
        this.fetches.notModified += 1;
        return { kind: 'not_modified' };
      }
      if (fetched.status === 404 || fetched.status === 410) {
        await validators.set(url.href, undefined);
        return { kind: 'gone' };
      }
      if (fetched.status !== 200) {
        return {
          kind: 'failed',
          error: {
            code: 'source_unavailable',
            message: `${url.href} answered HTTP ${fetched.status}; the stored version (if any) is kept.`,
          },
        };
      }
      this.fetches.full += 1;
      const type = (fetched.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!HTML_TYPES.includes(type)) {
        return {
          kind: 'failed',
          error: {
            code: 'source_invalid',
            message: `${url.href} is ${type || 'of no declared type'}, not an HTML page.`,
          },
        };
      }
      const etag = fetched.headers.get('etag');
      const lastModified = fetched.headers.get('last-modified');
      await validators.set(url.href, {
        contentHash: sha256(fetched.body),
        ...(etag ? { etag } : {}),
        ...(lastModified ? { lastModified } : {}),
      });
      this.folder ??= await mkdtemp(join(tmpdir(), 'evident-web-'));
      const path = join(this.folder, `page-${(this.written += 1)}.html`);
      await writeFile(path, fetched.body);
      return { kind: 'file', file: { path, docId: item.docId, source: item.source } };
    } catch (error) {
      if (!SourceError.isInstance(error)) throw error;
      return { kind: 'failed', error: { code: error.code, message: error.message } };
    }
  }

  async close(): Promise<void> {
    await this.options.validators.save();
    if (this.folder) await rm(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  /** robots.txt of the origin: absent (4xx) allows all; unreachable or 5xx fails the listing (RFC 9309 §2.3.1). */
  private async robots(): Promise<(url: URL) => boolean> {
    if (this.allowed) return this.allowed;
    const url = new URL('/robots.txt', this.origin);
    const fetched = await boundedFetch(url, this.origin, { ...this.bounds, maxBytes: 512 * 1024 }, () => true);
    if (fetched.status >= 500 || (fetched.status >= 300 && fetched.status < 400)) {
      throw new SourceError(
        'source_unavailable',
        `${url.href} answered HTTP ${fetched.status}, so what the site allows is unknown and nothing was fetched.`,
        {
          hint: 'Try again when the site answers.',
        },
      );
    }
    const check = fetched.status === 200 ? parseRobots(fetched.body.toString('utf8')) : () => true;
    this.allowed = (target) => check(target.pathname + target.search);
    return this.allowed;
  }

  /** A sitemap's `<loc>` as a URL on this origin (without fragment), or undefined (recorded as skipped). */
  private onSite(loc: string, base: URL): URL | undefined {
    let url: URL;
    try {
      url = new URL(loc, base);
    } catch {
      return undefined;
    }
    url.hash = '';
    if (url.origin !== this.origin) {
      this.skipped.push({ url: url.href, reason: 'off_origin' });
      return undefined;
    }
    return url;
  }

  private overPages(what: 'pages' | 'sitemaps'): SourceError {
    return new SourceError(
      'source_limit_exceeded',
      `${this.start.href} lists more than ${this.bounds.maxPages} ${what}; nothing was synced, as a cut listing would delete the rest.`,
      {
        hint: 'Raise --max-pages, or sync a smaller sitemap.',
      },
    );
  }
}
