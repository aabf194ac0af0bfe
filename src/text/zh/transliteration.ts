/**
 * Foreign names written in Chinese characters. Chinese writes a foreign name by sound, with a small, fixed set of
 * characters (the ones of the standard transliteration tables: 阿, 尔, 斯, 维, 奇, 科, 娃, …), so a run of three or
 * more such characters is a transliterated name wherever jieba cut it (its dictionary knows a famous one whole and
 * cuts a new one into pieces: 格什/科维奇, 阿尔卡拉/斯以, 萨/巴伦/卡破). The run says only that it is a foreign
 * name; whether it names a person, a place or a team is for jieba's tags and the words around it.
 */
import { dictionaryParts, type ZhToken } from './segmenter.ts';

/**
 * The characters of the transliteration tables for names from European languages, Russian and Arabic, without the
 * few that are also common function words (因, 于): a name is cut before them (内马尔因伤缺席).
 */
const SOUND_CHARACTERS = new Set(
  Array.from(
    '阿埃艾爱安昂奥巴拜班邦鲍贝本比彼毕宾波伯博布查察达戴丹道德登迪蒂丁杜多厄恩法范菲费芬丰佛夫福弗盖甘冈戈哥格根古瓜圭哈海汉豪赫亨洪胡霍基吉加贾杰卡凯坎康考柯科克肯库夸奎昆拉莱赖兰朗劳勒雷蕾里利莉列林琳隆卢鲁伦罗洛马玛迈麦曼芒梅门蒙米密莫默姆穆纳娜奈南内妮尼涅宁纽努诺欧帕潘庞佩皮珀普齐奇恰乔切琴丘屈让热瑞若萨塞赛桑瑟森沙莎舍施什舒斯松苏索塔泰坦汤特滕提图托瓦万旺威韦维温沃乌伍西希锡谢辛休雅亚扬耶伊尤约泽扎詹兹佐茨娃勃尔翰逊罕卜连丽丝芙黛',
  ),
);

/**
 * Characters the tables use for sounds and Chinese seldom uses otherwise: a run must hold one, so that an ordinary
 * word made of common characters that happen to be in the tables (东南, 马上, 南海) is not taken for a name.
 */
const MARK_CHARACTERS = new Set(
  Array.from(
    '阿埃奥巴鲍蒂迪厄菲芬弗戈圭赫霍吉贾杰卡凯坎柯科克肯库夸奎莱赖勒蕾莉琳洛玛迈曼姆穆娜奈妮尼涅纽努诺帕佩珀普奇恰乔萨塞瑟莎舍斯索塔泰滕托瓦韦维沃乌伊耶扎兹茨娃勃尔翰逊罕芙黛',
  ),
);

const isSound = (character: string): boolean => SOUND_CHARACTERS.has(character);

export interface SoundRun {
  start: number;
  end: number;
  text: string;
  /** Indexes of the first and last token the run touches. */
  first: number;
  last: number;
}

/**
 * Runs of three to eight transliteration characters. A run starts and ends at a word boundary, except inside a word
 * jieba guessed (`x`): its HMM glues a name to the next function character (斯以, 卡破). A run that is one word jieba
 * knows as a place or an organisation (克罗地亚) or a run the dictionary reads as ordinary words is no name here.
 */
export function soundRuns(text: string, tokens: ZhToken[]): SoundRun[] {
  const runs: SoundRun[] = [];
  let i = 0;
  while (i < text.length) {
    if (!isSound(text[i] as string)) {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && isSound(text[j] as string)) j++;
    const run = fitToWords(text, tokens, i, j);
    if (run) runs.push(run);
    i = j;
  }
  return runs;
}

function fitToWords(text: string, tokens: ZhToken[], from: number, to: number): SoundRun | undefined {
  let first = tokens.findIndex((token) => token.end > from);
  let last = tokens.findIndex((token) => token.end >= to);
  if (first < 0 || last < 0) return undefined;
  let start = from;
  let end = to;
  // Inside a known word at the left edge: the run starts at the next word (学院 does not lend 院 to a name).
  const head = tokens[first] as ZhToken;
  if (head.start < start && head.tag !== 'x') {
    start = head.end;
    first++;
  }
  const tail = tokens[last] as ZhToken;
  if (tail.end > end && tail.tag !== 'x') {
    end = tail.start;
    last--;
  }
  if (end - start < 3 || end - start > 8 || first > last) return undefined;
  const name = text.slice(start, end);
  if (!Array.from(name).some((character) => MARK_CHARACTERS.has(character))) return undefined;
  const inside = tokens.slice(first, last + 1);
  // One word jieba knows as a place or an organisation: that is what it is.
  if (inside.length === 1 && /^(?:ns|nt|j)$/u.test((inside[0] as ZhToken).tag)) return undefined;
  // A run the dictionary reads as ordinary words of two or more characters (特别, 普通) is not a name.
  const parts = dictionaryParts(name);
  if (parts.length > 1 && parts.every((part) => part.word.length >= 2 && !/^(?:nr|nrt|nrfg|x)$/u.test(part.tag)))
    return undefined;
  return { start, end, text: name, first, last };
}
