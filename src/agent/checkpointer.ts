import type { Checkpointer, Store } from '../store/store.ts';

export type { Checkpointer } from '../store/store.ts';

/** The store's checkpoint saver: the store's checkpoint port decides where checkpoints live. */
export const openCheckpointer = (store: Store): Checkpointer => store.openCheckpointer();
