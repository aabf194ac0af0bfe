import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

describe('the evidence gate on who won', () => {
  const final = evidenceChunk(
    'news/final.md#0',
    '阿根廷国家队在点球大战中战胜了法国队，夺得了卡塔尔世界杯的冠军。日本选手山口茜以2比1战胜韩国选手安洗莹，夺得女单冠军。',
  );

  it('takes no side a result says lost as the winner', () => {
    const decision = gateAnswer({
      question: '卡塔尔世界杯的冠军',
      answer: proposedAnswer('法国队。阿根廷国家队在点球大战中战胜了法国队，夺得了卡塔尔世界杯的冠军。[1]', [
        citeIn(final, '阿根廷国家队在点球大战中战胜了法国队，夺得了卡塔尔世界杯的冠军。'),
      ]),
      evidence: [final],
      reground: true,
    });
    expect(decision.answer.answer.startsWith('法国队')).toBe(false);
    const singles = gateAnswer({
      question: '女单冠军是谁？',
      answer: proposedAnswer('安洗莹', [citeIn(final, '日本选手山口茜以2比1战胜韩国选手安洗莹，夺得女单冠军。')]),
      evidence: [final],
    });
    expect(singles.verdict).toBe('refuse');
  });

  it('reads the defeated side in English too, and a "lost to" names the winner', () => {
    const report = evidenceChunk(
      'news/cup.md#0',
      'In the final of the Harbour Cup, Leeds Rovers defeated Dover Athletic 2-1 and took the trophy.',
    );
    const cited = [
      citeIn(report, 'In the final of the Harbour Cup, Leeds Rovers defeated Dover Athletic 2-1 and took the trophy.'),
    ];
    const loser = gateAnswer({
      question: 'Which team won the final of the Harbour Cup?',
      answer: proposedAnswer('Dover Athletic', cited),
      evidence: [report],
    });
    expect(loser.verdict).toBe('refuse');
    const winner = gateAnswer({
      question: 'Which team won the final of the Harbour Cup?',
      answer: proposedAnswer('Leeds Rovers', cited),
      evidence: [report],
    });
    expect(winner.verdict).toBe('answer');
    const result = evidenceChunk(
      'news/cup-final.md#0',
      'In the final of the Harbour Cup, Dover Athletic lost to Leeds Rovers.',
    );
    const named = gateAnswer({
      question: 'Which team won the final of the Harbour Cup?',
      answer: proposedAnswer('Dover Athletic', [
        citeIn(result, 'In the final of the Harbour Cup, Dover Athletic lost to Leeds Rovers.'),
      ]),
      evidence: [result],
    });
    expect(named.verdict).toBe('refuse');
  });
});
