import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeOnnxModel, type OnnxModel, type OnnxNode, type OnnxTensor } from './onnx-writer.ts';

/**
 * Tiny Hugging Face-style BERT folders (`config.json`, `tokenizer.json`, `tokenizer_config.json`,
 * `onnx/model.onnx`) that `@huggingface/transformers` loads offline from a path and runs on onnxruntime, so the
 * transformers embedder and cross-encoder can be tested on their happy path without downloading weights.
 *
 * The "model" is a deterministic embedding table: every word lies on its topic's axis plus a small word-specific
 * offset, so texts on one topic (and above all texts sharing words) get near vectors and texts on different topics
 * near-orthogonal ones.
 */
export const TINY_TOPICS = {
  animals: ['cat', 'cats', 'dog', 'dogs', 'mouse', 'mice', 'chase', 'bark', 'pet', 'fur'],
  finance: ['stock', 'stocks', 'market', 'price', 'prices', 'bank', 'fell', 'rose', 'shares', 'trading'],
  weather: ['rain', 'snow', 'storm', 'wind', 'cold', 'sunny', 'forecast', 'clouds', 'winter', 'heavy'],
  cooking: ['bread', 'oven', 'bake', 'flour', 'soup', 'recipe', 'salt', 'butter', 'kitchen', 'taste'],
} as const;

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
/** Words on no topic: they carry only their small offset. */
const FILLER = ['the', 'a', 'in', 'on', 'and', 'of', 'is', 'was', 'to', 'at'];

export type TinyModelTask = 'feature-extraction' | 'text-classification';

export interface TinyModelOptions {
  /** `feature-extraction`: a sentence-embedding model; `text-classification`: a cross-encoder with one logit. */
  task: TinyModelTask;
  /** At least one axis per topic plus one for the word offsets; 8 by default. */
  hiddenSize?: number;
  /**
   * Cross-encoder only: 1 (the logit is the relevance score, as ms-marco models) or 2 (logits [-s/2, s/2], as
   * binary classifiers, whose log-odds of label 1 is the same score s). 1 by default.
   */
  numLabels?: 1 | 2;
  /**
   * The graph's file name: `model_quantized.onnx` is how an export offers only its q8 weights, which selects that
   * dtype when loading. The graph itself stays float either way. `model.onnx` by default.
   */
  onnxFile?: 'model.onnx' | 'model_quantized.onnx';
}

export interface TinyModel {
  folder: string;
  hiddenSize: number;
  vocab: string[];
}

/** Writes the model folder (created if needed) and returns what the tests need to know about it. */
export function writeTinyTransformersModel(folder: string, options: TinyModelOptions): TinyModel {
  const hiddenSize = options.hiddenSize ?? 8;
  const topics = Object.values(TINY_TOPICS);
  if (hiddenSize < topics.length + 1) throw new Error(`hiddenSize must be at least ${topics.length + 1}`);
  const vocab = [...SPECIAL_TOKENS, ...FILLER, ...topics.flat()];
  const classifier = options.task === 'text-classification';
  const numLabels = options.numLabels ?? 1;

  mkdirSync(join(folder, 'onnx'), { recursive: true });
  writeJson(join(folder, 'config.json'), {
    model_type: 'bert',
    architectures: [classifier ? 'BertForSequenceClassification' : 'BertModel'],
    vocab_size: vocab.length,
    hidden_size: hiddenSize,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: hiddenSize,
    max_position_embeddings: 64,
    type_vocab_size: 2,
    pad_token_id: 0,
    ...(classifier ? labels(numLabels) : {}),
  });
  writeJson(join(folder, 'tokenizer.json'), tokenizerJson(vocab));
  writeJson(join(folder, 'tokenizer_config.json'), {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 64,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  });
  const table = embeddingTable(vocab, hiddenSize);
  const graph = classifier ? crossEncoderGraph(table, numLabels) : featureExtractionGraph(table);
  writeFileSync(join(folder, 'onnx', options.onnxFile ?? 'model.onnx'), encodeOnnxModel(graph));
  return { folder, hiddenSize, vocab };
}

