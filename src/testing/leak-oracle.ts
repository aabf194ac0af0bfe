import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * The leak tests' own idea of who may read what, written independently of the code under test: ACLs are read from
 * the files (front matter `acl: […]`, `<file>.acl.json` sidecars), and a leak is any text a reader could only have got
 * from a document they may not read.
 */
export interface OracleDocument {
  docId: string;
  /** The title as stored (what a listing or a citation would show). */
  title: string;
  /** Empty: everyone may read it. */
  acl: string[];
  text: string;
  /** Strings that occur in this document only and that no query ever contains: any sight of one is a leak. */
  canaries?: string[];
}

export interface OracleUser {
  name: string;
  groups: string[];
}

/** A reader's view of an ACL, as ARCHITECTURE §2 states it: `user:<name>` or `group:<group>`; no entries is public. */
export function mayRead(user: OracleUser, acl: readonly string[]): boolean {
  if (acl.length === 0) return true;
  return acl.some(
    (entry) => entry === `user:${user.name}` || (entry.startsWith('group:') && user.groups.includes(entry.slice(6))),
  );
}

/** The ACL a corpus file declares: its sidecar, else its front matter, else none. */
export async function declaredAcl(path: string, text: string): Promise<string[]> {
  try {
    const sidecar = JSON.parse(await readFile(`${path}.acl.json`, 'utf8')) as { acl: string[] };
    return sidecar.acl;
  } catch {
    const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1];
    const list = front && /^acl:\s*\[([^\]]*)\]/m.exec(front)?.[1];
    return list
      ? list
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
      : [];
  }
}

/** Every ingestible file under `root` with its doc_id (path relative to root), text and declared ACL. */
export async function readCorpus(root: string, titles: ReadonlyMap<string, string>): Promise<OracleDocument[]> {
  const documents: OracleDocument[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (!entry.name.endsWith('.acl.json') && !entry.name.startsWith('.')) {
        const docId = relative(root, path).split(sep).join('/');
        const text = await readFile(path, 'utf8');
        documents.push({ docId, title: titles.get(docId) ?? docId, acl: await declaredAcl(path, text), text });
      }
    }
  };
  await walk(root);
  return documents.sort((a, b) => a.docId.localeCompare(b.docId));
}

/** Words as the oracle compares them: lower-case letter/digit runs, and each Han character on its own. */
export function tokensOf(text: string): string[] {
  return text.toLowerCase().match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? [];
}

/** Token n-grams long enough that one found in an output can only have come from the document that holds it. */
export const NGRAM = 5;

function ngramsOf(tokens: readonly string[], n = NGRAM): string[] {
  const grams: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) grams.push(tokens.slice(i, i + n).join(' '));
  return grams;
}

/**
 * Whether an n-gram says more than the query did: a token the query lacks, other than a short number — servers print
 * counts and ranks beside an echoed query (`"…budget line" → 5` is a hit count, not the restricted "Budget line 5").
 */
function novel(gram: string, queryTokens: ReadonlySet<string>): boolean {
  const added = gram.split(' ').filter((token) => !queryTokens.has(token));
  return added.length > 1 || (added.length === 1 && !/^\d{1,3}$/.test(added[0] as string));
}

export interface Leak {
  docId: string;
  /** `doc_id`, `title`, `canary` or `text` (an n-gram of the document's text). */
  kind: 'doc_id' | 'title' | 'canary' | 'text';
  found: string;
}

interface Forbidden {
  /** n-gram → the document it comes from; only n-grams no readable document contains. */
  grams: Map<string, string>;
  literals: { docId: string; kind: Leak['kind']; text: string }[];
}

/** Finds, in any output, what a reader could only have got from a document their ACL keeps from them. */
export class LeakOracle {
  private readonly forbidden = new Map<string, Forbidden>();

  constructor(readonly documents: readonly OracleDocument[]) {}

  /** The documents `user` may not read. */
  deniedTo(user: OracleUser): OracleDocument[] {
    return this.documents.filter((doc) => !mayRead(user, doc.acl));
  }

  /**
   * The leaks in `output` for `user`, who asked `query`. What the query itself holds is not a leak (servers echo
   * questions): an n-gram counts only with a token the query does not have, a literal only when the query lacks it.
   */
  leaks(user: OracleUser, query: string, output: string): Leak[] {
    const forbidden = this.forbiddenFor(user);
    const queryTokens = new Set(tokensOf(query));
    const lowerQuery = query.toLowerCase();
    const lowerOutput = output.toLowerCase();
    const found: Leak[] = [];
    for (const literal of forbidden.literals) {
      const text = literal.text.toLowerCase();
      if (!lowerQuery.includes(text) && lowerOutput.includes(text))
        found.push({ docId: literal.docId, kind: literal.kind, found: literal.text });
    }
    const seen = new Set<string>();
    for (const gram of ngramsOf(tokensOf(output))) {
      const docId = forbidden.grams.get(gram);
      if (!docId || seen.has(gram) || !novel(gram, queryTokens)) continue;
      seen.add(gram);
      found.push({ docId, kind: 'text', found: gram });
    }
    return found;
  }

  private forbiddenFor(user: OracleUser): Forbidden {
    const key = `${user.name}|${[...user.groups].sort().join(',')}`;
    const cached = this.forbidden.get(key);
    if (cached) return cached;
    const readable = new Set<string>();
    for (const doc of this.documents)
      if (mayRead(user, doc.acl)) for (const gram of ngramsOf(tokensOf(doc.text))) readable.add(gram);
    const readableText = this.documents
      .filter((doc) => mayRead(user, doc.acl))
      .map((doc) => `${doc.docId}\n${doc.title}\n${doc.text}`)
      .join('\n')
      .toLowerCase();
    const grams = new Map<string, string>();
    const literals: Forbidden['literals'] = [];
    for (const doc of this.deniedTo(user)) {
      for (const gram of ngramsOf(tokensOf(doc.text))) if (!readable.has(gram)) grams.set(gram, doc.docId);
      const candidates: Forbidden['literals'] = [
        { docId: doc.docId, kind: 'doc_id', text: doc.docId },
        { docId: doc.docId, kind: 'title', text: doc.title },
        ...(doc.canaries ?? []).map((canary) => ({ docId: doc.docId, kind: 'canary' as const, text: canary })),
      ];
      // What a readable document also spells (a path it mentions, a template's name) tells nothing.
      literals.push(...candidates.filter((literal) => !readableText.includes(literal.text.toLowerCase())));
    }
    const built = { grams, literals };
    this.forbidden.set(key, built);
    return built;
  }
}

/** All text of a JSON value (keys and strings), one per line, so escaped characters read as they were written. */
export function textOfJson(value: unknown): string {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') parts.push(node);
    else if (typeof node === 'number' || typeof node === 'boolean') parts.push(String(node));
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        parts.push(key);
        walk(child);
      }
    }
  };
  walk(value);
  return parts.join('\n');
}

/** A response body as text to search: its JSON's strings when it is JSON (or SSE of JSON), else as it came. */
export function textOfBody(body: string): string {
  try {
    return `${body}\n${textOfJson(JSON.parse(body))}`;
  } catch {
    const data = [...body.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1] as string);
    const decoded = data.map((line) => {
      try {
        return textOfJson(JSON.parse(line));
      } catch {
        return line;
      }
    });
    return `${body}\n${decoded.join('\n')}`;
  }
}
