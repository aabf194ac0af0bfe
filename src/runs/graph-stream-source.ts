import type { AgentGraph } from './agent-definition.ts';

/** One chunk of a run's graph execution: the stream mode it belongs to and its payload as LangGraph gives it. */
export type GraphChunk = readonly [mode: string, chunk: unknown];

/**
 * The chunks of one graph execution in the given stream modes. With `events`, the graph runs through `streamEvents`
 * (v2), as LangGraph's API server runs it: the root run's `on_chain_stream` events carry the mode chunks, and every
 * other callback event (a node, a chain, a model, a tool starting, streaming, ending) is an `events` chunk. Events
 * LangGraph marks hidden (its own channel writes and start node) are left out, as the API server leaves them out.
 */
export async function* graphChunks(
  graph: AgentGraph,
  input: unknown,
  options: Record<string, unknown> & { streamMode: string[] },
  events: { runId: string } | undefined,
): AsyncGenerator<GraphChunk> {
  if (!events || !graph.streamEvents) {
    for await (const part of await graph.stream(input, options)) yield part as GraphChunk;
    return;
  }
  for await (const event of graph.streamEvents(input, { ...options, version: 'v2', runId: events.runId })) {
    const record = event as { event?: string; run_id?: string; tags?: string[]; data?: { chunk?: unknown } };
    if (record.tags?.includes('langsmith:hidden')) continue;
    if (record.event === 'on_chain_stream' && record.run_id === events.runId) {
      const chunk = record.data?.chunk;
      if (Array.isArray(chunk) && chunk.length >= 2 && typeof chunk[0] === 'string') yield [chunk[0], chunk[1]];
      continue;
    }
    yield ['events', event];
  }
}
