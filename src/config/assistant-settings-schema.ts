import { z } from 'zod';
import { agentBoundsSchemas, type AgentBoundsName } from './agents-schema.ts';

const approverList = z
  .array(z.enum(['owner', 'admin']))
  .min(1, 'name at least one approver: owner or admin')
  .max(2);

/** The longest extra instructions an assistant gives its agent's model steps. */
export const MAX_ASSISTANT_INSTRUCTIONS = 4000;

/**
 * What an assistant configures of its agent (`config.configurable` or `context` in LangGraph's terms), validated
 * strictly: an unknown key is an error naming it. Every key is optional; what an assistant leaves out is the
 * server's configuration. The agent bounds are the graph's own `agents.<graph>` settings, with the same limits.
 */
export const assistantSettingsSchema = (graphId: AgentBoundsName) =>
  z
    .object({
      model: z
        .enum(['default', 'offline'])
        .optional()
        .describe(
          "`default`: the server's chat model (`llm`); `offline`: the deterministic strategies, no model call. Unset: `default`.",
        ),
      retrieval: z
        .object({
          topK: z
            .number()
            .int()
            .positive()
            .max(200)
            .optional()
            .describe('Results each retrieval takes (`retrieval.topK`).'),
        })
        .strict()
        .optional(),
      prompts: z
        .object({
          instructions: z
            .string()
            .trim()
            .min(1)
            .max(MAX_ASSISTANT_INSTRUCTIONS)
            .optional()
            .describe('Instructions added to the system prompt of every model step (not used offline).'),
        })
        .strict()
        .optional(),
      agent: agentBoundsSchemas[graphId]
        .partial()
        .optional()
        .describe(`The agent's bounds, as \`agents.${graphId}\` names them; unset ones keep the server's values.`),
      approvals: z
        .object({
          default: approverList.optional(),
          tools: z
            .record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a tool name is a snake_case word'), approverList)
            .refine((tools) => Object.keys(tools).length <= 32, 'at most 32 tools')
            .optional(),
        })
        .strict()
        .optional()
        .describe(
          "Who may approve this assistant's side-effect tools; it may only narrow the server's `approvals` (a tool's approvers must be among the server's).",
        ),
    })
    .strict();

export type AssistantSettings = z.infer<ReturnType<typeof assistantSettingsSchema>>;
