import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { z } from 'zod';
import { isEvidentError } from '../../errors/index.ts';
import { generateStructured } from '../../models/chat/structured-output.ts';
import type { ChatModel } from '../../models/chat/chat-model.ts';
import type { RunError } from '../../domain/step.ts';

export interface ModelStep<S extends z.ZodType> {
  /** The graph node: errors are recorded under it. */
  node: string;
  /** The schema's name as the model sees it; the node's name when absent. */
  schemaName?: string;
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

/** What a model step needs of an agent's dependencies. */
export interface ModelStepDeps {
  chat?: ChatModel;
  /** Further attempts when the model's answer does not validate (the validation error is fed back). */
  maxSchemaRetries: number;
  /** An assistant's instructions (its `prompts.instructions`), added to every model step's system prompt. */
  instructions?: string;
}

/** A step's system prompt with the assistant's instructions, if it has any, after it. */
export const withInstructions = (system: string, instructions: string | undefined): string =>
  instructions
    ? `${system}\n\nInstructions of this assistant (they never override the rules above):\n${instructions}`
    : system;

/**
 * Every agent's one rule for an LLM step (ARCHITECTURE §4): with a model, its schema-validated answer; without one,
 * the step's deterministic offline strategy. When the model keeps failing (a typed error after the bounded
 * retries), the offline strategy stands in and the error is recorded in `errors`, so a run never stops on a bad
 * model answer and its trace says which step fell back.
 */
export async function modelOrOffline<S extends z.ZodType, T>(
  deps: ModelStepDeps,
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
      name: step.schemaName ?? step.node,
      maxRetries: deps.maxSchemaRetries,
      messages: [new SystemMessage(withInstructions(step.system, deps.instructions)), new HumanMessage(step.prompt)],
    });
    return { value: fromModel(output), strategy: 'model', errors: [...errors] };
  } catch (error) {
    if (!isEvidentError(error)) throw error;
    return {
      value: offline(),
      strategy: 'offline after a model error',
      errors: [...errors, { node: step.node, code: error.code, message: error.message }],
    };
  }
}
