import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { evidentTools } from 'evident/langchain';

/** A LangGraph agent whose model (any tool-calling chat model) may search Evident and ask its agents as the key's user. */
export function evidentAgent(llm: BaseChatModel) {
  const tools = evidentTools({
    url: process.env.EVIDENT_URL ?? 'http://127.0.0.1:8787',
    apiKey: process.env.EVIDENT_KEY ?? '',
  });
  return createReactAgent({ llm, tools });
}
