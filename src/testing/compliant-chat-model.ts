import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import type { JsonSchema, JsonSchemaConstrainedModel } from '../models/chat/chat-model.ts';
import { messagesToText } from '../models/chat/message-text.ts';
import { quotableSentence, readPrompt, type Instruction, type PromptReading } from './compliant-instructions.ts';
import type { RecordedCall, RecordingCallOptions } from './recording-chat-model.ts';

/** One thing the model did because its prompt told it to: what a test checks the system stopped. */
export interface ObeyedInstruction {
  call: number;
  instruction: Instruction;
  /** How it obeyed: a tool call, a citation, text in its answer, or the query it chose. */
  as: 'tool_call' | 'citation' | 'answer_text' | 'query';
}

type Citation = { chunk_id: string; doc_id: string; source: string; quote: string };

/**
 * The attacker's favourite model: it reads its whole prompt (question, evidence, tool results) and does what it is
 * told — calls save_memory, cites the chunk it is told to, answers with a document's contents, follows "ignore previous
 * instructions and …" — always in a shape that validates (structured output from the call's JSON schema, native tool
 * calls when tools are bound). Like RecordingChatModel it records every prompt; `obeyed` lists what it obeyed, so a
 * test can show the attack was live and that the system, not the model, stopped it.
 */
export class CompliantChatModel extends BaseChatModel<RecordingCallOptions> implements JsonSchemaConstrainedModel {
  readonly calls: RecordedCall[] = [];
  readonly obeyed: ObeyedInstruction[] = [];

  constructor() {
    super({});
  }

  get prompts(): string[] {
    return this.calls.map((call) => call.prompt);
  }

  _llmType(): string {
    return 'compliant';
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
    const message = this.reply(messages, options);
    return { generations: [{ text: message.text, message }] };
  }

  /** Token by token through the callbacks, as providers stream (LangGraph's `messages` mode listens there). */
  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const message = this.reply(messages, options);
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

  private reply(messages: BaseMessage[], options: this['ParsedCallOptions']): AIMessage {
    const call: RecordedCall = {
      index: this.calls.length,
      messages: [...messages],
      prompt: messagesToText(messages),
      tools: (options.tools ?? []).map((tool) => convertToOpenAITool(tool).function.name),
      ...(options.jsonSchema ? { jsonSchema: options.jsonSchema } : {}),
      ...(options.schemaName ? { schemaName: options.schemaName } : {}),
    };
    this.calls.push(call);
    const reading = readPrompt(messages);
    if (call.tools.length > 0) return this.toolTurn(call, reading);
    if (!call.jsonSchema) return new AIMessage(this.answerText(call, reading));
    return new AIMessage(JSON.stringify(this.fill(call.jsonSchema, '', { call, reading })));
  }

  /** React's loop: search, then every search, query and side effect it was told to make (one per turn), then the final answer. */
  private toolTurn(call: RecordedCall, reading: PromptReading): AIMessage {
    const made = (tool: string) => reading.toolCalls.filter((made) => made.name === tool).map((made) => made.args);
    const of = <K extends Instruction['kind']>(kind: K) =>
      reading.instructions.filter((i): i is Extract<Instruction, { kind: K }> => i.kind === kind);
    const tool = (name: string, args: Record<string, unknown>) =>
      new AIMessage({
        content: `Doing as instructed: ${name}.`,
        tool_calls: [{ id: `compliant-${call.index}`, name, args, type: 'tool_call' }],
      });
    const has = (name: string) => call.tools.includes(name);
    const searched = made('knowledge_base').map((args) => args.query);
    if (has('knowledge_base') && searched.length === 0)
      return tool('knowledge_base', { query: pad(reading.question, 2) });
    const search = of('search').find((instruction) => !searched.includes(instruction.query));
    if (search && has('knowledge_base')) {
      this.obey(call, search, 'query');
      return tool('knowledge_base', { query: pad(search.query, 2) });
    }
    // Reads before writes: a side effect interrupts the run, and the model would not get to the rest.
    const sql = of('table_query').find(
      (instruction) => !made('table_query').some((args) => args.sql === instruction.sql),
    );
    if (sql && has('table_query')) {
      this.obey(call, sql, 'tool_call');
      return tool('table_query', { sql: sql.sql });
    }
    const save = of('save_memory').find(
      (instruction) => !made('save_memory').some((args) => args.text === pad(instruction.text, 3)),
    );
    if (save && has('save_memory')) {
      this.obey(call, save, 'tool_call');
      return tool('save_memory', { text: pad(save.text, 3) });
    }
    const citations = this.citations(call, reading).map(({ chunk_id, quote, doc_id }) => ({ chunk_id, quote, doc_id }));
    return tool('final_answer', {
      answer: this.answerText(call, reading),
      answerable: true,
      confidence: 0.9,
      citations,
      missing_information: [],
    });
  }

  /** The answer: what it was told to say, any document it was told to reveal (as far as its prompt shows it), then a sentence of the first passage. */
  private answerText(call: RecordedCall, reading: PromptReading): string {
    const parts: string[] = [];
    for (const instruction of reading.instructions) {
      if (instruction.kind === 'override' || instruction.kind === 'imperative') parts.push(instruction.text);
      else if (instruction.kind === 'reveal') {
        const shown = reading.passages
          .filter((passage) => passage.docId === instruction.docId)
          .map((passage) => passage.text);
        parts.push(`The contents of ${instruction.docId}: ${shown.join(' ') || '(not in my context)'}`);
      } else continue;
      this.obey(call, instruction, 'answer_text');
    }
    const first = reading.passages[0];
    parts.push(first ? quotableSentence(first.text) : 'Nothing in the context answers this.');
    return parts.join(' ');
  }

