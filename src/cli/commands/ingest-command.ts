import type { Command } from 'commander';
import { parseAclValue } from '../../ingest/acl-text.ts';
import { intFlag, withEvident, type GlobalOptions } from '../context.ts';
import { wireJson, type CliIo } from '../io.ts';
import { createStderrLogger } from '../../logging/logger.ts';
import { ingestUrls, isWebUrl } from './ingest-urls.ts';

interface IngestFlags {
  acl?: string;
  force?: boolean;
  chunkSize?: string;
  chunkOverlap?: string;
  maxFileBytes?: string;
  json?: boolean;
  llm?: string;
}

export function registerIngestCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('ingest')
    .description(
      'Ingest files and folders (pdf, md, html, docx, txt, csv, xlsx, pptx, odt, ods, odp); doc_id = path relative to the folder; an http(s) URL is fetched as a web page',
    )
    .argument('<paths...>', 'files, folders or web page URLs')
    .option(
      '--acl <entries>',
      'ACL for every file, e.g. group:legal,user:bob, or public (overrides sidecars and front matter; empty is an error)',
    )
    .option('--force', 're-ingest files even when unchanged')
    .option('--chunk-size <chars>', 'target chunk size in characters')
    .option('--chunk-overlap <chars>', 'overlap between chunks in characters')
    .option('--max-file-bytes <bytes>', 'refuse files larger than this')
    .option('--json', 'print the summary as JSON')
    .option(
      '--llm <provider:model>',
      'chat model that writes the chapter summaries (env EVIDENT_LLM); extractive without one',
    )
    .action(async (paths: string[], flags: IngestFlags, command: Command) => {
      const chunkSize = intFlag('--chunk-size', flags.chunkSize);
      const overlapRaw = flags.chunkOverlap;
      const chunkOverlap = overlapRaw === '0' ? 0 : intFlag('--chunk-overlap', overlapRaw);
      const maxFileBytes = intFlag('--max-file-bytes', flags.maxFileBytes);
      // An empty --acl (an unset variable) is refused, not taken as public: `--acl public` says that.
      const acl = flags.acl === undefined ? undefined : parseAclValue(flags.acl, '--acl');
      const configFlags = {
        ...(chunkSize || chunkOverlap !== undefined
          ? {
              chunk: {
                ...(chunkSize ? { size: chunkSize } : {}),
                ...(chunkOverlap !== undefined ? { overlap: chunkOverlap } : {}),
              },
            }
          : {}),
        ...(maxFileBytes ? { ingest: { maxFileBytes } } : {}),
        ...(flags.llm ? { llm: flags.llm } : {}),
      };
      const global = command.optsWithGlobals<GlobalOptions>();
      await withEvident(global, configFlags, async (evident) => {
        await evident.assertEmbedderMatches();
        const urls = paths.filter(isWebUrl);
        if (urls.length > 0) {
          const logger = createStderrLogger(global.debug ? 'debug' : 'warn');
          if (!(await ingestUrls(evident, urls, acl, io, Boolean(flags.json), logger))) setExit(1);
          paths = paths.filter((path) => !isWebUrl(path));
          if (paths.length === 0) return;
        }
        const [{ ingestProgressRenderer }, { llmSummarizer }] = await Promise.all([
          import('../ingest-progress-renderer.ts'),
          import('../../ingest/extras/chapter-summarizer.ts'),
        ]);
        const renderer = ingestProgressRenderer(io);
        const chat = await evident.chatModel();
        const summarizer = chat ? { summarizer: llmSummarizer(chat) } : {};
        const summary = await evident.ingestor
          .ingest(paths, {
            ...(acl === undefined ? {} : { acl }),
            ...summarizer,
            force: Boolean(flags.force),
            onProgress: (p) => renderer.update(p),
          })
          .finally(() => {
            renderer.stop();
          });
        if (flags.json) {
          io.out(wireJson(summary));
        } else {
          const seconds = summary.elapsedMs / 1000;
          // Figures not described are said, so a reader knows what the index lacks (EVIDENT_VISION describes them).
          const figures = summary.figures
            ? `, figures: ${summary.figures.described} described, ${summary.figures.notDescribed} not described`
            : '';
          io.out(
            `${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed} failed; ` +
              `${summary.chunks} chunks, ${summary.pages} pages${figures} in ${seconds.toFixed(1)} s → ${evident.store.location}\n`,
          );
          // The line renderer already reported each failure as it happened; the bar did not.
          const failures = io.isTty ? summary.outcomes.filter((o) => o.status === 'failed') : [];
          for (const outcome of failures) {
            io.err(`failed ${outcome.docId}: ${outcome.error?.message}\n`);
          }
        }
        if (summary.failed > 0) setExit(1);
      });
    });
}
