import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../domain/evidence.ts';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

const chunk = (id: string, text: string, doc = 'bert.pdf'): Evidence => evidenceChunk(id, text, doc);
const cite = citeIn;
const answer = proposedAnswer;

const architecture = chunk(
  'bert.pdf#15',
  'In this work, we denote the number of layers (i.e., Transformer blocks) as L, the hidden size as H, and the number of self-attention heads as A. We primarily report results on two model sizes: BERTBASE (L=12, H=768, A=12, Total Parameters=110M) and BERTLARGE (L=24, H=1024, A=16, Total Parameters=340M).',
);
const corpus = chunk(
  'bert.pdf#23',
  'For the pre-training corpus we use the BooksCorpus (800M words) (Zhu et al., 2015) and English Wikipedia (2,500M words).',
);
const scores = chunk('bert.pdf#26', 'System: BERT BASE | MNLI-(m/mm): 84.6/83.4 | QQP: 71.2 | Average: 79.6');

describe('the evidence gate', () => {
  it('refuses a model answer that gives no value of the asked kind, however on-topic its passage', () => {
    const decision = gateAnswer({
      question: 'How many layers (Transformer blocks) does BERT-BASE have?',
      answer: answer('BERT model sizes. [1]', [cite(architecture, 'We primarily report results')]),
      evidence: [architecture],
    });
    expect(decision.verdict).toBe('refuse');
  });

  it.each([
    ['How many layers (Transformer blocks) does BERT-BASE have?', '12'],
    ['What is the hidden size of BERT-LARGE?', '1024'],
    ['How many self-attention heads does BERT-LARGE use?', '16'],
    ['How many parameters does BERT-BASE have in total?', '110M'],
  ])(
    're-grounds an offline lead: ties %s to the value of the entity asked, through the symbols the passage defines',
    (question, value) => {
      const decision = gateAnswer({
        question,
        answer: answer('BERT model sizes. [1]', [cite(architecture, 'We primarily report results')]),
        evidence: [architecture],
        reground: true,
      });
      expect(decision.verdict).toBe('answer');
      expect(decision.answer.answer.startsWith(`${value}. `)).toBe(true);
    },
  );

  it('picks the one value of a listed lead that the evidence ties to the question, never the list', () => {
    const lead = answer('800M words, 2015, 2,500M words. For the pre-training corpus we use [1]', [
      cite(corpus, 'For the pre-training corpus we use'),
    ]);
    const books = gateAnswer({
      question: 'How many words does the BooksCorpus contain?',
      answer: lead,
      evidence: [corpus],
    });
    const wiki = gateAnswer({
      question: 'How many words of English Wikipedia were used?',
      answer: lead,
      evidence: [corpus],
    });
    expect(books.answer.answer).toMatch(/^800M words\. /);
    expect(wiki.answer.answer).toMatch(/^2,500M words\. /);
  });

  it('refuses a value the cited evidence does not state (a row count for "how many layers")', () => {
    const decision = gateAnswer({
      question: 'How many layers (Transformer blocks) does BERT-BASE have?',
      answer: answer('The count where System = BERT BASE is 1. [1]', [cite(scores, 'System: BERT BASE')]),
      evidence: [scores],
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.missing_information[0]).toMatch(/number of layers/);
  });

  it('refuses evidence about a neighbouring entity: another contract’s fee', () => {
    const other = chunk('c#1', 'Contract CT-2024-0193. The pilot fee was a flat $9,000.', 'contracts/ct-2024-0193.md');
    const decision = gateAnswer({
      question: 'What is the termination fee of CT-2023-0077?',
      answer: answer('$9,000. The pilot fee was a flat $9,000. [1]', [cite(other, 'The pilot fee was a flat $9,000.')]),
      evidence: [other],
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.missing_information[0]).toContain('CT-2023-0077');
  });

  it('refuses an answer on a topic the cited sentence does not state, and a value of the wrong kind', () => {
    const offTopic = gateAnswer({
      question: 'What is the refund policy for annual subscriptions?',
      answer: answer('For the pre-training corpus we use the BooksCorpus [1]', [
        cite(corpus, 'For the pre-training corpus'),
      ]),
      evidence: [corpus],
    });
    const noAmount = gateAnswer({
      question: 'How much did pre-training BERT cost in US dollars of electricity?',
      answer: answer('For the pre-training corpus we use the BooksCorpus [1]', [
        cite(corpus, 'For the pre-training corpus'),
      ]),
      evidence: [corpus],
    });
    expect([offTopic.verdict, noAmount.verdict]).toEqual(['refuse', 'refuse']);
  });

  it('takes a value written straight before a word of the asked noun as one of the kind asked, and no other', () => {
    const training = chunk(
      'bert.pdf#66',
      'We use a dropout probability of 0.1 on all layers. We use a gelu activation (Hendrycks and Gimpel, 2016) rather than the standard relu, following OpenAI GPT.',
    );
    const ask = (value: string, quote: string) =>
      gateAnswer({
        question: 'Which activation function does BERT use?',
        answer: answer(value, [cite(training, quote)]),
        evidence: [training],
      }).verdict;
    expect(ask('gelu', 'We use a gelu activation')).toBe('answer');
    // The relu is named in the sentence, but not as what is used; nor is a dropout an activation.
    expect(ask('dropout', 'We use a dropout probability of 0.1 on all layers.')).toBe('refuse');
  });

  it('asks for the noun a which/what question names, not for a count it mentions later', () => {
    const rows = chunk(
      'deaths#1',
      'Period: 2000-2005 | Deaths per year: 190 000\n\nPeriod: 2005-2010 | Deaths per year: 196 000',
      'deaths.csv',
    );
    const decision = gateAnswer({
      question: 'what period had the largest number of deaths?',
      answer: answer('2005-2010', [cite(rows, 'Period: 2005-2010 | Deaths per year: 196 000')]),
      evidence: [rows],
    });
    expect(decision.reason).not.toMatch(/no number in the answer/);
  });

  it('lets a refusal and small talk through unchanged', () => {
    const hello = answer('Hello! Ask me a question about your documents.', []);
    expect(gateAnswer({ question: 'hello', answer: hello, evidence: [] }).verdict).toBe('pass');
    const refused = { ...hello, answerable: false };
    expect(gateAnswer({ question: 'What is X?', answer: refused, evidence: [] }).answer).toBe(refused);
  });

  it('gives a value to the entity named right after it, and the one a table row keys', () => {
    const hotels = chunk(
      'p#0',
      'The nightly hotel limit is $220 in most cities and $320 in London, New York, Tokyo and Zurich.',
    );
    const london = gateAnswer({
      question: 'What is the nightly hotel limit in London?',
      answer: answer('$220, $320. The nightly hotel limit [1]', [cite(hotels, 'The nightly hotel limit')]),
      evidence: [hotels],
    });
    expect(london.answer.answer).toMatch(/^\$320\. /);
    const rows = chunk(
      'o#0',
      'order_id: A-1006 | customer: Acme | status: shipped\norder_id: A-1007 | customer: Hooli | status: pending',
    );
    const hooli = gateAnswer({
      question: 'What is the status of order A-1007?',
      answer: answer('pending [1]', [cite(rows, 'order_id: A-1007')]),
      evidence: [rows],
    });
    expect(hooli.verdict).toBe('answer');
  });

  it('answers values one sentence adds up together with that sentence', () => {
    const fees = {
      ...chunk('c#2', 'The Customer pays a fixed monthly platform fee of $12,500 plus $4.20 per delivered parcel.'),
      heading: 'Pricing',
    };
    const pricing = gateAnswer({
      question: 'What is the pricing of CT-2024-0193?',
      answer: answer('$12,500, $4.20. The Customer pays [1]', [cite(fees, 'The Customer pays')]),
      evidence: [{ ...fees, text: `Contract CT-2024-0193. ${fees.text}` }],
    });
    expect(pricing.verdict).toBe('answer');
    expect(pricing.answer.answer).toContain('$12,500 plus $4.20');
  });

  it('takes the largest of the values a question about a maximum finds tied, and refuses a lead that gives a smaller', () => {
    const lengths = chunk(
      'b#70',
      'We pre-train the model with sequence length of 128 for 90% of the steps. Then, we train the rest 10% of the steps of sequence length of 512 to learn the positional embeddings.',
    );
    const question = 'What is the maximum sequence length BERT is pre-trained with?';
    const lead = answer('128. We pre-train the model [1]', [cite(lengths, 'We pre-train the model')]);
    expect(gateAnswer({ question, answer: lead, evidence: [lengths] }).verdict).toBe('refuse');
    const offline = gateAnswer({ question, answer: lead, evidence: [lengths], reground: true });
    expect(offline.answer.answer).toMatch(/^512\. /);
  });

  it('reads a Chinese question in its words, and a short named answer as written', () => {
    const final = chunk('z#1', '在2022年WTT世界杯决赛男单决赛中，王楚钦夺得冠军。');
    const decision = gateAnswer({
      question: '2022年WTT世界杯决赛男单冠军',
      answer: answer('王楚钦', [cite(final, '在2022年WTT世界杯决赛男单决赛中，王楚钦夺得冠军。')]),
      evidence: [final],
    });
    expect(decision.verdict).toBe('answer');
  });

  it('lets a model choose between values the evidence ties alike, and decides itself for an offline lead', () => {
    const ticket = {
      ...chunk(
        't#7',
        'Partner Globex hit the 600 requests per minute rate limit during the spring sale. We raised their limit temporarily to 1,200 requests per minute until 30 April.',
        'tickets.md',
      ),
      heading: 'HIP-7: 429 errors during the spring sale',
    };
    const question = 'To what rate limit was Globex raised temporarily in HIP-7?';
    const raised = 'We raised their limit temporarily to 1,200 requests per minute until 30 April.';
    const model = gateAnswer({
      question,
      answer: answer('1,200 requests', [cite(ticket, raised)]),
      evidence: [ticket],
    });
    expect(model.verdict).toBe('answer');
    // Offline, "their" refers the raised limit back to Globex, named in the sentence before: the nearer attribute wins.
    const lead = answer('600 requests. Partner Globex hit the 600 requests per minute rate limit [1]', [
      cite(ticket, 'Partner Globex hit the 600 requests per minute rate limit during the spring sale.'),
    ]);
    const offline = gateAnswer({ question, answer: lead, evidence: [ticket], reground: true });
    expect(offline.answer.answer).toMatch(/^1,200 requests\. /);
  });

  it('answers a question about a share with a percentage only, and one about earnings with a sum, not a head count', () => {
    const budget = chunk(
      'f#0',
      'Budget for the stablecoin pilot is $500K for 2024; spending to date is 38% of that budget.',
    );
    const share = (value: string) =>
      gateAnswer({
        question: 'What share of the stablecoin pilot budget has been spent so far?',
        answer: answer(value, [cite(budget, budget.text)]),
        evidence: [budget],
      }).verdict;
    expect([share('$500K'), share('38%')]).toEqual(['refuse', 'answer']);
    const holiday = chunk(
      'h#0',
      '国庆假期7天，全国国内旅游出游4.22亿人次，同比减少18.2%，实现国内旅游收入2872.1亿元，同比减少26.2%。',
    );
    const earnings = gateAnswer({
      question: '2022年国庆节假期全国旅游收益是多少？',
      answer: answer(`${holiday.text} [1]`, [cite(holiday, holiday.text)]),
      evidence: [holiday],
    });
    expect(earnings.answer.answer).toMatch(/^2872\.1亿元\. /);
  });

  it('refuses a definition from a sentence that does not name the identifier asked about', () => {
    const policy = chunk(
      'p#0',
      'SEV-1: customer data exposed. SEV-2: a major feature degraded for many customers. The security on-call rotation is staffed around the clock.',
      'security-incident.md',
    );
    const define = (quote: string) =>
      gateAnswer({
        question: 'What does SEV-2 mean in the security incident policy?',
        answer: answer(`${quote} [1]`, [cite(policy, quote)]),
        evidence: [policy],
      }).verdict;
    expect(define('The security on-call rotation is staffed around the clock.')).toBe('refuse');
    expect(define('SEV-2: a major feature degraded for many customers.')).toBe('answer');
    // An attribute of what an identifier names is no definition of it: the contract's sentence need not repeat it.
    const contract = chunk(
      'c#0',
      'Master Services Agreement CT-2024-0193. Each party’s aggregate liability is capped at $500K per contract year.',
      'ct-2024-0193.md',
    );
    const liability = 'Each party’s aggregate liability is capped at $500K per contract year.';
    const decision = gateAnswer({
      question: 'What is the liability of CT-2024-0193?',
      answer: answer(`${liability} [1]`, [cite(contract, liability)]),
      evidence: [contract],
    });
    expect(decision.verdict).toBe('answer');
  });

  it('holds capitalised names the language module misses to the evidence: another supplier’s term is not the answer', () => {
    const other = chunk(
      'c#3',
      'Either party may end the agreement with Acme Freight by giving 60 days notice.',
      'acme.md',
    );
    const decision = gateAnswer({
      question: 'How early must we tell Northwind Logistics that we do not want the agreement to renew?',
      answer: answer('60 days. Either party may end the agreement [1]', [cite(other, other.text)]),
      evidence: [other],
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.missing_information[0]).toContain('Northwind Logistics');
  });

  it('does not take a span that restates the question’s words for the person asked', () => {
    const final = chunk('z#2', '经过五盘苦战，阿尔卡拉斯战胜卫冕冠军德约科维奇，职业生涯首夺温网男单冠军。');
    const decision = gateAnswer({
      question: '2023年温网男单冠军是谁？',
      answer: answer('卫冕冠军', [cite(final, final.text)]),
      evidence: [final],
    });
    expect(decision.verdict).toBe('refuse');
  });

  it('holds the Latin acronyms of a Chinese question to the evidence: a population growth rate is no GDP growth', () => {
    const census = chunk('z#3', '2022年，重庆全市人口出生率为5.98‰，自然增长率为-2.11‰。');
    const decision = gateAnswer({
      question: '2022年重庆的GDP增长率',
      answer: answer('-2.11‰', [cite(census, census.text)]),
      evidence: [census],
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.missing_information[0]).toContain('GDP');
  });

  it('refuses a value computed from a column the question does not ask for, and passes one from a column it names', () => {
    const question = 'What is the maximum sequence length BERT is pre-trained with?';
    const glue = answer('The most frequent MNLI-(m/mm) where System = BERT BASE is 84.6/83.4. [1]', [
      cite(scores, 'System: BERT BASE'),
    ]);
    const computed = { evidence: [scores], computed: true, computedFrom: ['MNLI-(m/mm)'] };
    expect(gateAnswer({ question, answer: glue, ...computed }).verdict).toBe('refuse');
    const average = answer('The average Average of BERT BASE is 79.6. [1]', [cite(scores, 'System: BERT BASE')]);
    expect(
      gateAnswer({
        question: 'What is the average score of BERT BASE?',
        answer: average,
        ...computed,
        computedFrom: ['Average'],
      }).verdict,
    ).toBe('answer');
  });

  it('does not take a date for a length of time, nor a value from a sentence about another named thing', () => {
    const leaderboard = chunk(
      'bert.pdf#30',
      'Section: Top Leaderboard Systems (Dec 10th, 2018) | System: Human | Test EM: 82.3 | Test F1: 91.2',
    );
    const howLong = gateAnswer({
      question: 'How long did pre-training of BERT-LARGE take?',
      answer: answer('Dec 10th, 2018. [1]', [cite(leaderboard, 'Top Leaderboard Systems')]),
      evidence: [leaderboard],
    });
    expect(howLong.verdict).toBe('refuse');
    // The chunk names BERTLARGE, but the sentence with the sizes is about another paper's model.
    const sizes = chunk(
      'bert.pdf#42',
      'By contrast, BERTBASE contains 110M parameters and BERTLARGE contains 340M parameters. Peters et al. (2018b) presented mixed results on increasing the bi-LM size from two to four layers and Melamud et al. (2016) mentioned in passing that increasing hidden dimension size from 200 to 600 helped.',
    );
    const hidden = gateAnswer({
      question: 'What is the hidden size of BERT-LARGE?',
      answer: answer('600. [1]', [cite(sizes, 'Melamud et al. (2016) mentioned in passing')]),
      evidence: [sizes],
    });
    expect(hidden.verdict).toBe('refuse');
    // A sentence that opens with a pronoun refers back, and a reference in parentheses is no subject.
    const vocabulary = chunk(
      'bert.pdf#12',
      'BERT is simple. We use WordPiece embeddings (Wu et al., 2016) with a 30,000 token vocabulary.',
    );
    const size = gateAnswer({
      question: "How large is BERT's WordPiece vocabulary?",
      answer: answer('30,000. [1]', [cite(vocabulary, 'We use WordPiece embeddings')]),
      evidence: [vocabulary],
    });
    expect(size.verdict).toBe('answer');
  });

  it('does not take a length of time for the point a "when did it start" asks, but does for "when is it reported"', () => {
    const term = chunk(
      'msa.md#0',
      'Under CT-2023-0077 the initial term is 24 months from 1 September 2023. A lost parcel is reported after 10 days.',
      'msa.md',
    );
    const started = gateAnswer({
      question: 'When did the initial term of CT-2023-0077 start?',
      answer: answer('24 months. [1]', [cite(term, 'Under CT-2023-0077 the initial term is 24 months')]),
      evidence: [term],
    });
    expect(started.verdict).toBe('refuse');
    const reported = gateAnswer({
      question: 'When is a lost parcel reported under CT-2023-0077?',
      answer: answer('after 10 days. [1]', [cite(term, 'A lost parcel is reported after 10 days.')]),
      evidence: [term],
    });
    expect(reported.verdict).toBe('answer');
    // A length that measures something else places no point in time.
    const ticket = chunk('t.md#0', 'Order.shipped was sent twice: the endpoint of HIP-3 took 35 seconds to answer.');
    const sent = gateAnswer({
      question: 'When is the order.shipped webhook of HIP-3 sent?',
      answer: answer('35 seconds. [1]', [cite(ticket, ticket.text)]),
      evidence: [ticket],
      reground: true,
    });
    expect(sent.verdict).toBe('refuse');
  });

  it('dates the event the question names: no other year alone, and no length of time for 发布时间', () => {
    const summit = chunk(
      'g20.txt#0',
      '印度提出延至2022年举行，因此于2018年峰会上协调。2022年G20峰会于2022年11月15日至16日举行。',
    );
    const year = gateAnswer({
      question: '2022年G20峰会的时间？',
      answer: answer('2018年. [1]', [cite(summit, '印度提出延至2022年举行，因此于2018年峰会上协调。')]),
      evidence: [summit],
    });
    expect(year.verdict).toBe('refuse');
    const release = chunk('gpt.txt#0', '在2022年12月12日，即ChatGPT发布两周内，案例已无法复现。');
    const weeks = gateAnswer({
      question: 'ChatGPT的发布时间',
      answer: answer('两周. [1]', [cite(release, release.text)]),
      evidence: [release],
    });
    expect(weeks.verdict).toBe('refuse');
  });

  it('answers "how often" with a frequency only', () => {
    const guide = chunk(
      'guide.md#0',
      'Partners must answer a webhook within 30 seconds. Partners rotate their webhook secret every 90 days.',
    );
    const often = (text: string, quote: string) =>
      gateAnswer({
        question: 'How often must partners rotate their webhook secret?',
        answer: answer(`${text} [1]`, [cite(guide, quote)]),
        evidence: [guide],
      });
    expect(often('within 30 seconds.', 'Partners must answer a webhook within 30 seconds.').verdict).toBe('refuse');
    const right = often('every 90 days.', 'Partners rotate their webhook secret every 90 days.');
    expect(right.verdict).toBe('answer');
  });

  it('reads a value whole against the question: the 4 of "capped at 4%" is not the 4 in CT-2024-0193', () => {
    const prices = chunk(
      'msa.md#1',
      'Under CT-2024-0193 prices are adjusted once a year by the consumer price index, capped at 4%.',
    );
    const decision = gateAnswer({
      question: 'By how much at most are the prices of CT-2024-0193 adjusted each year?',
      answer: answer('4%. [1]', [cite(prices, prices.text)]),
      evidence: [prices],
    });
    expect(decision.verdict).toBe('answer');
  });
});
