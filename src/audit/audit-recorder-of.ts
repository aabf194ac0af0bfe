import type { Evident } from '../evident.ts';
import { AuditRecorder } from './audit-recorder.ts';

const recorders = new WeakMap<Evident, AuditRecorder>();

/** The one audit recorder of an Evident (its store and `audit` config), for every front end and the run engine. */
export function auditRecorderOf(evident: Evident): AuditRecorder {
  let recorder = recorders.get(evident);
  if (!recorder) {
    recorder = new AuditRecorder({
      store: evident.store,
      config: evident.config.audit,
      askTopK: evident.retrieval.topK,
    });
    recorders.set(evident, recorder);
  }
  return recorder;
}
