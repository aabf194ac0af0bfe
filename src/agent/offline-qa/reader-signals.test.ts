import { describe, expect, it } from 'vitest';
import { isDateline, isInterrogative, novelty, otherYear, sameValue, yearsIn } from './reader-signals.ts';

const span = (sentence: string, text: string) => {
  const start = sentence.indexOf(text);
  return { text, start, end: start + text.length, type: 'date' as const };
};

describe('reader signals', () => {
  it('tells a question asked back from a statement', () => {
    expect(isInterrogative('你们怎么看2022年卡塔尔世界杯吉祥物？')).toBe(true);
    expect(isInterrogative('How do partners verify the signature?')).toBe(true);
    expect(isInterrogative('2022年卡塔尔世界杯吉祥物名为拉伊卜。')).toBe(false);
  });

  it('finds a dateline or a page timestamp, not the date of the event', () => {
    const dateline = '新华社北京4月3日电 外交部发言人介绍了马克龙访华有关安排。';
    expect(isDateline(dateline, span(dateline, '4月3日'))).toBe(true);
    const stamp = '发布时间2023-02-17 15:08:49 君子盟辜清章扮演者是谁';
    expect(isDateline(stamp, span(stamp, '2023-02-17'))).toBe(true);
    const event = '美国国务卿布林肯将于6月18日至19日访华。';
    expect(isDateline(event, span(event, '6月18日至19日'))).toBe(false);
  });

  it('measures how much of a sentence the question does not already say', () => {
    expect(novelty(new Set(['卡塔', '塔尔', '决赛']), new Set(['卡塔', '塔尔', '决赛', '队伍']))).toBe(0);
    expect(novelty(new Set(['决赛', '阿根', '根廷']), new Set(['决赛']))).toBeCloseTo(2 / 3);
  });

  it('matches one value written fully and in part', () => {
    expect(sameValue('2022年11月30日', '11月30日')).toBe(true);
    expect(sameValue('30 seconds', '30 Seconds')).toBe(true);
    expect(sameValue('11月30日', '12月12日')).toBe(false);
  });

  it('says when a text is about another year than the question', () => {
    const asked = yearsIn('2022年我国CPI上涨了多少？');
    expect(otherYear('预计2023年全年CPI同比上涨2.1%', asked)).toBe(true);
    expect(otherYear('2022年CPI同比上涨2.0%', asked)).toBe(false);
    expect(otherYear('CPI同比上涨2.0%', asked)).toBe(false);
    expect(otherYear('预计2023年全年CPI同比上涨2.1%', new Set())).toBe(false);
  });
});
