import type { AssistantSettings } from '../config/assistant-settings-schema.ts';
import type { Principal } from '../domain/index.ts';
import { NotFoundError } from '../errors/index.ts';
import type { PrincipalStore, RunRecord } from '../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { narrowedPolicy } from './assistant-input.ts';
import type { AssistantService } from './assistant-service.ts';
import { currentPrincipal } from './current-principal.ts';
import type { ApprovalPolicy } from './policy/approval-policy.ts';

/** The assistant a run applies, resolved when it starts: its agent (configured), approval policy, id and version. */
export interface RunAssistant {
  assistantId: string;
  version: number;
  agent: AgentDefinition;
  policy: ApprovalPolicy;
}

/** How the run manager turns what a run names (an assistant id or an agent's name) into what it runs. */
export interface RunAssistants {
  resolve(principal: Principal, assistantId: string, version?: number): Promise<RunAssistant>;
}

/** Builds an agent configured by an assistant's settings, from the same services (the composition root is not rebuilt). */
export type AgentVariantBuilder = (graphId: string, settings: AssistantSettings) => AgentDefinition;

/** Configured agents kept at most: beyond this, the least recently used is built again when next needed. */
const MAX_VARIANTS = 32;

const isEmpty = (settings: AssistantSettings) => Object.values(settings).every((value) => value === undefined);

/**
 * Resolves assistants for runs: reads the assistant (and the version asked for) as the caller may see it now, and
 * hands out its agent configured by the version's settings. Configured agents are cached by their settings (not by
 * assistant id, so a deleted and re-created id never reuses another configuration), and share the base agents'
 * checkpointer, so a thread's state is the same whichever version ran it.
 */
export class AssistantRunResolver implements RunAssistants {
  private readonly variants = new Map<string, AgentDefinition>();

  constructor(
    private readonly deps: {
      service: AssistantService;
      agents: ReadonlyMap<string, AgentDefinition>;
      build: AgentVariantBuilder;
      policy: ApprovalPolicy;
    },
  ) {}

  async resolve(principal: Principal, assistantId: string, version?: number): Promise<RunAssistant> {
    const resolved = await this.deps.service.resolve(principal, assistantId, version);
    const base = this.deps.agents.get(resolved.graphId);
    if (!base) throw new Error(`The assistant's graph ${resolved.graphId} is not served here.`);
    const settings = resolved.settings;
    const found = { assistantId: resolved.assistantId, version: resolved.version };
    if (!settings || isEmpty(settings)) return { ...found, agent: base, policy: this.deps.policy };
    return {
      ...found,
      agent: this.variant(resolved.graphId, settings),
      policy: narrowedPolicy(this.deps.policy, settings),
    };
  }

  private variant(graphId: string, settings: AssistantSettings): AgentDefinition {
    const key = `${graphId}\u0000${JSON.stringify(settings)}`;
    const kept = this.variants.get(key);
    if (kept) {
      this.variants.delete(key);
      this.variants.set(key, kept);
      return kept;
    }
    const built = this.deps.build(graphId, settings);
    this.variants.set(key, built);
    if (this.variants.size > MAX_VARIANTS) this.variants.delete(this.variants.keys().next().value as string);
    return built;
  }
}

/**
 * The agent a recovered run continues with: configured as the assistant version the run recorded, resolved for the
 * run's owner as they are now. An assistant they may no longer read (or deleted) fails the run (`not_found`), never
 * continues it with another configuration.
 */
export const recoveredAgentOf =
  (assistants: RunAssistants, store: Pick<PrincipalStore, 'getUser'>) =>
  async (run: RunRecord, agent: AgentDefinition): Promise<AgentDefinition> => {
    if (run.assistantId === undefined || run.assistantId === run.agent) return agent;
    const owner = await currentPrincipal(store, { id: run.user, groups: [], roles: ['member'] });
    const resolved = await assistants.resolve(owner, run.assistantId, run.assistantVersion);
    if (resolved.agent.name !== agent.name) throw new NotFoundError('assistant', run.assistantId);
    return resolved.agent;
  };
