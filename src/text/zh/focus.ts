/**
 * What a Chinese question asks for. The answer type comes from the question word and the noun it asks about:
 * 哪个国家 asks for a place, 什么公司 an organisation, 多少钱 an amount, 多少人 a number; a question with no
 * question word (二十大开幕时间, 《炽道》的主演) asks for what its last noun names. The nouns are grouped by the kind
 * of answer they take; a noun in no group leaves the type `any` rather than guessing.
 */
import { analyzeQuery } from '../analyzer.ts';
import type { AnswerType, QuestionFocus } from '../language.ts';
import { organizationCandidates, personCandidates, placeCandidates, titles } from './names.ts';
import { isHan, tagged } from './segmenter.ts';

const group = (words: string): string[] =>
  words
    .split(/\s+/u)
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);

/** Nouns naming a role a person fills. */
const PERSON_HEADS = group(`
  主演 演员 导演 总导演 副导演 编剧 编导 作者 作家 作曲 作词 歌手 主唱 主持人 主角 女主角 男主角 女主 男主 配角 男二 女二 冠军 亚军 季军
  得主 获得者 获奖者 记者 总理 首相 总统 副总统 市长 省长 州长 议长 主席 部长 总书记 国王 女王 王储 教练 主教练 主帅 领队 队长 航天员 宇航员
  选手 球员 运动员 创始人 创办人 发起人 董事长 总裁 首席执行官 CEO 负责人 代言人 嫌疑人 凶手 人物 候选人 继任者 接班人 制片人 监制 出品人
  科学家 设计师 发明者 发明人 开发者 扮演者 饰演者 配音 配音演员 老板 校长 院长 总经理 发言人 大使 法官 新郎 新娘 丈夫 妻子 父亲 母亲 儿子 女儿
  明星 偶像 球星 人 谁`);
/** Nouns naming a place. */
const PLACE_HEADS = group(`
  国家 城市 地方 地点 地区 省份 省 州 县 举办地 举办国 东道主 所在地 地址 位置 场馆 场地 首都 举办城市 目的地 发源地 出生地 国籍 产地 总部
  路线 航线 里 儿 哪 地 处 国`);
/** Nouns naming an organisation (teams included). */
const ORGANIZATION_HEADS = group(`
  公司 企业 集团 机构 组织 平台 网站 品牌 球队 队伍 战队 队 俱乐部 大学 高校 学校 学院 医院 银行 政党 党 媒体 电视台 部门 单位 厂商 运营商
  制作方 出品方 承办方 主办方 赞助商 供应商 厂家 团队 工作室 政府 法院 多数党 执政党 交易所 APP 应用 软件 频道`);
/** Nouns asking when. */
const DATE_HEADS = group('时间 日期 日子 时候 时刻 年份 年 月 天 日 号 一天 一年 哪天 首日 开始日 截止日');
/** Nouns asking how much money. */
const AMOUNT_HEADS = group(`
  多少钱 价格 价钱 售价 票价 费用 成本 金额 票房 收入 营收 收益 利润 净利润 营业额 销售额 市值 估值 投资 投资额 奖金 总奖金 罚款 罚金 赔偿
  赔偿金 经费 预算 工资 薪资 薪酬 总额 资金 融资 身价 税收 支出 开支 补贴 GDP 总投入 投入 损失`);
/** Nouns asking for a rate or a count. */
const NUMBER_HEADS = group(`
  增长率 增速 增幅 涨幅 跌幅 降幅 上涨 下降 下跌 增长 比例 比重 占比 百分比 率 CPI PPI 人数 人次 产量 保有量 发送量 客流量 销量 数量 数目 总数
  人口 震级 席位 排名 名次 得分 比分 分数 数 年龄 岁数 身高 体重 面积 高度 长度 距离 速度 温度 集 届 名 级 量 次数 多少个 多少名 多少人`);
const DURATION_HEADS = group('时长 任期 刑期 工期 期限 寿命 周期 多长时间 多久 多长');
/** Nouns of a set: the answer names several things. */
const LIST_HEADS = group('四强 八强 十六强 前三 前三名 前十 对手 成员 名单 阵容 嘉宾 组合');

const TYPED_HEADS: [AnswerType, string[]][] = [
  ['duration', DURATION_HEADS],
  ['amount', AMOUNT_HEADS],
  ['number', NUMBER_HEADS],
  ['date', DATE_HEADS],
  ['list', LIST_HEADS],
  ['person', PERSON_HEADS],
  ['organization', ORGANIZATION_HEADS],
  ['place', PLACE_HEADS],
];

