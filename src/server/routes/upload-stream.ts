import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { IngestProgress } from '../../ingest/ingest-progress.ts';
import { errorResponse } from '../error-response.ts';
import type { UploadSummaryJson } from '../schemas/upload-json.ts';
import { toUploadProgressJson } from './upload-summary.ts';

export const wantsEventStream = (c: Context): boolean => (c.req.header('accept') ?? '').includes('text/event-stream');

/**
 * Streams an upload as server-sent events: `progress` as each file completes, then `result` (the summary), then
 * `end`. A failure after the stream started becomes `error` (the same JSON body as an HTTP error) before `end`;
 * it is caught here because Hono's own fallback would send the raw exception message.
 */
export function streamUpload(
  c: Context,
  run: (onProgress: (progress: IngestProgress) => void) => Promise<UploadSummaryJson>,
  onFailure: (error: unknown) => void,
): Response {
  return streamSSE(c, async (stream) => {
    // Progress is reported synchronously by the ingestor; chaining keeps the events in order.
    let written = Promise.resolve();
    const send = (event: string, data: unknown) => {
      written = written.then(() => stream.writeSSE({ event, data: JSON.stringify(data) }));
      return written;
    };
    try {
      const summary = await run((progress) => void send('progress', toUploadProgressJson(progress)));
      await send('result', summary);
    } catch (error) {
      const { status, body } = errorResponse(error);
      if (status >= 500) onFailure(error);
      await send('error', body);
    }
    await send('end', null);
  });
}
