import type { Answer } from '../../domain/answer.ts';
import type { RunError } from '../../domain/step.ts';
import type { CheckedCall } from './react-tools.ts';

/** What one iteration decided: a thought, the calls it makes (each checked), or a final answer already in contract form. */
export interface Decision {
  thought: string;
  raw: string;
  /** Each call as the model wrote it (`args`, for the transcript) and as checked against the tools (`call`). */
  calls: { id: string; name: string; args: Record<string, unknown>; call: CheckedCall }[];
  /** Why the reply was unusable: becomes the corrective observation of the turn. */
  problem?: string;
  /** An answer the offline strategy composed itself (a model's answer arrives as a `final_answer` call). */
  answer?: Answer;
  errors?: RunError[];
}

/** The text-protocol rendering of an action, so an offline transcript reads like a model's. */
export const actionText = (thought: string, tool: string, input: Record<string, unknown>): string =>
  `Thought: ${thought}\nAction: ${tool}\nAction Input: ${JSON.stringify(input)}`;
