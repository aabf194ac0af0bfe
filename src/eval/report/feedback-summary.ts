import { escapeHtml } from '../../format/escape-html.ts';
import type { FeedbackCounts } from '../../store/store.ts';

/** How users rated each agent's answers, from the store they rated them in: what an evaluation report shows beside its scores. */
export interface FeedbackSummary {
  /** The store the ratings were read from (a file path, or a database URL without its password). */
  store: string;
  agents: Record<string, { up: number; down: number; with_correction: number }>;
}

export const feedbackSummaryOf = (store: string, counts: readonly FeedbackCounts[]): FeedbackSummary => ({
  store,
  agents: Object.fromEntries(
    counts.map((c) => [c.agent, { up: c.up, down: c.down, with_correction: c.withCorrection }]),
  ),
});

const rows = (summary: FeedbackSummary) =>
  Object.entries(summary.agents).map(([agent, c]) => [agent, c.up, c.down, c.with_correction] as const);

/** The report's feedback section: ratings per agent, or a line saying there are none. */
export function feedbackHtml(summary: FeedbackSummary | undefined): string {
  if (!summary) return '';
  const head = `<h2>User feedback</h2><p>Ratings of answers in <code>${escapeHtml(summary.store)}</code> (<code>evident eval from-feedback</code> turns them into cases).</p>`;
  const found = rows(summary);
  if (found.length === 0) return `${head}<p>No ratings yet.</p>`;
  const body = found
    .map(
      ([agent, up, down, corrected]) =>
        `<tr><td>${escapeHtml(agent)}</td><td class="num">${up}</td><td class="num">${down}</td><td class="num">${corrected}</td></tr>`,
    )
    .join('');
  return `${head}<table class="feedback"><thead><tr><th>agent</th><th>up</th><th>down</th><th>with correction</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** The same, as terminal lines. */
export function feedbackText(summary: FeedbackSummary | undefined): string {
  if (!summary) return '';
  const found = rows(summary);
  if (found.length === 0) return `\nUser feedback (${summary.store}): no ratings yet\n`;
  return `\nUser feedback (${summary.store}):\n${found
    .map(([agent, up, down, corrected]) => `  ${agent}: ${up} up, ${down} down, ${corrected} with a correction`)
    .join('\n')}\n`;
}
