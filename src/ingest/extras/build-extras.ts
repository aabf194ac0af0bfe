import type { Chapter, Chunk } from '../../domain/index.ts';
import { isEvidentError } from '../../errors/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { analyzeForIndex } from '../../text/analyzer.ts';
import type { DocumentExtras } from '../../store/document-extras.ts';
import { extractiveSummarizer, type ChapterSummarizer } from './chapter-summarizer.ts';
import { notableQuotes } from './notable-quotes.ts';

export interface ChunkedVersion {
  docId: string;
  title: string;
  /** The document's full text; chapter and chunk offsets index it. */
  text: string;
  chapters: readonly Chapter[];
  chunks: readonly Chunk[];
}

/** Chunks belong to the chapter their start lies in (chunking never crosses a chapter). */
const chunksOf = (chapter: Chapter, chunks: readonly Chunk[]): Chunk[] =>
  chunks.filter((chunk) => chunk.startOffset >= chapter.startOffset && chunk.startOffset < chapter.endOffset);

async function summaries(version: ChunkedVersion, summarizer: ChapterSummarizer): Promise<DocumentExtras['summaries']> {
  const out: DocumentExtras['summaries'] = [];
  for (const chapter of version.chapters) {
    const chapterText = version.text.slice(chapter.startOffset, chapter.endOffset);
    const text = (
      await summarizer.summarize({ docTitle: version.title, title: chapter.title, text: chapterText })
    ).trim();
    if (!text) continue;
    out.push({
      chapterOrdinal: chapter.ordinal,
      title: chapter.title,
      text,
      method: summarizer.method,
      chunkIds: chunksOf(chapter, version.chunks).map((chunk) => chunk.id),
      keywordText: analyzeForIndex([version.title, chapter.title, text].filter(Boolean).join('\n')),
    });
  }
  return out;
}

/**
 * A document version's extras: one summary per chapter (by `summarizer`; when the model fails, the whole document
 * falls back to extractive summaries, so one version's summaries carry one label) and its chunks' notable sentences.
 */
export async function buildDocumentExtras(
  version: ChunkedVersion,
  summarizer: ChapterSummarizer,
  logger: Logger,
): Promise<DocumentExtras> {
  let made: DocumentExtras['summaries'];
  try {
    made = await summaries(version, summarizer);
  } catch (error) {
    if (summarizer === extractiveSummarizer) throw error;
    const reason = isEvidentError(error) ? error.toLine() : String(error);
    logger.warn('chapter summaries: the model failed, using extractive summaries', {
      docId: version.docId,
      error: reason,
    });
    made = await summaries(version, extractiveSummarizer);
  }
  const quotes = version.chunks.flatMap((chunk) =>
    notableQuotes(chunk.text).map((text) => ({
      chunkId: chunk.id,
      text,
      keywordText: analyzeForIndex([version.title, ...chunk.headingPath, text].join('\n')),
    })),
  );
  return { summaries: made, quotes };
}
