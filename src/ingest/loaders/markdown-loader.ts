import { basename } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Block, LoadedDocument } from '../../domain/index.ts';
import { EmptyAclError, IngestError, isEvidentError } from '../../errors/index.ts';
import { parseAclValue } from '../acl-text.ts';
import { decodeText, normalizeNewlines } from './decode-text.ts';
import type { Loader } from './loader.ts';

interface FrontMatter {
  title?: string;
  tags?: string[];
  acl?: string[];
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

const listOf = (value: unknown): unknown[] =>
  Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
      : value === undefined || value === null
        ? []
        : [value];

/**
 * Keys someone may write meaning "who may read this" (compared lower case, without `-`, `_` and spaces). Evident reads
 * only `acl`; taking `ACL:` or `permissions:` for no ACL would publish the file, so such a key fails it instead.
 */
const ACL_LOOKALIKES = new Set([
  'acl',
  'acls',
  'accesscontrol',
  'accesscontrollist',
  'access',
  'permission',
  'permissions',
  'perms',
  'allow',
  'allowed',
  'allowedgroups',
  'allowedusers',
  'groups',
  'users',
  'readers',
  'visibility',
  'visibleto',
  'sharedwith',
  'private',
  'restricted',
]);

function readFrontMatter(yamlText: string, path: string): FrontMatter {
  let data: unknown;
  try {
    data = parseYaml(yamlText);
  } catch (cause) {
    throw new IngestError('file_corrupt', `The front matter of ${basename(path)} is not valid YAML.`, {
      cause,
      hint: 'Fix the YAML between the leading `---` lines (e.g. quote values that contain a colon).',
      details: { path },
    });
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return {};
  const record = data as Record<string, unknown>;
  const out: FrontMatter = {};
  if (typeof record.title === 'string' && record.title.trim()) out.title = record.title.trim();
  const tags = listOf(record.tags)
    .map((tag) => String(tag).trim())
    .filter(Boolean);
  if (tags.length > 0) out.tags = tags;
  const lookalike = Object.keys(record).find(
    (key) => key !== 'acl' && ACL_LOOKALIKES.has(key.toLowerCase().replace(/[\s_-]+/g, '')),
  );
  if (lookalike !== undefined) {
    throw new IngestError(
      'acl_invalid',
      `The front matter of ${basename(path)} has the key ${JSON.stringify(lookalike)}, which Evident does not read as an ACL: it reads only "acl".`,
      {
        hint: 'Write who may read the file as acl: [group:legal, user:bob] (or acl: public), or rename the key if it means something else.',
        details: { path, key: lookalike },
      },
    );
  }
  if (Object.hasOwn(record, 'acl')) {
    try {
      out.acl = parseAclValue(record.acl, `the front matter of ${basename(path)}`);
    } catch (cause) {
      if (EmptyAclError.isInstance(cause)) throw cause;
      const detail = isEvidentError(cause) ? cause.message : String(cause);
      throw new IngestError('acl_invalid', detail, {
        cause,
        hint: 'Write the acl as a list or a comma-separated string of entries like "group:legal" or "user:bob", or as public.',
        details: { path },
      });
    }
  }
  return out;
}

// Linear on any line: the closing `#`s and trailing blanks are trimmed in code (a lazy group followed by optional
// blanks took seconds on a line of spaces).
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]([\s\S]*))?$/;
const ATX_CLOSING = /(?:^|[ \t])#+$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+/;
const SEPARATOR_CELL = /^:?-+:?$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])( *\1){2,} *$/;

/** `| --- | :-: |`: cells of dashes (optionally colon-aligned) between pipes; checked cell by cell, in linear time. */
function isTableSeparator(line: string): boolean {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|')) body = body.slice(0, -1);
  return body.split('|').every((cell) => SEPARATOR_CELL.test(cell.trim()));
}

/** An ATX heading's text without its optional closing sequence (`## Title ##` → `Title`). */
function atxText(rest: string): string {
  const text = rest.trim();
  const closing = ATX_CLOSING.exec(text);
  return closing ? text.slice(0, closing.index).trim() : text;
}

