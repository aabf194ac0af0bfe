import { describe, expect, it } from 'vitest';
import { organizationCandidates, personCandidates, placeCandidates } from './names.ts';

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

const people = (text: string) => personCandidates(text).map((candidate) => candidate.text);
const organizations = (text: string) => organizationCandidates(text).map((candidate) => candidate.text);

describe('Chinese names written by sound', () => {
  it.each([
    ['梅德韦杰夫以3比1战胜对手', '梅德韦杰夫'],
    ['斯维托丽娜破发成功', '斯维托丽娜'],
    ['记者安娜．库兹涅佐娃报道', '安娜．库兹涅佐娃'],
  ])('reads a run of transliteration characters as one name wherever jieba cut it: %s → %s', (text, name) => {
    expect(people(text)).toContain(name);
  });

  it('ends a name before a function word written with a character of the tables (因)', () => {
    expect(people('巴西名将内马尔因伤缺席比赛。')).toEqual(['内马尔']);
  });

  it('does not take ordinary words made of common characters for a foreign name', () => {
    expect(people('他偶尔去南海游泳')).toEqual([]);
    expect(people('普通话考试特别难')).toEqual([]);
  });

  it('does not take a run where a place is cued (去X, 城市X) for a person', () => {
    expect(people('他偶尔会去马尔代夫度假')).toEqual([]);
  });
});

describe('Chinese person names: the words around a candidate', () => {
  it('reads a country before a role noun as where the person is from', () => {
    expect(people('英国选手穆雷与阿根廷名将梅西交手')).toEqual(['穆雷', '梅西']);
    expect(people('英国选手穆雷与阿根廷名将德尔波特罗交手')).toEqual(['穆雷', '德尔波特罗']);
  });

  it('reads a role after a name with no name after it as the name’s title', () => {
    expect(people('李明华市长在市人民代表大会上作报告')).toEqual(['李明华']);
  });

  it('takes no counted word (6连胜, 第3座) for a person', () => {
    expect(people('球队取得了6连胜')).toEqual([]);
  });

  it('takes no common noun from a list of names', () => {
    expect(people('导演陈明、商人赵亮和主持人出席')).not.toContain('商人');
  });

  it('drops a role word jieba glued to a name (…领衔, …及)', () => {
    expect(people('黄渤及孙红雷領銜主演，张译特別出演。')).toEqual(expect.arrayContaining(['黄渤', '孙红雷', '张译']));
    expect(people('黄渤及孙红雷領銜主演，张译特別出演。')).not.toContain('黄渤及');
  });
});

describe('Chinese place names: kinds and pairs of places', () => {
  it.each([
    ['代表团抵达西班牙北部城市毕尔巴鄂。', '毕尔巴鄂'],
    ['自行车赛将从英国利物浦出发', '利物浦'],
    ['火炬接力将从法国里昂开始', '里昂'],
    ['会议在福建厦门举行', '厦门'],
  ])('takes the named place after its kind or inside a larger place: %s → %s', (text, place) => {
    expect(ranked(text)[0]).toBe(place);
  });

  it('takes no kind of place (港口城市) and no organisation abbreviated …联 for a place', () => {
    expect(ranked('火炬传递将从法国东南部重要港口城市里昂开始。')).not.toContain('港口城市');
    expect(ranked('欧足联在瑞士召开会议')).toEqual(['瑞士']);
  });
});

describe('Chinese organisation names', () => {
  it('reads a country that plays as its team', () => {
    expect(organizations('巴西3比0击败喀麦隆')).toEqual(['巴西', '喀麦隆']);
    expect(organizations('#巴西世界杯季军#')).toEqual(['巴西']);
  });

  it('reads an abbreviation jieba takes for a place as an organisation', () => {
    expect(organizations('欧足联宣布新规')).toEqual(['欧足联']);
  });

  it('takes no event, no trophy and no word pointing back (这支球队) for an organisation', () => {
    expect(organizations('亚洲杯开幕')).toEqual([]);
    expect(organizations('这支球队很强')).toEqual([]);
  });

  it('takes no news outlet a report is credited to (X讯, X电, 据X报道) for what the report is about', () => {
    expect(organizations('巴西击败喀麦隆 南方日报讯 （记者李明）昨晚')).toEqual(['巴西', '喀麦隆']);
    expect(organizations('据路透社报道，谷歌公司将裁员')).toEqual(['谷歌公司']);
  });

  it('joins a character jieba cut off before a proper noun to it', () => {
    expect(organizations('新京报今天发表评论')).toEqual(['新京报']);
  });
});

describe('Chinese names: what is no name', () => {
  it('does not extend a whole name the dictionary knows over the unknown word after it', () => {
    expect(people('记者问：刘德华见泽连斯基否')).toEqual(['刘德华', '泽连斯基']);
  });

  it('takes no quoted term or nickname for a person', () => {
    expect(people('主角的“金三角”关系')).toEqual([]);
  });

  it('takes no count of places and no place that describes an unnamed one', () => {
    expect(ranked('北美三国领导人在墨西哥城举行峰会')).not.toContain('三国');
    expect(ranked('公司越来越关注这个南亚国家的市场')).toEqual([]);
  });
});

describe('Chinese person names jieba cuts or glues', () => {
  it('parts a function character jieba glued to a surname (由雷 好音)', () => {
    expect(people('该剧由雷好音执导')).toEqual(['雷好音']);
  });

  it('reads a role cue through a colon (主演：X)', () => {
    expect(people('主演：孙佳音、黄渤')).toEqual(expect.arrayContaining(['孙佳音', '黄渤']));
    expect(people('主演：孙佳音、黄渤')).not.toContain('佳音');
  });

  it('joins a family name jieba takes for a place to the given name after a role (名将石川佳纯)', () => {
    expect(people('日本名将石川佳纯获得冠军')).toEqual(['石川佳纯']);
  });
});
