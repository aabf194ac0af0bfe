import { RunnableSequence } from '@langchain/core/runnables';
import { createEvident, loadConfig } from 'evident';
import { EvidentRetriever } from 'evident/langchain';

// The store `evident ingest` built (EVIDENT_DB; ./.evident/evident.db by default), searched as the stored user alice.
const evident = await createEvident(loadConfig());
try {
  const retriever = new EvidentRetriever({ evident, user: 'alice', topK: 3 });
  const docs = await retriever.invoke('termination fee of contract CT-2024-0193');
  for (const doc of docs)
    console.log(doc.metadata.chunk_id, '|', doc.metadata.heading, '|', JSON.stringify(doc.metadata.scores.channels));

  // In a chain: the passages become numbered sources (pipe them on into a prompt and your chat model).
  const sources = RunnableSequence.from([
    retriever,
    (found: typeof docs) => found.map((doc, i) => `[${i + 1}] ${doc.metadata.doc_id}`).join('\n'),
  ]);
  console.log(await sources.invoke('Who pays the termination fee?'));
} finally {
  await evident.close();
}
