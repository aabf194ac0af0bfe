import { runWebhookJson } from '../../schemas/webhook-json.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

export const webhookPaths = pathGroup(
  {
    name: 'Webhooks',
    description:
      "A run's webhook (`webhook` on a LangGraph run route): POSTed, signed, when the run ends; see the Webhooks section of docs/http-api.md.",
  },
  {
    '/v1/runs/{run_id}/webhook': {
      get: operation({
        id: 'getRunWebhook',
        summary: "A run's webhook delivery",
        description:
          "The webhook the run named and how its delivery stands: attempts, the last HTTP status and error, `pending`, `delivered` or `failed`. For whoever may read the run (its thread's owner, or an admin).",
        access: 'key',
        params: [pathParam('run_id', 'The run.')],
        responses: {
          200: { description: 'The webhook and its delivery.', json: runWebhookJson },
          404: {
            description: 'No run with this id that you may read, or the run named no webhook.',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
  },
);
