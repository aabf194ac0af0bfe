import { z } from 'zod';
import { completionRequestSchema } from '../../routes/openai/completion-request.ts';
import { jsonSchemaOf } from '../json-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

/** OpenAI's error shape, which these routes answer in (Evident's hint is appended to the message). */
const openAiErrorJson = z
  .object({ error: z.object({ message: z.string(), type: z.string(), code: z.string(), param: z.null() }).strict() })
  .strict();
const OPENAI_ERROR_REF = { $ref: '#/components/schemas/OpenAiError' };
const openAiError = (description: string) => ({ description, json: OPENAI_ERROR_REF });

export const modelJson = z
  .object({
    id: z.string().describe("An agent's name."),
    object: z.literal('model'),
    created: z.number().int(),
    owned_by: z.string(),
  })
  .strict();

const usage = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
  .describe('Always zeros: an agent run makes several model calls (or none, offline) and does not count tokens.');

export const chatCompletionJson = z.looseObject({
  id: z.string().describe('`chatcmpl-<run_id>`'),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number().int(),
      message: z.looseObject({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      finish_reason: z.literal('stop'),
    }),
  ),
  usage,
  evident: z
    .record(z.string(), z.unknown())
    .describe("Evident's extension: the answer contract, citations, thread and run ids."),
});

export const modelListJson = z.object({ object: z.literal('list'), data: z.array(modelJson) }).strict();

const keyErrors = {
  401: openAiError('Missing or invalid API key (`invalid_api_key`).'),
};

export const openAiPaths = pathGroup(
  {
    name: 'OpenAI-compatible',
    description:
      "Chat completions where `model` names an agent: each completion is a recorded run as the key's principal. Errors come in OpenAI's shape.",
  },
  {
    '/v1/models': {
      get: operation({
        id: 'listModels',
        summary: 'The agents, as models',
        access: 'key',
        responses: { 200: { description: 'The models.', json: modelListJson }, ...keyErrors },
      }),
    },
    '/v1/models/{model}': {
      get: operation({
        id: 'getModel',
        summary: 'One agent, as a model',
        access: 'key',
        params: [pathParam('model', "An agent's name.")],
        responses: {
          200: { description: 'The model.', json: modelJson },
          ...keyErrors,
          404: openAiError('No such agent (`model_not_found`).'),
        },
      }),
    },
    '/v1/chat/completions': {
      post: operation({
        id: 'createChatCompletion',
        summary: 'Ask an agent, OpenAI style',
        description:
          'The last message is the question, earlier ones the history. `stream: true` answers with `chat.completion.chunk` events ending with `data: [DONE]`. Send `x-evident-thread-id` to continue your own thread; the response names the thread and run in `x-evident-thread-id` and `x-evident-run-id`.',
        access: 'key',
        params: [
          {
            name: 'x-evident-thread-id',
            in: 'header',
            required: false,
            description: 'Continue this thread of yours.',
            schema: { type: 'string' },
          },
        ],
        json: completionRequestSchema,
        responses: {
          200: {
            description: 'The reply (or, with `stream: true`, its chunks as server-sent events).',
            content: {
              'application/json': { schema: jsonSchemaOf(chatCompletionJson, 'output') },
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description: '`data: <chat.completion.chunk JSON>` events, then `data: [DONE]`.',
                },
              },
            },
          },
          400: openAiError('Invalid or unsupported request (e.g. `n` > 1, `tools`).'),
          ...keyErrors,
          404: openAiError('No such agent (`model_not_found`), or a thread that is not yours.'),
          500: openAiError('The run failed or was cancelled.'),
        },
      }),
    },
  },
  { OpenAiError: jsonSchemaOf(openAiErrorJson, 'output') },
);
