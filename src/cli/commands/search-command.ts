import type { Command } from 'commander';
import { auditedSearch } from '../../audit/audited-search.ts';
import type { SearchResult } from '../../domain/index.ts';
import { pageLabel } from '../../domain/page-label.ts';
import { ValidationError } from '../../errors/index.ts';
import type { SearchOptions } from '../../retrieval/hybrid-search.ts';
import { scoreViewFor, searchResultJson, type ScoreView } from '../../retrieval/search-result-json.ts';
import { intFlag, principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

interface SearchFlags extends PrincipalFlags {
  topK?: string;
  channels?: string;
  rerank?: boolean;
  json?: boolean;
  explain?: boolean;
}

export { searchResultJson };

export function registerSearchCommand(program: Command, io: CliIo): void {
  program
    .command('search')
    .description('Hybrid search (BM25 + vectors, fused, reranked) as a principal')
    .argument('<query>', 'what to look for')
    .option('--as <user>', 'search as this stored user (their groups apply)')
    .option('--groups <a,b>', 'search as an ad-hoc member of these groups')
    .option('-k, --top-k <n>', 'results to return')
    .option('--channels <list>', 'bm25, vector or bm25,vector')
    .option('--no-rerank', 'skip the reranker')
    .option('--json', 'print results as JSON')
    .option('--explain', 'print per-channel ranks and scores')
    .action(async (query: string, flags: SearchFlags, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        // The same bounds as over HTTP and MCP (limits.maxQueryChars, maxQueryTerms).
        const { assertQueryWithin } = await import('../../server/request-limits.ts');
        assertQueryWithin(query, evident.config.limits);
        await evident.assertEmbedderMatches();
        const principal = await principalFromFlags(evident, flags);
        const topK = intFlag('--top-k', flags.topK);
        const options: SearchOptions = {
          ...(topK ? { topK } : {}),
          ...(flags.channels ? { channels: parseChannels(flags.channels) } : {}),
          ...(flags.rerank === false ? { rerank: false } : {}),
        };
        const trace = await auditedSearch(evident, { query, principal, options, surface: 'cli' });
        // Raw channel scores carry statistics of documents a non-admin cannot read (`--as`, `--groups`): ranks only.
        const view = scoreViewFor(principal);
        if (flags.json) return io.out(wireJson(trace.results.map((result) => searchResultJson(result, view))));
        if (flags.explain) {
          const channels = Object.keys(trace.channels).join(' + ');
          const reranker = options.rerank === false ? 'off' : (evident.reranker?.id ?? 'none');
          const note =
            view === 'ranks'
              ? 'channel scores: shown to admins only (they depend on documents this principal cannot read)\n'
              : '';
          return io.out(
            explain(trace.results, view) +
              note +
              `channels: ${channels}; reranker: ${reranker}\n` +
              timings(trace.timingsMs),
          );
        }
        io.out(trace.results.length ? trace.results.map(humanResult).join('\n') : 'No results.\n');
      });
    });
}

function parseChannels(list: string): ('bm25' | 'vector')[] {
  const channels = list.split(',').map((c) => c.trim());
  for (const channel of channels) {
    if (channel !== 'bm25' && channel !== 'vector') {
      throw new ValidationError(`Unknown channel ${JSON.stringify(channel)}.`, {
        hint: 'Use bm25, vector or bm25,vector.',
      });
    }
  }
  return channels as ('bm25' | 'vector')[];
}

function humanResult(result: SearchResult): string {
  const where = [
    result.chunk.headingPath.join(' › '),
    result.chunk.page ? pageLabel(result.chunk.docId, result.chunk.page) : '',
  ]
    .filter(Boolean)
    .join(', ');
  const snippet = result.chunk.text.replace(/\s+/g, ' ').slice(0, 240);
  return `${result.rank}. ${result.chunk.docId}${where ? ` (${where})` : ''}  [${result.chunk.id}]\n   ${snippet}${result.chunk.text.length > 240 ? '…' : ''}\n`;
}

function explain(results: SearchResult[], view: ScoreView): string {
  const fmt = (value: number | undefined, digits: number) => (value === undefined ? '-' : value.toFixed(digits));
  if (view === 'ranks') {
    return formatTable(
      ['rank', 'chunk_id', 'bm25 rank', 'vector rank', 'rrf', 'rerank'],
      results.map((r) => [
        r.rank,
        r.chunk.id,
        r.channels.bm25?.rank ?? '-',
        r.channels.vector?.rank ?? '-',
        r.score.toFixed(4),
        fmt(r.rerankScore, 3),
      ]),
    );
  }
  return formatTable(
    ['rank', 'chunk_id', 'bm25 rank', 'bm25 score', 'vector rank', 'vector score', 'rrf', 'rerank'],
    results.map((r) => [
      r.rank,
      r.chunk.id,
      r.channels.bm25?.rank ?? '-',
      fmt(r.channels.bm25?.score, 3),
      r.channels.vector?.rank ?? '-',
      fmt(r.channels.vector?.score, 3),
      r.score.toFixed(4),
      fmt(r.rerankScore, 3),
    ]),
  );
}

const timings = (ms: Record<string, number>) =>
  `timings: ${Object.entries(ms)
    .map(([stage, value]) => `${stage} ${value.toFixed(1)} ms`)
    .join(', ')}\n`;
