import { describe, expect, it } from 'vitest';
import { zh } from './zh.ts';

const texts = (spans: { text: string }[]): string[] => spans.map((s) => s.text);

describe('zh.sentences', () => {
  it('splits on Chinese and Latin stops and line breaks, trimmed, without empties', () => {
    expect(zh.sentences('今天下雨了。明天呢？后天晴！\n\n  第二段；第三句 The end. Next one')).toEqual([
      '今天下雨了。',
      '明天呢？',
      '后天晴！',
      '第二段；',
      '第三句 The end.',
      'Next one',
    ]);
  });

  it('keeps a quoted exclamation inside its sentence and the closing quote with the stop', () => {
    expect(zh.sentences('他大喊：“快跑！别回头！”然后走了。她说：“好。”')).toEqual([
      '他大喊：“快跑！别回头！”然后走了。',
      '她说：“好。”',
    ]);
  });

  it('does not let an unclosed quote swallow the rest of a line', () => {
    expect(zh.sentences('他说“第一句。第二句。第三句。')).toEqual(['他说“第一句。', '第二句。', '第三句。']);
  });

  it('treats a run of spaces as a line break and keeps decimals whole', () => {
    expect(zh.sentences('收入增长3.5个百分点   下一行内容')).toEqual(['收入增长3.5个百分点', '下一行内容']);
  });
});

describe('zh.focus answer types', () => {
  const cases: [string, string][] = [
    ['这部电影的主演是谁？', 'person'],
    ['《山海》的导演', 'person'],
    ['今年的马拉松冠军是谁', 'person'],
    ['哪位歌手获得了最佳新人奖？', 'person'],
    ['这次峰会在哪个国家举行？', 'place'],
    ['博览会在哪里举办', 'place'],
    ['他去了哪里', 'place'],
    ['这款游戏是哪家公司开发的？', 'organization'],
    ['这部剧在什么平台播出', 'organization'],
    ['运动会什么时候开幕？', 'date'],
    ['新规何时开始施行', 'date'],
    ['音乐节的举办时间', 'date'],
    ['他是哪一年出生的', 'date'],
    ['这台电脑多少钱？', 'amount'],
    ['去年全市的旅游收入是多少', 'amount'],
    ['这部电影的票房', 'amount'],
    ['公司今年招聘多少人？', 'number'],
    ['一共有几个队伍参赛', 'number'],
    ['今年粮食产量', 'number'],
    ['今年一季度的GDP增长率', 'number'],
    ['他是第几次获得冠军', 'number'],
    ['他当了多久的市长', 'duration'],
    ['工程需要多长时间完成？', 'duration'],
    ['这座桥是否已经通车？', 'yes_no'],
    ['他今天会来吗？', 'yes_no'],
    ['什么是量子计算？', 'definition'],
    ['“内卷”是什么意思', 'definition'],
    ['这部剧的主演有哪些？', 'list'],
    ['哪些球队进入了决赛', 'list'],
    ['首发阵容有谁', 'list'],
    ['销量最高的三款手机', 'list'],
    ['这道菜的做法', 'any'],
  ];
  it.each(cases)('%s → %s', (question, type) => {
    expect(zh.focus(question).answer_type).toBe(type);
  });
});

describe('zh.focus entities and key terms', () => {
  it('takes titles, names and Latin identifiers, and leaves question words out of the key terms', () => {
    const focus = zh.focus('2024年《山海经传》在北京首映时，张艺谋用了哪款RTX4090显卡？');
    expect(focus.language).toBe('zh');
    expect(focus.entities).toEqual(expect.arrayContaining(['山海经传', '北京', '张艺谋', 'RTX4090']));
    expect(focus.key_terms).toEqual(expect.arrayContaining(['2024', '北京', '首映', 'rtx4090']));
    expect(focus.key_terms.some((t) => /哪|什么/u.test(t))).toBe(false);
    // Lone characters (年) match almost everything, so they are not key terms.
    expect(focus.key_terms).not.toContain('年');
  });

  it('finds no entity in a question about nothing named', () => {
    expect(zh.focus('今天天气怎么样？').entities).toEqual([]);
  });
});

describe('zh.entities', () => {
  it('finds people, places and organisations in a passage', () => {
    const found = zh.entities('华为技术有限公司与北京大学签约，任正非出席了在深圳举行的仪式。');
    expect(found).toEqual(expect.arrayContaining(['华为技术有限公司', '北京大学', '任正非', '深圳']));
  });
});

