import { z } from 'zod';
import { ValidationError } from '../../../errors/index.ts';
import { chatMessageSchema, type ChatMessageInput } from '../langgraph/run-body.ts';

/**
 * The body of `POST /v1/chat/completions`. Sampling settings (temperature, max_tokens, …) are accepted and not
 * applied: the agent's model and its settings are the server's configuration.
 */
export const completionRequestSchema = z.looseObject({
  model: z
    .string()
    .min(1, 'name the agent (GET /v1/models lists them)')
    .max(128, 'a model name has at most 128 characters'),
  messages: z.array(chatMessageSchema).min(1, 'send at least one message'),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().nullish(),
});
export type CompletionRequest = z.infer<typeof completionRequestSchema> & { messages: ChatMessageInput[] };

/** Requests the agents cannot honour are refused by name rather than answered as if they had been. */
export function assertSupported(request: Record<string, unknown>): void {
  if (request.n != null && request.n !== 1)
    throw new ValidationError('Only n = 1 is supported: an agent run gives one answer.', {
      hint: 'Send n: 1 or leave it out.',
    });
  for (const field of ['tools', 'functions'] as const) {
    const value = request[field];
    if (Array.isArray(value) && value.length > 0) {
      throw new ValidationError(`${field} are not supported: the agent uses its own tools, with approvals.`, {
        hint: `Remove ${field} from the request.`,
      });
    }
  }
}
