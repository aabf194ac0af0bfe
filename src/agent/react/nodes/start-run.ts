import { loadMemory } from '../../rag/nodes/load-memory.ts';
import type { ReactNode } from '../react-deps.ts';

/** rag's load_memory (history window, running summary, the user's memories, per-run resets), plus the loop's own resets. */
export const startRun: ReactNode = async (state, deps) => {
  const { update, summary } = await loadMemory(state, deps);
  return { update: { ...update, scratchpad: [], queue: [], iterations: 0 }, summary };
};
