/**
 * Deterministic synthetic corpus and queries for the retrieval benchmark.
 *
 * Text follows a Zipf-ish (Zipf–Mandelbrot) word distribution whose head is real English function words, so common
 * terms have the long posting lists that make BM25 work hard, and the tail is pronounceable invented words that the
 * stemmer and the trigram hashing treat like real ones. Documents also carry contract identifiers (`CT-2024-0193`)
 * for exact-ID queries, and some carry a Chinese paragraph. Everything comes from a seeded PRNG: the same seed gives
 * the same corpus, byte for byte, so runs are comparable.
 */
import type { TextRecord } from '../../src/ingest/ingestor.ts';

/** splitmix32: small, fast, well-mixed; enough for text generation. */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4_294_967_296;
  };
}

const FUNCTION_WORDS = (
  'the of and to a in is that for it as with was on be by this are or from at an which not have has but all ' +
  'its were been can will their if may other more such these also than any each shall only into under within ' +
  'per between after before during must should would could upon where when there they them both'
).split(' ');

const ONSETS = 'b c d f g h j k l m n p r s t v w z b c d l m n p r s t br cl dr fr gr pl pr st tr sh ch th'.split(' ');
const VOWELS = 'a e i o u a e i o u a e i o ai ea io ou'.split(' ');
const CODAS = ['', '', '', '', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'st', 'rk', 'ng'];
const SUFFIXES = ['', '', '', '', '', '', 'ing', 'ed', 's', 'ion', 'ment', 'er', 'al', 'ity'];

/** A few hundred common Han characters (enough for realistic bigram statistics). */
const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经' +
  '十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形' +
  '相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展' +
  '五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战' +
  '合同条款甲乙方违约责任付款期限终止通知保密争议仲裁签订生效履行变更解除赔偿损失担保交付验收价格发票税费';

export interface CorpusOptions {
  seed: number;
  /** Distinct words (function words included). */
  vocabularySize?: number;
  /** Share of documents with an ACL (restricted to one group). */
  restrictedShare?: number;
  /** Share of documents with a Chinese paragraph. */
  chineseShare?: number;
}

/** Groups restricted documents are spread over; the benchmark principal belongs to one of them. */
export const RESTRICTED_GROUPS = ['legal', 'hr', 'finance', 'engineering', 'exec'];

export interface SyntheticDocument {
  record: TextRecord;
  /** Contract ids that occur in the text (for exact-ID queries). */
  ids: string[];
  sentences: string[];
  chinese: string[];
}

