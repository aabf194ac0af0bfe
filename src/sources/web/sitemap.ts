import { Parser } from 'htmlparser2';

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export interface Sitemap {
  /** `index`: a sitemap of sitemaps (its entries are sitemaps to read); `urlset`: pages. */
  kind: 'index' | 'urlset';
  entries: SitemapEntry[];
}

/** Reads a sitemap (sitemaps.org 0.9): the `<loc>` and `<lastmod>` of each `<url>`, or each `<sitemap>` of an index. */
export function parseSitemap(xml: string): Sitemap | undefined {
  let kind: Sitemap['kind'] | undefined;
  const entries: SitemapEntry[] = [];
  let entry: SitemapEntry | undefined;
  let field: 'loc' | 'lastmod' | undefined;
  let text = '';
  const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
  const parser = new Parser(
    {
      onopentag(name) {
        const tag = local(name);
        if (!kind && (tag === 'urlset' || tag === 'sitemapindex')) kind = tag === 'urlset' ? 'urlset' : 'index';
        else if (tag === 'url' || tag === 'sitemap') entry = { loc: '' };
        else if (entry && (tag === 'loc' || tag === 'lastmod')) {
          field = tag;
          text = '';
        }
      },
      ontext(data) {
        if (field) text += data;
      },
      onclosetag(name) {
        const tag = local(name);
        if (field && tag === field && entry) {
          const value = text.trim();
          if (field === 'loc') entry.loc = value;
          else if (value) entry.lastmod = value;
          field = undefined;
        } else if ((tag === 'url' || tag === 'sitemap') && entry) {
          if (entry.loc) entries.push(entry);
          entry = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return kind ? { kind, entries } : undefined;
}
