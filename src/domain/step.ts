/** One node's completion in a run's trace. */
export interface Step {
  node: string;
  start: string;
  end: string;
  duration_ms: number;
  summary: string;
}

export interface ToolCallRecord {
  name: string;
  arguments: Record<string, unknown>;
  result_summary: string;
  ok: boolean;
  duration_ms: number;
  /** The documents the result was computed from (a table query's tables): it is withheld from a reader who lost one. */
  doc_ids?: string[];
}

/** An error a step recorded and the run went on from (a model step that fell back to its offline strategy). */
export interface RunError {
  node: string;
  code: string;
  message: string;
}
