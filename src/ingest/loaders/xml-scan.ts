import { IngestError } from '../../errors/index.ts';
import { limitExceeded, type IngestLimits } from '../limits.ts';

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const COLON = 0x3a;
const AMP = 0x26;
const SEMICOLON = 0x3b;

/**
 * A start tag met by `scanXml`. One object is reused for every tag of a part (a visitor must not keep it), and
 * nothing is decoded unless asked: the scan runs over every element of the file.
 */
export class XmlStartTag {
  selfClosing = false;
  private part: Buffer = Buffer.alloc(0);
  private start = 0;
  private end = 0;
  private nameStart = 0;
  private nameEnd = 0;

  /** @internal */
  point(part: Buffer, start: number, end: number, selfClosing: boolean): this {
    let nameEnd = start + 1;
    let localStart = start + 1;
    for (; nameEnd < end; nameEnd += 1) {
      const byte = part[nameEnd] ?? 0;
      if (byte === COLON) localStart = nameEnd + 1;
      else if (byte <= 0x20 || byte === SLASH) break;
    }
    Object.assign(this, { part, start, end, nameStart: localStart, nameEnd, selfClosing });
    return this;
  }

  /** Whether its local name (prefix dropped) is `name` (ASCII). */
  is(name: string): boolean {
    if (this.nameEnd - this.nameStart !== name.length) return false;
    for (let i = 0; i < name.length; i += 1) if (this.part[this.nameStart + i] !== name.charCodeAt(i)) return false;
    return true;
  }

  /** The tag as written, `<w:t xml:space="preserve">`, for reading an attribute. */
  raw(): string {
    return this.part.toString('utf8', this.start, this.end + 1);
  }

  /** Characters of the text right after the tag, up to the next `<` (an entity counts as one). */
  textLength(): number {
    return this.selfClosing ? 0 : textLength(this.part, this.end + 1);
  }
}

/** Counts shared by the parts of one file, so the bound is per file, not per part. */
export interface XmlBudget {
  elements: number;
}

/**
 * One pass over a part's bytes, before a parser builds anything from it: counts elements against
 * `ingest.maxXmlElements` (across the file, through `budget`) and nesting against `ingest.maxNestingDepth`, and shows
 * each start tag to `visit` (for the loaders' own pre-checks: text of a DOCX, cells and ranges of an XLSX). It reads
 * only as much XML as it needs to find tags; what it does not understand is left for the parser to refuse.
 */
export function scanXml(
  part: Buffer,
  fileName: string,
  limits: IngestLimits,
  budget: XmlBudget,
  visit?: (tag: XmlStartTag) => void,
): void {
  const tag = new XmlStartTag();
  let depth = 0;
  let i = 0;
  const length = part.length;
  while ((i = part.indexOf(LT, i)) !== -1) {
    const next = part[i + 1];
    if (next === SLASH) {
      depth -= 1;
      i += 2;
      continue;
    }
    if (next === QUESTION || next === BANG) {
      i = skipSpecial(part, i);
      continue;
    }
    let end = i + 1;
    let quote = 0;
    for (; end < length; end += 1) {
      const byte = part[end];
      if (quote !== 0) {
        if (byte === quote) quote = 0;
      } else if (byte === 0x22 || byte === 0x27) {
        quote = byte;
      } else if (byte === GT) {
        break;
      }
    }
    if (end >= length) return; // truncated: the parser reports it
    budget.elements += 1;
    if (budget.elements > limits.maxXmlElements) {
      throw limitExceeded(
        'maxXmlElements',
        fileName,
        `has more than ${limits.maxXmlElements.toLocaleString('en-US')} XML elements`,
        limits,
      );
    }
    const selfClosing = part[end - 1] === SLASH;
    if (!selfClosing) {
      depth += 1;
      if (depth > limits.maxNestingDepth) throw tooDeep(fileName, limits);
    }
    if (visit) visit(tag.point(part, i, end, selfClosing));
    i = end + 1;
  }
}

/** Characters from `from` to the next `<`: UTF-8 lead bytes, an entity as one. */
function textLength(part: Buffer, from: number): number {
  const stop = part.indexOf(LT, from);
  const to = stop === -1 ? part.length : stop;
  let chars = 0;
  for (let i = from; i < to; i += 1) {
    const byte = part[i] ?? 0;
    if (byte === AMP) {
      const semi = part.indexOf(SEMICOLON, i);
      if (semi !== -1 && semi < to && semi - i <= 12) i = semi;
      chars += 1;
    } else if ((byte & 0xc0) !== 0x80) {
      chars += 1;
    }
  }
  return chars;
}

/** Past a comment, CDATA section, processing instruction or declaration. */
function skipSpecial(part: Buffer, at: number): number {
  const closer = startsAt(part, at, '<!--')
    ? '-->'
    : startsAt(part, at, '<![CDATA[')
      ? ']]>'
      : part[at + 1] === QUESTION
        ? '?>'
        : '>';
  const end = part.indexOf(closer, at + 2, 'latin1');
  return end === -1 ? part.length : end + closer.length;
}

function startsAt(part: Buffer, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (part[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

export function tooDeep(fileName: string, limits: IngestLimits): IngestError {
  return limitExceeded(
    'maxNestingDepth',
    fileName,
    `nests elements more than ${limits.maxNestingDepth} levels deep`,
    limits,
  );
}

/** The value of attribute `name` in a raw start tag, or undefined. */
export function attribute(raw: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(raw);
  return match ? (match[2] ?? match[3]) : undefined;
}
