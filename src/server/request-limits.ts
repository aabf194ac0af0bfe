import { limitSetting, type LimitsConfig } from '../config/index.ts';
import { InputTooLargeError } from '../errors/index.ts';
import { analyzeQuery } from '../text/analyzer.ts';
import { depthOf } from './json-depth.ts';

/**
 * The per-field limits of the JSON routes, each refused with `input_too_large` (400) and a hint naming its setting.
 * The body's own limits (bytes, depth) are the JSON reader's (`read-json.ts`).
 */

/** A search query: its characters, then its distinct terms as the keyword channel will see them. */
export function assertQueryWithin(query: string, limits: LimitsConfig): void {
  const fix = 'Send a shorter query';
  if (query.length > limits.maxQueryChars) {
    throw new InputTooLargeError({
      what: 'the query',
      unit: 'characters',
      limit: limits.maxQueryChars,
      actual: query.length,
      setting: limitSetting('maxQueryChars'),
      fix,
    });
  }
  const terms = analyzeQuery(query).length;
  if (terms > limits.maxQueryTerms) {
    throw new InputTooLargeError({
      what: 'the query',
      unit: 'distinct terms',
      limit: limits.maxQueryTerms,
      actual: terms,
      setting: limitSetting('maxQueryTerms'),
      fix,
    });
  }
}

/** A run's question (a LangGraph run's input, a chat completion's last user message). */
export function assertQuestionWithin(question: string, limits: LimitsConfig): void {
  if (question.length > limits.maxQuestionChars) {
    throw new InputTooLargeError({
      what: 'the question',
      unit: 'characters',
      limit: limits.maxQuestionChars,
      actual: question.length,
      setting: limitSetting('maxQuestionChars'),
      fix: 'Ask a shorter question',
    });
  }
}

/** The messages of a run input or a chat completion. */
export function assertMessagesWithin(count: number, limits: LimitsConfig): void {
  if (count > limits.maxMessages) {
    throw new InputTooLargeError({
      what: 'the request',
      unit: 'messages',
      limit: limits.maxMessages,
      actual: count,
      setting: limitSetting('maxMessages'),
      fix: 'Send fewer messages (continue a thread: it keeps the history)',
    });
  }
}

/** A thread's or run's metadata (or a metadata filter): its nesting depth, then its size as JSON. */
export function assertMetadataWithin(metadata: Record<string, unknown> | null | undefined, limits: LimitsConfig): void {
  if (!metadata) return;
  const depth = depthOf(metadata, limits.maxMetadataDepth);
  if (depth > limits.maxMetadataDepth) {
    throw new InputTooLargeError({
      what: 'metadata',
      unit: 'levels of nesting',
      limit: limits.maxMetadataDepth,
      setting: limitSetting('maxMetadataDepth'),
      fix: 'Send flatter metadata',
    });
  }
  // Depth is bounded by now (and the body's depth before), so serialising cannot overflow the stack.
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (bytes > limits.maxMetadataBytes) {
    throw new InputTooLargeError({
      what: 'metadata',
      unit: 'bytes as JSON',
      limit: limits.maxMetadataBytes,
      actual: bytes,
      setting: limitSetting('maxMetadataBytes'),
      fix: 'Send less metadata',
    });
  }
}
