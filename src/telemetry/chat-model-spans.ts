import { context, SpanKind, type Span } from '@opentelemetry/api';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import { markFailed } from './in-span.ts';
import { activeTracing } from './tracing-state.ts';

/**
 * A span per chat model call (`chat <model id>`, GenAI semantic conventions: operation, model, token usage when the
 * provider reports it), as a child of whatever span is active where the call is made: the graph node, the reranker's
 * search, an ingestion summary. Attached to the model itself, so every call of every agent and every helper is covered
 * however it reaches the model (`invoke`, `withStructuredOutput`, a JSON-schema binding, streaming). Prompts and
 * completions never become attributes. Awaited by LangChain (not queued), so the caller's context is the active one.
 */
export class ChatModelSpanHandler extends BaseCallbackHandler {
  readonly name = 'evident_chat_model_spans';
  private readonly spans = new Map<string, Span>();

  constructor(private readonly modelId: string) {
    super({ _awaitHandler: true });
  }

  /** One handler for the model's lifetime: LangChain copies handlers into child managers, which must share the open spans. */
  override copy(): this {
    return this;
  }

  override handleChatModelStart(_llm: Serialized, messages: BaseMessage[][], runId: string): void {
    const tracing = activeTracing();
    if (!tracing) return;
    const span = tracing.tracer.startSpan(
      `chat ${this.modelId}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': this.modelId,
          'evident.model.id': this.modelId,
          'evident.model.message_count': messages[0]?.length ?? 0,
        },
      },
      context.active(),
    );
    this.spans.set(runId, span);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const span = this.take(runId);
    if (!span) return;
    const usage = usageOf(output);
    if (usage.input !== undefined) span.setAttribute('gen_ai.usage.input_tokens', usage.input);
    if (usage.output !== undefined) span.setAttribute('gen_ai.usage.output_tokens', usage.output);
    span.end();
  }

  override handleLLMError(error: unknown, runId: string): void {
    const span = this.take(runId);
    if (!span) return;
    markFailed(span, error);
    span.end();
  }

  private take(runId: string): Span | undefined {
    const span = this.spans.get(runId);
    this.spans.delete(runId);
    return span;
  }
}

/** Token counts as the provider reported them: the message's `usage_metadata`, else OpenAI-style `tokenUsage`. */
function usageOf(output: LLMResult): { input: number | undefined; output: number | undefined } {
  const message = (
    output.generations[0]?.[0] as
      | { message?: { usage_metadata?: { input_tokens?: number; output_tokens?: number } } }
      | undefined
  )?.message;
  const metadata = message?.usage_metadata;
  if (metadata) return { input: metadata.input_tokens, output: metadata.output_tokens };
  const tokenUsage = output.llmOutput?.tokenUsage as { promptTokens?: number; completionTokens?: number } | undefined;
  return { input: tokenUsage?.promptTokens, output: tokenUsage?.completionTokens };
}

/**
 * Adds the span handler to the model's own callbacks (while tracing is on), and returns how to take it off again: a
 * model the caller gave (a test's fake) outlives the Evident that traced it.
 */
export function traceChatModel(model: BaseChatModel, modelId: string): () => void {
  const handler = new ChatModelSpanHandler(modelId);
  const callbacks = model.callbacks;
  if (callbacks === undefined) model.callbacks = [handler];
  else if (Array.isArray(callbacks)) model.callbacks = [...callbacks, handler];
  else callbacks.addHandler(handler, false);
  return () => {
    const now = model.callbacks;
    if (Array.isArray(now)) model.callbacks = now.filter((item) => item !== handler);
    else now?.removeHandler(handler);
  };
}
