import type { Citation } from './answer.ts';
import type { Evidence } from './evidence.ts';

/** One earlier turn of the conversation. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
  /** An answer's turn: the chunks it rests on (evidence and citations), so a later reader who may not read them gets it withheld. */
  sources?: string[];
  /** An answer's turn: its citations and the chunks they cite, so an earlier answer opens its sources as a fresh one does. */
  citations?: Citation[];
  cited?: Evidence[];
}
