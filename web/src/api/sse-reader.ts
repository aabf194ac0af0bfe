export interface SseEvent {
  event: string;
  data: unknown;
}

/**
 * Parses a `text/event-stream` body into events with JSON data. Fields follow the SSE spec: `event:` names the
 * event (default `message`), `data:` lines join with newlines, a blank line ends the event, `:` lines are comments.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  const dispatch = (): SseEvent | undefined => {
    const ready = data.length > 0 ? { event, data: parseData(data.join('\n')) } : undefined;
    event = 'message';
    data = [];
    return ready;
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        const ready = dispatch();
        if (ready) yield ready;
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
    }
  }
  // As the spec says, an event the stream ended in the middle of (no blank line yet) is not dispatched.
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
