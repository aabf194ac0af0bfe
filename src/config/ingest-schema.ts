import { z } from 'zod';
import { figuresSchema } from './figures-schema.ts';
import { ocrSchema } from './ocr-schema.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The bounds of ingesting one file. Each is checked before the work it bounds where the file says how big it is
 * (zip directories, declared sheet ranges), and while the work runs where it does not (inflating, reading pages);
 * a file over one fails alone with `file_limit_exceeded`, naming the setting, and the rest of the batch goes on.
 * The defaults and what they cost at their maximum are measured in `bench/ingest/bombs.ts`.
 */
export const ingestSchema = z
  .object({
    maxFileBytes: z
      .number()
      .int()
      .positive()
      .default(50 * MiB)
      .describe(
        'Bytes of a file as stored on disk or uploaded (an upload request carries at most this much in total).',
      ),
    maxExpandedBytes: z
      .number()
      .int()
      .positive()
      .default(256 * MiB)
      .describe(
        "Bytes an office file (DOCX, XLSX, PPTX, ODT, ODS, ODP) expands to (every zip entry, as declared and as actually inflated), a PDF's compressed streams inflate to (counted before the PDF is read), and the attachments of an e-mail file decode to (.eml, .mbox, .msg, nested messages' included).",
      ),
    maxArchiveEntries: z
      .number()
      .int()
      .positive()
      .default(10_000)
      .describe(
        "Entries in the zip of an office file (DOCX, XLSX, PPTX, ODT, ODS, ODP); messages in an .mbox; attachments of an e-mail file, nested messages' included.",
      ),
    maxXmlElements: z
      .number()
      .int()
      .positive()
      .default(500_000)
      .describe(
        "XML elements in an office file's parts (DOCX, XLSX, PPTX, OpenDocument), counted before they are parsed: the parsers' time and memory grow with them. mammoth holds the whole tree (≈ 3 KB per element): a DOCX at the default measured 26 s and 1.5 GB peak, a million empty paragraphs (10 KB zipped) would be 35 s and 2.1 GB. An XLSX cell is 2–3 elements.",
      ),
    maxNestingDepth: z
      .number()
      .int()
      .min(16)
      .max(10_000)
      .default(512)
      .describe("Nesting of HTML elements and of an office file's XML (browsers keep 512 levels)."),
    maxDocumentSeconds: z
      .number()
      .positive()
      .default(300)
      .describe(
        'Seconds one PDF may take to read, checked after each page (its streams are bounded by maxExpandedBytes before), and one image file or the pictures of one DOCX may take in OCR, checked before each page or picture: a file past it fails alone with file_limit_exceeded. The 15-page BERT paper reads in about 2 s; OCR takes 0.3–3 s a page.',
      ),
    maxDeleteShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        "Share of a source's stored documents one sync (`sync`, `watch`, `serve --watch`) may delete (two may always go); a sync that would delete more, or whose source lists nothing where documents are stored from it (an unmounted disk looks like an empty folder), changes nothing and fails with `source_unavailable` unless run with `sync --allow-mass-delete`.",
      ),
    maxTableCells: z
      .number()
      .int()
      .positive()
      .default(1_000_000)
      .describe(
        "Cells of the tables of one file: CSV, XLSX and ODS sheets, tables on slides and in documents (an XLSX sheet's declared range counts in full, and so does an ODS row or cell of data repeated by `number-rows-repeated` / `number-columns-repeated`).",
      ),
    maxTableColumns: z
      .number()
      .int()
      .min(1)
      .max(1_600)
      .default(1_000)
      .describe('Columns of one table; PostgreSQL holds at most 1,600 per table.'),
    maxDocumentChars: z
      .number()
      .int()
      .positive()
      .default(20_000_000)
      .describe('Characters of text one document yields (≈ 10,000 pages).'),
    maxDocumentChunks: z.number().int().positive().default(25_000).describe('Chunks of one document.'),
    maxSidecarBytes: z
      .number()
      .int()
      .min(64)
      .max(16 * MiB)
      .default(64 * KiB)
      .describe('Bytes of an ACL sidecar (`<file>.acl.json`).'),
    workers: z
      .number()
      .int()
      .min(0)
      .max(64)
      .optional()
      .describe(
        'Worker threads that read, parse, chunk, analyse and (with an embedder that allows it, as the offline one does) embed documents while the calling thread writes them; 0 does it all on the calling thread. Absent: one per core.',
      ),
    workerMinDocuments: z
      .number()
      .int()
      .min(1)
      .default(100)
      .describe(
        'A call with fewer documents than this stays on the calling thread, unless workers are already up: a worker costs about 1.5 s of CPU to start (it loads every loader), as much as ingesting ~1,500 chunks.',
      ),
    batchDocuments: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(64)
      .describe(
        'Documents written per store transaction (1: one transaction per document). A batch is whole or absent after a crash, as a single document is; a batch that fails is written again one document at a time.',
      ),
    batchBytes: z
      .number()
      .int()
      .min(1)
      .max(1024 * MiB)
      .default(16 * MiB)
      .describe('Text bytes of the documents of one batch: a batch is written once it holds this much.'),
    batchMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(250)
      .describe(
        'Milliseconds a batch waits for more documents before it is written (and its files are reported done).',
      ),
    /** OCR of PDF pages without a text layer (see `ocr-schema.ts`). */
    ocr: ocrSchema,
    /** Figures described by the vision model (see `figures-schema.ts`). */
    figures: figuresSchema,
  })
  .strict()
  .prefault({});

export type IngestConfig = z.infer<typeof ingestSchema>;

/** The documented defaults, for loaders called outside a configured ingestor. */
export const INGEST_DEFAULTS: IngestConfig = ingestSchema.parse({});
