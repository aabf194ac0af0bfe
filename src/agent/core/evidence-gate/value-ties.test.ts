import { describe, expect, it } from 'vitest';
import { evidenceChunk } from '../../../testing/gate-answers.ts';
import { citedSentences } from './cited-reading.ts';
import { questionView } from './question-view.ts';
import { termWeights, valueTies } from './value-ties.ts';

describe('value ties', () => {
  it('does not count the value’s own words as the sentence stating what the question asks', () => {
    const view = questionView('How quickly must a partner reply so a webhook is not sent a second time?');
    const ticket = evidenceChunk('t.md#0', 'The endpoint took 35 seconds. Partners must reply within 30 seconds.');
    const ties = valueTies(view, citedSentences([ticket], view), 'duration', termWeights(view, [ticket.text]));
    const took = ties.find((tie) => tie.value === '35 seconds');
    const reply = ties.find((tie) => tie.value === 'within 30 seconds');
    // "seconds" is the value's unit, not the "second" of "a second time": the first sentence states nothing asked.
    expect(took?.attribute).toBe(0);
    expect(reply?.attribute).toBeGreaterThan(0);
    expect((reply?.score ?? 0) > (took?.score ?? 0)).toBe(true);
  });

  it('still reads the unit a "how many years" question counts in where the value writes it', () => {
    const view = questionView('For how many years must we keep a vendor’s secrets under the NDA?');
    const nda = evidenceChunk('nda.md#0', 'Under the NDA, obligations last three years from the date of disclosure.');
    const [tie] = valueTies(view, citedSentences([nda], view), 'duration', termWeights(view, [nda.text]));
    expect(tie?.value).toBe('three years');
    const without = questionView('For how long must we keep a vendor’s secrets under the NDA?');
    const [plain] = valueTies(without, citedSentences([nda], without), 'duration', termWeights(without, [nda.text]));
    expect(tie?.attribute ?? 0).toBeGreaterThan(plain?.attribute ?? 0);
  });
});
