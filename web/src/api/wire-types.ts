/**
 * The JSON the server sends, as the UI reads it. These mirror the server's types (src/agent/state.ts,
 * src/agent/step-event.ts, src/agent/approval.ts, src/domain/answer.ts) on the wire, where they are plain JSON.
 */

export interface Me {
  user: string;
  groups: string[];
  roles: string[];
}

export interface Citation {
  chunk_id: string;
  doc_id: string;
  source: string;
  page?: number;
  quote: string;
}

export interface Answer {
  answer: string;
  answerable: boolean;
  confidence: number;
  citations: Citation[];
  missing_information: string[];
}

export interface Evidence {
  chunk_id: string;
  doc_id: string;
  source: string;
  title: string;
  heading: string;
  page?: number;
  text: string;
  score: number;
}

export interface ToolCallRecord {
  name: string;
  arguments: Record<string, unknown>;
  result_summary: string;
  ok: boolean;
  duration_ms: number;
}

export interface ChannelHits {
  query: string;
  channel: string;
  chunk_ids: string[];
}

/** One graph node's completion, streamed as `custom` `{type: 'step', event}`. */
export interface StepEvent {
  node: string;
  start?: string;
  end?: string;
  duration_ms: number;
  summary: string;
  standalone_question?: string;
  sub_questions?: string[];
  hits?: ChannelHits[];
  evidence?: { chunk_id: string; score: number }[];
  answerability?: { answerable: boolean; reasons: string[]; missing_information: string[] };
  tool_calls?: ToolCallRecord[];
  status?: string;
}

export interface ChatMessage {
  type: 'human' | 'ai' | string;
  content: string | unknown[];
}

/** The `rag` agent's state as the `values` stream and `GET /threads/{id}/state` send it (the fields the UI shows). */
export interface RagValues {
  question?: string;
  messages?: ChatMessage[];
  answer?: Answer | null;
  evidence?: Evidence[];
  mode?: string;
  status?: string;
  steps?: StepEvent[];
}

/** What a side-effect tool waits for approval of (the `interrupt()` value). */
export interface PendingAction {
  tool: string;
  args: Record<string, unknown>;
  approval_id: string;
}

export type ApprovalDecision = { decision: 'approve' } | { decision: 'reject' } | { decision: 'edit'; args: { text: string } };

export interface DocumentSummary {
  doc_id: string;
  title: string;
  acl: string[];
  chunks: number;
  type: string;
  /** When this version was ingested (ISO 8601). */
  updated_at: string;
}

export interface UploadProgress {
  files_done: number;
  files_total: number;
  chunks: number;
  last: { doc_id: string; status: string };
}

export interface UploadedDocument {
  doc_id: string;
  status: 'ingested' | 'unchanged' | 'failed';
  chunks: number;
  error?: { code: string; message: string; hint: string | null };
}

export interface UploadSummary {
  documents: UploadedDocument[];
  ingested: number;
  unchanged: number;
  failed: number;
}

/** LangGraph's drawable graph JSON (`GET /assistants/{id}/graph`). */
export interface GraphJson {
  nodes: { id: string; type?: string; data?: unknown }[];
  edges: { source: string; target: string; conditional?: boolean; data?: unknown }[];
}
