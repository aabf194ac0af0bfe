import { describe, expect, it } from 'vitest';
import { parseRobots } from './robots.ts';
import { parseSitemap } from './sitemap.ts';

describe('parseRobots', () => {
  it('uses the evident group over *, the longest match, Allow on a tie, * and $ in patterns', () => {
    const allowed = parseRobots(
      [
        'User-agent: *',
        'Disallow: /',
        '',
        'User-agent: other-bot',
        'User-agent: Evident',
        'Disallow: /private/',
        'Allow: /private/press/',
        'Disallow: /*.pdf$',
        'Disallow: /tmp # comment',
        'Allow: /same',
        'Disallow: /same',
      ].join('\n'),
    );
    expect(allowed('/docs/a.html')).toBe(true);
    expect(allowed('/private/keys.html')).toBe(false);
    expect(allowed('/private/press/release.html')).toBe(true);
    expect(allowed('/files/report.pdf')).toBe(false);
    expect(allowed('/files/report.pdf?x=1')).toBe(true);
    expect(allowed('/tmp/x')).toBe(false);
    expect(allowed('/same')).toBe(true);
  });

  it('falls back to the * group, allows everything without rules, and an empty Disallow allows all', () => {
    expect(parseRobots('User-agent: *\nDisallow: /admin\n')('/admin/x')).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow: /admin\n')('/about')).toBe(true);
    expect(parseRobots('')('/anything')).toBe(true);
    expect(parseRobots('User-agent: *\nDisallow:\n')('/anything')).toBe(true);
  });
});

describe('parseSitemap', () => {
  it('reads a urlset with entities and lastmod, a sitemap index, and refuses what is neither', () => {
    expect(
      parseSitemap(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.example/x?a=1&amp;b=2 </loc><lastmod>2026-01-02</lastmod></url><url><loc></loc></url></urlset>',
      ),
    ).toEqual({ kind: 'urlset', entries: [{ loc: 'https://a.example/x?a=1&b=2', lastmod: '2026-01-02' }] });
    expect(parseSitemap('<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>')).toEqual(
      {
        kind: 'index',
        entries: [{ loc: 'https://a.example/s1.xml' }],
      },
    );
    expect(parseSitemap('<html><body>not a sitemap</body></html>')).toBeUndefined();
  });
});
