import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import { z } from 'zod';
import { StructuredOutputError, type StructuredOutputIssue } from '../../errors/index.ts';
import { isJsonSchemaConstrained, type JsonSchema } from './chat-model.ts';

export interface GenerateStructuredOptions<S extends z.ZodType> {
  model: BaseChatModel;
  schema: S;
  messages: readonly BaseMessage[];
  /** Names the schema for the provider (OpenAI's `json_schema.name`) and in errors; letters, digits, `_`, `-`. */
  name: string;
  /** Further attempts after the first when the answer does not validate. Default 2. */
  maxRetries?: number;
  signal?: AbortSignal;
}

export const DEFAULT_STRUCTURED_RETRIES = 2;

/**
 * Asks the model for an object matching `schema`. Decoding is constrained where the provider can (a llama.cpp
 * grammar, OpenAI `json_schema`, Ollama `format`: the formats `withStructuredOutput` would set, without its parser,
 * which hides an invalid answer's text), and every answer is validated by the zod schema regardless: on
 * failure the answer and its validation issues are fed back and the model asked again, up to `maxRetries` times,
 * then a StructuredOutputError carries the last issues.
 */
export async function generateStructured<S extends z.ZodType>(
  options: GenerateStructuredOptions<S>,
): Promise<z.output<S>> {
  const { model, schema, name } = options;
  const maxRetries = options.maxRetries ?? DEFAULT_STRUCTURED_RETRIES;
  const jsonSchema = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const conversation = [...options.messages];
  const constrained = constrain(model, jsonSchema, name, conversation);
  let issues: StructuredOutputIssue[] = [];
  let lastOutput = '';
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    lastOutput = await answerText(constrained, conversation, options.signal);
    const result = validate(schema, lastOutput);
    if (result.success) return result.data;
    issues = result.issues;
    conversation.push(new AIMessage(lastOutput), new HumanMessage(feedback(name, issues, jsonSchema)));
  }
  throw new StructuredOutputError(name, maxRetries + 1, issues, { details: { lastOutput: lastOutput.slice(0, 500) } });
}

/**
 * The model constrained to the schema by its provider (a llama.cpp grammar, OpenAI `json_schema`, Ollama `format`).
 * A model without that capability gets the schema as an instruction instead; its answer is validated the same way.
 */
function constrain(
  model: BaseChatModel,
  jsonSchema: JsonSchema,
  name: string,
  conversation: BaseMessage[],
): Runnable<BaseLanguageModelInput, BaseMessage> {
  if (isJsonSchemaConstrained(model)) return model.withJsonSchema(jsonSchema, name);
  conversation.push(
    new HumanMessage(`Answer with only a JSON object matching this JSON schema: ${JSON.stringify(jsonSchema)}`),
  );
  return model;
}

/**
 * The answer's text, streamed: given a `json_schema` response format, the OpenAI client's non-streamed path parses the
 * content itself and throws on invalid JSON (then retries the same request), so the text never reaches the feedback.
 */
async function answerText(
  model: Runnable<BaseLanguageModelInput, BaseMessage>,
  messages: BaseMessage[],
  signal?: AbortSignal,
): Promise<string> {
  let text = '';
  for await (const chunk of await model.stream(messages, signal ? { signal } : {})) text += chunk.text;
  return text;
}

type Validation<T> = { success: true; data: T } | { success: false; issues: StructuredOutputIssue[] };

/** Text → JSON → schema. Code fences and prose around one JSON value are tolerated; nothing unvalidated escapes. */
export function validate<S extends z.ZodType>(schema: S, text: string): Validation<z.output<S>> {
  const json = extractJson(text);
  if (json === undefined)
    return { success: false, issues: [{ path: [], message: 'The answer contains no JSON value' }] };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (cause) {
    return {
      success: false,
      issues: [{ path: [], message: `The answer is not valid JSON (${(cause as Error).message})` }],
    };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { success: true, data: parsed.data };
  return {
    success: false,
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
      message: issue.message,
    })),
  };
}

function extractJson(text: string): string | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  if (body.startsWith('{') || body.startsWith('[')) return body;
  const start = body.search(/[[{]/);
  if (start < 0) return undefined;
  const end = Math.max(body.lastIndexOf('}'), body.lastIndexOf(']'));
  return end > start ? body.slice(start, end + 1) : body.slice(start);
}

function feedback(name: string, issues: readonly StructuredOutputIssue[], jsonSchema: JsonSchema): string {
  const lines = issues.map((issue) => `- ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  return [
    `Your previous answer did not match the required JSON schema "${name}":`,
    ...lines,
    `The schema is: ${JSON.stringify(jsonSchema)}`,
    'Answer again with only the corrected JSON object.',
  ].join('\n');
}
