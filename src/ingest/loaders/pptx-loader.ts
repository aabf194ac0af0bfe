import { basename, posix } from 'node:path';
import type { LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { BoundedDocument } from './bounded-document.ts';
import { fileStem } from './decode-text.ts';
import type { Loader } from './loader.ts';
import { OfficePackage } from './office-package.ts';
import { readShapes } from './pptx-shapes.ts';
import { addSlides, type Slide } from './slide-blocks.ts';
import { readSlidePictures } from './slide-pictures.ts';
import { attr, childrenNamed, findElement, findElements, type XmlElement } from './xml-tree.ts';

/** The relationships of a part (`ppt/_rels/presentation.xml.rels`): id → { type, part path inside the zip }. */
function relationships(pkg: OfficePackage, part: string): Map<string, { type: string; target: string }> {
  const dir = posix.dirname(part);
  const rels = pkg.tree(posix.join(dir, '_rels', `${posix.basename(part)}.rels`));
  const byId = new Map<string, { type: string; target: string }>();
  if (!rels) return byId;
  for (const rel of findElements(rels, 'Relationship')) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (!id || !target || attr(rel, 'TargetMode') === 'External') continue;
    // Targets are relative to the part's folder, or absolute from the package root.
    const resolved = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target));
    byId.set(id, { type: attr(rel, 'Type') ?? '', target: resolved });
  }
  return byId;
}

/** The presentation part the package names (`ppt/presentation.xml` in every file PowerPoint writes). */
function presentationPart(pkg: OfficePackage): string {
  for (const rel of relationships(pkg, '').values()) if (rel.type.endsWith('/officeDocument')) return rel.target;
  return 'ppt/presentation.xml';
}

/** The text of a notes page: every paragraph of its body placeholder (slide image, number and header left out). */
function notesOf(pkg: OfficePackage, slidePart: string, doc: BoundedDocument): string[] {
  for (const rel of relationships(pkg, slidePart).values()) {
    if (!rel.type.endsWith('/notesSlide')) continue;
    const notes = pkg.tree(rel.target);
    if (!notes) return [];
    const { title, parts } = readShapes(notes, doc);
    return [...(title ? [title] : []), ...parts.flatMap((part) => (part.kind === 'text' ? [part.text] : []))];
  }
  return [];
}

/**
 * PPTX: the slides in the order of the presentation's slide list (`p:sldIdLst`, the order the deck is shown in — not
 * the order of the file names, which is the order slides were made), each with its title, text, tables and speaker
 * notes (`ppt/notesSlides`); a slide of pictures alone has them read by OCR (`readSlidePictures`). See `addSlides`
 * for the blocks; `pageCount` is the number of slides.
 */
export const pptxLoader: Loader = {
  type: 'pptx',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const name = basename(path);
    const corrupt = (why?: string, cause?: unknown) =>
      new IngestError('file_corrupt', `${name} is not a readable .pptx presentation${why ? ` (${why})` : ''}.`, {
        ...(cause === undefined ? {} : { cause }),
        hint: 'Open it in a presentation program and save it again as .pptx (PowerPoint 2007 or later).',
        details: { path },
      });
    const pkg = OfficePackage.open(bytes, path, limits, corrupt, { pictures: limits.ocr.enabled });
    const main = presentationPart(pkg);
    const presentation = pkg.required(main);
    const list = findElement(presentation, 'sldIdLst');
    const rels = relationships(pkg, main);
    const doc = new BoundedDocument(name, limits);
    const slides: Slide[] = [];
    for (const entry of list ? childrenNamed(list, 'sldId') : []) {
      const id = attr(entry, 'id', true) ?? '';
      const part = rels.get(id)?.target;
      const tree: XmlElement | undefined = part ? pkg.tree(part) : undefined;
      if (!part || !tree) throw corrupt(`slide ${slides.length + 1} (${id || 'no id'}) has no slide part`);
      const slideRels = relationships(pkg, part);
      const { title, parts } = readShapes(tree, doc, {
        chart: (rid) => {
          const target = slideRels.get(rid)?.target;
          return target ? pkg.tree(target) : undefined;
        },
        picture: (rid) => slideRels.get(rid)?.target,
      });
      slides.push({ ...(title ? { title } : {}), body: parts, notes: notesOf(pkg, part, doc) });
    }
    addSlides(doc, fileStem(path), await readSlidePictures(slides, (entry) => pkg.picture(entry), name, limits));
    return doc.result({ title: slides.find((slide) => slide.title)?.title, pageCount: slides.length });
  },
};
