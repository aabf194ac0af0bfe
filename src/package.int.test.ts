import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const NODE_MODULES = join(ROOT, 'node_modules');

/**
 * The packed package as a consumer gets it: `npm pack` (what `files` ships), unpacked into an empty folder's
 * node_modules/evident as `npm install <tarball>` would place it. Its dependencies cannot be downloaded here, so the
 * consumer's node_modules links this checkout's installed copies of exactly the packages the tarball's package.json
 * declares and what those need in turn (development tools of this checkout are not among them, so a runtime import
 * of an undeclared package fails here as it would for a user). TypeScript and Node's types are the consumer's own
 * development tools, linked the same way.
 */
function linkRuntimeDependencies(packageJson: { dependencies?: Record<string, string> }, into: string): string[] {
  const linked = new Set<string>();
  const queue = Object.keys(packageJson.dependencies ?? {});
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (linked.has(name)) continue;
    const source = join(NODE_MODULES, name);
    // An optional dependency for another platform, or one nested inside its dependent (it comes along with it).
    if (!existsSync(join(source, 'package.json'))) continue;
    linked.add(name);
    mkdirSync(dirname(join(into, name)), { recursive: true });
    symlinkSync(source, join(into, name), 'dir');
    const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'])
      queue.push(...Object.keys(manifest[field] ?? {}));
  }
  return [...linked];
}

/** This environment without EVIDENT_* and OTEL_* settings: offline models, no tracing. */
function offlineEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('EVIDENT_') && !name.startsWith('OTEL_')),
  );
}

