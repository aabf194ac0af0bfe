/** A block of a loaded document in reading order. Headings drive the heading path of the chunks after them. */
export type Block =
  | { kind: 'heading'; text: string; level: number; page?: number }
  | { kind: 'text'; text: string; page?: number }
  /** One table row rendered as text; never split across chunks. */
  | { kind: 'row'; text: string; page?: number; table?: string };

export type ColumnType = 'integer' | 'real' | 'text' | 'boolean';

/** A sheet or CSV file that becomes a real SQL table in the store. */
export interface TableData {
  /** Name as the user knows it: the file stem, or `<file stem> / <sheet>` for workbooks. */
  title: string;
  columns: { name: string; type: ColumnType }[];
  rows: (string | number | boolean | null)[][];
}

/** What a loader returns: reading-order blocks plus metadata it found in the file itself. */
export interface LoadedDocument {
  title?: string;
  tags?: string[];
  /** ACL found in the file (Markdown front matter). */
  acl?: string[];
  blocks: Block[];
  tables?: TableData[];
  /** Pages for paginated formats (PDF). */
  pageCount?: number;
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
}
