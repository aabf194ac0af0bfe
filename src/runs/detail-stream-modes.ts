import { ValidationError } from '../errors/index.ts';

/**
 * The stream modes that expose a run's inner workings (LangGraph's `events`, `debug`, `checkpoints`, `tasks`, `tools`):
 * full states, every task's input and output, every callback of every chain, every LangChain tool's input and output.
 * They cost time and storage, so a run records them only when the client that created it asked for them; the other
 * modes are recorded for every run.
 */
export const DETAIL_STREAM_MODES = ['events', 'debug', 'checkpoints', 'tasks', 'tools'] as const;
export type DetailStreamMode = (typeof DETAIL_STREAM_MODES)[number];

/** What every run records (`messages` only for an agent that can stream them). */
export const BASE_RECORDED_MODES = ['values', 'updates', 'custom', 'messages'] as const;

export const isDetailStreamMode = (mode: string): mode is DetailStreamMode =>
  (DETAIL_STREAM_MODES as readonly string[]).includes(mode);

/** The detail modes among what a client asked for, in a stable order. */
export const detailModesOf = (modes: readonly string[] | undefined): DetailStreamMode[] =>
  DETAIL_STREAM_MODES.filter((mode) => modes?.includes(mode));

/**
 * The modes a run recorded, as its first `metadata` event names them (`stream_modes`); a run recorded before runs
 * named them recorded the base modes. `messages-tuple` is the SDK's name for the recorded `messages`.
 */
export function recordedModesOf(metadata: unknown): string[] {
  const named = (metadata as { stream_modes?: unknown } | null | undefined)?.stream_modes;
  return Array.isArray(named) && named.every((mode) => typeof mode === 'string')
    ? (named as string[])
    : [...BASE_RECORDED_MODES];
}

/** The detail modes `asked` names that the run did not record (it was created without them). */
export const unrecordedModes = (asked: readonly string[], recorded: readonly string[]): DetailStreamMode[] =>
  detailModesOf(asked).filter((mode) => !recorded.includes(mode));

/** Refuses a join that asks for detail modes the run did not record: there is nothing to replay for them. */
export function streamModeNotRecorded(runId: string, missing: readonly string[], recorded: readonly string[]) {
  return new ValidationError(
    `Run ${runId} did not record the ${missing.join(', ')} stream mode${missing.length > 1 ? 's' : ''} (it recorded ${recorded.join(', ')}).`,
    {
      hint: `A run records ${DETAIL_STREAM_MODES.join(', ')} only when the request that creates it asks for them in stream_mode; join with the modes it recorded, or start a new run that asks for ${missing.join(', ')}.`,
    },
  );
}
