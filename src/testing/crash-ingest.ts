import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVIDENT_BIN, spawnAndKill, type KilledChild, type KillPoint } from './child-process-kill.ts';
import { runCli } from './run-cli.ts';
import { seededRandom } from './seeded-random.ts';
import type { DocumentSnapshot, IntegrityReport } from './store-integrity.ts';

/**
 * SIGKILL of `evident ingest` at seeded random points, on any backend: after each kill the store must pass its
 * integrity check and hold only whole documents (each one as the version before or the version being ingested, with
 * all its chunks), and finishing the ingest must give the store an uninterrupted ingest gives.
 */
export interface CrashBackend {
  name: string;
  /** A new empty store: the CLI's store flags for it (`--db x` or `--database-url y`). */
  fresh(trial: number): Promise<string[]>;
  integrity(flags: readonly string[]): Promise<IntegrityReport>;
  snapshot(flags: readonly string[]): Promise<DocumentSnapshot[]>;
}

/** Two versions of one set of files (same paths, so the same doc ids): markdown of several chunks, HTML, text with a sidecar ACL, and a CSV table. */
export function writeCrashCorpus(root: string, files = 24): string[] {
  const versions = ['v1', 'v2'].map((name) => join(root, name));
  versions.forEach((dir, v) => {
    for (const sub of ['notes', 'tables', 'web']) mkdirSync(join(dir, sub), { recursive: true });
    for (let i = 0; i < files; i++) {
      // Every third file keeps its text in v2: an unchanged file is a no-op, a changed one a replacement.
      const version = i % 3 === 0 ? 1 : v + 1;
      const paragraphs = Array.from({ length: 6 + (i % 5) + version }, (_, p) =>
        `Paragraph ${p} of note ${i} (version ${version}) records shipment ${i * 100 + p} through harbour gate ${p % 7}, with tokens note${i}v${version} and dock${p}. `.repeat(
          4,
        ),
      );
      const acl = i % 4 === 1 ? `acl: [group:legal]\n` : '';
      writeFileSync(
        join(dir, 'notes', `note-${String(i).padStart(2, '0')}.md`),
        `---\ntitle: Note ${i} v${version}\n${acl}---\n# Note ${i}\n\n${paragraphs.join('\n\n')}\n`,
      );
    }
    writeFileSync(
      join(dir, 'web', 'gates.html'),
      `<html><head><title>Gates v${v + 1}</title></head><body>${Array.from({ length: 8 }, (_, p) => `<h2>Gate ${p}</h2><p>Gate ${p} opens at ${6 + p}:00 in version ${v + 1}. ${'Cranes and tugs wait. '.repeat(20)}</p>`).join('')}</body></html>`,
    );
    writeFileSync(
      join(dir, 'web', 'manifest.txt'),
      `Manifest version ${v + 1}\n\n${'Containers are sealed and counted at the quay. '.repeat(60)}`,
    );
    writeFileSync(
      join(dir, 'web', 'manifest.txt.acl.json'),
      JSON.stringify({ acl: v === 0 ? ['group:finance'] : ['group:finance', 'user:erin'] }),
    );
    writeFileSync(
      join(dir, 'tables', 'berths.csv'),
      [
        'berth,ship,tons',
        ...Array.from({ length: 40 + v * 10 }, (_, r) => `b${r % 9},ship-${r},${(r * 13.5).toFixed(1)}`),
      ].join('\n'),
    );
  });
  return versions;
}

export interface CrashTrial {
  trial: number;
  /** `fresh` (an empty store) or the version the store held before. */
  from: 'fresh' | 'v1' | 'v2';
  to: 'v1' | 'v2';
  point: string;
  /** Which CLI was killed: the real `bin/evident.js`, or the same sources bundled (`cli-bundle.ts`). */
  cli: 'bin/evident.js' | 'bundle';
  killed: KilledChild;
  /** Documents present right after the kill, and how many were the new version. */
  present: number;
  updated: number;
  problems: string[];
  /** Milliseconds for the whole trial (kill, checks, completion, checks). */
  ms: number;
}

export interface CrashRunOptions {
  seed: number;
  /** Kills to make (attempts that finish before their kill point are retried with an earlier one). */
  points: number;
  versions: string[];
  cwd: string;
  /** The snapshots of an uninterrupted ingest of each version into an empty store. */
  references: DocumentSnapshot[][];
  /** How long one file takes to ingest, to spread kill points within a file (ms). */
  perFileMs: number;
  files: number;
  /** The bundled CLI (`bundledCli()`); without it every child is `node bin/evident.js`. */
  bundle?: string;
  /** With a bundle: every `realEvery`-th child (the first included) is still the real `bin/evident.js`. */
  realEvery?: number;
  onTrial?: (trial: CrashTrial) => void;
}

/**
 * Children write batches of three documents, so a kill lands between batches (old and new versions mixed, each whole)
 * and inside one (all of it or none); with the default batch every file of the corpus is one transaction. The real
 * CLI's children also prepare documents on worker threads, as a large folder does.
 */
const CHILD_INGEST_ENV = { EVIDENT_INGEST_BATCH_DOCUMENTS: '3' };
const REAL_CHILD_INGEST_ENV = { EVIDENT_INGEST_WORKERS: '2', EVIDENT_INGEST_WORKER_MIN_DOCUMENTS: '1' };

const byId = (snapshot: readonly DocumentSnapshot[]) => new Map(snapshot.map((doc) => [doc.doc_id, doc]));
const same = (a: DocumentSnapshot | undefined, b: DocumentSnapshot | undefined) =>
  a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** Ingests `dir` to completion in-process through the CLI, as a user re-running the command after a crash would. */
