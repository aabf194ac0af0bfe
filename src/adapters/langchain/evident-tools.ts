import { tool } from '@langchain/core/tools';
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
  type AskToolOutput,
  type SearchToolOutput,
} from '../core/tool-specs.ts';

/**
 * The tools answer `content_and_artifact`: the model reads the JSON text, and the ToolMessage's `artifact` keeps the
 * object (the search results, or the answer contract with its citations) for the application.
 */

/** `evident_search` as a LangChain tool: passages the bound principal may read. */
export function evidentSearchTool(target: EvidentTarget, options: AdapterSearchOptions = {}) {
  const connection = connectEvident(target, 'langchain');
  return tool(
    async (input): Promise<[string, SearchToolOutput]> => {
      const output = await runSearchTool(connection, input, options);
      return [JSON.stringify(output), output];
    },
    {
      name: SEARCH_TOOL_NAME,
      description: SEARCH_TOOL_DESCRIPTION,
      schema: searchToolInput,
      responseFormat: 'content_and_artifact',
    },
  );
}

/** `evident_ask` as a LangChain tool: one run of an agent (rag by default) as the bound principal; approvals stay pending. */
export function evidentAskTool(target: EvidentTarget, options: AdapterAskOptions = {}) {
  const connection = connectEvident(target, 'langchain');
  return tool(
    async (input): Promise<[string, AskToolOutput]> => {
      const output = await runAskTool(connection, input, options);
      return [JSON.stringify(output), output];
    },
    {
      name: ASK_TOOL_NAME,
      description: ASK_TOOL_DESCRIPTION,
      schema: askToolInput,
      responseFormat: 'content_and_artifact',
    },
  );
}

/** Both tools over one target, for an agent's tool list. */
export function evidentTools(
  target: EvidentTarget,
  options: { search?: AdapterSearchOptions; ask?: AdapterAskOptions } = {},
) {
  const tools: [ReturnType<typeof evidentSearchTool>, ReturnType<typeof evidentAskTool>] = [
    evidentSearchTool(target, options.search),
    evidentAskTool(target, options.ask),
  ];
  return tools;
}
