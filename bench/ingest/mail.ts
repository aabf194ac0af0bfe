/**
 * E-mail ingestion: what reading mail costs, through the composition root into a fresh SQLite store (offline
 * embedder), and what an e-mail bomb costs to refuse. One process; wall time and the process's peak RSS.
 *
 *   node --import tsx bench/ingest/mail.ts [--messages 2000] [--files 200] [--json out.json]
 *
 * Cases: one .mbox of `--messages` messages (message N cited as page N); `--files` .eml files each with a one-page
 * PDF and a text attachment (every attachment its own document, written with its message); the loader alone on an
 * .mbox of ingest.maxArchiveEntries messages (the most the defaults admit); a 2 KiB .msg whose directory chain
 * points at itself (refused before msgreader follows it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { createEvident } from '../../src/evident.ts';
import { INGEST_DEFAULTS } from '../../src/ingest/limits.ts';
import { mboxLoader } from '../../src/ingest/loaders/mail/mbox-loader.ts';
import { msgLoader } from '../../src/ingest/loaders/mail/msg-loader.ts';
import { buildEml, buildMbox, buildMsg } from '../../src/testing/mail-builder.ts';
import { buildPdf } from '../../src/testing/pdf-builder.ts';
import { describeEnvironment } from '../environment.ts';

const { values: flags } = parseArgs({
  options: {
    messages: { type: 'string', default: '2000' },
    files: { type: 'string', default: '200' },
    json: { type: 'string' },
  },
});
const started = Date.now();
const loadBefore = loadavg()[0] ?? 0;

const message = (i: number) =>
  buildEml({
    from: `sender${i % 37}@example.org`,
    to: 'team@example.org',
    subject: `Berth ${i % 12} schedule, week ${i}`,
    date: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toUTCString(),
    messageId: `<m${i}@example.org>`,
    ...(i % 3 === 0 ? {} : { inReplyTo: `<m${i - (i % 3)}@example.org>`, references: `<m${i - (i % 3)}@example.org>` }),
    text: `Vessel ${i} docks at berth ${i % 12} at ${6 + (i % 12)}:00.\n\nCargo: ${(i * 37) % 900} containers.\n\n> Earlier: please confirm the slot for vessel ${i}.`,
  });

const rss = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const rows: Record<string, unknown>[] = [];
async function timed(name: string, run: () => Promise<Record<string, unknown>>) {
  const t = performance.now();
  const extra = await run();
  const seconds = (performance.now() - t) / 1000;
  rows.push({ case: name, seconds: Number(seconds.toFixed(2)), rss_mb: rss(), ...extra });
}

async function ingestFolder(build: (docs: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'evident-bench-mail-'));
  const docs = join(dir, 'docs');
  mkdirSync(docs);
  build(docs);
  const evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
  try {
    return await evident.ingestor.ingest([docs]);
  } finally {
    await evident.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const count = Number(flags.messages);
await timed(`mbox of ${count} messages, ingested`, async () => {
  const summary = await ingestFolder((docs) =>
    writeFileSync(join(docs, 'team.mbox'), buildMbox(Array.from({ length: count }, (_, i) => message(i + 1)))),
  );
  return { messages_per_s: Math.round(count / (summary.elapsedMs / 1000)), chunks: summary.chunks };
});

const files = Number(flags.files);
const pdf = buildPdf([[{ text: 'Indemnity clause: the supplier pays the repair costs of the crane.' }]]);
await timed(`${files} .eml with a PDF and a text attachment, ingested`, async () => {
  const summary = await ingestFolder((docs) => {
    for (let i = 0; i < files; i += 1)
      writeFileSync(
        join(docs, `m${i}.eml`),
        buildEml({
          subject: `Contract ${i}`,
          messageId: `<c${i}@example.org>`,
          text: `Contract ${i} is attached.`,
          attachments: [
            { name: 'contract.pdf', contentType: 'application/pdf', bytes: pdf },
            { name: 'note.txt', contentType: 'text/plain', bytes: Buffer.from(`Note ${i}: berth ${i % 12}.`) },
          ],
        }),
      );
  });
  const attachments = summary.outcomes.reduce((sum, o) => sum + (o.attachments?.length ?? 0), 0);
  return { files_per_s: Math.round(files / (summary.elapsedMs / 1000)), documents: files + attachments };
});

const limit = INGEST_DEFAULTS.maxArchiveEntries;
await timed(`mbox loader, ${limit} messages (ingest.maxArchiveEntries, at limit)`, async () => {
  const mbox = buildMbox(Array.from({ length: limit }, (_, i) => message(i + 1)));
  const doc = await mboxLoader.load(mbox, 'limit.mbox');
  return { mbox_mib: Number((mbox.length / 1024 / 1024).toFixed(1)), blocks: doc.blocks.length };
});

await timed('.msg whose directory chain loops (refused)', async () => {
  const msg = Buffer.from(buildMsg({ subject: 'Loop', body: 'x' }));
  const sector = msg.readUInt32LE(0x30);
  msg.writeUInt32LE(sector, (msg.readUInt32LE(0x4c) + 1) * 512 + 4 * sector);
  const error = await msgLoader.load(msg, 'loop.msg').then(
    () => 'loaded',
    (failure: { code?: string }) => failure.code,
  );
  return { bytes: msg.length, result: error };
});

console.table(rows);
const environment = describeEnvironment('bench/ingest/mail.ts', started, loadBefore);
if (flags.json) writeFileSync(flags.json, JSON.stringify({ environment, rows }, null, 2));
