import type { Principal } from '../domain/index.ts';
import type { DocumentStore, PrincipalStore } from '../store/store.ts';
import { currentPrincipal } from './current-principal.ts';
import { RunStreamRedaction } from './run-stream-redaction.ts';

export type DetailWriteStore = Pick<DocumentStore, 'getChunks'> & Pick<PrincipalStore, 'getUser'>;

/**
 * What a run writes of its detail modes, as the run's principal may read it now: the state a run starts from carries
 * what earlier runs of the thread retrieved (their evidence, their answers), and a document the principal lost since
 * (or that was deleted) must not be copied into the new run's log through a task's input or a checkpoint's values. The
 * same rules as for a reader (`RunStreamRedaction`), applied before the chunk is stored: the base modes' events are
 * read for the chunks they name, the detail chunks are written redacted.
 */
export class DetailWriteRedaction {
  private constructor(private readonly reading: RunStreamRedaction) {}

  static async open(store: DetailWriteStore, principal: Principal, modes: readonly string[]) {
    const reading = new RunStreamRedaction(store, await currentPrincipal(store, principal));
    await reading.next('metadata', { stream_modes: modes }, null, false);
    return new DetailWriteRedaction(reading);
  }

  /** A base-mode event the run writes as it is: the chunks it names count for the detail chunks after it. */
  seen(mode: string, data: unknown): void {
    void this.reading.next(mode, data, data, false);
  }

  /** A detail chunk as the run's principal may read it. */
  detail(mode: string, data: unknown): Promise<unknown> {
    return this.reading.next(mode, data, data, true);
  }
}

/** Who the run runs as: the principal its input or its thread's state names, else its owner as a plain member. */
export function runPrincipalOf(input: unknown, state: unknown, owner: string): Principal {
  const named = (value: unknown): Principal | undefined => {
    const principal = (value as { principal?: Principal } | null | undefined)?.principal;
    return principal && typeof principal.id === 'string' && Array.isArray(principal.groups) ? principal : undefined;
  };
  return named(input) ?? named(state) ?? { id: owner, groups: [], roles: ['member'] };
}
