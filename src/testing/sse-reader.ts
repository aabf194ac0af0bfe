/** One server-sent event as a test sees it; `comment` holds a comment line's text (heartbeats). */
export interface SseEvent {
  id?: string;
  event: string;
  data: unknown;
}

export interface SseRead {
  events: SseEvent[];
  /** Comment lines (`: …`) seen, e.g. heartbeats. */
  comments: string[];
}

/**
 * Reads an SSE response body event by event. `until` may stop early (the reader is cancelled, which closes the
 * connection as a client going away would); otherwise it reads to the end of the stream.
 */
export async function readSse(
  response: Response,
  until?: (event: SseEvent, read: SseRead) => boolean,
): Promise<SseRead> {
  if (!response.body) throw new Error(`no body (status ${response.status})`);
  const read: SseRead = { events: [], comments: [] };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return read;
      buffer += value;
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        boundary = buffer.indexOf('\n\n');
        const event = parseBlock(block, read);
        if (event) {
          read.events.push(event);
          if (until?.(event, read)) return read;
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string, read: SseRead): SseEvent | undefined {
  const data: string[] = [];
  let event = 'message';
  let id: string | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) read.comments.push(line.slice(1).trim());
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('id:')) id = line.slice(3).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0 && id === undefined && event === 'message') return undefined;
  const text = data.join('\n');
  return { ...(id === undefined ? {} : { id }), event, data: text ? (JSON.parse(text) as unknown) : null };
}
