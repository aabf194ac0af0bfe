import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isEvidentError, publicErrorOf } from '../../../errors/index.ts';
import type { Logger } from '../../../logging/logger.ts';

/** A tool's answer: the text a model reads, and the same data as `structuredContent` (snake_case) for programs. */
export function toolResult(
  text: string,
  structured: Record<string, unknown>,
  extra: CallToolResult['content'] = [],
): CallToolResult {
  return { content: [{ type: 'text', text }, ...extra], structuredContent: structured };
}

/**
 * An error as an MCP tool error (`isError`): user and upstream errors say what happened and what to do; anything else
 * is opaque (its text was never reviewed not to leak content) and logged. The SDK would otherwise send any thrown
 * error's message as it is.
 */
export function toolError(error: unknown, logger: Logger, tool: string): CallToolResult {
  const shown = publicErrorOf(error);
  if (!isEvidentError(error) || error.category === 'system')
    logger.error('mcp tool failed', { tool, error: String(error) });
  const text = `${shown.message}${shown.hint ? ` ${shown.hint}` : ''} (${shown.code})`;
  // No structuredContent: a client validates it against the tool's output schema, which describes success.
  return { content: [{ type: 'text', text }], isError: true };
}

/** Runs a tool body; any failure becomes a tool error through `toolError`. */
export async function guarded(
  logger: Logger,
  tool: string,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error, logger, tool);
  }
}