function tableCells(line: string): string[] {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Markdown body → blocks. Paragraph lines are joined with spaces; code and lists keep their lines. */
function markdownBlocks(lines: readonly string[]): { blocks: Block[]; firstH1?: string } {
  const blocks: Block[] = [];
  let firstH1: string | undefined;
  let paragraph: string[] = [];
  let lastHeading: string | undefined;

  const flush = (): void => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ kind: 'text', text });
    paragraph = [];
  };
  const heading = (level: number, text: string): void => {
    const clean = text.trim();
    if (!clean) return;
    blocks.push({ kind: 'heading', level, text: clean });
    lastHeading = clean;
    if (level === 1 && firstH1 === undefined) firstH1 = clean;
  };

  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const next = lines[i + 1];

    const fence = FENCE.exec(line);
    if (fence?.[1]) {
      flush();
      const marker = fence[1];
      const body: string[] = [];
      for (i += 1; i < lines.length; i += 1) {
        const inner = lines[i] ?? '';
        if (inner.trim().startsWith(marker[0]!.repeat(marker.length)) && inner.trim().replace(/[`~]/g, '') === '')
          break;
        body.push(inner);
      }
      const code = body.join('\n').replace(/^\n+|\s+$/g, '');
      if (code) blocks.push({ kind: 'text', text: code });
      continue;
    }

    const atx = ATX_HEADING.exec(line);
    if (atx?.[1]) {
      flush();
      heading(atx[1].length, atxText(atx[2] ?? ''));
      continue;
    }

    if (line.includes('|') && next !== undefined && next.includes('-') && isTableSeparator(next)) {
      flush();
      const header = tableCells(line);
      for (i += 2; i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim() !== ''; i += 1) {
        const cells = tableCells(lines[i] ?? '');
        const text = cells
          .map((cell, index) => (header[index] ? `${header[index]}: ${cell}` : cell))
          .filter((_, index) => (cells[index] ?? '') !== '')
          .join(' | ');
        if (text) blocks.push(lastHeading ? { kind: 'row', text, table: lastHeading } : { kind: 'row', text });
      }
      i -= 1;
      continue;
    }

    if (line.trim() === '') {
      flush();
      continue;
    }

    // Setext heading: one paragraph line underlined with === or ---.
    if (paragraph.length === 0 && next !== undefined && SETEXT.test(next) && !LIST_ITEM.test(line)) {
      heading(next.trim().startsWith('=') ? 1 : 2, line);
      i += 1;
      continue;
    }

    if (THEMATIC_BREAK.test(line)) {
      flush();
      continue;
    }

    if (LIST_ITEM.test(line) && paragraph.length === 0) {
      const items: string[] = [line.trim()];
      // Items and their indented continuation lines, until a blank line not followed by more list.
      for (i += 1; i < lines.length; i += 1) {
        const inner = lines[i] ?? '';
        if (LIST_ITEM.test(inner) || (/^\s+\S/.test(inner) && items.length > 0)) {
          if (LIST_ITEM.test(inner)) items.push(inner.trim());
          else items[items.length - 1] += ` ${inner.trim()}`;
        } else if (inner.trim() === '' && LIST_ITEM.test(lines[i + 1] ?? '')) {
          continue;
        } else if (inner.trim() !== '' && !ATX_HEADING.test(inner) && !FENCE.test(inner) && !inner.includes('|')) {
          items[items.length - 1] += ` ${inner.trim()}`; // lazy continuation
        } else {
          break;
        }
      }
      i -= 1;
      blocks.push({ kind: 'text', text: items.join('\n') });
      continue;
    }

    paragraph.push(line.replace(/^ {0,3}>\s?/, ''));
  }
  flush();
  return firstH1 === undefined ? { blocks } : { blocks, firstH1 };
}

/** Markdown with optional YAML front matter (`title`, `tags`, `acl` as a list or a comma-separated string). */
export const markdownLoader: Loader = {
  type: 'markdown',
  async load(bytes: Buffer, path: string): Promise<LoadedDocument> {
    let text = normalizeNewlines(decodeText(bytes, path));
    let meta: FrontMatter = {};
    const front = FRONT_MATTER.exec(text);
    if (front) {
      meta = readFrontMatter(front[1] ?? '', path);
      text = text.slice(front[0].length);
    }
    const { blocks, firstH1 } = markdownBlocks(text.split('\n'));
    const title = meta.title ?? firstH1;
    return {
      blocks,
      ...(title === undefined ? {} : { title }),
      ...(meta.tags ? { tags: meta.tags } : {}),
      ...(meta.acl ? { acl: meta.acl } : {}),
    };
  },
};
