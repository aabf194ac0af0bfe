import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import type { BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';

export type ChatProvider = 'openai' | 'ollama' | 'llama-cpp';

/** A JSON Schema document (as `z.toJSONSchema` writes it). */
export type JsonSchema = Record<string, unknown>;

/** The configured chat model: a LangChain `BaseChatModel` plus what Evident needs to label and release it. */
export interface ChatModelHandle {
  /** `provider:model` as configured, for traces, run records and answer labels. */
  readonly id: string;
  readonly provider: ChatProvider;
  readonly model: BaseChatModel;
  /** Releases what the model holds (native memory for llama-cpp). Safe to call twice. */
  close(): Promise<void>;
}

/** What agents and the llm reranker use of a chat model: its id (for labels and traces) and the model. */
export type ChatModel = Pick<ChatModelHandle, 'id' | 'model'>;

/**
 * Capability of models that constrain decoding to a JSON schema themselves (a llama.cpp grammar, a scripted fake)
 * rather than through LangChain's `withStructuredOutput`. The answer is still validated by the caller.
 */
export interface JsonSchemaConstrainedModel {
  withJsonSchema(schema: JsonSchema, name: string): Runnable<BaseLanguageModelInput, BaseMessage>;
}

export function isJsonSchemaConstrained(model: BaseChatModel): model is BaseChatModel & JsonSchemaConstrainedModel {
  return typeof (model as Partial<JsonSchemaConstrainedModel>).withJsonSchema === 'function';
}
