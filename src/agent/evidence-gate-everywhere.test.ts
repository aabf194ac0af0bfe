import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { openAgent, type AgentClient } from '../testing/agent-client.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const AGENTS = ['rag', 'react', 'controllable'] as const;

let dir: string;
let evident: Evident;
const agents = new Map<string, AgentClient & { close(): Promise<void> }>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-gate-'));
  const config = loadConfig({ flags: { db: join(dir, 'store.db') } });
  evident = await createEvident({ ...config, agents: { ...config.agents, evidenceGate: 'enforce' } });
  await evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
  await evident.store.upsertUser({ name: 'carol', groups: ['sales'] });
  expect(await evident.ingestor.ingest([join(repo, 'samples/corpus')])).toMatchObject({ failed: 0 });
  for (const name of AGENTS) agents.set(name, await openAgent(evident, name));
});

afterAll(async () => {
  for (const agent of agents.values()) await agent.close();
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

interface GraphJson {
  nodes: { id: string }[];
  edges: { source: string; target: string }[];
}

describe('the evidence gate in every agent', () => {
  it.each(AGENTS)(
    '%s reaches finalize only through evidence_gate, and the gate only leads to finalize',
    async (name) => {
      const graph = (await (agents.get(name) as AgentClient).graph.getGraphAsync()).toJSON() as unknown as GraphJson;
      const intoFinalize = graph.edges.filter((edge) => edge.target === 'finalize').map((edge) => edge.source);
      const fromGate = graph.edges.filter((edge) => edge.source === 'evidence_gate').map((edge) => edge.target);
      expect(graph.nodes.map((node) => node.id)).toContain('evidence_gate');
      expect([...new Set(intoFinalize)]).toEqual(['evidence_gate']);
      expect(fromGate).toEqual(['finalize']);
    },
  );

  it('makes every agent refuse a contract the asker may not read instead of citing a neighbouring one', async () => {
    // carol reads CT-2024-0193 (its fees are the neighbour), not CT-2023-0077.
    for (const name of AGENTS) {
      const run = await (agents.get(name) as AgentClient).ask({
        question: 'What is the annual license fee of CT-2023-0077?',
        principal: await evident.principalFor('carol'),
      });
      expect(run.answer, name).toMatchObject({ answerable: false, citations: [] });
      expect(run.answer?.answer, name).not.toContain('$');
    }
  });

  it.each([
    ['What is the annual license fee of CT-2023-0077?', 'alice', '$86,000'],
    ['What is the termination fee of CT-2024-0193?', 'alice', '$48,000'],
    ['How many named users does CT-2023-0077 license?', 'alice', '250'],
  ])('gives the one value of %s, the same decision in every agent', async (question, user, value) => {
    for (const name of AGENTS) {
      const run = await (agents.get(name) as AgentClient).ask({
        question,
        principal: await evident.principalFor(user),
      });
      expect(run.answer?.answerable, name).toBe(true);
      expect(
        run.answer?.answer.startsWith(value) || run.answer?.answer.includes(` ${value}`),
        `${name}: ${run.answer?.answer}`,
      ).toBe(true);
    }
  });
});
