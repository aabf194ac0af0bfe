import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

describe('the evidence gate on the year an event is named by', () => {
  it('takes no year that opens the asked event’s name as when it was held, but a date the sentence states', () => {
    const opened = evidenceChunk('news/summit.md#0', '昨天，2022年世界互联网大会乌镇峰会在浙江乌镇开幕。');
    const named = gateAnswer({
      question: '乌镇峰会举办时间',
      answer: proposedAnswer('2022年', [citeIn(opened, '昨天，2022年世界互联网大会乌镇峰会在浙江乌镇开幕。')]),
      evidence: [opened],
    });
    expect(named.verdict).toBe('refuse');
    const dated = evidenceChunk('news/summit-dates.md#0', '2022年世界互联网大会乌镇峰会于11月9日在浙江乌镇开幕。');
    const stated = gateAnswer({
      question: '乌镇峰会举办时间',
      answer: proposedAnswer('11月9日', [citeIn(dated, '2022年世界互联网大会乌镇峰会于11月9日在浙江乌镇开幕。')]),
      evidence: [dated],
    });
    expect(stated.verdict).toBe('answer');
    const placed = evidenceChunk('news/summit-year.md#0', '世界互联网大会峰会于2022年在乌镇举办。');
    const year = gateAnswer({
      question: '乌镇峰会举办时间',
      answer: proposedAnswer('2022年', [citeIn(placed, '世界互联网大会峰会于2022年在乌镇举办。')]),
      evidence: [placed],
    });
    expect(year.verdict).toBe('answer');
  });
});
