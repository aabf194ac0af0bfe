/** Who Evident says it is to a site, and the group of robots.txt it obeys (else `*`). */
export const USER_AGENT = 'evident';

interface Rule {
  allow: boolean;
  pattern: string;
}

/**
 * A robots.txt (RFC 9309) as a check of paths: the group for `evident` if there is one, else `*`; the longest
 * matching rule wins, Allow over Disallow on a tie; `*` and a final `$` in patterns. No group: everything allowed.
 */
export function parseRobots(text: string): (pathAndQuery: string) => boolean {
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | undefined;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if ((field === 'allow' || field === 'disallow') && current) {
      lastWasAgent = false;
      // An empty Disallow allows everything: no rule.
      if (value !== '') current.rules.push({ allow: field === 'allow', pattern: value });
    } else {
      lastWasAgent = false;
    }
  }
  const mine = groups.filter((group) => group.agents.includes(USER_AGENT));
  const chosen = mine.length > 0 ? mine : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  return (pathAndQuery) => {
    let best: Rule | undefined;
    for (const rule of rules) {
      if (!matches(rule.pattern, pathAndQuery)) continue;
      if (
        !best ||
        rule.pattern.length > best.pattern.length ||
        (rule.pattern.length === best.pattern.length && rule.allow)
      )
        best = rule;
    }
    return best?.allow ?? true;
  };
}

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
}
