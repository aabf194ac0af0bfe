import { evidentTools } from 'evident/langchain';

// A running `evident serve` and a user's key (`evident keys create alice`): the tools act as that user.
const [search, ask] = evidentTools({
  url: process.env.EVIDENT_URL ?? 'http://127.0.0.1:8787',
  apiKey: process.env.EVIDENT_KEY ?? '',
});

// Any tool-calling LangChain model or agent takes them as they are: createReactAgent({ llm, tools: [search, ask] }).
// Called here as a model would call them: the ToolMessage's content is JSON for the model, its artifact the object.
const found = await search.invoke({
  id: 'call-1',
  name: 'evident_search',
  args: { query: 'termination fee CT-2024-0193', top_k: 2 },
  type: 'tool_call',
});
for (const hit of found.artifact.results) console.log(hit.rank, hit.chunk_id, '|', hit.heading);

const reply = await ask.invoke({
  id: 'call-2',
  name: 'evident_ask',
  args: { question: 'What is the termination fee of contract CT-2024-0193?' },
  type: 'tool_call',
});
const { status, answer, citations } = reply.artifact;
console.log(status, '|', answer);
for (const citation of citations) console.log(`${citation.doc_id}: "${citation.quote}"`);
