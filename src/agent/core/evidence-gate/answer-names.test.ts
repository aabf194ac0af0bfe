import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

describe('the evidence gate on names a model writes in a short answer', () => {
  const song = evidenceChunk(
    'paragraphs/thinking-out-loud.md#0',
    'Thinking Out Loud is a song by Ed Sheeran. Sheeran wrote the song for his then-girlfriend, Athina Andrelos.',
  );
  const cited = [citeIn(song, 'Sheeran wrote the song for his then-girlfriend, Athina Andrelos.')];
  const question = 'Who did Ed Sheeran write the song Thinking Out Loud for?';

  it('reads the name a short answer writes capitalised, though the tagger does not know it', () => {
    const decision = gateAnswer({
      question,
      answer: proposedAnswer('his then-girlfriend, Athina Andrelos', cited),
      evidence: [song],
    });
    expect(decision.verdict).toBe('answer');
  });

  it('refuses a name the cited evidence does not state, and one the question names itself', () => {
    for (const answer of [
      'his then-girlfriend, Clara Dunmore',
      'the singer Ed Sheeran himself',
      'the song Thinking Out Loud',
    ]) {
      const decision = gateAnswer({ question, answer: proposedAnswer(answer, cited), evidence: [song] });
      expect([answer, decision.verdict]).toEqual([answer, 'refuse']);
    }
  });
});
