import { describe, expect, it } from 'vitest';
import { runTool } from './run-tool.ts';

// Node itself stands in for a tool: a real child process that sleeps, floods its output, or fails.
const node = process.execPath;
const run = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024, env: process.env };

describe('runTool', () => {
  it('returns what the tool printed', async () => {
    expect(await runTool(node, ['-e', 'process.stdout.write("page text")'], run)).toMatchObject({
      ok: true,
      stdout: 'page text',
    });
  });

  it('kills a tool that overruns its time', async () => {
    const started = Date.now();
    expect(await runTool(node, ['-e', 'setTimeout(() => {}, 60_000)'], { ...run, timeoutMs: 300 })).toEqual({
      ok: false,
      failure: { kind: 'timeout' },
    });
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('kills a tool that prints more than its bound', async () => {
    expect(await runTool(node, ['-e', 'process.stdout.write("x".repeat(1 << 20))'], run)).toEqual({
      ok: false,
      failure: { kind: 'output_too_large' },
    });
  });

  it('tells a missing tool from one that fails, and passes arguments without a shell', async () => {
    expect(await runTool('evident-no-such-tool', [], run)).toEqual({ ok: false, failure: { kind: 'missing' } });
    expect(await runTool(node, ['-e', 'console.error("bad page"); process.exit(3)'], run)).toEqual({
      ok: false,
      failure: { kind: 'failed', message: 'bad page' },
    });
    expect(
      await runTool(node, ['-e', 'process.stdout.write(process.argv[1])', '$(touch /tmp/x); `id`'], run),
    ).toMatchObject({ ok: true, stdout: '$(touch /tmp/x); `id`' });
  });
});
