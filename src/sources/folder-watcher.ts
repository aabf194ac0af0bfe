import { watch, type FSWatcher } from 'node:fs';
import { SourceError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { FolderSource } from './folder-source.ts';
import { syncSource, type SyncDeps, type SyncReport } from './sync-source.ts';

export interface WatchOptions {
  /** Quiet time after the last file event before a folder is synced. */
  debounceMs: number;
  /** A full sync of every folder this often, whatever the events said (events can be lost). */
  intervalMs: number;
  /** Where recursive `fs.watch` is unavailable: how often each folder is synced instead. */
  pollMs: number;
  /** False: poll only (file systems without inotify, such as some network mounts: `watch --poll`). */
  events?: boolean;
  logger: Logger;
  onReport(report: SyncReport): void;
}

/** How a folder is followed: recursive `fs.watch` (inotify on Linux, Node ≥ 20), or polling where that fails. */
export type WatchMode = 'events' | 'polling';

/**
 * Keeps folders in sync: a full sync at start (which also catches whatever changed while nothing watched), then a
 * sync of a folder shortly after its file events settle, and a full sync every `intervalMs` as a safety net. Syncs
 * run one at a time; events during one queue the next. A listing that fails (the folder is away) changes nothing.
 */
export class FolderWatcher {
  private readonly watchers: FSWatcher[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly dirty = new Set<FolderSource>();
  private debounce: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly sources: readonly FolderSource[],
    private readonly deps: SyncDeps,
    private readonly options: WatchOptions,
  ) {}

  /** Syncs every folder once, then follows them; says how each is followed. */
  async start(): Promise<WatchMode[]> {
    const modes = this.sources.map((source) => this.follow(source));
    this.timers.push(setInterval(() => this.request(this.sources), this.options.intervalMs).unref());
    await this.request(this.sources);
    return modes;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const watcher of this.watchers) watcher.close();
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.debounce);
    await this.running;
  }

  private follow(source: FolderSource): WatchMode {
    const poll = () => {
      this.timers.push(setInterval(() => this.request([source]), this.options.pollMs).unref());
      return 'polling' as const;
    };
    if (this.options.events === false) return poll();
    try {
      const watcher = watch(source.root, { recursive: true }, () => this.changed(source));
      watcher.on('error', (error) => {
        this.options.logger.warn('watch: file events stopped, polling instead', {
          folder: source.root,
          error: String(error),
        });
        watcher.close();
        poll();
      });
      this.watchers.push(watcher);
      return 'events';
    } catch (error) {
      this.options.logger.warn('watch: no recursive file events here, polling instead', {
        folder: source.root,
        error: String(error),
      });
      return poll();
    }
  }

  private changed(source: FolderSource): void {
    this.dirty.add(source);
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      const due = [...this.dirty];
      this.dirty.clear();
      void this.request(due);
    }, this.options.debounceMs);
  }

  /** Syncs `sources` after the sync in progress, if any. */
  private request(sources: readonly FolderSource[]): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const next = previous.then(() => this.syncAll(sources));
    this.running = next;
    void next.finally(() => {
      if (this.running === next) this.running = undefined;
    });
    return next;
  }

  private async syncAll(sources: readonly FolderSource[]): Promise<void> {
    for (const source of sources) {
      if (this.stopped) return;
      try {
        this.options.onReport(await syncSource(source, this.deps));
      } catch (error) {
        if (!SourceError.isInstance(error))
          this.options.logger.error('watch: sync failed', { folder: source.root, error: String(error) });
        else this.options.logger.warn(error.toLine(), { folder: source.root });
      }
    }
  }
}
