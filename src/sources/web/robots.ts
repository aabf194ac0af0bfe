/** Who Evident says it is to a site, and the group of robots.txt it obeys (else `*`). */
export const USER_AGENT = 'evident';

/** Rules read of one robots.txt, and characters of one rule: what checking a URL costs is bounded by them. */
const MAX_RULES = 2_000;
const MAX_PATTERN_CHARS = 1_024;

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
  let ruleCount = 0;
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
      // An empty Disallow allows everything: no rule. Past the bounds, a file is cut (rules read so far hold); a
      // Disallow too long is cut to its start (it disallows more), an Allow too long is dropped (it allows nothing).
      const allow = field === 'allow';
      if (value !== '' && ruleCount < MAX_RULES && !(allow && value.length > MAX_PATTERN_CHARS)) {
        current.rules.push({ allow, pattern: value.slice(0, MAX_PATTERN_CHARS) });
        ruleCount++;
      }
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

/**
 * Whether `path` matches a rule: `*` any run of characters, a final `$` the end. Matched segment by segment, each at
 * its leftmost place after the one before (which is where a match, if any, can be found), in time linear in the path
 * per segment whatever the rule holds — a regular expression of many `*` backtracks exponentially on a long path.
 */
export function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = parts[0] as string;
  if (!path.startsWith(first)) return false;
  if (parts.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  const last = parts.length - 1;
  for (let i = 1; i < last; i++) {
    const found = path.indexOf(parts[i] as string, at);
    if (found < 0) return false;
    at = found + (parts[i] as string).length;
  }
  const tail = parts[last] as string;
  return anchored ? path.length - tail.length >= at && path.endsWith(tail) : path.indexOf(tail, at) >= 0;
}
