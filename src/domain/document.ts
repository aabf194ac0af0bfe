/** A block of a loaded document in reading order. Headings drive the heading path of the chunks after them. */
export type Block =
  | { kind: 'heading'; text: string; level: number; page?: number }
  | { kind: 'text'; text: string; page?: number }
  /** One table row rendered as text; never split across chunks. `cells`: where its cells are printed on its page. */
  | { kind: 'row'; text: string; page?: number; table?: string; cells?: CellBox[] };

/** A box on a PDF page in points, origin at the bottom left as PDF has it: `[x0, y0, x1, y1]`. */
export type CellBox = [number, number, number, number];

/** A table row inside a chunk and where its cells are printed, so a citation of the row can mark them on the page. */
export interface RowRegion {
  page: number;
  /** The row's text as the chunk holds it. */
  text: string;
  cells: CellBox[];
}

export type ColumnType = 'integer' | 'real' | 'text' | 'boolean';

/** A sheet or CSV file that becomes a real SQL table in the store. */
export interface TableData {
  /** Name as the user knows it: the file stem, or `<file stem> / <sheet>` for workbooks. */
  title: string;
  columns: { name: string; type: ColumnType }[];
  rows: (string | number | boolean | null)[][];
  /** What the document says the table is: a PDF table's caption ("Table 3: Variations on the Transformer …"). */
  description?: string;
}

/**
 * Fields a file states about itself beyond its title (an e-mail's From, Date, Message-ID, thread key), kept with the
 * document as short text values; snake_case keys, as on every JSON surface.
 */
export type DocumentMetadata = Record<string, string>;

/** A file carried inside another (an e-mail's attachment): ingested as a document of its own, under the carrier's ACL. */
export interface LoadedAttachment {
  /** The name it is known by inside its carrier, unique there (`report.pdf`, `message 3/report.pdf`). */
  name: string;
  bytes: Uint8Array;
}

/** A figure a document captions (`Figure 3: Attention weights …`): where it is, to be shown to a vision model. */
export interface FigureCaption {
  /** 1-based page the caption is printed on. */
  page: number;
  /** `Figure 3`, as the caption names it. */
  label: string;
  /** The caption's text as printed, label included. */
  caption: string;
}

/** What a loader returns: reading-order blocks plus metadata it found in the file itself. */
export interface LoadedDocument {
  title?: string;
  tags?: string[];
  /** ACL found in the file (Markdown front matter). */
  acl?: string[];
  blocks: Block[];
  tables?: TableData[];
  /** Pages for paginated formats (PDF); messages for a mailbox. */
  pageCount?: number;
  metadata?: DocumentMetadata;
  /** Files inside this one to ingest as their own documents. */
  attachments?: LoadedAttachment[];
  /** Files inside this one that are not ingested, each with why (an unsupported type, nested too deep). */
  skippedAttachments?: { name: string; reason: string }[];
  /** The captioned figures, in page order (PDF). */
  figures?: FigureCaption[];
}

/** A top-level section of a document (the unit later issues summarise). */
export interface Chapter {
  ordinal: number;
  title: string;
  headingPath: string[];
  startOffset: number;
  endOffset: number;
  page?: number;
}

/** A retrievable passage. `startOffset`/`endOffset` index the document's full text. */
export interface Chunk {
  /** `<doc_id>#<ordinal>`: stable for a document version and readable in citations. */
  id: string;
  docId: string;
  ordinal: number;
  text: string;
  headingPath: string[];
  page?: number;
  startOffset: number;
  endOffset: number;
  /** The table rows it holds whose cells have known places (PDF tables). */
  regions?: RowRegion[];
}

/** A document as stored. */
export interface DocumentRecord {
  docId: string;
  /** Where it came from, as every reader may see it: the doc_id of a file, `upload:<doc_id>`, a data set's id; never a server path. */
  source: string;
  title: string;
  type: string;
  contentHash: string;
  bytes: number;
  acl: string[];
  tags: string[];
  pageCount?: number;
  metadata?: DocumentMetadata;
  /**
   * The doc_id of the file this document was found inside (an e-mail's attachment: the message's). It has that
   * document's ACL, and is replaced and deleted with it.
   */
  parent?: string;
  chunkCount: number;
  ingestedAt: string;
}

/** A table as stored: the SQL name the store gave it, and its schema. */
export interface TableRecord {
  docId: string;
  title: string;
  sqlName: string;
  columns: { name: string; type: ColumnType }[];
  rowCount: number;
  /** The table's caption, when its document gives one. */
  description?: string;
}
