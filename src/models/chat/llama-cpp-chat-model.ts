import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
} from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import {
  getLlama,
  LlamaChatSession,
  LlamaLogLevel,
  type ChatHistoryItem,
  type GbnfJsonSchema,
  type Llama,
  type LlamaContext,
  type LlamaGrammar,
  type LlamaModel,
} from 'node-llama-cpp';
import { ConfigError, ProviderError, ValidationError } from '../../errors/index.ts';
import { AsyncQueue } from './async-queue.ts';
import type { JsonSchema, JsonSchemaConstrainedModel } from './chat-model.ts';
import { toGrammarJsonSchema } from './grammar-json-schema.ts';
import { messageText, roleOf } from './message-text.ts';

export interface LlamaCppCallOptions extends BaseChatModelCallOptions {
  /** Constrains the answer to JSON of this shape with a llama.cpp grammar (see `toGrammarJsonSchema`). */
  jsonSchema?: GbnfJsonSchema;
  maxTokens?: number;
  temperature?: number;
}

export interface LlamaCppChatModelOptions extends BaseChatModelParams {
  /** A `.gguf` file. */
  modelPath: string;
  /** Context window in tokens; capped at the model's training context. */
  contextSize?: number;
  /** Default answer length bound; a call may pass its own. */
  maxTokens?: number;
  /** 0 (the default) makes answers repeatable, which evaluation relies on. */
  temperature?: number;
  /** CPU by default: the prebuilt CPU binaries always load, GPU builds depend on the machine's drivers. */
  gpu?: false | 'auto';
}

const PROVIDER = 'llama-cpp';

/**
 * A GGUF model run in-process by node-llama-cpp, as a LangChain chat model. Every call is stateless: the message
 * list becomes the session's history and its last user turn the prompt. One context sequence serves all calls, so
 * calls run one at a time (the KV cache keeps the shared prefix of consecutive calls).
 */
export class LlamaCppChatModel extends BaseChatModel<LlamaCppCallOptions> implements JsonSchemaConstrainedModel {
  readonly modelPath: string;
  private readonly defaultMaxTokens: number;
  private readonly temperature: number;
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    options: LlamaCppChatModelOptions,
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly session: LlamaChatSession,
  ) {
    super(options);
    this.modelPath = options.modelPath;
    this.defaultMaxTokens = options.maxTokens ?? 1024;
    this.temperature = options.temperature ?? 0;
  }

  /** Loads the GGUF with the prebuilt llama.cpp binaries that ship in npm packages: nothing is downloaded or built. */
  static async load(options: LlamaCppChatModelOptions): Promise<LlamaCppChatModel> {
    const modelPath = resolve(options.modelPath);
    const stats = statSync(modelPath, { throwIfNoEntry: false });
    if (!stats?.isFile()) {
      throw new ConfigError(`No GGUF model file at ${modelPath}.`, {
        hint: 'Download a chat model in GGUF format (e.g. a Q4_K_M quantisation) and pass its path: --llm llama-cpp:./models/model.gguf.',
      });
    }
    let llama: Llama;
    try {
      llama = await getLlama({
        gpu: options.gpu ?? false,
        build: 'never',
        logLevel: LlamaLogLevel.error,
        progressLogs: false,
      });
    } catch (cause) {
      throw new ProviderError(PROVIDER, 'cannot load the prebuilt llama.cpp binaries.', {
        cause,
        hint: 'Reinstall with `npm ci` so the @node-llama-cpp/<platform> package for this machine is present.',
      });
    }
    let model: LlamaModel | undefined;
    try {
      model = await llama.loadModel({ modelPath });
      const contextSize = Math.min(options.contextSize ?? 4096, model.trainContextSize);
      const context = await model.createContext({ contextSize });
      const session = new LlamaChatSession({ contextSequence: context.getSequence() });
      return new LlamaCppChatModel({ ...options, modelPath }, llama, model, context, session);
    } catch (cause) {
      await model?.dispose();
      await llama.dispose();
      throw new ProviderError(PROVIDER, `cannot load ${modelPath}: ${(cause as Error).message}`, {
        cause,
        hint: 'Check that the file is a complete GGUF model and that it fits in memory (try a smaller contextSize).',
      });
    }
  }

  _llmType(): string {
    return PROVIDER;
  }

  override get callKeys(): string[] {
    return [...super.callKeys, 'jsonSchema', 'maxTokens', 'temperature'];
  }

  withJsonSchema(schema: JsonSchema, _name: string): Runnable<BaseLanguageModelInput, BaseMessage> {
    return this.withConfig({ jsonSchema: toGrammarJsonSchema(schema) });
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const text = await this.run(messages, options, (chunk) => void runManager?.handleLLMNewToken(chunk));
    return { generations: [{ text, message: new AIMessage(text) }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const chunks = new AsyncQueue<string>();
    const done = this.run(messages, options, (text) => chunks.push(text)).then(
      () => chunks.end(),
      (error: unknown) => chunks.end(error),
    );
    for await (const text of chunks.drain()) {
      yield new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text }) });
      await runManager?.handleLLMNewToken(text);
    }
    await done;
  }

  /** Frees the context, the model and the backend. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    this.session.dispose();
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }

  private run(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    onTextChunk: (text: string) => void,
  ): Promise<string> {
    const { history, prompt } = toChatHistory(messages);
    return this.exclusive(async () => {
      if (this.closed) throw new ProviderError(PROVIDER, 'the model was closed.', { hint: 'Create a new chat model.' });
      const grammar = options.jsonSchema ? await this.grammar(options.jsonSchema) : undefined;
      this.session.setChatHistory(history);
      try {
        return await this.session.prompt(prompt, {
          maxTokens: options.maxTokens ?? this.defaultMaxTokens,
          temperature: options.temperature ?? this.temperature,
          ...(grammar ? { grammar } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.stop?.length ? { customStopTriggers: options.stop } : {}),
          onTextChunk,
        });
      } catch (cause) {
        if (options.signal?.aborted) throw cause;
        throw new ProviderError(PROVIDER, `generation failed: ${(cause as Error).message}`, {
          cause,
          hint: 'Check the model file.',
        });
      }
    });
  }

  private grammar(schema: GbnfJsonSchema): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      // The method's generic type wants a literal schema; a schema built at run time is checked by the library.
      const create = this.llama.createGrammarForJsonSchema as (schema: GbnfJsonSchema) => Promise<LlamaGrammar>;
      grammar = create.call(this.llama, schema);
      this.grammars.set(key, grammar);
      grammar.catch(() => this.grammars.delete(key));
    }
    return grammar;
  }

  /** Runs calls one at a time on the single context sequence. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** LangChain messages → node-llama-cpp history plus the prompt (the trailing user turn, merged if several). */
export function toChatHistory(messages: readonly BaseMessage[]): { history: ChatHistoryItem[]; prompt: string } {
  const history: ChatHistoryItem[] = [];
  for (const message of messages) {
    const role = roleOf(message);
    const text = messageText(message);
    const last = history.at(-1);
    if (role === 'system') history.push({ type: 'system', text });
    else if (role === 'assistant') history.push({ type: 'model', response: [text] });
    else if (last?.type === 'user') last.text = `${last.text}\n\n${text}`;
    else history.push({ type: 'user', text });
  }
  const last = history.pop();
  if (last?.type !== 'user') {
    throw new ValidationError('A llama-cpp chat call needs the messages to end with a user (or tool) message.', {
      hint: 'Append the question as a human message.',
    });
  }
  return { history, prompt: last.text };
}
