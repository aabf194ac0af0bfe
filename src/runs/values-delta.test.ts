import { describe, expect, it } from 'vitest';
import { ValuesReplay, valuesToStore } from './values-delta.ts';

describe('values events stored as deltas', () => {
  it('stores the first values whole and later ones as their changed fields, and replays them whole', () => {
    const states = [
      {
        question: 'q'.repeat(10_000),
        history: [{ role: 'user', content: 'hi' }],
        status: 'running',
        steps: [] as string[],
      },
      {
        question: 'q'.repeat(10_000),
        history: [{ role: 'user', content: 'hi' }],
        status: 'running',
        steps: ['load_memory'],
      },
      {
        question: 'q'.repeat(10_000),
        history: [{ role: 'user', content: 'hi' }],
        status: 'answered',
        steps: ['load_memory', 'finalize'],
        answer: 'a',
      },
      { question: 'q'.repeat(10_000), status: 'answered', steps: ['load_memory', 'finalize'], answer: 'a' },
    ];
    const stored = states.map((state, i) => valuesToStore(states[i - 1], state));
    expect(stored[0]).toEqual(states[0]);
    // The large unchanged question is stored once.
    const size = JSON.stringify(stored).length;
    expect(size).toBeLessThan(JSON.stringify(states[0]).length + 1_000);
    const replay = new ValuesReplay();
    expect(stored.map((data) => replay.next(data))).toEqual(states);
  });
});

describe('a run with a large question', () => {
  it('stores its state a bounded number of times, not once per step', async () => {
    const { openSampleCorpusStore } = await import('../testing/sample-corpus-store.ts');
    const { openAgent } = await import('../testing/agent-client.ts');
    const sample = await openSampleCorpusStore([]);
    const rag = await openAgent(sample.evident, 'rag');
    try {
      // 25 kB of question: the stored state grows about 60 times the question over a run's steps, so its share of
      // the bytes, and the ratios below, are those of any larger question; the offline models' NLP over a 200 kB
      // question took 30 to 65 s on a loaded machine, past the test's time limit.
      const question = `What is the termination fee of CT-2024-0193? ${'Please answer carefully. '.repeat(1_000)}`;
      const run = await rag.ask({ question, principal: { id: 'alice', groups: ['legal'], roles: ['member'] } });
      const events = await sample.evident.store.listRunEvents(run.run_id, 0);
      const bytesOf = (kind: string) =>
        events
          .filter((event) => event.event === kind)
          .reduce((total, event) => total + JSON.stringify(event.data).length, 0);
      const replay = new ValuesReplay();
      let last: Record<string, unknown> = {};
      for (const event of events) if (event.event === 'values') last = replay.next(event.data);
      const finalState = JSON.stringify(last).length;
      expect(events.filter((event) => event.event === 'values').length).toBeGreaterThan(8);
      // The whole state once, then what each step changed: where every step's full state was stored before.
      expect(bytesOf('values')).toBeLessThan(1.5 * finalState);
      expect(events.reduce((total, event) => total + JSON.stringify(event.data).length, 0)).toBeLessThan(
        4 * finalState,
      );
    } finally {
      await rag.close();
      await sample.close();
    }
  });
});
