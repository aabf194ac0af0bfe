import type { SyncReport } from '../sources/sync-source.ts';
import type { SyncAction } from '../sources/sync-plan.ts';

const docIdOf = (step: SyncAction): string => ('item' in step ? step.item.docId : step.stored.docId);

/** A dry run's plan, one line per change (unchanged documents counted, not listed). */
export function planText(report: SyncReport): string {
  const lines = [`plan for ${report.source} (dry run, nothing written):`];
  let unchanged = 0;
  for (const step of report.plan) {
    if (step.action === 'unchanged') unchanged += 1;
    else if (step.action === 'acl')
      lines.push(`  acl       ${docIdOf(step)} → ${step.acl.length === 0 ? 'public' : step.acl.join(',')}`);
    else if (step.action === 'failed') lines.push(`  failed    ${docIdOf(step)}: ${step.error.message}`);
    else lines.push(`  ${step.action.padEnd(9)} ${docIdOf(step)}`);
  }
  lines.push(...skippedLines(report), `  ${unchanged} unchanged`);
  return lines.join('\n') + '\n';
}

/** What a sync did: each change on a line, then the counts. */
export function reportText(report: SyncReport): string {
  const lines: string[] = [];
  for (const outcome of report.outcomes) {
    if (outcome.status === 'unchanged') continue;
    const what = outcome.status === 'acl' ? 'acl updated' : outcome.status;
    lines.push(`  ${what.padEnd(11)} ${outcome.docId}${outcome.error ? `: ${outcome.error.message}` : ''}`);
  }
  lines.push(...skippedLines(report), summaryLine(report));
  return lines.join('\n') + '\n';
}

const REASONS: Record<string, string> = { robots: 'disallowed by robots.txt', off_origin: "off the site's origin" };

const skippedLines = (report: SyncReport): string[] =>
  report.skipped.map((skip) => `  ${'skipped'.padEnd(9)} ${skip.url} (${REASONS[skip.reason] ?? skip.reason})`);

export const summaryLine = (report: SyncReport): string =>
  `${report.source}: ${report.added} added, ${report.updated} updated, ${report.aclUpdated} ACL updated (not re-embedded), ` +
  `${report.deleted} deleted, ${report.unchanged} unchanged, ${report.failed} failed`;

/** The report as JSON for `--json` (snake_case by `wireJson`): the plan as action and doc_id. */
export const reportJson = (report: SyncReport) => ({
  ...report,
  plan: report.plan.map((step) => ({
    action: step.action,
    docId: docIdOf(step),
    ...(step.action === 'acl' ? { acl: step.acl } : {}),
  })),
});
