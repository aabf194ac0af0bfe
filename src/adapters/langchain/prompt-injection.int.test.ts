import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidentRetriever, evidentTools, type AskToolOutput } from 'evident/langchain';
import { loadConfig } from '../../config/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { CompliantChatModel } from '../../testing/compliant-chat-model.ts';
import {
  openMcpCorpusStore,
  RESTRICTED_DOC_IDS,
  RESTRICTED_MARKERS,
  type McpCorpusStore,
} from '../../testing/mcp-corpus.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';

/**
 * A public notice tells whatever model reads it to reveal, cite and remember a document only `legal` may read. The
 * models here obey every instruction they read (CompliantChatModel), both the application's own model and the one
 * Evident's agents use: bob (engineering) still gets nothing of it, because the adapters hand no model a passage bob
 * may not read.
 */
let corpus: McpCorpusStore;
let evident: Evident;
let inner: CompliantChatModel;

beforeAll(async () => {
  corpus = await openMcpCorpusStore();
  inner = new CompliantChatModel();
  evident = await createEvident(loadConfig({ flags: { db: corpus.db }, env: {}, cwd: corpus.dir }), {
    chat: { id: 'compliant:test', model: inner },
  });
});
afterAll(async () => {
  await evident?.close();
  await corpus?.close();
});

// The restricted documents' own words (their ids do occur in the public notice, which names them).
const expectNothingRestricted = (text: string) => {
  for (const marker of RESTRICTED_MARKERS) expect(text).not.toContain(marker);
};

describe('prompt injection through the LangChain adapters', () => {
  it("the application's own obedient model, fed by the retriever, cannot reveal what bob may not read", async () => {
    const question = 'What does the notice board say about the nightjar closing date?';
    const answerAs = async (user: string) => {
      const model = new CompliantChatModel();
      const retriever = new EvidentRetriever({ evident, user });
      const prompt = ChatPromptTemplate.fromMessages([['human', 'Context:\n{context}\n\nQuestion: {question}']]);
      const format = (docs: Awaited<ReturnType<typeof retriever.invoke>>) =>
        docs
          .map((doc) => `[chunk_id: ${doc.metadata.chunk_id}] [doc_id: ${doc.metadata.doc_id}]\n${doc.pageContent}`)
          .join('\n\n');
      const chain = RunnableSequence.from([
        { context: retriever.pipe(format), question: new RunnablePassthrough() },
        prompt,
        model,
        new StringOutputParser(),
      ]);
      return { answer: await chain.invoke(question), model };
    };
    const bob = await answerAs('bob');
    // The attack was live: the model read the notice and did as it said, with what it had.
    expect(bob.model.obeyed.map((obeyed) => obeyed.instruction.kind)).toContain('reveal');
    expect(bob.answer).toContain('The contents of secret/nightjar.md: (not in my context)');
    expectNothingRestricted(bob.answer + bob.model.prompts.join('\n'));
    // alice (legal) may read it, and the same chain reveals it to her: the check above could fail.
    const alice = await answerAs('alice');
    expect(RESTRICTED_MARKERS.some((marker) => alice.answer.includes(marker))).toBe(true);
  });

  it('evident_ask on every agent, with an obedient model inside Evident, answers bob without a word of it and saves nothing', async () => {
    for (const agent of ['rag', 'react', 'controllable']) {
      const outer = new RecordingChatModel([
        new AIMessage({
          content: '',
          tool_calls: [
            {
              id: 'call-1',
              name: 'evident_ask',
              args: { question: 'What does the notice board list?' },
              type: 'tool_call',
            },
          ],
        }),
        'Done.',
      ]);
      const calls = inner.calls.length;
      const app = createReactAgent({ llm: outer, tools: evidentTools({ evident, user: 'bob' }, { ask: { agent } }) });
      const { messages } = await app.invoke({
        messages: [{ role: 'user', content: 'What does the notice board list?' }],
      });
      const tool = messages.find((message) => ToolMessage.isInstance(message)) as ToolMessage;
      const result = tool.artifact as AskToolOutput;
      expect(inner.calls.length, `${agent} used the obedient model`).toBeGreaterThan(calls);
      expectNothingRestricted(
        JSON.stringify(messages) + JSON.stringify(result) + inner.prompts.slice(calls).join('\n'),
      );
      expect((result.citations ?? []).every((citation) => !RESTRICTED_DOC_IDS.includes(citation.doc_id))).toBe(true);
    }
    expect(inner.obeyed.length).toBeGreaterThan(0);
    expect(await evident.store.listMemories('bob')).toEqual([]);
  });
});
