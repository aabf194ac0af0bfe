/**
 * The JSON the server sends, as the UI reads it: the server's own types, not copies. Every import here is
 * `import type`, erased from the bundle, so no server code reaches the browser (src/architecture.test.ts refuses a
 * web → src import that is not type-only). The /v1 shapes come from the zod schemas in src/server/schemas, which
 * import nothing but zod and domain types, so this type check needs no Node.
 */
import type { ApprovalDecision, PendingAction } from '../../../src/agent/core/approval.ts';
import type { Evidence, SharedStateType, ToolCallRecord } from '../../../src/agent/core/state.ts';
import type { ChannelHits, StepEvent } from '../../../src/agent/core/step-event.ts';
import type { Answer, Citation } from '../../../src/domain/answer.ts';
import type { DocumentJson } from '../../../src/server/schemas/document-json.ts';
import type { MeJson } from '../../../src/server/schemas/me-json.ts';
import type {
  UploadedDocumentJson,
  UploadProgressJson,
  UploadSummaryJson,
} from '../../../src/server/schemas/upload-json.ts';

export type { Answer, ApprovalDecision, ChannelHits, Citation, Evidence, PendingAction, StepEvent, ToolCallRecord };

export type Me = MeJson;
export type DocumentSummary = DocumentJson;
export type UploadProgress = UploadProgressJson;
export type UploadedDocument = UploadedDocumentJson;
export type UploadSummary = UploadSummaryJson;

/**
 * A message of a thread's `messages`. The server's type (`ChatMessage`, src/agent/runs/define-agent.ts) sits in a
 * file that imports the store port, which needs Node to type-check; this is its wire form, widened to the content
 * arrays LangGraph clients may also send, until that type moves below the store.
 */
export interface ChatMessage {
  type: 'human' | 'ai' | string;
  content: string | unknown[];
  /** An earlier answer's citations and the chunks they cite, as the thread's history keeps them. */
  citations?: Citation[];
  evidence?: Evidence[];
}

/**
 * An agent's state as the `values` stream and `GET /threads/{id}/state` send it: the fields every agent shares
 * (the UI shows these, whichever agent ran), plus the conversation the run runtime adds as `messages`.
 */
export type AgentValues = Partial<
  Pick<SharedStateType, 'question' | 'answer' | 'evidence' | 'mode' | 'status' | 'steps'>
> & {
  messages?: ChatMessage[];
};

/** LangGraph's drawable graph JSON (`GET /assistants/{id}/graph`): LangGraph's format, typed `Record<string, any>` upstream. */
export interface GraphJson {
  nodes: { id: string; type?: string; data?: unknown }[];
  edges: { source: string; target: string; conditional?: boolean; data?: unknown }[];
}
