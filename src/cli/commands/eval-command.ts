import type { Command } from 'commander';
import type { BeirReport } from '../../eval/beir/run-beir.ts';
import { ValidationError } from '../../errors/index.ts';
import { intFlag, withEvident, type GlobalOptions } from '../context.ts';
import { registerEvalConvertCommand } from './eval-convert-command.ts';
import { registerEvalFromFeedbackCommand } from './eval-from-feedback-command.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

interface RunFlags {
  corpus: string;
  users?: string;
  agent: string;
  llm?: string;
  json?: boolean;
  report?: string;
}

interface BeirFlags {
  split: string;
  json?: boolean;
  limit?: string;
  report?: string;
  baseline?: string[];
}

/** The evaluation code, loaded when an eval subcommand runs rather than with every CLI start. */
async function evalModules() {
  const [beir, fts5, cases, users, progress, compare, beirHtml, evalHtml, evalTable, write, run, scratch] =
    await Promise.all([
      import('../../eval/beir/run-beir.ts'),
      import('../../eval/beir/fts5-baseline.ts'),
      import('../../eval/cases/read-cases.ts'),
      import('../../eval/cases/read-users.ts'),
      import('../../eval/progress/progress-reporter.ts'),
      import('../../eval/compare/compare-results.ts'),
      import('../../eval/report/beir-html-report.ts'),
      import('../../eval/report/eval-html-report.ts'),
      import('../../eval/report/render-eval-table.ts'),
      import('../../eval/report/write-report.ts'),
      import('../../eval/run/run-eval.ts'),
      import('../scratch-store.ts'),
    ]);
  return {
    ...beir,
    ...fts5,
    ...cases,
    ...users,
    ...progress,
    ...compare,
    ...beirHtml,
    ...evalHtml,
    ...evalTable,
    ...write,
    ...run,
    ...scratch,
  };
}