describe('the packed package', () => {
  let work: string;
  let consumer: string;
  let tarball: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'evident-package-'));
    // dist/ is current: the test run's global set-up built it (src/testing/build-before-tests.ts).
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, packed?.filename as string);
    consumer = join(work, 'consumer');
    const installed = join(consumer, 'node_modules', 'evident');
    mkdirSync(installed, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { evident: `file:${tarball}` } }),
    );
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    linkRuntimeDependencies(manifest, join(consumer, 'node_modules'));
    for (const tool of ['typescript', '@types/node', 'undici-types']) {
      if (!existsSync(join(consumer, 'node_modules', tool))) {
        mkdirSync(dirname(join(consumer, 'node_modules', tool)), { recursive: true });
        symlinkSync(join(NODE_MODULES, tool), join(consumer, 'node_modules', tool), 'dir');
      }
    }
  }, 120_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('ships compiled JavaScript, declarations and the files the code reads at run time, and no sources or tests', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/dist/adapters/langchain/index.d.ts');
    expect(files).toContain('package/dist/cli/main.js');
    expect(files).toContain('package/bin/evident.js');
    expect(files).toContain('package/CHANGELOG.md');
    // The README's links and the errors' hints (e.g. a missing optional model package) point into docs/.
    expect(files).toContain('package/docs/models.md');
    expect(files.some((file) => file.startsWith('package/samples/corpus/'))).toBe(true);
    // Every non-TypeScript file under src/ that is not a test helper (weights, child scripts, worker entries) is there.
    expect(
      files.filter((file) => /\.(json|cjs|mjs|jsonl)$/.test(file) && file.startsWith('package/dist/')),
    ).not.toEqual([]);
    expect(files.filter((file) => file.startsWith('package/src/') || /\.test\.(js|ts)$/.test(file))).toEqual([]);
  });

  it('imports evident, evident/langchain and evident/ai-sdk from plain Node, and answers over its sample corpus', async () => {
    const script = join(consumer, 'smoke.mjs');
    writeFileSync(
      script,
      `import { createEvident, loadConfig, LOCAL_OPERATOR, EvidentError } from 'evident';
import { EvidentRetriever, evidentTools as langchainTools } from 'evident/langchain';
import { evidentTools as aiSdkTools } from 'evident/ai-sdk';
import { fileURLToPath } from 'node:url';

const corpus = fileURLToPath(new URL('./node_modules/evident/samples/corpus', import.meta.url));
const evident = await createEvident(loadConfig({ flags: { db: process.argv[2] } }));
try {
  const ingested = await evident.ingestor.ingest([corpus]);
  const trace = await evident.search.search('nightly hotel limit in London', LOCAL_OPERATOR);
  const { runs } = await evident.agents();
  const retriever = new EvidentRetriever({ evident, principal: LOCAL_OPERATOR });
  const docs = await retriever.invoke('nightly hotel limit in London');
  const [, askTool] = langchainTools({ evident, principal: LOCAL_OPERATOR });
  const asked = await askTool.invoke({ question: 'What is the nightly hotel limit in London?' });
  console.log(JSON.stringify({
    added: ingested.added,
    top: trace.results[0]?.chunk.docId,
    retrieved: docs.length,
    answer: typeof asked === 'string' ? asked : JSON.stringify(asked),
    agents: typeof runs,
    errors: typeof EvidentError,
    langchain: langchainTools({ evident, principal: LOCAL_OPERATOR }).length,
    aiSdk: Object.keys(aiSdkTools({ evident, principal: LOCAL_OPERATOR })).length,
  }));
} finally {
  await evident.close();
}
`,
    );
    const { stdout } = await run(process.execPath, [script, join(work, 'evident.db')], {
      cwd: consumer,
      env: offlineEnv(),
    });
    const out = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    expect(out).toMatchObject({ top: 'policies/expenses.md', agents: 'object', errors: 'function' });
    expect(out.added).toBeGreaterThan(5);
    expect(out.retrieved).toBeGreaterThan(0);
    // The offline agent answers from the sample's expense policy, with a citation of it.
    expect(out.answer).toContain('320');
    expect(out.answer).toContain('policies/expenses.md');
    expect(out.langchain).toBeGreaterThan(0);
    expect(out.aiSdk).toBeGreaterThan(0);
  });

  it('declares the local-model runtimes as optional peer dependencies, not dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/evident/package.json'), 'utf8'));
    for (const name of ['node-llama-cpp', '@huggingface/transformers']) {
      expect(manifest.dependencies).not.toHaveProperty([name]);
      expect(manifest.peerDependencies).toHaveProperty([name]);
      expect(manifest.peerDependenciesMeta?.[name]).toEqual({ optional: true });
      // Absent here, as after a plain `npm install evident`.
      expect(existsSync(join(consumer, 'node_modules', name))).toBe(false);
    }
  });

  it('says which optional package a local-model provider needs, when it is not installed', async () => {
    const script = join(consumer, 'optional.mjs');
    writeFileSync(
      script,
      `import { createEvident, loadConfig, ConfigError } from 'evident';

const db = process.argv[2];
const failure = (error) => ({ config: ConfigError.isInstance(error), code: error.code, message: error.message });
const evident = await createEvident(loadConfig({ env: { EVIDENT_LLM: 'llama-cpp:/nonexistent.gguf' }, flags: { db } }));
const llm = await evident.chatModel().then(() => 'loaded', failure);
await evident.close();
const embedder = await createEvident(
  loadConfig({ env: { EVIDENT_EMBEDDER: 'transformers:Xenova/all-MiniLM-L6-v2' }, flags: { db } }),
).then(async (opened) => (await opened.close(), 'loaded'), failure);
console.log(JSON.stringify({ llm, embedder }));
`,
    );
    const { stdout } = await run(process.execPath, [script, join(work, 'optional.db')], {
      cwd: consumer,
      env: offlineEnv(),
    });
    const out = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    const { peerDependencies: peers } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(out.llm).toEqual({
      config: true,
      code: 'config_invalid',
      message: `The llama-cpp provider needs the optional package node-llama-cpp: run \`npm install node-llama-cpp@${peers['node-llama-cpp']}\` beside evident.`,
    });
    expect(out.embedder).toEqual({
      config: true,
      code: 'config_invalid',
      message: `The transformers provider needs the optional package @huggingface/transformers: run \`npm install @huggingface/transformers@${peers['@huggingface/transformers']}\` beside evident.`,
    });
  });

  it("runs the installed CLI's compiled code", async () => {
    const { stdout } = await run(process.execPath, [join(consumer, 'node_modules/evident/bin/evident.js'), '--help'], {
      cwd: consumer,
    });
    expect(stdout).toContain('Usage: evident');
  });

  it('type-checks a TypeScript consumer against the declarations', async () => {
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: ['node'],
          skipLibCheck: false,
        },
        include: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(consumer, 'consumer.ts'),
      `import { createEvident, loadConfig, isEvidentError, type Answer, type Evident, type Principal } from 'evident';
import { EvidentRetriever, type EvidentDocumentMetadata } from 'evident/langchain';
import { evidentTools } from 'evident/ai-sdk';

const principal: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };

export async function firstAnswer(db: string): Promise<Answer | undefined> {
  const evident: Evident = await createEvident(loadConfig({ flags: { db } }));
  try {
    const trace = await evident.search.search('termination fee', principal, { topK: 3 });
    const ids: string[] = trace.results.map((result) => result.chunk.docId);
    const retriever = new EvidentRetriever({ evident, user: 'alice' });
    const meta: EvidentDocumentMetadata | undefined = (await retriever.invoke('fee'))[0]?.metadata;
    const tools = evidentTools({ evident, principal });
    void ids, meta, tools;
    return undefined;
  } catch (error) {
    if (isEvidentError(error)) console.error(error.code);
    throw error;
  } finally {
    await evident.close();
  }
}

// @ts-expect-error internals are not part of the package's API
import { limitSetting } from 'evident';
void limitSetting;
`,
    );
    const tsc = join(consumer, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', join(consumer, 'tsconfig.json')], { cwd: consumer }).then(
      (ok) => ok,
      (failed: { stdout: string; stderr: string }) => failed,
    );
    expect(`${result.stdout}${result.stderr}`).toBe('');
  });
});
