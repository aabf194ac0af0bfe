import { describe, expect, it } from 'vitest';
import { matches, parseRobots } from './robots.ts';
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

describe('robots.txt rules an attacker writes', () => {
  // The reading RFC 9309 gives a rule, as a regular expression (exponential on some rules, fine on short ones).
  const byRegex = (pattern: string, path: string): boolean => {
    const anchored = pattern.endsWith('$');
    const body = (anchored ? pattern.slice(0, -1) : pattern)
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${body}${anchored ? '$' : ''}`).test(path);
  };

  it('matches as the regular-expression reading does, on many random short rules and paths', () => {
    let seed = 26;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 4_294_967_296;
    const pick = (alphabet: string, length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let i = 0; i < 3_000; i++) {
      const pattern = `/${pick('ab*', 1 + Math.floor(next() * 6))}${next() < 0.3 ? '$' : ''}`;
      const path = `/${pick('ab', Math.floor(next() * 8))}`;
      expect(matches(pattern, path), `${pattern} ${path}`).toBe(byRegex(pattern, path));
    }
  });

  it('checks a long path against thousands of many-star rules in bounded time', () => {
    const rules = Array.from({ length: 5_000 }, (_, i) => `Disallow: /${'a*'.repeat(40)}b${i}`).join('\n');
    const allowed = parseRobots(`User-agent: *\n${rules}\nAllow: /${'x'.repeat(5_000)}`);
    const started = performance.now();
    expect(allowed(`/${'a'.repeat(2_000)}`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
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
