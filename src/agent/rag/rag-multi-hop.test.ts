import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { LOCAL_OPERATOR } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { openAgent, type AgentClient } from '../../testing/agent-client.ts';

const QUESTION = 'Who is the spouse of the director of Lantern Hill?';
// Hop 2's passage shares no word with the question: only the bridge (Orsolya Brandt) found in hop 1's passage finds it.
const DOCS: Record<string, string> = {
  'lantern-hill.md': '# Lantern Hill\n\nLantern Hill is a 1990 drama film directed by Orsolya Brandt.',
  'orsolya-brandt.md': '# Orsolya Brandt\n\nOrsolya Brandt married the painter Tomas Wilder in 1985.',
};
for (let i = 0; i < 8; i++) {
  DOCS[`noise-${i}.md`] =
    `# Film notes ${i}\n\nThe director of film ${i} and the spouse of its lead spoke about the hill where it was shot.`;
}

let dir: string;
let evident: Evident;
let agent: AgentClient & { close(): Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-multi-hop-'));
  await mkdir(join(dir, 'docs'));
  for (const [name, text] of Object.entries(DOCS)) await writeFile(join(dir, 'docs', name), text);
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') } }));
  expect(await evident.ingestor.ingest([join(dir, 'docs')])).toMatchObject({ failed: 0 });
  agent = await openAgent(evident, 'rag');
});

afterAll(async () => {
  await agent?.close();
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('rag offline multi-hop', () => {
  it('retrieves hop 2 through the bridge entity of hop 1 and records the chain', async () => {
    const plain = await evident.search.search(QUESTION, LOCAL_OPERATOR, { topK: 5 });
    expect(plain.results.map((result) => result.chunk.docId)).not.toContain('orsolya-brandt.md');
    const run = await agent.ask({ question: QUESTION, principal: LOCAL_OPERATOR });
    const retrieve = run.steps.find((step) => step.node === 'retrieve');
    expect(retrieve?.summary).toContain('director of Lantern Hill ⇒ Orsolya Brandt');
    expect(run.evidence_ids.some((id) => id.startsWith('orsolya-brandt.md'))).toBe(true);
    expect(run.evidence_ids.some((id) => id.startsWith('lantern-hill.md'))).toBe(true);
  });
});
