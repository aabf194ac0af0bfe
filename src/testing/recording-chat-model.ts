import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import type { JsonSchema, JsonSchemaConstrainedModel } from '../models/chat/chat-model.ts';
import { messagesToText } from '../models/chat/message-text.ts';

/** What the model was asked, as a test sees it. */
export interface RecordedCall {
  /** 0-based position in the script. */
  index: number;
  messages: BaseMessage[];
  /** The whole message list as text (`role: text` per message); also in `.prompts`. */
  prompt: string;
  /** The schema the caller constrained the answer to (structured output), if any. */
  jsonSchema?: JsonSchema;
  schemaName?: string;
  /** Names of the tools bound for this call. */
  tools: string[];
}

/** A string is the answer text; an object is answered as its JSON (structured output); an AIMessage may carry tool calls. */
export type ScriptedAnswer = string | AIMessage | Record<string, unknown>;
/** A function reply may be async: a test can hold the model (and so the run) until it lets go. */
export type ScriptedReply = ScriptedAnswer | ((call: RecordedCall) => ScriptedAnswer | Promise<ScriptedAnswer>);

export interface RecordingCallOptions extends BaseChatModelCallOptions {
  jsonSchema?: JsonSchema;
  schemaName?: string;
  tools?: BindToolsInput[];
}

/**
 * A scripted chat model for graph tests: each call takes the next reply and records the full prompt, so a test can
 * assert what the model saw (and what it must never see). Running out of script fails the call loudly rather than
 * inventing an answer.
 */
export class RecordingChatModel extends BaseChatModel<RecordingCallOptions> implements JsonSchemaConstrainedModel {
  readonly calls: RecordedCall[] = [];
  private readonly script: ScriptedReply[];
  private readonly standing: Partial<Record<string, ScriptedReply>>;

  /**
   * `standing` answers every call of the named structured steps (by schema name) without using the script: for tests
   * about something else, the steps they do not script (e.g. rag's planning: `RAG_PLANNING` in rag-model-script.ts).
   * Those calls are recorded like any other.
   */
  constructor(
    script: readonly ScriptedReply[] = [],
    options: { standing?: Partial<Record<string, ScriptedReply>> } = {},
  ) {
    super({});
    this.script = [...script];
    this.standing = { ...options.standing };
  }

  /** Every prompt so far, one string per call. */
  get prompts(): string[] {
    return this.calls.map((call) => call.prompt);
  }

  /** Replies not used yet. */
  get remaining(): number {
    return this.script.length;
  }

  /** Appends replies to the script. */
  push(...replies: ScriptedReply[]): this {
    this.script.push(...replies);
    return this;
  }

  _llmType(): string {
    return 'recording';
  }

  override get callKeys(): string[] {
    return [...super.callKeys, 'jsonSchema', 'schemaName', 'tools'];
  }

  withJsonSchema(schema: JsonSchema, name: string): Runnable<BaseLanguageModelInput, BaseMessage> {
    return this.withConfig({ jsonSchema: schema, schemaName: name });
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs: Partial<RecordingCallOptions> = {},
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, RecordingCallOptions> {
    return this.withConfig({ ...kwargs, tools });
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const message = await this.next(messages, options);
    return { generations: [{ text: message.text, message }] };
  }

  /** Streams the reply token by token and reports each token to the callbacks, as real providers do (LangGraph's `messages` stream listens there). */
  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const message = await this.next(messages, options);
    for (const token of message.text.match(/\s*\S+|\s+/g) ?? []) {
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ content: token }) });
      await runManager?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
      yield chunk;
    }
    if (message.tool_calls?.length) {
      const tool_call_chunks = message.tool_calls.map((call, index) => ({
        type: 'tool_call_chunk' as const,
        index,
        ...(call.id ? { id: call.id } : {}),
        name: call.name,
        args: JSON.stringify(call.args),
      }));
      yield new ChatGenerationChunk({ text: '', message: new AIMessageChunk({ content: '', tool_call_chunks }) });
    }
  }

  private async next(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<AIMessage> {
    const call: RecordedCall = {
      index: this.calls.length,
      messages: [...messages],
      prompt: messagesToText(messages),
      tools: (options.tools ?? []).map(toolName),
      ...(options.jsonSchema ? { jsonSchema: options.jsonSchema } : {}),
      ...(options.schemaName ? { schemaName: options.schemaName } : {}),
    };
    this.calls.push(call);
    const reply = (call.schemaName ? this.standing[call.schemaName] : undefined) ?? this.script.shift();
    if (reply === undefined) {
      throw new Error(
        `RecordingChatModel: the script ran out at call ${call.index + 1} (${call.index} scripted replies used). The prompt was:\n${call.prompt}`,
      );
    }
    const answer = typeof reply === 'function' ? await reply(call) : reply;
    if (typeof answer === 'string') return new AIMessage(answer);
    if (AIMessage.isInstance(answer)) return answer;
    return new AIMessage(JSON.stringify(answer));
  }
}

function toolName(tool: BindToolsInput): string {
  return convertToOpenAITool(tool).function.name;
}
