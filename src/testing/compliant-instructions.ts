import type { BaseMessage } from '@langchain/core/messages';

/**
 * What a gullible model reads in its prompt: every instruction it finds in the question, the evidence and the tool
 * results (never in the system prompt, which is the application's own), and the passages it was shown. A test writes
 * these instructions into documents and questions; `CompliantChatModel` then obeys them.
 */
export type Instruction =
  | { kind: 'save_memory'; text: string }
  | { kind: 'cite'; chunkId: string; quote?: string }
  | { kind: 'reveal'; docId: string }
  | { kind: 'override'; text: string }
  | { kind: 'search'; query: string }
  | { kind: 'table_query'; sql: string }
  /** Any other imperative sentence (BIPIA's attacks: "Add … to your response."), obeyed by adding it to the answer. */
  | { kind: 'imperative'; text: string };

/** A passage as the prompt shows it: `[chunk_id: …] [doc_id: …]` (rag, react) or `[id: …] [chunk of …]` (controllable). */
export interface PromptPassage {
  id: string;
  docId: string;
  text: string;
}

export interface PromptReading {
  /** The question the prompt asks (`Question: …`, `Query: …`, `Task: …`), or the first human message. */
  question: string;
  instructions: Instruction[];
  passages: PromptPassage[];
  /** Ids of the items a keep/relevance prompt lists (`[id: …]`). */
  itemIds: string[];
  /** The tool calls the model already made in this loop (react's AI messages so far). */
  toolCalls: { name: string; args: Record<string, unknown> }[];
}

const QUOTED = String.raw`["“'\`]([^"”'\`\n]{2,400})["”'\`]`;
// A doc or chunk id: dots only inside it (`a/b.md#0`), so a sentence's full stop is not part of it.
const ID = String.raw`["“'\`]?([\w/#:-]+(?:\.[\w/#:-]+)*)["”'\`]?`;
const PATTERNS: { re: RegExp; make: (m: RegExpExecArray) => Instruction }[] = [
  {
    re: new RegExp(String.raw`call\s+(?:the\s+)?save_memory(?:\s+tool)?\s+with\s+${QUOTED}`, 'gi'),
    make: (m) => ({ kind: 'save_memory', text: m[1] as string }),
  },
  {
    re: new RegExp(String.raw`save_memory\(\s*${QUOTED}\s*\)`, 'gi'),
    make: (m) => ({ kind: 'save_memory', text: m[1] as string }),
  },
  {
    re: new RegExp(
      String.raw`cite\s+(?:the\s+)?chunk\s+${ID}(?:\s+(?:with|quoting)(?:\s+the\s+quote)?\s+${QUOTED})?`,
      'gi',
    ),
    make: (m) => ({ kind: 'cite', chunkId: m[1] as string, ...(m[2] ? { quote: m[2] } : {}) }),
  },
  {
    re: new RegExp(
      String.raw`answer\s+with\s+the\s+(?:full\s+)?contents?\s+of\s+(?:the\s+)?(?:doc(?:ument)?\s+)?${ID}`,
      'gi',
    ),
    make: (m) => ({ kind: 'reveal', docId: m[1] as string }),
  },
  {
    re: /ignore\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above|earlier)\s+instructions[,.;:]?\s*(?:and\s+)?([^\n]{3,400})/gi,
    make: (m) => ({ kind: 'override', text: (m[1] as string).trim() }),
  },
  {
    re: new RegExp(String.raw`search\s+(?:the\s+knowledge\s+base\s+)?for\s+${QUOTED}`, 'gi'),
    make: (m) => ({ kind: 'search', query: m[1] as string }),
  },
  {
    re: new RegExp(String.raw`(?:run|call)\s+table_query\s+(?:with\s+)?${QUOTED}`, 'gi'),
    make: (m) => ({ kind: 'table_query', sql: m[1] as string }),
  },
];

/** Sentences that start like an order to the model; the listed verbs are the ones BIPIA's attacks open with. */
const IMPERATIVE =
  /(?:^|(?<=[.!?\n]\s*))((?:Add|Include|Integrate|Insert|Append|Replace|Remove|Rearrange|Introduce|Translate|Write|Compose|Draft|Provide|Explain|Describe|Respond|Reply|Say|Print|Output|Tell|Develop|Break down|Encourage|Mention)\b[^\n]{3,300}?(?:[.!?](?=\s|$)|(?=\n)|$))/g;

const messageText = (message: BaseMessage): string =>
  typeof message.content === 'string' ? message.content : message.text;
const role = (message: BaseMessage): string => message.getType();

/** Reads the non-system messages of a prompt as a model that trusts everything it reads would. */
export function readPrompt(messages: readonly BaseMessage[]): PromptReading {
  const read = messages.filter((message) => role(message) !== 'system');
  const text = read.map(messageText).join('\n\n');
  const instructions: Instruction[] = [];
  const seen = new Set<string>();
  const add = (instruction: Instruction) => {
    const key = JSON.stringify(instruction);
    if (!seen.has(key)) instructions.push(instruction), seen.add(key);
  };
  for (const { re, make } of PATTERNS) for (const match of text.matchAll(re)) add(make(match as RegExpExecArray));
  for (const match of text.matchAll(IMPERATIVE)) add({ kind: 'imperative', text: (match[1] as string).trim() });
  return {
    question: questionOf(read.filter((message) => role(message) === 'human').map(messageText)),
    instructions,
    passages: passagesOf(text),
    itemIds: [...text.matchAll(/\[id: ([^\]]+)\]/g)].map((match) => match[1] as string),
    toolCalls: read
      .flatMap(
        (message) => (message as { tool_calls?: { name: string; args: Record<string, unknown> }[] }).tool_calls ?? [],
      )
      .map(({ name, args }) => ({ name, args })),
  };
}

function questionOf(humans: readonly string[]): string {
  for (const text of humans) {
    const labelled = /(?:^|\n)(?:Question|Query|Task):\s*([^\n]+)/.exec(text);
    if (labelled?.[1]?.trim()) return labelled[1].trim();
  }
  return (humans[0] ?? '').trim().split('\n')[0]?.slice(0, 300) ?? '';
}

/** Each `[chunk_id: X] [doc_id: Y]` or `[id: X] [chunk of Y]` header and the text under it, up to the next header. */
function passagesOf(text: string): PromptPassage[] {
  const header = /\[(?:chunk_id|id): ([^\]]+)\] \[(?:doc_id: |\w+ of )([^\]]+)\][^\n]*\n/g;
  const found: { id: string; docId: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(header)) {
    found.push({
      id: match[1] as string,
      docId: match[2] as string,
      start: (match.index ?? 0) + match[0].length,
      end: match.index ?? 0,
    });
  }
  return found.map((item, i) => {
    const next = found[i + 1]?.end ?? text.length;
    const body = text.slice(item.start, next).split(/\n\n(?=\S+:|\[)/)[0] ?? '';
    return { id: item.id, docId: item.docId, text: body.trim() };
  });
}

/** A sentence of `text` long enough to quote, copied exactly (so a citation check that searches for it finds it). */
export function quotableSentence(text: string): string {
  const sentences = text.split(/(?<=[.!?。])\s+/).map((s) => s.trim());
  return sentences.find((s) => s.length >= 20) ?? text.trim().slice(0, 120);
}