/** The longest head in any group that `text` starts with (after a question word) or ends with (a bare noun phrase). */
function headType(text: string, where: 'start' | 'end'): AnswerType | undefined {
  let best: { type: AnswerType; length: number } | undefined;
  for (const [type, heads] of TYPED_HEADS) {
    for (const head of heads) {
      const hit = where === 'start' ? text.startsWith(head) : text.endsWith(head);
      if (hit && (!best || head.length > best.length)) best = { type, length: head.length };
    }
  }
  // A one-character head (年, 天, 人) is only a head right after a question word.
  if (best && best.length === 1 && where === 'end' && !/^(?:人|率|数|量)$/u.test(text.slice(-1))) return undefined;
  return best?.type;
}

const TRAILING = /[\s?？。！!，,、…~～呢啊呀吧嘛了的]+$/u;
const COUNTERS = '个名位人次支家座部届场件种项条所架辆只头台套张本首篇款枚块颗棵间层栋户集期批起例岁强票席倍吨万亿';

/** The answer type of a Chinese question, from its question word and the noun it asks about. */
export function zhAnswerType(question: string): AnswerType {
  const q = question.normalize('NFKC').replace(TRAILING, '').replace(TRAILING, '');
  const hasWh = /谁|哪|什么|多少|几|何时|何地|何处|多久|多长|如何|怎么|怎样|为什么|为何|啥/u.test(q);

  if (/是否|是不是|有没有|能不能|会不会|可不可以|能否|可否|是真的/u.test(q) && !/谁|哪|什么|多少/u.test(q))
    return 'yes_no';
  if (/吗$|么$/u.test(question.normalize('NFKC').replace(/[\s?？。！!]+$/u, '')) && !/谁|哪|什么|多少|几/u.test(q))
    return 'yes_no';
  if (
    /^(?:请问)?(?:什么是|何为|何谓|啥是)|(?:是什么意思|什么意思|指的是什么|是指什么|是啥意思|的定义|的含义|是什么东西)$/u.test(
      q,
    )
  )
    return 'definition';
  if (/有哪些|都有哪|哪些|有谁|都有谁|都是谁|分别是|分别有|包括哪/u.test(q)) return 'list';
  // 票房最高的三部电影: a superlative over several things asks for all of them.
  if (new RegExp(`最[^的]{1,6}的(?:[两二三四五六七八九十]|\\d+)[${COUNTERS}]`, 'u').test(q)) return 'list';

  if (/什么时候|何时|几时|几月几[日号]|几号|哪天|哪一天|哪年|哪一年|几月份?/u.test(q)) return 'date';
  if (/多久|多长时间|多长|多少年|多少天|多少个月|多少小时|多少分钟|多少周|几年|几天|几个月|几小时|几周|几分钟/u.test(q))
    return 'duration';
  if (/多少钱|多少元|多少美元|多少欧元|多少英镑|多少日元|多少人民币|多少万元|多少亿元|多少块/u.test(q)) return 'amount';
  if (/第几/u.test(q)) return 'number';

  // 哪个国家, 什么公司, 哪支球队: the noun after the question word decides.
  const which = /(?:哪(?:一|个|家|位|支|所|座|部|款|种|只|条|场|届|些)?|什么|何)([\p{Script=Han}A-Za-z]{1,6})/u.exec(q);
  if (which) {
    const asked = which[1] as string;
    if (/^[里儿]/u.test(asked) && which[0].startsWith('哪')) return 'place';
    if (/^哪位/u.test(which[0])) return 'person';
    const type = headType(asked, 'start');
    if (type) return type;
  }
  if (/哪里|哪儿|在哪|去哪|何地|何处|到哪/u.test(q)) return 'place';

  if (/谁/u.test(q)) {
    // 谁 asks for a person unless the noun it stands for is an organisation (是哪家公司 is caught above).
    const subject = q.split(/是谁|谁/u)[0] ?? '';
    const type = headType(subject.replace(TRAILING, ''), 'end');
    return type === 'organization' || type === 'place' ? type : 'person';
  }

  if (/多少|几/u.test(q)) {
    if (new RegExp(`(?:多少|几)(?:[${COUNTERS}]|万|亿)`, 'u').test(q)) return 'number';
    const before = q.split(/多少|几/u)[0] ?? '';
    const type = headType(before.replace(/(?:是|为|有|达|达到|了|共|约|大约|一共|总共|将|能|会)+$/u, ''), 'end');
    if (type === 'amount' || type === 'duration' || type === 'number') return type;
    return 'number';
  }

  // No question word: the last noun names what is asked (二十大开幕时间, 2022年全国棉花产量, 《炽道》的主演).
  const bare = q.replace(/(?:是什么|是啥|是|为)$/u, '');
  const type = headType(bare, 'end');
  if (type) return type;
  if (!hasWh && /是什么$|是啥$/u.test(q)) return 'any';
  return 'any';
}