describe('zh.spans values', () => {
  it('puts a full date and a date range before bare months and years', () => {
    expect(texts(zh.spans('大会于2024年3月5日上午9时开幕，会期到3月11日，2025年再会。', 'date'))).toEqual([
      '2024年3月5日上午9时',
      '3月11日',
      '2025年',
    ]);
    expect(texts(zh.spans('代表团于6月20日至6月25日访问欧洲。', 'date'))[0]).toBe('6月20日至6月25日');
  });

  it('reads sums with currencies and magnitudes, a bare magnitude last', () => {
    expect(texts(zh.spans('项目投资1.5亿元，另有300美元和¥200的补助，总规模约80亿。', 'amount'))).toEqual([
      '1.5亿元',
      '300美元',
      '¥200',
      '80亿',
    ]);
  });

  it('reads counts, percentages and ordinals, not the numerals of dates or durations', () => {
    const spans = texts(
      zh.spans('2024年共有三十五支球队、1.2万名选手参赛，增长12.5%，这是第五届，赛期10天。', 'number'),
    );
    expect(spans).toEqual(expect.arrayContaining(['三十五支', '1.2万名', '12.5%', '第五届']));
    expect(spans).not.toContain('2024');
    expect(spans.some((s) => s.includes('10'))).toBe(false);
  });

  it('reads durations in Arabic and Chinese numerals but not dates', () => {
    expect(texts(zh.spans('他任职仅50天，此前在海外工作三年零两个月，2020年回国，5月离职。', 'duration'))).toEqual(
      expect.arrayContaining(['50天', '三年零两个月']),
    );
    expect(texts(zh.spans('他于2020年5月回国。', 'duration'))).toEqual([]);
  });

  it('returns no spans for any and offsets that point at the text', () => {
    const sentence = '门票售价为120元。';
    expect(zh.spans(sentence, 'any')).toEqual([]);
    for (const span of zh.spans(sentence, 'amount')) expect(sentence.slice(span.start, span.end)).toBe(span.text);
  });
});

describe('zh.spans names', () => {
  it('finds people from tags and from role cues, cued ones first', () => {
    expect(texts(zh.spans('该片由张艺谋执导，周冬雨、窦骁主演。', 'person'))).toEqual(
      expect.arrayContaining(['张艺谋', '周冬雨', '窦骁']),
    );
    expect(texts(zh.spans('主角林小满（赵丽颖饰）是一名医生。', 'person'))[0]).toBe('赵丽颖');
    expect(texts(zh.spans('迈克尔·乔丹出席了活动。', 'person'))).toContain('迈克尔·乔丹');
  });

  it('does not take a role or a kind of thing the dictionary tags as a name for a person', () => {
    expect(texts(zh.spans('阿尔卡拉斯战胜卫冕冠军德约科维奇。', 'person'))).not.toContain('卫冕冠军');
    expect(texts(zh.spans('杨紫琼成为首位获得奥斯卡最佳女主角的华裔演员。', 'person'))).not.toContain('华裔');
    expect(texts(zh.spans('2023年澳网公开赛男单决赛在罗德拉沃尔球场结束。', 'person'))).not.toContain('公开赛');
  });

  it('does not take the name inside a title or a host city for a person', () => {
    const spans = texts(zh.spans('《李白》是一部电影，首映式在洛杉矶举行。', 'person'));
    expect(spans).not.toContain('李白');
    expect(spans).not.toContain('洛杉矶');
  });

  it('leaves out numerals, generic places and plain English words', () => {
    expect(texts(zh.spans('二人随后见面。', 'person'))).toEqual([]);
    expect(texts(zh.spans('全球经济放缓，峰会在全国范围内转播。', 'place'))).toEqual([]);
    expect(texts(zh.spans('Dec 12, 2022 ... 动画《Three Body》在NBA中场播出', 'organization'))).toEqual(['NBA']);
    expect(texts(zh.spans('2022 年的比赛有12支队伍', 'number'))).toEqual(['12支']);
  });

  it('finds places, the one where something is held first', () => {
    expect(texts(zh.spans('来自中国的代表团抵达后，论坛在杭州举行。', 'place'))[0]).toBe('杭州');
  });

  it('finds organisations by tag and by their kind word', () => {
    const spans = texts(zh.spans('阿里巴巴集团与清华大学合作，节目在B站上线，由光明影业出品。', 'organization'));
    expect(spans).toEqual(expect.arrayContaining(['阿里巴巴集团', '清华大学', 'B站', '光明影业']));
  });

  it('finds lists of names joined by 、 和, and credits lines', () => {
    expect(texts(zh.spans('巴西、德国、日本和韩国晋级。', 'list'))[0]).toBe('巴西、德国、日本和韩国');
    expect(texts(zh.spans('主演： 周冬雨 窦骁 奚美娟', 'list'))[0]).toBe('周冬雨 窦骁 奚美娟');
    expect(zh.spans('我们吃了饭。', 'list')).toEqual([]);
  });
});
