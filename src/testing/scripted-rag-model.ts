import { wireText, type Received } from './fake-llm-server.ts';

/**
 * A well-behaved chat model for the `rag` agent, as a `FakeLlmServer.respond`: it answers each structured step by
 * the schema the request names (OpenAI `json_schema`), from the prompt alone, so any number of runs (and resumed
 * runs asking again) get valid answers in any order. The answer cites the first evidence chunk of its prompt with
 * words copied from it, so the citation check keeps it.
 */
export function scriptedRagAnswer(body: Received['body']): string | undefined {
  const format = body.response_format as { json_schema?: { name?: string } } | undefined;
  const user = body.messages.find((message) => message.role === 'user');
  const prompt = user ? wireText(user) : '';
  switch (format?.json_schema?.name) {
    case 'standalone_question':
      return JSON.stringify({ standalone_question: /Last question: (.+)$/m.exec(prompt)?.[1] ?? prompt });
    case 'sub_questions': {
      const question = /^Question: (.+)$/m.exec(prompt)?.[1] ?? prompt;
      const parts = question
        .split(/,\s*|\s+and\s+/i)
        .map((part) => part.trim())
        .filter((part) => part.length >= 3);
      return JSON.stringify({ sub_questions: (parts.length > 0 ? parts : [question]).slice(0, 5) });
    }
    case 'answerability': {
      const first = firstPassage(prompt);
      const supporting = first ? [{ chunk_id: first.chunkId, sentence: first.words }] : [];
      return JSON.stringify({
        supporting,
        sufficiency: first ? 0.9 : 0,
        reasons: ['the evidence states it'],
        missing_information: first ? [] : ['evidence'],
      });
    }
    case 'route':
      return JSON.stringify({ route: 'retrieve', reason: 'the documents state it' });
    case 'answer':
      return JSON.stringify(answerFrom(prompt));
    default:
      return undefined;
  }
}

/** The prompt's first evidence passage, and its first words (a quote the citation check finds in it). */
function firstPassage(prompt: string): { chunkId: string; docId: string; words: string } | undefined {
  const chunk = /\[chunk_id: ([^\]]+)\] \[doc_id: ([^\]]+)\][^\n]*\n([^\n]+)/.exec(prompt);
  const words = chunk?.[3]?.trim().split(/\s+/).slice(0, 8).join(' ');
  return chunk?.[1] && chunk[2] && words ? { chunkId: chunk[1], docId: chunk[2], words } : undefined;
}

function answerFrom(prompt: string) {
  const first = firstPassage(prompt);
  if (!first) {
    return {
      answer: "I don't know based on the current evidence.",
      answerable: false,
      confidence: 0,
      citations: [],
      missing_information: ['evidence'],
    };
  }
  return {
    answer: `The evidence says: ${first.words}`,
    answerable: true,
    confidence: 0.8,
    citations: [{ chunk_id: first.chunkId, doc_id: first.docId, source: first.docId, quote: first.words }],
    missing_information: [],
  };
}
