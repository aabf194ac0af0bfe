/**
 * Where the time goes in a `.cpuprofile`: self and inclusive time per function and self time per source file.
 *
 *   node --import tsx bench/retrieval/profile-summary.ts <file.cpuprofile> [top=25]
 *
 * Under tsx, line numbers point into the transpiled module, so functions are named by name and file only.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  self: [string, number][];
  inclusive: [string, number][];
  files: [string, number][];
}

const shortUrl = (url: string): string =>
  url.replace(/^file:\/\//, '').replace(/^.*?\/(src|bench|node_modules)\//, '$1/') || '(native)';

export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const name = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'}  ${shortUrl(node.callFrame.url)}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const files = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id) as ProfileNode;
    total += us;
    self.set(name(node), (self.get(name(node)) ?? 0) + us);
    const file = shortUrl(node.callFrame.url);
    files.set(file, (files.get(file) ?? 0) + us);
    // Count each function once per sample even when it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at) as ProfileNode);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const sorted = (map: Map<string, number>): [string, number][] =>
    [...map].map(([key, us]): [string, number] => [key, us / 1000]).sort((a, b) => b[1] - a[1]);
  return { totalMs: total / 1000, self: sorted(self), inclusive: sorted(inclusive), files: sorted(files) };
}

export function formatProfileSummary(summary: ProfileSummary, top: number): string {
  const lines = (rows: [string, number][]) =>
    rows
      .slice(0, top)
      .map(
        ([key, ms]) =>
          `${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)}%  ${key}`,
      )
      .join('\n');
  return [
    `total ${summary.totalMs.toFixed(0)} ms sampled`,
    '-- self time by function --',
    lines(summary.self),
    '-- inclusive time by function --',
    lines(summary.inclusive),
    '-- self time by file --',
    lines(summary.files),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node --import tsx bench/retrieval/profile-summary.ts <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(`${formatProfileSummary(summarizeProfile(profile), Number(top ?? 25))}\n`);
}
