import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { feedbackSummaryOf, type FeedbackSummary } from '../../eval/report/feedback-summary.ts';
import { withEvident, type GlobalOptions } from '../context.ts';

export { feedbackSummaryOf };

/**
 * The feedback counts of the deployment's store — the one every other command opens with these options — when it
 * exists: a database URL is set, or the SQLite file is there (an evaluation never creates one just to count in it).
 */
export async function readDeploymentFeedback(global: GlobalOptions): Promise<FeedbackSummary | undefined> {
  if (!(global.databaseUrl ?? process.env.EVIDENT_DATABASE_URL)) {
    const { loadConfig } = await import('../../config/index.ts');
    const config = loadConfig({
      flags: global.db ? { db: global.db } : {},
      ...(global.config ? { configFile: global.config } : {}),
    });
    if (config.databaseUrl === undefined && !existsSync(resolve(config.db))) return undefined;
  }
  return withEvident(global, {}, async (evident) =>
    feedbackSummaryOf(evident.store.location, await evident.store.countFeedback()),
  );
}