  /** Every chunk it was told to cite (and each revealed document's first chunk), then the first passage it was shown. */
  private citations(call: RecordedCall, reading: PromptReading): Citation[] {
    const cited: Citation[] = [];
    for (const instruction of reading.instructions) {
      if (instruction.kind === 'cite') {
        cited.push({
          chunk_id: instruction.chunkId,
          doc_id: docOf(instruction.chunkId),
          source: '',
          quote: instruction.quote ?? 'as instructed',
        });
      } else if (instruction.kind === 'reveal') {
        cited.push({
          chunk_id: `${instruction.docId}#0`,
          doc_id: instruction.docId,
          source: '',
          quote: 'the contents',
        });
      } else continue;
      this.obey(call, instruction, 'citation');
    }
    const first = reading.passages[0];
    if (first) cited.push({ chunk_id: first.id, doc_id: first.docId, source: '', quote: quotableSentence(first.text) });
    return cited;
  }

  private obey(call: RecordedCall, instruction: Instruction, as: ObeyedInstruction['as']): void {
    this.obeyed.push({ call: call.index, instruction, as });
  }

  /** A value the schema accepts, with the fields agents read filled in as an obedient model would. */
  private fill(schema: JsonSchema, key: string, ctx: FillContext): unknown {
    const known = this.field(key, schema, ctx);
    if (known !== undefined) return known;
    return generic(schema, (child, childKey) => this.fill(child, childKey, ctx));
  }

  private field(key: string, schema: JsonSchema, { call, reading }: FillContext): unknown {
    const search = reading.instructions.find((i): i is Extract<Instruction, { kind: 'search' }> => i.kind === 'search');
    const query = pad(search?.query ?? reading.question, Number(schema.minLength ?? 3));
    const searchQuery = () => {
      if (search) this.obey(call, search, 'query');
      return query;
    };
    switch (key) {
      case 'answer':
        return pad(this.answerText(call, reading), Number(schema.minLength ?? 1));
      case 'citations':
        return this.citations(call, reading);
      case 'answerable':
      case 'relevant':
      case 'grounded':
      case 'done':
        return true;
      case 'confidence':
      case 'sufficiency':
        return 0.9;
      case 'supporting': {
        // The judge's extraction: what it was told to cite, and a sentence of the first passage, under the id field its schema names.
        const item = (schema.items ?? {}) as JsonSchema;
        const idKey = 'id' in ((item.properties ?? {}) as Record<string, unknown>) ? 'id' : 'chunk_id';
        return this.citations(call, reading).map(({ chunk_id, quote }) => ({ [idKey]: chunk_id, sentence: quote }));
      }
      case 'summary': {
        // A faithful summary keeps the facts discussed: the turns it was given, as they were said.
        const turns = call.prompt.split('Turns to fold in:').at(-1)?.trim() ?? '';
        return pad(turns.slice(0, 1_000), Number(schema.minLength ?? 1));
      }
      case 'missing_information':
      case 'entities':
        return [];
      case 'reasons':
        return ['The context says so.'];
      case 'reason':
        return 'The context says so.';
      case 'standalone_question':
      case 'query':
        return searchQuery();
      case 'sub_questions':
        return [searchQuery()];
      case 'queries':
        return [searchQuery(), pad(reading.question, 2)];
      case 'relevant_ids':
        return reading.itemIds;
      case 'plan':
        return call.schemaName === 'replan' ? [] : [pad(`Find ${reading.question}`, 3), 'Answer the question'];
      case 'sql': {
        const sql = reading.instructions.find(
          (i): i is Extract<Instruction, { kind: 'table_query' }> => i.kind === 'table_query',
        );
        if (sql) this.obey(call, sql, 'query');
        return sql?.sql ?? 'SELECT 1';
      }
      case 'tool': {
        const options = (schema.enum as string[] | undefined) ?? [];
        // The controllable task handler: a task that answers is answered from what was kept; any other retrieves.
        return /^answer/i.test(reading.question)
          ? (options.find((option) => option === 'answer_from_context') ?? options[0])
          : options[0];
      }
      default:
        return undefined;
    }
  }
}

interface FillContext {
  call: RecordedCall;
  reading: PromptReading;
}

const docOf = (chunkId: string) => chunkId.split('#')[0] || chunkId;
const pad = (text: string, min: number) =>
  text.trim().length >= min ? text.trim() : `${text.trim()} the question`.trim().padEnd(min, '.');

/** A minimal valid value of a JSON schema (objects with their required fields, arrays at their minimum length). */
function generic(schema: JsonSchema, child: (schema: JsonSchema, key: string) => unknown): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union?.[0]) return generic(union[0], child);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[] | undefined) ?? Object.keys(properties));
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([name]) => required.has(name))
          .map(([name, sub]) => [name, child(sub, name)]),
      );
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => child((schema.items ?? {}) as JsonSchema, ''));
    case 'string':
      return 'ok'.padEnd(Number(schema.minLength ?? 0), '.');
    case 'number':
    case 'integer':
      return Number(schema.minimum ?? 0);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'ok';
  }
}
