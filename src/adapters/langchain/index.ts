/** `evident/langchain`: Evident as a LangChain.js retriever and tools. */
export { EvidentRetriever, type EvidentRetrieverFields } from './evident-retriever.ts';
export { evidentDocument, type EvidentDocumentMetadata } from './evident-document.ts';
export { evidentAskTool, evidentSearchTool, evidentTools } from './evident-tools.ts';
export type { EvidentTarget } from '../core/connect-evident.ts';
export type {
  AdapterAskOptions,
  AdapterSearchOptions,
  AskResultJson,
  EvidentConnection,
} from '../core/evident-connection.ts';
export type { HttpTarget } from '../core/http-connection.ts';
export type { InProcessTarget } from '../core/in-process-connection.ts';
export type { AskToolOutput, SearchToolOutput } from '../core/tool-specs.ts';