export function registerEvalCommand(program: Command, io: CliIo): void {
  const evalCommand = program.command('eval').description('Evaluate retrieval and agents');
  registerEvalConvertCommand(evalCommand, io);
  registerEvalFromFeedbackCommand(evalCommand, io);
  evalCommand
    .command('run')
    .description(
      'Ingest a corpus into a scratch store (or --db), run every case through the agents, and score each layer',
    )
    .argument('<cases>', 'JSONL file of cases (one {"id", "user", "question", "expect", …} per line)')
    .requiredOption('--corpus <dir>', "the folder the cases' doc ids are relative to (ingested with its ACLs)")
    .option('--users <file>', 'JSON array of {"name", "groups"}: the groups each case\'s user has')
    .option('--agent <name>', 'rag, react, controllable (comma-separated) or all', 'rag')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .option('--json', 'print {summary, cases} as one JSON object')
    .option('--report <file>', 'also write a self-contained HTML report')
    .action(async (casesFile: string, flags: RunFlags, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const {
        readCases,
        readUsers,
        assertCorpusFolder,
        createProgressReporter,
        withScratchStore,
        runEval,
        writeReport,
        renderEvalHtml,
        renderEvalReport,
      } = await evalModules();
      // Input errors first, before a store is opened or a corpus ingested.
      const cases = await readCases(casesFile);
      const users = await readUsers(flags.users);
      assertCorpusFolder(flags.corpus);
      const progress = createProgressReporter(io.err, { ingestEvery: 50 });
      const { feedbackSummaryOf, readDeploymentFeedback } = await import('./eval-feedback-counts.ts');
      await withScratchStore(global, 'evident-eval-', async (scratch) => {
        // The store the eval ran in is the user's when they named it (--db, or a database URL with ?schema=).
        const ownStore =
          scratch.db === global.db && scratch.databaseUrl === (global.databaseUrl ?? process.env.EVIDENT_DATABASE_URL);
        const report = await withEvident(scratch, flags.llm ? { llm: flags.llm } : {}, async (evident) => {
          const result = await runEval(evident, {
            cases,
            casesFile,
            corpus: flags.corpus,
            users,
            agent: flags.agent,
            onProgress: (p) => {
              if (p.phase === 'ingest') return progress.ingest(p.progress);
              const tally = Object.entries(p.passedSoFar)
                .filter(([, t]) => t.done > 0)
                .map(([agent, t]) => `${agent} ${t.passed}/${t.done}`)
                .join(', ');
              const outcome = p.result.passed ? 'pass' : `fail at ${p.result.first_failure}`;
              progress.count(
                'case',
                p.done,
                p.total,
                `${p.result.agent} ${p.result.id}: ${outcome} (${p.result.latency_ms} ms); passed ${tally}`,
              );
            },
          });
          if (ownStore)
            result.feedback = feedbackSummaryOf(evident.store.location, await evident.store.countFeedback());
          return result;
        });
        // Otherwise the ratings are in the deployment's store (the one `evident feedback` reads), if it has one.
        if (!ownStore) {
          const feedback = await readDeploymentFeedback(global);
          if (feedback) report.feedback = feedback;
        }
        if (flags.report) {
          await writeReport(flags.report, renderEvalHtml(report));
          io.err(`report written to ${flags.report}\n`);
        }
        io.out(
          flags.json
            ? wireJson({
                summary: report.summary,
                cases: report.cases,
                meta: report.meta,
                ...(report.feedback ? { feedback: report.feedback } : {}),
              })
            : renderEvalReport(report),
        );
      });
    });
  evalCommand
    .command('compare')
    .description('Compare two `eval run --json` results case by case and layer by layer: what improved, what regressed')
    .argument('<before>', 'the earlier result (JSON)')
    .argument('<after>', 'the later result (JSON)')
    .option('--json', 'print the comparison as one JSON object')
    .action(async (beforeFile: string, afterFile: string, flags: { json?: boolean }) => {
      const { compareResults, readResult, renderComparison } = await evalModules();
      const comparison = compareResults(await readResult(beforeFile), await readResult(afterFile));
      io.out(flags.json ? wireJson(comparison) : renderComparison(comparison));
    });
  evalCommand
    .command('beir')
    .description('Ingest a BEIR folder into a scratch store (or --db) and score BM25, vector, fused and fused+rerank')
    .argument('<dir>', 'folder with corpus.jsonl, queries.jsonl, qrels/<split>.tsv')
    .option('--split <split>', 'qrels split', 'test')
    .option('--limit <n>', 'evaluate only the first n judged queries')
    .option(
      '--baseline <name...>',
      'also score a free baseline in the same run: fts5 (SQLite FTS5 porter unicode61) or fts5-unicode61',
    )
    .option('--json', 'print the report as one JSON object')
    .option('--report <file>', 'also write a self-contained HTML report')
    .action(async (dir: string, flags: BeirFlags, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const {
        isFts5BaselineName,
        FTS5_BASELINES,
        createProgressReporter,
        withScratchStore,
        runBeir,
        writeReport,
        renderBeirHtml,
      } = await evalModules();
      const limit = intFlag('--limit', flags.limit);
      const baselines = (flags.baseline ?? []).map((name) => {
        if (!isFts5BaselineName(name))
          throw new ValidationError(`--baseline ${name} is not a known baseline.`, {
            hint: `Use one of: ${Object.keys(FTS5_BASELINES).join(', ')}.`,
          });
        return name;
      });
      const progress = createProgressReporter(io.err);
      await withScratchStore(global, 'evident-beir-', async (scratch) => {
        const report = await withEvident(scratch, {}, (evident) =>
          runBeir(evident, dir, {
            split: flags.split,
            ...(limit ? { limit } : {}),
            baselines,
            onProgress: (p) =>
              p.phase === 'ingest'
                ? progress.ingest(p.progress)
                : progress.count(`search ${p.pipeline}`, p.done, p.total, 'queries'),
          }),
        );
        if (flags.report) {
          await writeReport(flags.report, renderBeirHtml(report));
          io.err(`report written to ${flags.report}\n`);
        }
        io.out(flags.json ? wireJson(report) : renderBeir(report));
      });
    });
}

export function renderBeir(report: BeirReport): string {
  const head =
    `${report.dataset} (${report.split}): ${report.documents} documents → ${report.chunks} chunks in ${(report.ingest_ms / 1000).toFixed(1)} s, ` +
    `${report.queries} queries; embedder ${report.embedder}, reranker ${report.reranker}` +
    (report.failed_documents ? `; ${report.failed_documents} documents failed to ingest` : '') +
    '\n\n';
  const rows = Object.entries(report.pipelines).map(([name, s]) => [
    name + (name === report.default_pipeline ? ' (default)' : ''),
    s.ndcg_at_10.toFixed(3),
    s.recall_at_100.toFixed(3),
    s.mrr_at_10.toFixed(3),
    s.p50_ms.toFixed(1),
    s.p95_ms.toFixed(1),
  ]);
  return head + formatTable(['pipeline', 'nDCG@10', 'Recall@100', 'MRR@10', 'p50 ms', 'p95 ms'], rows);
}