/** Samples ranks 0..n-1 with weight 1 / (rank + q)^s by binary search over the cumulative weights. */
class ZipfSampler {
  private readonly cdf: Float64Array;
  constructor(n: number, s: number, q: number) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) {
      total += 1 / (r + q) ** s;
      this.cdf[r] = total;
    }
    for (let r = 0; r < n; r++) this.cdf[r] = (this.cdf[r] as number) / total;
  }
  sample(u: number): number {
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function buildVocabulary(size: number, rng: () => number): string[] {
  const words = [...FUNCTION_WORDS];
  const seen = new Set(words);
  while (words.length < size) {
    // Frequent (low-rank) words are shorter, as in natural language.
    const syllables = (words.length < 5_000 ? 1 : 2) + Math.floor(rng() * 2);
    let word = '';
    for (let i = 0; i < syllables; i++) {
      word += pick(ONSETS, rng) + pick(VOWELS, rng) + pick(CODAS, rng);
    }
    word += pick(SUFFIXES, rng);
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

const pick = <T>(items: readonly T[], rng: () => number): T => items[Math.floor(rng() * items.length)] as T;

const contractId = (n: number): string => `CT-${2019 + (n % 7)}-${String(Math.floor(n / 7) % 10_000).padStart(4, '0')}`;

/** Generates document `index` of the corpus; independent of every other document, so any one can be regenerated. */
export class SyntheticCorpus {
  readonly vocabulary: string[];
  private readonly words: ZipfSampler;
  private readonly han: ZipfSampler;
  private readonly restrictedShare: number;
  private readonly chineseShare: number;

  constructor(private readonly options: CorpusOptions) {
    this.vocabulary = buildVocabulary(options.vocabularySize ?? 50_000, createRng(options.seed));
    this.words = new ZipfSampler(this.vocabulary.length, 1.05, 2.7);
    this.han = new ZipfSampler(HAN.length, 0.9, 2);
    this.restrictedShare = options.restrictedShare ?? 0.2;
    this.chineseShare = options.chineseShare ?? 0.08;
  }

  document(index: number): SyntheticDocument {
    const rng = createRng(Math.imul(this.options.seed ^ 0x5bd1e995, 31) + index * 0x27d4eb2d);
    const ownId = contractId(Math.floor(rng() * 70_000));
    const ids = new Set<string>([ownId]);
    // 1 to ~17 chunks of text at the default chunk size (1200 characters).
    const targetChars = 900 + Math.floor(rng() * 18_000);
    const sentences: string[] = [];
    const chinese: string[] = [];
    const paragraphs: string[] = [`Contract ${ownId}: ${this.sentence(rng, ids, ownId)}`];
    sentences.push(paragraphs[0] as string);
    let chars = (paragraphs[0] as string).length;
    const withChinese = rng() < this.chineseShare;
    while (chars < targetChars) {
      if (withChinese && rng() < 0.25) {
        const paragraph = this.chineseParagraph(rng);
        chinese.push(paragraph);
        paragraphs.push(paragraph);
        chars += paragraph.length * 3;
        continue;
      }
      const count = 3 + Math.floor(rng() * 4);
      const paragraph: string[] = [];
      for (let i = 0; i < count; i++) paragraph.push(this.sentence(rng, ids, ownId));
      sentences.push(...paragraph);
      const text = paragraph.join(' ');
      paragraphs.push(text);
      chars += text.length + 2;
    }
    const restricted = rng() < this.restrictedShare;
    const docId = `synthetic/${String(index).padStart(6, '0')}.txt`;
    return {
      record: {
        docId,
        title: `${capitalize(this.word(rng))} ${this.word(rng)} agreement ${ownId}`,
        text: paragraphs.join('\n\n'),
        ...(restricted ? { acl: [`group:${RESTRICTED_GROUPS[index % RESTRICTED_GROUPS.length]}`] } : {}),
      },
      ids: [...ids],
      sentences,
      chinese,
    };
  }

  private word(rng: () => number): string {
    return this.vocabulary[this.words.sample(rng())] as string;
  }

  private sentence(rng: () => number, ids: Set<string>, ownId: string): string {
    const length = 8 + Math.floor(rng() * 14);
    const out: string[] = [];
    for (let i = 0; i < length; i++) {
      if (rng() < 0.006) {
        // Mostly the document's own contract, sometimes a reference to another one.
        const id = rng() < 0.7 ? ownId : contractId(Math.floor(rng() * 70_000));
        ids.add(id);
        out.push(id);
      } else {
        out.push(this.word(rng));
      }
    }
    out[0] = capitalize(out[0] as string);
    return `${out.join(' ')}${rng() < 0.1 ? ';' : '.'}`;
  }

  private chineseParagraph(rng: () => number): string {
    const sentences = 2 + Math.floor(rng() * 3);
    let out = '';
    for (let s = 0; s < sentences; s++) {
      const length = 12 + Math.floor(rng() * 25);
      for (let i = 0; i < length; i++) out += HAN[this.han.sample(rng())];
      out += '。';
    }
    return out;
  }
}

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

export type QueryKind = 'words' | 'question' | 'id' | 'id+words' | 'chinese';

export interface BenchQuery {
  kind: QueryKind;
  text: string;
}

const QUESTION_PREFIXES = ['what is the', 'how does the', 'when must the', 'which party shall', 'where is the'];

/**
 * Queries drawn from documents of the corpus (so most have matching chunks), in a fixed mix: 35% word runs from a
 * sentence, 15% questions (function words included, as people type them), 20% a bare contract id, 15% an id with a
 * few words, 15% a Chinese phrase.
 */
export function generateQueries(corpus: SyntheticCorpus, documents: number, count: number, seed: number): BenchQuery[] {
  const rng = createRng(seed);
  const out: BenchQuery[] = [];
  const kinds: QueryKind[] = [
    'words',
    'words',
    'words',
    'words',
    'words',
    'words',
    'words',
    'question',
    'question',
    'question',
    'id',
    'id',
    'id',
    'id',
    'id+words',
    'id+words',
    'id+words',
    'chinese',
    'chinese',
    'chinese',
  ];
  while (out.length < count) {
    const kind = pick(kinds, rng);
    let doc = corpus.document(Math.floor(rng() * documents));
    // Few documents carry Chinese: look further for one that does (bounded, for tiny corpora).
    for (let tries = 0; kind === 'chinese' && doc.chinese.length === 0 && tries < 500; tries++) {
      doc = corpus.document(Math.floor(rng() * documents));
    }
    const phrase = (min: number, extra: number): string => {
      const words = pick(doc.sentences, rng)
        .replace(/[.;:]/g, '')
        .split(' ')
        .filter((word) => !word.startsWith('CT-') && word !== 'Contract');
      const length = Math.min(words.length, min + Math.floor(rng() * (extra + 1)));
      const start = Math.floor(rng() * Math.max(1, words.length - length + 1));
      return words
        .slice(start, start + length)
        .join(' ')
        .toLowerCase();
    };
    switch (kind) {
      case 'words':
        out.push({ kind, text: phrase(3, 4) });
        break;
      case 'question':
        out.push({ kind, text: `${pick(QUESTION_PREFIXES, rng)} ${phrase(2, 3)}?` });
        break;
      case 'id':
        out.push({ kind, text: pick(doc.ids, rng) });
        break;
      case 'id+words':
        out.push({ kind, text: `${phrase(2, 2)} ${pick(doc.ids, rng)}` });
        break;
      case 'chinese': {
        if (doc.chinese.length === 0) continue;
        const paragraph = pick(doc.chinese, rng);
        const length = 4 + Math.floor(rng() * 5);
        const start = Math.floor(rng() * Math.max(1, paragraph.length - length));
        out.push({ kind, text: paragraph.slice(start, start + length).replace(/。/g, '') });
        break;
      }
    }
  }
  return out;
}