function labels(count: number): Record<string, unknown> {
  const names = Array.from({ length: count }, (_, i) => `LABEL_${i}`);
  return {
    num_labels: count,
    id2label: Object.fromEntries(names.map((name, i) => [i, name])),
    label2id: Object.fromEntries(names.map((name, i) => [name, i])),
  };
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** A BERT WordPiece tokenizer in the `tokenizers` JSON format, with the usual [CLS] A [SEP] B [SEP] template. */
function tokenizerJson(vocab: string[]): unknown {
  const ids = Object.fromEntries(vocab.map((token, id) => [token, id]));
  const special = (token: string, typeId: number) => ({ SpecialToken: { id: token, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: ids[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]', 0), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]', 0)],
      pair: [
        special('[CLS]', 0),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]', 0),
        { Sequence: { id: 'B', type_id: 1 } },
        special('[SEP]', 1),
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((token) => [token, { id: token, ids: [ids[token]], tokens: [token] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}

/**
 * Row per token: topic words have 1 on their topic's axis, every word a small offset on the remaining axes (from
 * a hash of the word, so the table is the same on every run). [PAD] is zero; the other special tokens get a tiny
 * constant so no text pools to the zero vector.
 */
function embeddingTable(vocab: string[], hiddenSize: number): OnnxTensor {
  const topicOf = new Map<string, number>();
  Object.values(TINY_TOPICS).forEach((words, topic) => words.forEach((word) => topicOf.set(word, topic)));
  const firstFree = Object.keys(TINY_TOPICS).length;
  const values: number[] = [];
  for (const token of vocab) {
    const row = new Array<number>(hiddenSize).fill(0);
    if ((SPECIAL_TOKENS as readonly string[]).includes(token)) {
      if (token !== '[PAD]') row[hiddenSize - 1] = 0.05;
    } else {
      const topic = topicOf.get(token);
      if (topic !== undefined) row[topic] = 1;
      for (let axis = firstFree; axis < hiddenSize; axis++)
        row[axis] = (topic === undefined ? 0.5 : 0.3) * unitHash(`${token}/${axis}`);
    }
    values.push(...row);
  }
  return { name: 'word_embeddings', type: 'float', dims: [vocab.length, hiddenSize], values };
}

/** FNV-1a of the string with murmur3's finalizer (so `cat/5` and `cat/6` differ in every bit), mapped to [-1, 1]. */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  hash = (hash ^ (hash >>> 16)) >>> 0;
  return (hash / 0xffffffff) * 2 - 1;
}

const BERT_INPUTS: OnnxModel['inputs'] = ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => ({
  name,
  type: 'int64',
  dims: ['batch', 'sequence'],
}));

const int64s = (name: string, values: number[]): OnnxTensor => ({ name, type: 'int64', dims: [values.length], values });

/**
 * last_hidden_state = (word_embeddings[input_ids] + type_embeddings[token_type_ids]) * attention_mask, as a BERT
 * encoder's output shape [batch, sequence, hidden]; all three inputs are consumed, as in a real export.
 */
function featureExtractionGraph(table: OnnxTensor): OnnxModel {
  const hiddenSize = table.dims[1] as number;
  const nodes: OnnxNode[] = [
    {
      opType: 'Gather',
      inputs: ['word_embeddings', 'input_ids'],
      outputs: ['words'],
      attributes: [{ name: 'axis', int: 0 }],
    },
    {
      opType: 'Gather',
      inputs: ['type_embeddings', 'token_type_ids'],
      outputs: ['types'],
      attributes: [{ name: 'axis', int: 0 }],
    },
    { opType: 'Add', inputs: ['words', 'types'], outputs: ['embedded'] },
    { opType: 'Cast', inputs: ['attention_mask'], outputs: ['mask'], attributes: [{ name: 'to', int: 1 }] },
    { opType: 'Unsqueeze', inputs: ['mask', 'last_axis'], outputs: ['mask3'] },
    { opType: 'Mul', inputs: ['embedded', 'mask3'], outputs: ['last_hidden_state'] },
  ];
  return {
    nodes,
    initializers: [
      table,
      // Single texts are all type 0, so the type table only matters for pairs; zero for type 0 keeps it neutral.
      {
        name: 'type_embeddings',
        type: 'float',
        dims: [2, hiddenSize],
        values: [...zeros(hiddenSize), ...zeros(hiddenSize - 1), 0.01],
      },
      int64s('last_axis', [-1]),
    ],
    inputs: BERT_INPUTS,
    outputs: [{ name: 'last_hidden_state', type: 'float', dims: ['batch', 'sequence', hiddenSize] }],
  };
}

/**
 * score[b] = <sum of segment A's embeddings, sum of segment B's embeddings>: a (query, passage) pair on one topic,
 * or sharing words, scores high; unrelated pairs score near zero. Logits [batch, numLabels], as a classifier.
 */
function crossEncoderGraph(table: OnnxTensor, numLabels: 1 | 2): OnnxModel {
  const nodes: OnnxNode[] = [
    {
      opType: 'Gather',
      inputs: ['word_embeddings', 'input_ids'],
      outputs: ['embedded'],
      attributes: [{ name: 'axis', int: 0 }],
    },
    { opType: 'Cast', inputs: ['attention_mask'], outputs: ['mask'], attributes: [{ name: 'to', int: 1 }] },
    { opType: 'Cast', inputs: ['token_type_ids'], outputs: ['types'], attributes: [{ name: 'to', int: 1 }] },
    { opType: 'Mul', inputs: ['mask', 'types'], outputs: ['mask_b'] },
    { opType: 'Sub', inputs: ['mask', 'mask_b'], outputs: ['mask_a'] },
    { opType: 'Unsqueeze', inputs: ['mask_a', 'last_axis'], outputs: ['mask_a3'] },
    { opType: 'Unsqueeze', inputs: ['mask_b', 'last_axis'], outputs: ['mask_b3'] },
    { opType: 'Mul', inputs: ['embedded', 'mask_a3'], outputs: ['tokens_a'] },
    { opType: 'Mul', inputs: ['embedded', 'mask_b3'], outputs: ['tokens_b'] },
    {
      opType: 'ReduceSum',
      inputs: ['tokens_a', 'sequence_axis'],
      outputs: ['sum_a'],
      attributes: [{ name: 'keepdims', int: 0 }],
    },
    {
      opType: 'ReduceSum',
      inputs: ['tokens_b', 'sequence_axis'],
      outputs: ['sum_b'],
      attributes: [{ name: 'keepdims', int: 0 }],
    },
    { opType: 'Mul', inputs: ['sum_a', 'sum_b'], outputs: ['product'] },
    {
      opType: 'ReduceSum',
      inputs: ['product', 'last_axis'],
      outputs: [numLabels === 1 ? 'logits' : 'score'],
      attributes: [{ name: 'keepdims', int: 1 }],
    },
  ];
  const initializers = [table, int64s('last_axis', [-1]), int64s('sequence_axis', [1])];
  if (numLabels === 2) {
    // [batch, 1] * [1, 2] broadcasts to [batch, 2].
    nodes.push({ opType: 'Mul', inputs: ['score', 'label_signs'], outputs: ['logits'] });
    initializers.push({ name: 'label_signs', type: 'float', dims: [1, 2], values: [-0.5, 0.5] });
  }
  return {
    nodes,
    initializers,
    inputs: BERT_INPUTS,
    outputs: [{ name: 'logits', type: 'float', dims: ['batch', numLabels] }],
  };
}

const zeros = (n: number): number[] => new Array<number>(n).fill(0);