export async function completeIngest(flags: readonly string[], dir: string): Promise<void> {
  const run = await runCli([...flags, 'ingest', dir, '--json']);
  if (run.code !== 0)
    throw new Error(`re-running the ingest failed (${run.code}): ${run.stderr}${run.stdout.slice(0, 500)}`);
}

/** Runs the trials one after another on `backend`; every problem found is in the trials' `problems`. */
export async function runCrashTrials(backend: CrashBackend, options: CrashRunOptions): Promise<CrashTrial[]> {
  const random = seededRandom(options.seed);
  const trials: CrashTrial[] = [];
  let flags: string[] | undefined;
  let held: 'v1' | 'v2' | undefined;
  let attempts = 0;
  // Spawn to first file done, per CLI, as seen so far: "early" kills land around it (store open, migrations, first write).
  const startupMs = new Map<string, number>();
  while (trials.length < options.points && attempts++ < options.points * 3) {
    const started = performance.now();
    const fresh = !flags || random() < 0.25;
    if (fresh) {
      flags = await backend.fresh(attempts);
      held = undefined;
    }
    const storeFlags = flags as string[];
    const from = held ?? 'fresh';
    const target: 'v1' | 'v2' = held === 'v1' ? 'v2' : held === 'v2' ? 'v1' : random() < 0.5 ? 'v1' : 'v2';
    const dir = options.versions[target === 'v1' ? 0 : 1] as string;
    const real = !options.bundle || (options.realEvery !== undefined && attempts % options.realEvery === 1);
    const script = real ? EVIDENT_BIN : (options.bundle as string);
    // Every fourth dies before any file is done (startup, store open, migrations, the first write); the rest after a
    // random file k, at a random moment of the next one.
    const early = attempts % 4 === 0;
    const k = 1 + Math.floor(random() * Math.max(1, options.files - 1));
    const marker = /^\[\d+\/\d+\]/m;
    const point: KillPoint = early
      ? { marker, count: 0, delayMs: (startupMs.get(script) ?? 3_000) * (0.2 + random() * 0.7) }
      : { marker, count: k, delayMs: random() * options.perFileMs * 1.5 };
    const label = early
      ? `${Math.round(point.delayMs)} ms after spawn`
      : `${Math.round(point.delayMs)} ms after file ${k} was reported`;
    const env = { ...process.env, ...CHILD_INGEST_ENV, ...(real ? REAL_CHILD_INGEST_ENV : {}) };
    const killed = await spawnAndKill(process.execPath, [script, ...storeFlags, 'ingest', dir], point, {
      cwd: options.cwd,
      env,
      timeoutMs: 180_000,
    });
    if (killed.firstMarkerMs !== undefined) startupMs.set(script, killed.firstMarkerMs);
    const problems = [...(await backend.integrity(storeFlags)).problems];
    const after = await backend.snapshot(storeFlags);
    const before = held
      ? byId(options.references[held === 'v1' ? 0 : 1] as DocumentSnapshot[])
      : new Map<string, DocumentSnapshot>();
    const wanted = byId(options.references[target === 'v1' ? 0 : 1] as DocumentSnapshot[]);
    let updated = 0;
    for (const doc of after) {
      const isNew = same(doc, wanted.get(doc.doc_id));
      if (isNew && !same(doc, before.get(doc.doc_id))) updated++;
      if (!isNew && !same(doc, before.get(doc.doc_id)))
        problems.push(`half-written or unknown version of ${doc.doc_id}: ${JSON.stringify(doc)}`);
    }
    // Nothing that was stored may be lost by a crash.
    for (const id of before.keys())
      if (!after.some((doc) => doc.doc_id === id)) problems.push(`${id} was stored before the crash and is gone`);
    if (killed.outcome === 'exited' && killed.code !== 0)
      problems.push(`ingest exited ${killed.code} before its kill point: ${killed.stderr.slice(0, 300)}`);
    await completeIngest(storeFlags, dir);
    problems.push(...(await backend.integrity(storeFlags)).problems.map((problem) => `after completing: ${problem}`));
    const completed = await backend.snapshot(storeFlags);
    if (JSON.stringify(completed) !== JSON.stringify(options.references[target === 'v1' ? 0 : 1])) {
      const differing = completed.filter((doc) => !same(doc, wanted.get(doc.doc_id))).map((doc) => doc.doc_id);
      problems.push(
        `the completed store differs from an uninterrupted ingest (${completed.length} vs ${wanted.size} docs; differing: ${differing.slice(0, 5).join(', ')})`,
      );
    }
    held = target;
    // A run that finished before its kill point proves nothing about crashes: it does not count, the next one aims earlier.
    if (killed.outcome !== 'killed') continue;
    const trial: CrashTrial = {
      trial: trials.length,
      from,
      to: target,
      point: label,
      cli: real ? 'bin/evident.js' : 'bundle',
      killed,
      present: after.length,
      updated,
      problems,
      ms: performance.now() - started,
    };
    trials.push(trial);
    options.onTrial?.(trial);
  }
  return trials;
}

/** Builds the reference snapshot of each version: an uninterrupted ingest into an empty store. */
export async function referenceSnapshots(
  backend: CrashBackend,
  versions: readonly string[],
): Promise<{ references: DocumentSnapshot[][]; perFileMs: number }> {
  const references: DocumentSnapshot[][] = [];
  let perFileMs = 0;
  for (const [index, dir] of versions.entries()) {
    const flags = await backend.fresh(-1 - index);
    const started = performance.now();
    await completeIngest(flags, dir);
    const snapshot = await backend.snapshot(flags);
    perFileMs = Math.max(perFileMs, (performance.now() - started) / Math.max(1, snapshot.length));
    references.push(snapshot);
  }
  return { references, perFileMs };
}
