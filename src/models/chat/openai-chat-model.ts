import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import type { BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import { ChatOpenAI } from '@langchain/openai';
import type { JsonSchema, JsonSchemaConstrainedModel } from './chat-model.ts';

/**
 * ChatOpenAI (Chat Completions: OpenAI, vLLM, llama.cpp server, LM Studio) with the `json_schema` response format as
 * a capability. `withStructuredOutput` sets the same format but also parses the answer: on invalid output the raw
 * text is lost (the client's own parse throws and its retry repeats the request), so nothing could be fed back.
 * Not strict: strict mode rejects schemas with optional fields, and the answer is validated by zod anyway.
 */
export class OpenAiChatModel extends ChatOpenAI implements JsonSchemaConstrainedModel {
  withJsonSchema(schema: JsonSchema, name: string): Runnable<BaseLanguageModelInput, BaseMessage> {
    const { $schema: _dialect, ...body } = schema;
    return this.withConfig({
      response_format: { type: 'json_schema', json_schema: { name, schema: body, strict: false } },
    });
  }
}