/** Question words, particles and words too common to tell passages apart. */
const STOPWORDS = new Set(
  `的 了 是 在 有 和 与 及 或 吗 呢 啊 吧 呀 么 嘛 什么 哪 哪个 哪些 哪里 哪儿 哪位 哪家 哪支 哪一 谁 多少 几 何时 何地 什么时候 如何 怎么 怎样 为什么
  为何 是否 是不是 请问 一下 这 那 这个 那个 其 之 被 把 将 会 能 要 都 也 还 又 就 才 中 里 上 下 到 从 对 向 给 让 由 于 为 以 而 并 等 个 些
  时间 日期 时候 地点 地方 人 人物 多久 多长 有没有 分别 一共 总共 大约 约 共 已经 曾 呢 们 吗 啥 一个 第几 几个`.split(
    /\s+/u,
  ),
);

/** A question word inside a candidate means jieba glued it to a name (哪支球队). */
const NOT_ENTITY = /谁|哪|什么|多少|几[个次年天]/u;
/** Answer-slot nouns are what is asked, not what the answer is about (亚军, 城市, 营收). */
const HEAD_WORDS = new Set(TYPED_HEADS.flatMap(([, heads]) => heads));

/** Named things in a question or passage: titles, people, places, organisations, other proper nouns, Latin names. */
export function zhEntities(text: string): string[] {
  const found: string[] = [...titles(text)];
  const inTitle = (start: number, end: number): boolean =>
    [...text.matchAll(/《[^《》]{1,40}》/gu)].some(
      (m) => start >= (m.index ?? 0) && end <= (m.index ?? 0) + m[0].length,
    );
  for (const c of [...personCandidates(text), ...placeCandidates(text), ...organizationCandidates(text)]) {
    if (c.score >= 0.6 && !inTitle(c.start, c.end)) found.push(c.text);
  }
  for (const token of tagged(text)) {
    if (inTitle(token.start, token.end)) continue;
    const han = isHan(token.word);
    if (han && token.word.length >= 2 && /^(?:nr|nrt|nrfg|ns|nt|nz)$/u.test(token.tag)) found.push(token.word);
    else if (han && token.word.length >= 2 && token.tag === 'x' && !STOPWORDS.has(token.word)) found.push(token.word);
    else if (token.tag === 'eng' && /[A-Za-z]/u.test(token.word) && token.word.length >= 2) found.push(token.word);
  }
  const unique = [
    ...new Set(found.map((e) => e.trim()).filter((e) => e.length >= 2 && !NOT_ENTITY.test(e) && !HEAD_WORDS.has(e))),
  ];
  // A name inside a longer one is the same mention (德约 in 德约科维奇).
  return unique.filter((e) => !unique.some((other) => other !== e && other.includes(e)));
}

/** Analyzer terms of the question's content words. */
function keyTerms(question: string, entities: string[]): string[] {
  const words = tagged(question)
    .map((t) => t.word)
    .filter((w) => /[\p{L}\p{N}]/u.test(w) && !STOPWORDS.has(w) && !NOT_ENTITY.test(w));
  const terms: string[] = [];
  for (const word of [...words, ...entities]) {
    // A lone Han character (年, 届) matches nearly every passage: it says nothing about this question.
    if (isHan(word) && word.length < 2) continue;
    for (const term of analyzeQuery(word)) {
      if (/^\p{Script=Han}$/u.test(term)) continue;
      terms.push(term);
    }
  }
  return [...new Set(terms)];
}

export function zhFocus(question: string): QuestionFocus {
  const entities = zhEntities(question);
  return { language: 'zh', answer_type: zhAnswerType(question), entities, key_terms: keyTerms(question, entities) };
}
