/** The word lists and patterns names.ts reads Chinese names by: surnames, cue words around names, suffixes. */
/** The commonest Chinese surnames: an unknown 2–4 character word starting with one is likely a person's name. */
export const SURNAMES = new Set(
  Array.from(
    '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵钱严覃武戴莫孔向汤常温康施牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕季裴霍涂苗谷盛曲翁冉骆蓝游辛靳管柴蒙鲍喻祁蒲房滕屈饶解牟艾尤穆农卓古吉缪简车项连芦麦褚娄窦戚岑景宫费卜冷晏席卫米柏宗瞿桂佟臧闵苟邬卞姬栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩佘池查麻苑迟邝匡鞠惠荆冀郁胥栗燕楚鄢谌奚皮粟冼蔺楼阚帅屠朴廉禹祖漆狄晋芮扈晁邸雍辜裘亓邰赫杭逯茹嵇',
  ),
);

export const PERSON_TAGS = new Set(['nr', 'nrt', 'nrfg']);
/** Words that end a name run: a name is never followed by these inside itself. */
export const NAME_BREAKERS = new Set([
  '饰',
  '等',
  '和',
  '与',
  '及',
  '的',
  '是',
  '在',
  '为',
  '将',
  '也',
  '都',
  '已',
  '被',
  '由',
  '从',
  '对',
  '向',
  '了',
]);

/** Not a name whatever its tags: numerals (二人), pronoun-like and generic words. */
export const NOT_A_NAME =
  /^[一二两三四五六七八九十百千万几数多]|^(?:本人|个人|他人|众人|路人|家人|国人|人们|双方|对方|大家|自己|我们|他们|她们|网友|记者|观众|粉丝)$|(?:冠军|亚军|季军|主演|演员|导演|选手|球员|老大|华裔|主角|配角|嘉宾|官员|公开赛|锦标赛|联赛|网剧|城市)$/u;
/** Place words that name no particular place. */
export const GENERIC_PLACES = new Set([
  '全球',
  '全国',
  '国内',
  '国外',
  '海外',
  '世界',
  '各地',
  '当地',
  '本地',
  '全省',
  '全市',
  '中外',
  '境内',
  '境外',
  '内地',
  '全世界',
  '各国',
  '外地',
  '异地',
  '地区',
  '国际',
  // Kinds of place, not places: "举办城市花落成都" names 成都.
  '城市',
  '国家',
  '城镇',
  '地方',
  '地点',
  '场馆',
]);
/** Latin words that are dates or plain English, not names of organisations. */
export const LATIN_NOT_ORG =
  /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|mon|tue|wed|thu|fri|sat|sun|the|and|for|with|this|that|from|notice|content|above|including|news|via)$/iu;

/** Cue words after which a name follows (主演：X, 由X执导, 总理X). */
export const BEFORE_PERSON = new Set([
  '主演',
  '导演',
  '总导演',
  '编剧',
  '作者',
  '主持人',
  '主持',
  '饰演',
  '扮演',
  '由',
  '冠军',
  '亚军',
  '季军',
  '得主',
  '总理',
  '首相',
  '总统',
  '市长',
  '议长',
  '主席',
  '教练',
  '主教练',
  '主帅',
  '记者',
  '选手',
  '球员',
  '演员',
  '歌手',
  '航天员',
  '宇航员',
  '新任',
  '创始人',
  '董事长',
  '总裁',
  '部长',
  '国务卿',
  '外长',
  '女士',
  '先生',
  '男主',
  '女主',
  '男主角',
  '女主角',
  '嫌疑人',
  '作家',
]);
/** Cue words before which a name stands (X饰, X执导, X夺冠). */
export const AFTER_PERSON = new Set([
  '饰',
  '执导',
  '主演',
  '领衔',
  '导演',
  '夺冠',
  '夺得',
  '摘得',
  '获得',
  '荣获',
  '获',
  '当选',
  '出任',
  '担任',
  '击败',
  '战胜',
  '卫冕',
  '创办',
  '创立',
  '扮演',
  '饰演',
  '主持',
  '出演',
  '领衔主演',
  '联合主演',
]);
export const BEFORE_PLACE = new Set([
  '在',
  '于',
  '位于',
  '前往',
  '抵达',
  '来到',
  '落户',
  '赴',
  '访问',
  '到访',
  '飞往',
  '途经',
  '举办地',
  '举办国',
  '东道主',
]);
export const AFTER_PLACE = new Set([
  '举行',
  '举办',
  '召开',
  '开幕',
  '开幕式',
  '闭幕',
  '揭幕',
  '落幕',
  '开赛',
  '登场',
  '启幕',
  '首站',
  '站',
]);
export const PLACE_SUFFIX = /(?:市|省|县|州|区|镇|乡|村|岛|湾|港|城|国)$/u;
export const ORG_SUFFIX =
  /(?:公司|集团|大学|学院|学校|银行|协会|委员会|联合会|俱乐部|球队|队|党|部|局|署|院|研究所|中心|基金会|联盟|组织|平台|电视台|网站|工作室|医院|法院|交易所|实验室|有限公司|股份|控股|科技|传媒|影业|娱乐|站|网)$/u;

/** Words that are an organisation's kind on their own, after its name (… 公司, … 队). */
export const ORG_WORD =
  /^(?:公司|有限公司|股份有限公司|集团|大学|银行|协会|俱乐部|队|球队|战队|平台|电视台|工作室|影业|科技|控股|基金会|委员会)$/u;
export const LONG_ORG_SUFFIX =
  /(?:公司|集团|大学|学院|银行|协会|委员会|联合会|俱乐部|基金会|研究所|研究院|电视台|交易所|实验室)$/u;

/**
 * A noun of a kind of place written straight before a name makes the name a place of that kind (南部城市X, 首都X,
 * 港口城市X); a word ending in one (港口城市) is itself a kind, not a place.
 */
export const PLACE_KIND = /(?:城市|首都|首府|省会|小镇|小城|城镇|港口|港城|县城|村庄|小村|岛屿|海岛)$/u;

/** Verbs of arriving and setting out, after which a place follows (运抵X, 从X出发). */
export const MOTION_TO_PLACE = new Set([
  '运抵',
  '抵',
  '到达',
  '飞抵',
  '驶抵',
  '移师',
  '转战',
  '登陆',
  '去',
  '回到',
  '返回',
  '出生于',
]);

/**
 * An organisation's abbreviation ends in the short form of its kind (足联 for 足球联合会, 奥委 for 奥委会): a word
 * jieba tags a place but that ends in one is an organisation.
 */
export const ORG_ABBREVIATION = /(?:联|委|盟|社|署|局|协|办)$/u;

/** Verbs a competitor is the subject of: a country before one is its team (X击败Y, X夺得冠军). */
export const COMPETES = new Set([
  '击败',
  '战胜',
  '打败',
  '淘汰',
  '逆转',
  '战平',
  '负于',
  '不敌',
  '夺得',
  '夺冠',
  '卫冕',
  '晋级',
  '获得',
  '获',
  '对阵',
  '力克',
  '险胜',
  '完胜',
  '绝杀',
]);

/** Words that point at something already named (这支球队, 该公司, 各队): what follows them is no name. */
export const DEMONSTRATIVE = /^(?:这|那|该|此|各|每|哪|本|其|某)/u;
