import { z } from 'zod';
import { assistantSettingsSchema, type AssistantSettings } from '../config/assistant-settings-schema.ts';
import type { AgentBoundsName } from '../config/agents-schema.ts';
import { parseAcl } from '../domain/acl.ts';
import { ValidationError } from '../errors/index.ts';
import type { ApprovalPolicy, Approver } from './policy/approval-policy.ts';

/** The bounds of what one assistant holds. */
export const ASSISTANT_BOUNDS = {
  nameChars: 200,
  descriptionChars: 2000,
  /** `config`, `context` and `metadata` together, as JSON. */
  jsonBytes: 32_768,
  aclEntries: 64,
  tags: 16,
  tagChars: 64,
  /** Assistants one user may own. */
  perUser: 500,
} as const;

const tags = z.array(z.string().min(1).max(ASSISTANT_BOUNDS.tagChars)).max(ASSISTANT_BOUNDS.tags);

/** The fields of a create or update, as LangGraph's SDK sends them (Evident adds `acl`). Shapes only: values below. */
export const assistantFieldsSchema = z.object({
  graph_id: z.string().min(1).max(128).nullish(),
  config: z.record(z.string(), z.unknown()).nullish(),
  context: z.record(z.string(), z.unknown()).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  name: z.string().trim().min(1).max(ASSISTANT_BOUNDS.nameChars).nullish(),
  description: z.string().max(ASSISTANT_BOUNDS.descriptionChars).nullish(),
  /** Who may read and run it besides the owner: `["group:legal", "user:bob"]`, `"public"`, or `[]` (owner only). */
  acl: z.union([z.literal('public'), z.array(z.string().max(200)).max(ASSISTANT_BOUNDS.aclEntries)]).nullish(),
});
export type AssistantFields = z.infer<typeof assistantFieldsSchema>;

/** LangGraph's `config`, as an assistant keeps it: the agent settings under `configurable`, and tags. */
const configSchema = (graphId: AgentBoundsName) =>
  z.object({ configurable: assistantSettingsSchema(graphId).optional(), tags: tags.optional() }).strict();

/** A zod failure as a ValidationError naming where (`config.configurable.agent`) and what (the unknown key). */
function checked<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [where, ...(issue?.path ?? []).map(String)].join('.').slice(0, 200);
  throw new ValidationError(`Invalid assistant ${path}: ${issue?.message ?? 'invalid'}.`, {
    hint: 'docs/agents.md lists the assistant configuration keys: model, retrieval, prompts, agent, approvals.',
  });
}

/** Validates `config` for the graph; returns it as given (what it leaves out stays the server's). */
export function validatedConfig(graphId: AgentBoundsName, config: Record<string, unknown>): Record<string, unknown> {
  checked(configSchema(graphId), config, 'config');
  return config;
}

export function validatedContext(graphId: AgentBoundsName, context: Record<string, unknown>): Record<string, unknown> {
  checked(assistantSettingsSchema(graphId), context, 'context');
  return context;
}

/** The settings a version applies: `config.configurable`, then `context` over it (key by key at the top level). */
export function settingsOf(version: {
  config: Record<string, unknown>;
  context: Record<string, unknown>;
}): AssistantSettings {
  const configurable = (version.config.configurable ?? {}) as AssistantSettings;
  return { ...configurable, ...(version.context as AssistantSettings) };
}

/** An ACL as given (`"public"`, entries, or the reserved `metadata.acl`), normalised: `public` alone, or entries. */
export function parseAssistantAcl(acl: unknown): string[] {
  if (acl === 'public') return ['public'];
  if (!Array.isArray(acl))
    throw new ValidationError('An assistant acl is "public" or a list of entries.', {
      hint: 'Send "acl": ["group:legal", "user:bob"], "acl": "public", or [] for the owner alone.',
    });
  if (acl.length > ASSISTANT_BOUNDS.aclEntries)
    throw new ValidationError(`An assistant acl has at most ${ASSISTANT_BOUNDS.aclEntries} entries.`);
  if (acl.includes('public')) {
    if (acl.length > 1) throw new ValidationError('"public" stands alone in an assistant acl.');
    return ['public'];
  }
  return parseAcl(acl, 'the assistant acl');
}

export function assertJsonWithin(parts: Record<string, unknown>): void {
  const bytes = Buffer.byteLength(JSON.stringify(parts));
  if (bytes > ASSISTANT_BOUNDS.jsonBytes)
    throw new ValidationError(
      `An assistant's config, context and metadata hold at most ${ASSISTANT_BOUNDS.jsonBytes} bytes of JSON (these hold ${bytes}).`,
      { hint: 'Shorten the prompts or the metadata.' },
    );
}

const subset = (inner: readonly Approver[], outer: readonly Approver[]) => inner.every((who) => outer.includes(who));

/**
 * An assistant's approvals may only narrow the server's: each approver list it names must be within the server's
 * list for that tool (its `default` within the server's `default`), so an assistant never lets anyone approve
 * what the operator's policy does not.
 */
export function assertNarrowsPolicy(settings: AssistantSettings, server: ApprovalPolicy, where: string): void {
  const approvals = settings.approvals;
  if (!approvals) return;
  if (approvals.default && !subset(approvals.default, server.default))
    throw new ValidationError(
      `Invalid assistant ${where}.approvals.default: the server lets only ${server.default.join(' and ')} approve.`,
      { hint: "An assistant's approvals may narrow the server's policy, never widen it." },
    );
  for (const [tool, approvers] of Object.entries(approvals.tools ?? {})) {
    const allowed = server.tools[tool] ?? server.default;
    if (!subset(approvers, allowed))
      throw new ValidationError(
        `Invalid assistant ${where}.approvals.tools.${tool}: the server lets only ${allowed.join(' and ')} approve it.`,
        { hint: "An assistant's approvals may narrow the server's policy, never widen it." },
      );
  }
}

/** The policy a run of the assistant applies: the server's, narrowed by the assistant's (never emptied). */
export function narrowedPolicy(server: ApprovalPolicy, settings: AssistantSettings): ApprovalPolicy {
  const approvals = settings.approvals;
  if (!approvals) return server;
  const narrow = (wanted: readonly Approver[] | undefined, allowed: readonly Approver[]) => {
    const kept = (wanted ?? allowed).filter((who) => allowed.includes(who));
    return kept.length > 0 ? kept : allowed;
  };
  const tools: Record<string, readonly Approver[]> = {};
  for (const tool of new Set([...Object.keys(server.tools), ...Object.keys(approvals.tools ?? {})])) {
    const allowed = server.tools[tool] ?? server.default;
    tools[tool] = narrow(approvals.tools?.[tool] ?? approvals.default, allowed);
  }
  return { default: narrow(approvals.default, server.default), tools };
}
