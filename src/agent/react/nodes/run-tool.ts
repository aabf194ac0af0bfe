import type { Principal } from '../../../domain/index.ts';
import { formatEvidence } from '../../core/llm-prompts.ts';
import type { Candidate, Evidence } from '../../../domain/evidence.ts';
import type { RunError } from '../../../domain/step.ts';
import { tableEvidence } from '../../core/tools/table-evidence.ts';
import { ragFusion } from '../rag-fusion.ts';
import type { ReactDeps } from '../react-deps.ts';
import type { Observation, ToolRequest } from '../react-state.ts';

/** Rows of a table result an observation keeps (the model reads the summary; the offline answer reads these). */
const TABLE_ROWS_KEPT = 20;
/** Source rows an offline answer repeats in its text (as rag's and controllable's table answers do). */
const SHOWN_ROWS = 3;

export interface ToolOutcome {
  observation: Observation;
  result_summary: string;
  doc_ids?: string[];
  evidence: Evidence[];
  candidates: Candidate[];
  errors: RunError[];
}

/** Runs a read-only tool as the principal; its failures that the model can act on come back as observations. */
export async function runTool(request: ToolRequest, principal: Principal, deps: ReactDeps): Promise<ToolOutcome> {
  if (request.tool === 'knowledge_base') {
    const query = String(request.input.query);
    const fusion = await ragFusion(query, principal, deps);
    const header = `Searched ${fusion.queries.length} queries (${fusion.queries.join(' | ')}), fused by reciprocal rank fusion`;
    const content = fusion.evidence.length
      ? `${header}: ${fusion.evidence.length} passages.\n\n${formatEvidence(fusion.evidence)}`
      : `${header}: no passages found.`;
    return {
      observation: { call_id: request.id, tool: request.tool, content, ok: true },
      result_summary: `${fusion.queries.length} queries → ${fusion.evidence.length} chunks: ${fusion.evidence.map((e) => e.chunk_id).join(', ')}`,
      evidence: fusion.evidence,
      candidates: fusion.candidates,
      errors: fusion.errors,
    };
  }
  if (request.tool === 'table_query') {
    const output = await deps.tableQuery.invoke(request.input, principal);
    // Rows cite the table chunks they were computed from, which join the run's evidence like retrieved passages.
    const cited =
      output.ok && output.rows.length > 0
        ? await tableEvidence(output.sql, principal, deps.store, String(request.input.sql))
        : undefined;
    const table = output.ok
      ? {
          columns: output.columns,
          rows: output.rows.slice(0, TABLE_ROWS_KEPT),
          ...(cited?.citations.length ? { citations: cited.citations } : {}),
          ...(cited?.rows.length && cited.rows.length <= SHOWN_ROWS && !cited.more ? { source_rows: cited.rows } : {}),
        }
      : undefined;
    const sources = cited?.citations.length
      ? `\nSource lines: ${cited.citations.map((citation) => `[${citation.chunk_id}] ${citation.quote}`).join(' ; ')}`
      : '';
    return {
      observation: {
        call_id: request.id,
        tool: request.tool,
        content: output.ok ? `${output.summary}${sources}` : `table_query failed: ${output.summary}`,
        ok: output.ok,
        ...(table ? { table } : {}),
        ...(output.ok ? { doc_ids: output.doc_ids } : {}),
      },
      result_summary: output.summary,
      ...(output.ok ? { doc_ids: output.doc_ids } : {}),
      evidence: cited?.evidence ?? [],
      candidates: [],
      errors: [],
    };
  }
  throw new Error(`react: ${request.tool} is not a read-only tool`);
}
