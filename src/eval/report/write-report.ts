import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ValidationError } from '../../errors/index.ts';

/** Writes a report file, creating its folder; a path that cannot be written is a user error naming it. */
export async function writeReport(path: string, content: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, 'utf8');
  } catch (cause) {
    throw new ValidationError(`Cannot write the report to ${path}: ${(cause as Error).message}.`, {
      cause,
      hint: 'Pass --report with a writable file path.',
    });
  }
}

/** A complete, self-contained HTML page: inline styles and SVG only, so it opens offline and from a CI artifact. */
export const htmlPage = (title: string, style: string, body: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${title}</title><style>${style}</style></head><body>${body}</body></html>\n`;

/** Styles shared by every evaluation report. */
export const REPORT_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1f24;max-width:1200px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
.chart{margin:8px 16px 8px 0;background:#fff}.chart-title{font-weight:600;font-size:13px}
.axis{font-size:11px;fill:#57606a}.value{font-size:10px;fill:#1b1f24}.grid{stroke:#eaeef2}
.selective{display:flex;flex-wrap:wrap;align-items:flex-start;gap:8px}caption{font-weight:600;text-align:left}
.pass{color:#1a7f37}.fail{color:#cf222e}.na{color:#8c959f}
details pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:8px;margin:4px 0}
code{font-size:12px}
`;
