import { basename } from 'node:path';
import { IngestError } from '../../errors/index.ts';
import type { IngestLimits } from '../limits.ts';
import { OfficePackage } from './office-package.ts';
import { childNamed, findElement, type XmlElement } from './xml-tree.ts';

/** One OpenDocument format: its extension, what users call it, its media type and the body element it holds. */
export interface OdfFormat {
  extension: 'odt' | 'ods' | 'odp';
  noun: string;
  mimetype: string;
  /** The child of `office:body` with the content: `office:text`, `office:spreadsheet`, `office:presentation`. */
  body: 'text' | 'spreadsheet' | 'presentation';
  program: string;
}

export const ODT: OdfFormat = {
  extension: 'odt',
  noun: 'OpenDocument text',
  mimetype: 'application/vnd.oasis.opendocument.text',
  body: 'text',
  program: 'a word processor (LibreOffice Writer, Word)',
};
export const ODS: OdfFormat = {
  extension: 'ods',
  noun: 'OpenDocument spreadsheet',
  mimetype: 'application/vnd.oasis.opendocument.spreadsheet',
  body: 'spreadsheet',
  program: 'a spreadsheet program (LibreOffice Calc, Excel)',
};
export const ODP: OdfFormat = {
  extension: 'odp',
  noun: 'OpenDocument presentation',
  mimetype: 'application/vnd.oasis.opendocument.presentation',
  body: 'presentation',
  program: 'a presentation program (LibreOffice Impress, PowerPoint)',
};

/** An opened OpenDocument file: its package (for `meta.xml`) and the content body. */
export interface OpenDocument {
  pkg: OfficePackage;
  body: XmlElement;
}

/**
 * Opens an OpenDocument file within the bounds (`OfficePackage.open`) and finds its content: `content.xml`'s
 * `office:body/office:<kind>`. A file whose `mimetype` names another kind (an .ods renamed .odt) is refused with
 * what it is, since reading a spreadsheet as text would store nothing useful and say nothing.
 */
export function openOpenDocument(
  bytes: Buffer,
  path: string,
  limits: IngestLimits,
  format: OdfFormat,
  options: { pictures?: boolean } = {},
): OpenDocument {
  const name = basename(path);
  const corrupt = (why?: string, cause?: unknown) =>
    new IngestError(
      'file_corrupt',
      `${name} is not a readable .${format.extension} ${format.noun}${why ? ` (${why})` : ''}.`,
      {
        ...(cause === undefined ? {} : { cause }),
        hint: `Open it in ${format.program} and save it again as .${format.extension}.`,
        details: { path },
      },
    );
  const pkg = OfficePackage.open(bytes, path, limits, corrupt, options);
  const mimetype = pkg.text('mimetype');
  // Templates (`…text-template`) hold the same content as the documents made from them.
  if (mimetype !== undefined && !mimetype.startsWith(format.mimetype)) {
    throw corrupt(`its mimetype is ${JSON.stringify(mimetype.slice(0, 100))}`);
  }
  const officeBody = findElement(pkg.required('content.xml'), 'body');
  const body = officeBody ? childNamed(officeBody, format.body) : undefined;
  if (!body) throw corrupt(`content.xml has no office:${format.body}`);
  return { pkg, body };
}

/** The document's title from `meta.xml` (`dc:title`), or undefined. */
export function metaTitle(pkg: OfficePackage): string | undefined {
  const meta = pkg.tree('meta.xml');
  const title = meta ? findElement(meta, 'title') : undefined;
  const text = title?.children
    .filter((child) => typeof child === 'string')
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return text || undefined;
}
