import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that took longest in CI (2 cores, `.ci/run` at db07b8f: from 98 s down to 10 s), longest first.
 * Started first, they run beside the many short files instead of ending the run on one core while the other idles.
 * Order only: every file still runs; a file not listed keeps vitest's own order after these; a name that no longer
 * exists is ignored.
 */
const SLOWEST_FILES = [
  'src/security/crash-ingest-postgres.int.test.ts',
  'src/store/postgres/store-replica.int.test.ts',
  'src/store/postgres/store.int.test.ts',
  'src/security/crash-ingest-sqlite.int.test.ts',
  'src/server/crash-recovery.int.test.ts',
  'src/security/leak-fuzz.int.test.ts',
  'src/eval/sets/sample-corpus-gate.int.test.ts',
  'src/server/web-ui.int.test.ts',
  'src/server/run-overload.int.test.ts',
  'src/ingest/loaders/image-fuzz.int.test.ts',
  'src/security/crash-upload-audit.int.test.ts',
  'src/server/webhook-servers.int.test.ts',
  'src/ingest/ocr/scanned-pdf.int.test.ts',
  'src/server/web-ui-citations.int.test.ts',
  'src/server/routes/langgraph/stream-modes.int.test.ts',
  'src/server/cron-multi-server.int.test.ts',
  'src/package.int.test.ts',
  'src/server/web-ui-session.int.test.ts',
  'src/ingest/loaders/image-loader.int.test.ts',
  'src/server/double-texting-multi-server.int.test.ts',
  'src/server/web-ui-feedback.int.test.ts',
  'src/server/oidc/oidc-web-ui.int.test.ts',
  'src/store/postgres/read-replicas.int.test.ts',
  'src/server/routes/langgraph/webhooks.int.test.ts',
  'src/cli/commands/mcp-command.int.test.ts',
  'src/server/web-ui-admin.int.test.ts',
  // Unit files (queued after every integration file, see below), longest first.
  'src/store/sqlite/store.test.ts',
  'src/models/chat/llama-cpp-chat-model.test.ts',
  'src/eval/beir/run-beir.test.ts',
  'src/cli/threads-command.test.ts',
  'src/cli/ask-command.test.ts',
];

/**
 * Vitest's sequencer with the files above moved to the front, in that order; files that share their worker's modules
 * (`isolate: false`, the unit project in vitest.config.ts) come after all the others, together: vitest hands a shared
 * worker the next file only when that file shares too, so a unit file between two integration files would start a
 * worker of its own. Many and short, they also fill the end of the run on both cores.
 */
export class SlowFilesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = SLOWEST_FILES.findIndex((name) => file.moduleId.replaceAll('\\', '/').endsWith(`/${name}`));
      return at === -1 ? SLOWEST_FILES.length : at;
    };
    const shared = (file: TestSpecification): number => (file.project.config.isolate === false ? 1 : 0);
    const sorted = await super.sort(files);
    return sorted
      .map((file, index) => ({ file, index, rank: rank(file), shared: shared(file) }))
      .sort((a, b) => a.shared - b.shared || a.rank - b.rank || a.index - b.index)
      .map(({ file }) => file);
  }
}
