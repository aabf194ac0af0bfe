import { describe, expect, it } from 'vitest';
import { readSse, type SseEvent } from './sse-reader.ts';

/** A body delivered in the given pieces, as a network would split it. */
function body(...pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(stream)) events.push(event);
  return events;
}

describe('readSse', () => {
  it('parses named events with JSON data, across chunk boundaries', async () => {
    const events = await all(
      body(
        'event: progress\ndata: {"files_do',
        'ne":1}\n\nevent: result\r\ndata: {"ingested":1}\r\n\r\n',
        'event: end\ndata: null\n\n',
      ),
    );
    expect(events).toEqual([
      { event: 'progress', data: { files_done: 1 } },
      { event: 'result', data: { ingested: 1 } },
      { event: 'end', data: null },
    ]);
  });

  it('skips comments (heartbeats), joins multi-line data and defaults the name to message', async () => {
    expect(await all(body(': heartbeat\n\ndata: first\ndata: second\n\n'))).toEqual([
      { event: 'message', data: 'first\nsecond' },
    ]);
  });

  it('decodes a character split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: "年假"\n\n');
    expect(await all(body(bytes.slice(0, 8), bytes.slice(8)))).toEqual([{ event: 'message', data: '年假' }]);
  });

  it('drops an event the stream ended in the middle of', async () => {
    expect(await all(body('event: result\ndata: {"ingested":1}\n\nevent: end\ndata: null'))).toEqual([
      { event: 'result', data: { ingested: 1 } },
    ]);
  });
});
