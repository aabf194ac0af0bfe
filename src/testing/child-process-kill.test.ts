import { describe, expect, it } from 'vitest';
import { spawnAndKill, startChild } from './child-process-kill.ts';

/** A child that prints `[tick n]` every 20 ms up to `ticks`, and would print "cleaned up" on SIGTERM or exit. */
const ticker = (ticks: number) => [
  '-e',
  `let n = 0; process.on('SIGTERM', () => { console.log('cleaned up'); process.exit(0); });
   const timer = setInterval(() => { console.log('[tick ' + ++n + ']'); if (n === ${ticks}) { clearInterval(timer); console.log('done'); } }, 20);`,
];

describe('the kill harness', () => {
  it('kills with SIGKILL after the n-th marker: the child gets no chance to clean up', async () => {
    const killed = await spawnAndKill(
      process.execPath,
      ticker(200),
      { marker: /^\[tick \d+\]/m, count: 3, delayMs: 0 },
      { timeoutMs: 30_000 },
    );
    expect(killed).toMatchObject({ outcome: 'killed', signal: 'SIGKILL' });
    expect(killed.markersSeen).toBeGreaterThanOrEqual(3);
    expect(killed.markersSeen).toBeLessThan(200);
    expect(killed.stdout).not.toContain('cleaned up');
    expect(killed.firstMarkerMs).toBeLessThanOrEqual(killed.elapsedMs);
  });

  it('reports a child that finished before its kill point as exited, with its code', async () => {
    const finished = await spawnAndKill(
      process.execPath,
      ticker(2),
      { marker: /^\[tick \d+\]/m, count: 5, delayMs: 0 },
      { timeoutMs: 30_000 },
    );
    expect(finished).toMatchObject({ outcome: 'exited', code: 0, signal: null, markersSeen: 2 });
    expect(finished.stdout).toContain('done');
  });

  it('kills at a delay from spawn, and can send another signal', async () => {
    const child = startChild(process.execPath, ticker(500));
    await child.waitForCount(/^\[tick \d+\]/m, 2);
    child.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stdout).toContain('cleaned up');
    const early = await spawnAndKill(process.execPath, ticker(500), { delayMs: 50 });
    expect(early.outcome).toBe('killed');
  });

  it('rejects a wait for output the child never writes once it has exited', async () => {
    const child = startChild(process.execPath, ticker(1));
    await expect(child.waitFor(/never written/, 30_000)).rejects.toThrow(/ended \(0\) before/);
  });
});
