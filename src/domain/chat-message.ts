import type { Citation } from './answer.ts';
import type { Evidence } from './evidence.ts';

/** A conversation turn as LangGraph chat clients read it (`messages` in a thread's values). */
export interface ChatMessage {
  id: string;
  type: 'human' | 'ai';
  content: string;
  /** An answer's citations and the chunks they cite (`evidence`), as the answer had them when it was given. */
  citations?: Citation[];
  evidence?: Evidence[];
}
