import { describe, expect, it } from 'vitest';
import { PageValidatorCache } from './page-validators.ts';
import { WebSource } from './web-source.ts';

const source = (url: string) => new WebSource({ mode: 'sitemap', url, validators: new PageValidatorCache() });

describe('WebSource refuses what it must not fetch before any request', () => {
  it.each([
    ['not a URL', 'sitemap.xml'],
    ['a file URL', 'file:///etc/passwd'],
    ['an FTP URL', 'ftp://127.0.0.1/sitemap.xml'],
    ['credentials in the URL (they would be stored as the source)', 'http://user:secret@127.0.0.1/sitemap.xml'],
  ])('%s', (_name, url) => {
    expect(() => source(url)).toThrow(expect.objectContaining({ code: 'source_invalid' }));
  });

  it("owns only documents whose source is on its origin, not a look-alike host's", () => {
    const web = source('http://127.0.0.1:8080/sitemap.xml#top');
    expect(web.owns({ source: 'http://127.0.0.1:8080/a.html' })).toBe(true);
    expect(web.owns({ source: 'http://127.0.0.1:8080.evil.example/a.html' })).toBe(false);
    expect(web.owns({ source: 'http://127.0.0.1:8081/a.html' })).toBe(false);
    expect(web.owns({ source: 'a.html' })).toBe(false);
    expect(web.label).toBe('sitemap http://127.0.0.1:8080/sitemap.xml');
  });
});
