import { describe, expect, it } from 'vitest';
import { placeCandidates } from './names.ts';

/** The place candidates of a text, best first. */
const ranked = (text: string) =>
  placeCandidates(text)
    .sort((a, b) => b.score - a.score)
    .map((candidate) => candidate.text);

describe('Chinese place names', () => {
  it.each([
    ['赛事将于9月10日在法国尼斯举行。', '尼斯'],
    ['开幕式在泰国曼谷举行。', '曼谷'],
  ])('takes the inner of two places written together as where it happens: %s → %s', (text, place) => {
    expect(ranked(text)[0]).toBe(place);
  });

  it('does not take a kind of place for a place', () => {
    expect(ranked('最终2023年世界科幻大会举办城市花落成都。')).toEqual([]);
    expect(ranked('亚足联邀请所有国家申办。')).not.toContain('国家');
  });

  it('does not read a common noun after a place as a place inside it', () => {
    expect(ranked('乌镇峰会举办情况')[0]).toBe('乌镇');
  });
});
