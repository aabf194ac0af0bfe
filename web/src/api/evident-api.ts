import { ApiError, apiErrorOfResponse, apiErrorOfStreamEvent } from './api-error.ts';
import { readSse } from './sse-reader.ts';
import type {
  ChunkView,
  DocumentSummary,
  Feedback,
  Me,
  RateBody,
  UploadProgress,
  UploadSummary,
} from './wire-types.ts';

export interface UploadRequest {
  files: File[];
  /** Where the files go in the doc id space (`contracts/2025`). */
  folder?: string;
  /** e.g. `group:legal,user:alice`; empty means everyone may see them. */
  acl?: string;
}

export interface UploadListener {
  onProgress(progress: UploadProgress): void;
}

/** Doc ids are paths: each segment is encoded, the slashes stay. */
const encodeDocId = (docId: string): string => docId.split('/').map(encodeURIComponent).join('/');

/**
 * Evident's own routes under `/v1`, as the signed-in browser: the session cookie goes with every request (same
 * origin), and the session's CSRF token in `x-csrf-token`, which the server requires on state-changing requests.
 * Failures throw ApiError with the server's hint.
 */
export class EvidentApi {
  constructor(
    private readonly baseUrl: string,
    private readonly csrfToken: string,
  ) {}

  me(): Promise<Me> {
    return this.json<Me>('GET', '/v1/me');
  }

  /** Every document the user may read, page after page (the server lists at most 1,000 at a time). */
  async documents(): Promise<DocumentSummary[]> {
    const all: DocumentSummary[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=1000${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page: { documents: DocumentSummary[]; next_cursor: string | null } = await this.json(
        'GET',
        `/v1/documents${query}`,
      );
      all.push(...page.documents);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return all;
  }

  async deleteDocument(docId: string): Promise<void> {
    await this.json('DELETE', `/v1/documents/${encodeDocId(docId)}`);
  }

  /** A document's original file (`GET /v1/documents/{doc_id}/file`), for a reader of it; ApiError 404 otherwise. */
  async documentFile(docId: string, signal?: AbortSignal): Promise<ArrayBuffer> {
    const response = await fetch(`${this.baseUrl}/v1/documents/${encodeDocId(docId)}/file`, {
      headers: this.authHeaders(),
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw await apiErrorOfResponse(response);
    return response.arrayBuffer();
  }

  /** A chunk a citation points at, with its table rows' cell boxes (`GET /v1/chunks/{chunk_id}`); ApiError 404 for others. */
  chunk(chunkId: string, signal?: AbortSignal): Promise<ChunkView> {
    return this.json<ChunkView>('GET', `/v1/chunks/${encodeURIComponent(chunkId)}`, signal);
  }

  /** The key's own rating of a run's answer, or null (`GET /v1/runs/{run_id}/feedback`). */
  async myFeedback(runId: string, signal?: AbortSignal): Promise<Feedback | null> {
    const body = await this.json<{ feedback: Feedback | null }>(
      'GET',
      `/v1/runs/${encodeURIComponent(runId)}/feedback`,
      signal,
    );
    return body.feedback;
  }

  /** Rates a run's answer, replacing the key's previous rating of it (`POST /v1/runs/{run_id}/feedback`). */
  async rate(runId: string, rating: RateBody): Promise<Feedback> {
    const response = await fetch(`${this.baseUrl}/v1/runs/${encodeURIComponent(runId)}/feedback`, {
      method: 'POST',
      headers: { ...this.authHeaders(), accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(rating),
    });
    if (!response.ok) throw await apiErrorOfResponse(response);
    return ((await response.json()) as { feedback: Feedback }).feedback;
  }

  /** Uploads files and follows the ingestion's SSE progress; resolves with the summary of the `result` event. */
  async upload(request: UploadRequest, listener: UploadListener): Promise<UploadSummary> {
    const form = new FormData();
    for (const file of request.files) form.append('files', file, file.name);
    if (request.folder?.trim()) form.append('folder', request.folder.trim());
    if (request.acl?.trim()) form.append('acl', request.acl.trim());
    const response = await fetch(this.baseUrl + '/v1/documents', {
      method: 'POST',
      headers: { ...this.authHeaders(), accept: 'text/event-stream' },
      body: form,
    });
    if (!response.ok || !response.body) throw await apiErrorOfResponse(response);
    let summary: UploadSummary | undefined;
    for await (const { event, data } of readSse(response.body)) {
      if (event === 'progress') listener.onProgress(data as UploadProgress);
      else if (event === 'result') summary = data as UploadSummary;
      else if (event === 'error') throw apiErrorOfStreamEvent(data);
    }
    if (!summary)
      throw new ApiError('The upload ended without a result.', {
        code: 'upload_incomplete',
        hint: 'See the server log, then try again.',
      });
    return summary;
  }

  /** A JSON request to another `/v1` route (the admin pages' calls), with the same credentials and error handling. */
  async send<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...this.authHeaders(),
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw await apiErrorOfResponse(response);
    return (await response.json()) as T;
  }

  private authHeaders(): Record<string, string> {
    return { 'x-csrf-token': this.csrfToken };
  }

  private async json<T>(method: string, path: string, signal?: AbortSignal): Promise<T> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: { ...this.authHeaders(), accept: 'application/json' },
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw await apiErrorOfResponse(response);
    return (await response.json()) as T;
  }
}
