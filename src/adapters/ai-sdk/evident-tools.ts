import { tool } from 'ai';
import { connectEvident, type EvidentTarget } from '../core/connect-evident.ts';
import type { AdapterAskOptions, AdapterSearchOptions } from '../core/evident-connection.ts';
import {
  ASK_TOOL_DESCRIPTION,
  ASK_TOOL_NAME,
  askToolInput,
  runAskTool,
  runSearchTool,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  searchToolInput,
} from '../core/tool-specs.ts';

/** `evident_search` as an AI SDK tool: passages the bound principal may read. */
export function evidentSearchTool(target: EvidentTarget, options: AdapterSearchOptions = {}) {
  const connection = connectEvident(target, 'ai-sdk');
  return tool({
    description: SEARCH_TOOL_DESCRIPTION,
    inputSchema: searchToolInput,
    execute: (input) => runSearchTool(connection, input, options),
  });
}

/** `evident_ask` as an AI SDK tool: one run of an agent (rag by default) as the bound principal; approvals stay pending. */
export function evidentAskTool(target: EvidentTarget, options: AdapterAskOptions = {}) {
  const connection = connectEvident(target, 'ai-sdk');
  return tool({
    description: ASK_TOOL_DESCRIPTION,
    inputSchema: askToolInput,
    execute: (input) => runAskTool(connection, input, options),
  });
}

/** Both tools under their names, as `generateText({ tools })` and `streamText({ tools })` take them. */
export function evidentTools(
  target: EvidentTarget,
  options: { search?: AdapterSearchOptions; ask?: AdapterAskOptions } = {},
) {
  return {
    evident_search: evidentSearchTool(target, options.search),
    evident_ask: evidentAskTool(target, options.ask),
  } satisfies Record<typeof SEARCH_TOOL_NAME | typeof ASK_TOOL_NAME, unknown>;
}
