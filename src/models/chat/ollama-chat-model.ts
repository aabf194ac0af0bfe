import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import type { BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import { ChatOllama } from '@langchain/ollama';
import type { JsonSchema, JsonSchemaConstrainedModel } from './chat-model.ts';

/**
 * ChatOllama with Ollama's `format: <JSON schema>` (grammar-constrained decoding on the server) as a capability, set
 * directly rather than through `withStructuredOutput`, whose parser would swallow an invalid answer's text.
 */
export class OllamaChatModel extends ChatOllama implements JsonSchemaConstrainedModel {
  withJsonSchema(schema: JsonSchema, _name: string): Runnable<BaseLanguageModelInput, BaseMessage> {
    const { $schema: _dialect, ...body } = schema;
    return this.withConfig({ format: body });
  }
}
