import { standaloneQuestion } from '../../rag/nodes/rewrite.ts';
import type { ControllableNode } from '../controllable-deps.ts';

/**
 * rag's rewrite: a follow-up ("Which customer placed it?") is made standalone from the thread's history before it is
 * anonymized and planned, so the plan's tasks, the table route and retrieval read what the question refers to.
 * controllable keeps no running summary, only its history.
 */
export const rewriteFollowUp: ControllableNode = (state, deps) =>
  standaloneQuestion({ ...state, history_summary: '' }, deps);
