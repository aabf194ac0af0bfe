import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A part of an OpenAI message's content: text, or an image (`image_url.url`, e.g. a `data:image/png;base64,…` URL). */
export type WirePart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export interface WireMessage {
  role: string;
  /** Text, or (OpenAI, a message with an image) a list of parts. */
  content: string | WirePart[];
  /** Ollama: a message's images, base64. */
  images?: string[];
}
/** A message's text: its content, or the text of its parts. */
export const wireText = (message: WireMessage): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

export interface Received {
  path: string;
  auth: string | undefined;
  body: { model: string; messages: WireMessage[]; stream?: boolean; response_format?: unknown; format?: unknown };
}

const pause = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * One local server speaking both wire protocols: OpenAI `/v1/chat/completions` (JSON, or SSE `data:` chunks ending
 * with `[DONE]`) and Ollama `/api/chat` (JSON, or NDJSON lines). Answers come from a script, one per request, then
 * from `respond` when the script is empty. `delayMs` before an answer and `pieceDelayMs` between streamed pieces
 * make a slow model (a client that goes away mid-answer is fine: the server just stops writing).
 */
export class FakeLlmServer {
  readonly received: Received[] = [];
  replies: string[] = [];
  respond: ((body: Received['body']) => string | undefined) | undefined;
  delayMs = 0;
  pieceDelayMs = 0;
  /** While set, every answer waits for it to settle: a test holds the runs that call the model until it lets go. */
  gate: Promise<void> | undefined;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Received['body'];
    this.received.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    const reply = this.replies.shift() ?? this.respond?.(body);
    await pause(this.delayMs);
    await this.gate;
    if (reply === undefined) {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: { message: 'script exhausted' } }));
      return;
    }
    const pieces = reply.match(/\S+\s*|\s+/g) ?? [reply];
    if (req.url === '/v1/chat/completions') {
      const base = { id: 'chatcmpl-1', created: 1_700_000_000, model: body.model };
      if (body.stream) {
        res.setHeader('content-type', 'text/event-stream');
        const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
        send({
          ...base,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
        });
        for (const piece of pieces) {
          await pause(this.pieceDelayMs);
          send({
            ...base,
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
          });
        }
        send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
        res.end('data: [DONE]\n\n');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: pieces.length, total_tokens: 5 + pieces.length },
        }),
      );
      return;
    }
    if (req.url === '/api/chat') {
      const base = { model: body.model, created_at: '2026-01-01T00:00:00Z' };
      const final = {
        ...base,
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        eval_count: pieces.length,
        prompt_eval_count: 5,
      };
      if (body.stream === false) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ...final, message: { role: 'assistant', content: reply } }));
        return;
      }
      res.setHeader('content-type', 'application/x-ndjson');
      for (const piece of pieces)
        res.write(`${JSON.stringify({ ...base, message: { role: 'assistant', content: piece }, done: false })}\n`);
      res.end(`${JSON.stringify(final)}\n`);
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
