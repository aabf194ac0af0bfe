import type { Client } from '@langchain/langgraph-sdk';
import { useEffect, useMemo, useState } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';
import type { GraphJson } from '../api/wire-types.ts';
import { ErrorNotice } from '../common/error-notice.tsx';
import { layoutGraph } from './graph-layout.ts';
import { GraphSvg } from './graph-svg.tsx';

/** The selected agent's graph (`GET /assistants/{id}/graph`), drawn. */
export function GraphPage({ client, assistantId }: { client: Client; assistantId: string | undefined }) {
  const [graph, setGraph] = useState<GraphJson | undefined>();
  const [error, setError] = useState<ApiError | undefined>();

  useEffect(() => {
    if (!assistantId) return;
    let current = true;
    setGraph(undefined);
    setError(undefined);
    client.assistants.getGraph(assistantId).then(
      (drawable) => current && setGraph(drawable as unknown as GraphJson),
      (failure: unknown) => current && setError(toApiError(failure)),
    );
    return () => {
      current = false;
    };
  }, [assistantId, client]);

  const layout = useMemo(() => (graph ? layoutGraph(graph) : undefined), [graph]);

  return (
    <main className="graph-page">
      <h2>
        Graph of <code>{assistantId}</code>
      </h2>
      <p className="muted">
        Solid edges always run; dashed edges are conditional. An edge around the right side loops back.
      </p>
      {error && <ErrorNotice error={error} />}
      {layout && (
        <div className="graph-frame" data-testid="graph">
          <GraphSvg layout={layout} title={`Graph of the ${assistantId ?? ''} agent`} />
        </div>
      )}
    </main>
  );
}
