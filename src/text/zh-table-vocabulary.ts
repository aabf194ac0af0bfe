/**
 * Chinese words of questions over tables, for the offline question→SQL strategy (agent/tools/table-question-zh.ts),
 * which reads English cue words: the cue each function word stands for, the measure words that make 多少 a count,
 * and common table vocabulary with the English words such tables use.
 */

/** Function words of questions over tables: their English cue (empty: no meaning for a plan). */
export const TABLE_CUES_ZH: ReadonlyMap<string, string> = new Map(
  Object.entries({
    的: '', 是: '', 了: '', 吗: '', 呢: '', 在: '', 中: '', 里: '', 请问: '', 请: '', 一下: '', 已: '', 已经: '', 有: '', 共有: 'total',
    所有: 'all', 全部: 'all', 总共: 'total', 一共: 'total', 总额: 'total', 总和: 'total', 合计: 'total', 总计: 'total', 累计: 'total', 总: 'total',
    平均: 'average', 平均值: 'average', 均值: 'average', 平均数: 'average',
    最高: 'highest', 最大: 'largest', 最多: 'most', 最贵: 'highest', 最长: 'longest',
    最低: 'lowest', 最小: 'smallest', 最少: 'fewest', 最便宜: 'lowest', 最短: 'shortest',
    最早: 'earliest', 最晚: 'latest', 最近: 'latest', 第一: 'first', 第一个: 'first', 最后: 'last', 最后一个: 'last',
    数量: 'count', 个数: 'count', 数目: 'count', 总数: 'count', 几个: 'how many', 几: 'how many', 多少: '',
    每个: 'per', 每: 'per', 各: 'per', 各个: 'per', 按: 'per', 按照: 'per',
    哪个: 'which', 哪些: 'which', 哪一个: 'which', 哪: 'which', 什么: 'what', 谁: 'who', 何时: 'when', 什么时候: 'when', 哪里: 'where',
    未: 'not', 没有: 'not', 没: 'not', 不: 'not', 非: 'not', 除了: 'except',
    超过: 'more than', 大于: 'more than', 高于: 'more than', 多于: 'more than', 小于: 'less than', 低于: 'less than', 少于: 'less than', 不到: 'less than',
    至少: 'at least', 不少于: 'at least', 之前: 'before', 以前: 'before', 之后: 'after', 以后: 'after', 年: '', 和: 'and', 或: 'or', 或者: 'or',
  }),
);

/** Counters after 多少 that make it "how many" (多少个订单, 多少笔). */
export const TABLE_COUNTERS_ZH = new Set(['个', '笔', '单', '次', '家', '位', '名', '件', '条', '项', '人']);

/** Common words of business and reference tables, with the English words such tables use for them. */
export const TABLE_VOCABULARY_ZH: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    订单: ['orders', 'order'], 客户: ['customer', 'client'], 顾客: ['customer'], 地区: ['region', 'area'], 区域: ['region'], 国家: ['country', 'nation'],
    城市: ['city'], 状态: ['status', 'state'], 日期: ['date'], 时间: ['time', 'date'], 金额: ['amount', 'total', 'usd'], 价格: ['price'], 单价: ['price'],
    成本: ['cost'], 费用: ['cost', 'fee'], 收入: ['revenue', 'income'], 营收: ['revenue'], 销售额: ['sales', 'revenue'], 销量: ['sales'],
    产品: ['product'], 商品: ['product', 'item'], 名称: ['name'], 名字: ['name'], 员工: ['employee'], 部门: ['department'], 工资: ['salary'],
    薪水: ['salary'], 薪资: ['salary'], 年份: ['year'], 月份: ['month'], 美元: ['usd'], 重量: ['weight'], 年龄: ['age'], 人口: ['population'],
    面积: ['area'], 得分: ['points', 'score'], 分数: ['score', 'points'], 排名: ['rank'], 票数: ['votes'], 球队: ['team'], 队: ['team'], 球员: ['player'],
    发货: ['shipped', 'ship'], 已发货: ['shipped'], 取消: ['cancelled', 'canceled'], 已取消: ['cancelled', 'canceled'], 待处理: ['pending'], 待定: ['pending'],
    完成: ['completed', 'complete', 'done'], 已完成: ['completed', 'done'], 送达: ['delivered'], 交付: ['delivered'], 付款: ['paid'], 已付款: ['paid'],
    支付: ['paid'], 退款: ['refunded'], 关闭: ['closed'], 已关闭: ['closed'], 打开: ['open'], 失败: ['failed'], 有效: ['active'],
  }),
);
