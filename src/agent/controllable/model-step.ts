import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { z } from 'zod';
import { isEvidentError } from '../../errors/index.ts';
import { generateStructured } from '../../models/chat/structured-output.ts';
import type { RunError } from '../core/state.ts';
import type { ControllableDeps } from './controllable-deps.ts';

export interface ModelStep<S extends z.ZodType> {
  node: string;
  schema: S;
  system: string;
  prompt: string;
}

export interface StepOutcome<T> {
  value: T;
  /** `model`, `offline` (no model configured), or `offline after a model error` (recorded in `errors`). */
  strategy: 'model' | 'offline' | 'offline after a model error';
  errors: RunError[];
}

/**
 * One LLM step with its deterministic offline strategy: the model's schema-validated answer when a model is
 * configured; the offline strategy without one, or after the model failed (a typed error, recorded), so a run
 * never stops on a bad model answer.
 */
export async function modelOrOffline<S extends z.ZodType, T>(
  deps: ControllableDeps,
  errors: readonly RunError[],
  step: ModelStep<S>,
  fromModel: (output: z.output<S>) => T,
  offline: () => T,
): Promise<StepOutcome<T>> {
  if (!deps.chat) return { value: offline(), strategy: 'offline', errors: [...errors] };
  try {
    const output = await generateStructured({
      model: deps.chat.model,
      schema: step.schema,
      name: step.node,
      maxRetries: deps.maxSchemaRetries,
      messages: [new SystemMessage(step.system), new HumanMessage(step.prompt)],
    });
    return { value: fromModel(output), strategy: 'model', errors: [...errors] };
  } catch (error) {
    if (!isEvidentError(error)) throw error;
    return { value: offline(), strategy: 'offline after a model error', errors: [...errors, { node: step.node, code: error.code, message: error.message }] };
  }
}
