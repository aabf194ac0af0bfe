import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What a page answered with last time, so the next fetch can be conditional (RFC 9110 §13). */
export interface PageValidators {
  etag?: string;
  lastModified?: string;
  /** The content those validators stand for: a 304 is trusted only while the store holds this very version. */
  contentHash: string;
}

/** Bytes of the file read back at most; a larger one is ignored (every page is then fetched in full once). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Validators per URL, kept in a JSON file between runs (`.evident/web-validators.json` beside the store) or in
 * memory only without a path. Losing the file costs full fetches, never a wrong document: the content hash decides.
 */
export class PageValidatorCache {
  private readonly entries = new Map<string, PageValidators>();
  private loaded = false;

  constructor(private readonly path?: string) {}

  async get(url: string): Promise<PageValidators | undefined> {
    await this.load();
    return this.entries.get(url);
  }

  async set(url: string, validators: PageValidators | undefined): Promise<void> {
    await this.load();
    if (validators) this.entries.set(url, validators);
    else this.entries.delete(url);
  }

  async save(): Promise<void> {
    if (!this.path || !this.loaded) return;
    const json: Record<string, { etag?: string; last_modified?: string; content_hash: string }> = {};
    for (const [url, v] of this.entries) {
      json[url] = {
        ...(v.etag ? { etag: v.etag } : {}),
        ...(v.lastModified ? { last_modified: v.lastModified } : {}),
        content_hash: v.contentHash,
      };
    }
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(json));
    await rename(temporary, this.path);
  }

  private async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    if (!this.path) return;
    const text = await readFile(this.path, 'utf8').catch(() => undefined);
    if (text === undefined || text.length > MAX_FILE_BYTES) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // a damaged cache is no cache
    }
    if (!parsed || typeof parsed !== 'object') return;
    for (const [url, value] of Object.entries(parsed as Record<string, Record<string, unknown>>)) {
      if (!value || typeof value.content_hash !== 'string') continue;
      this.entries.set(url, {
        contentHash: value.content_hash,
        ...(typeof value.etag === 'string' ? { etag: value.etag } : {}),
        ...(typeof value.last_modified === 'string' ? { lastModified: value.last_modified } : {}),
      });
    }
  }
}
