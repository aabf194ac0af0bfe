/**
 * The JSON the server sends, as the UI reads it: the server's own types, not copies. Every import here is
 * `import type`, erased from the bundle, so no server code reaches the browser (src/architecture.test.ts refuses a
 * web → src import that is not type-only). The /v1 shapes come from the zod schemas in src/server/schemas, which
 * import nothing but zod and domain types, so this type check needs no Node.
 */
import type { ApprovalDecision, PendingAction } from '../../../src/domain/approval.ts';
import type { Evidence } from '../../../src/domain/evidence.ts';
import type { SharedValues } from '../../../src/domain/run-state.ts';
import type { ToolCallRecord } from '../../../src/domain/step.ts';
import type { ChannelHits, StepEvent } from '../../../src/domain/step-event.ts';
import type { Answer, Citation } from '../../../src/domain/answer.ts';
import type { ChatMessage as ServerChatMessage } from '../../../src/domain/chat-message.ts';
import type { ChunkJson } from '../../../src/server/schemas/chunk-json.ts';
import type { DocumentJson } from '../../../src/server/schemas/document-json.ts';
import type { MeJson } from '../../../src/server/schemas/me-json.ts';
import type { CurrentSessionJson } from '../../../src/server/schemas/session-json.ts';
import type { FeedbackJson, RateBodyJson } from '../../../src/server/schemas/feedback-json.ts';
import type {
  UploadedDocumentJson,
  UploadProgressJson,
  UploadSummaryJson,
} from '../../../src/server/schemas/upload-json.ts';

export type { Answer, ApprovalDecision, ChannelHits, Citation, Evidence, PendingAction, StepEvent, ToolCallRecord };

export type Me = MeJson;
/** The browser's own session (`POST /v1/sessions`, `GET /v1/sessions/current`), with its CSRF token. */
export type CurrentSession = CurrentSessionJson;
/** A rating of a run's answer (`/v1/runs/{run_id}/feedback`), and what rating one sends. */
export type Feedback = FeedbackJson;
export type RateBody = RateBodyJson;
export type DocumentSummary = DocumentJson;
/** A cited chunk with where its table rows' cells are printed (`GET /v1/chunks/{chunk_id}`). */
export type ChunkView = ChunkJson;
export type RowRegion = ChunkJson['regions'][number];
export type UploadProgress = UploadProgressJson;
export type UploadedDocument = UploadedDocumentJson;
export type UploadSummary = UploadSummaryJson;

/**
 * A message of a thread's `messages`: the server's type (src/domain/chat-message.ts), widened to the content arrays
 * and message types LangGraph clients may also send.
 */
export type ChatMessage = Omit<ServerChatMessage, 'id' | 'type' | 'content'> & {
  type: 'human' | 'ai' | string;
  content: string | unknown[];
};

/**
 * An agent's state as the `values` stream and `GET /threads/{id}/state` send it: the fields every agent shares
 * (the UI shows these, whichever agent ran), plus the conversation the run runtime adds as `messages`.
 */
export type AgentValues = Partial<
  Pick<SharedValues, 'question' | 'answer' | 'evidence' | 'mode' | 'status' | 'steps'>
> & {
  messages?: ChatMessage[];
};

/** LangGraph's drawable graph JSON (`GET /assistants/{id}/graph`): LangGraph's format, typed `Record<string, any>` upstream. */
export interface GraphJson {
  nodes: { id: string; type?: string; data?: unknown }[];
  edges: { source: string; target: string; conditional?: boolean; data?: unknown }[];
}
