import { basename } from 'node:path';
import type { IngestLimits } from '../limits.ts';
import { parseXml, type XmlElement } from './xml-tree.ts';
import { scanXml } from './xml-scan.ts';
import { type Corrupt, readZipParts } from './zip-parts.ts';

const XML = /\.(xml|rels)$/i;
// `mimetype` is OpenDocument's first entry: the type the file says it is, in plain ASCII.
const KEPT = (entry: string): boolean => XML.test(entry) || entry === 'mimetype';
/** Pictures OCR can read (`ppt/media/image1.png`, `Pictures/….jpg`), kept only when asked for. */
const PICTURE = /\.(png|jpe?g|tiff?)$/i;

/** The XML parts of a zip-based office file (PPTX, ODT, ODS, ODP), measured and ready to be parsed one at a time. */
export class OfficePackage {
  private constructor(
    private readonly parts: Map<string, Buffer>,
    readonly corrupt: Corrupt,
  ) {}

  /**
   * Opens `bytes` as a zip within the bounds: expansion and entry count (`readZipParts`), then one `scanXml` pass
   * over every XML part with one element budget for the file, so nothing is parsed into a tree before the whole file
   * is known to fit `ingest.maxXmlElements` and `ingest.maxNestingDepth`. `pictures` keeps the PNG, JPEG and TIFF
   * entries too (for OCR; they are within `ingest.maxExpandedBytes` like the rest).
   */
  static open(
    bytes: Buffer,
    path: string,
    limits: IngestLimits,
    corrupt: Corrupt,
    options: { pictures?: boolean } = {},
  ): OfficePackage {
    if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw corrupt('it is not a zip archive');
    const keep = options.pictures ? (entry: string) => KEPT(entry) || PICTURE.test(entry) : KEPT;
    const parts = readZipParts(bytes, path, limits, keep, corrupt);
    const budget = { elements: 0 };
    for (const [entry, xml] of parts) if (XML.test(entry)) scanXml(xml, basename(path), limits, budget);
    return new OfficePackage(parts, corrupt);
  }

  has(name: string): boolean {
    return this.parts.has(name);
  }

  /** A picture's bytes (kept when the package was opened with `pictures`), or undefined. */
  picture(name: string): Buffer | undefined {
    return PICTURE.test(name) ? this.parts.get(name) : undefined;
  }

  /** A part as text (the OpenDocument `mimetype`), or undefined. */
  text(name: string): string | undefined {
    return this.parts.get(name)?.toString('utf8').trim();
  }

  /** A part parsed into a tree, or undefined when the zip has no such entry. */
  tree(name: string): XmlElement | undefined {
    const bytes = this.parts.get(name);
    return bytes ? parseXml(bytes) : undefined;
  }

  /** A part the format requires: its absence makes the file corrupt. */
  required(name: string): XmlElement {
    const tree = this.tree(name);
    if (!tree) throw this.corrupt(`it has no ${name}`);
    return tree;
  }
}
