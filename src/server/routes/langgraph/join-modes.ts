import { recordedModesOf, streamModeNotRecorded, unrecordedModes } from '../../../runs/detail-stream-modes.ts';
import type { RunLog } from '../../../store/store.ts';
import { STREAM_MODES, type StreamMode } from '../../sse.ts';

/**
 * The modes a join (`GET /threads/{id}/runs/{run}/stream`) streams: those it asks for, or without any every mode the
 * run records (its first `metadata` event names them). Asking for a detail mode (`events`, `debug`, `checkpoints`,
 * `tasks`) the run was created without is refused with 400 `invalid_input`, naming what it recorded. A run that has
 * no event yet (queued, or just starting) is checked when its first arrives (the stream then ends with an `error`
 * event of the same refusal); joined without modes, it streams every mode, which is every mode it will record.
 */
export async function joinModesOf(
  store: Pick<RunLog, 'listRunEvents'>,
  runId: string,
  asked: StreamMode | StreamMode[] | undefined,
): Promise<StreamMode[]> {
  const [first] = await store.listRunEvents(runId, 0, 1);
  const recorded = first?.event === 'metadata' ? recordedModesOf(first.data) : undefined;
  if (asked === undefined) return recorded ? (recorded as StreamMode[]) : [...STREAM_MODES];
  const modes = Array.isArray(asked) ? asked : [asked];
  const missing = recorded ? unrecordedModes(modes, recorded) : [];
  if (recorded && missing.length > 0) throw streamModeNotRecorded(runId, missing, recorded);
  return modes;
}
