import { randomUUID } from 'node:crypto';
import type { AssistantSettings } from '../config/assistant-settings-schema.ts';
import type { AgentBoundsName } from '../config/agents-schema.ts';
import { isAdmin, principalAclKeys, type Principal } from '../domain/index.ts';
import { AssistantExistsError, AssistantReadOnlyError, NotFoundError, ValidationError } from '../errors/index.ts';
import {
  mayReadAssistant,
  type AssistantFilter,
  type AssistantQuery,
  type AssistantReader,
  type AssistantRecord,
  type AssistantStore,
  type AssistantVersionRecord,
  type AssistantWrite,
  type PrincipalStore,
} from '../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import {
  ASSISTANT_BOUNDS,
  assertJsonWithin,
  assertNarrowsPolicy,
  parseAssistantAcl,
  settingsOf,
  validatedConfig,
  validatedContext,
  type AssistantFields,
} from './assistant-input.ts';
import { currentPrincipal } from './current-principal.ts';
import type { ApprovalPolicy } from './policy/approval-policy.ts';

/** An assistant as the API shows it: a system one (a built-in agent as it is) or a stored one. */
export type AssistantView = { kind: 'system'; agent: AgentDefinition } | { kind: 'stored'; record: AssistantRecord };

/** One version as the API shows it: a system assistant's only version, or a stored version. */
export type AssistantVersionView =
  | { kind: 'system'; agent: AgentDefinition }
  | { kind: 'version'; record: AssistantVersionRecord };

/** What a run of an assistant applies: its agent, and for a stored one its id, version and settings. */
export interface ResolvedAssistant {
  graphId: string;
  assistantId: string;
  version: number;
  /** Undefined for a system assistant: the server's configuration as it is. */
  settings?: AssistantSettings;
}

export interface AssistantServiceDeps {
  store: AssistantStore & Pick<PrincipalStore, 'getUser'>;
  /** The built-in agents: each is a system assistant, and the graphs a stored assistant may name. */
  agents: ReadonlyMap<string, AgentDefinition>;
  /** The server's approval policy: an assistant's may only narrow it. */
  approvals: ApprovalPolicy;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SYSTEM_METADATA = { created_by: 'system' } as const;

const notFound = (assistantId: string) =>
  new NotFoundError(
    'assistant',
    assistantId.slice(0, 128),
    'POST /assistants/search lists the assistants you may use.',
  );

/**
 * Assistants (ARCHITECTURE §1: an agent plus its configuration), with LangGraph's semantics: create, update (a new
 * version), versions, set latest, search, delete. Owned by their creator, readable as their ACL says (owner,
 * `user:`/`group:` entries, `public`; admins read all), changed only by the owner or an admin. The reader's groups
 * are read from the store at every call. An assistant the caller may not read answers as a missing one does.
 */
export class AssistantService {
  constructor(private readonly deps: AssistantServiceDeps) {}

  /** The system assistants: one per built-in agent, whose ids are the agents' names. */
  systemAssistants(): AgentDefinition[] {
    return [...this.deps.agents.values()];
  }

  async create(
    principal: Principal,
    body: AssistantFields & { assistant_id?: string | null | undefined; if_exists?: string | null | undefined },
  ) {
    const graphId = this.graphOf(body.graph_id);
    const assistantId = body.assistant_id ?? randomUUID();
    if (!UUID.test(assistantId))
      throw new ValidationError('An assistant_id is a UUID.', { hint: 'Leave it out to get a new one.' });
    const ifExists = body.if_exists ?? 'raise';
    if (ifExists !== 'raise' && ifExists !== 'do_nothing')
      throw new ValidationError('if_exists is "raise" or "do_nothing".');
    const write = this.writeOf(graphId, body, undefined);
    if ((await this.deps.store.countOwnedAssistants(principal.id)) >= ASSISTANT_BOUNDS.perUser)
      throw new ValidationError(`A user owns at most ${ASSISTANT_BOUNDS.perUser} assistants.`, {
        hint: 'Delete assistants you no longer use.',
      });
    const created = await this.deps.store.createAssistant({ ...write, assistantId, owner: principal.id });
    if (created) return created;
    // Taken: the existing one, if the caller may read it; otherwise the same conflict (nothing of it is shown).
    const existing = await this.deps.store.getAssistant(assistantId);
    if (ifExists === 'do_nothing' && existing && mayReadAssistant(existing, await this.readerOf(principal)))
      return existing;
    throw new AssistantExistsError(assistantId);
  }

  async get(principal: Principal, assistantId: string): Promise<AssistantView> {
    const agent = this.deps.agents.get(assistantId);
    if (agent) return { kind: 'system', agent };
    return { kind: 'stored', record: await this.readable(principal, assistantId) };
  }

  async update(principal: Principal, assistantId: string, body: AssistantFields): Promise<AssistantRecord> {
    const current = await this.changeable(principal, assistantId);
    const graphId = this.graphOf(body.graph_id ?? current.graphId);
    const write = this.writeOf(graphId, body, current);
    const updated = await this.deps.store.addAssistantVersion(assistantId, write);
    if (!updated) throw notFound(assistantId);
    return updated;
  }

  async delete(principal: Principal, assistantId: string): Promise<void> {
    await this.changeable(principal, assistantId);
    if (!(await this.deps.store.deleteAssistant(assistantId))) throw notFound(assistantId);
  }

  async setLatest(principal: Principal, assistantId: string, version: number): Promise<AssistantRecord> {
    await this.changeable(principal, assistantId);
    const updated = await this.deps.store.setLatestAssistantVersion(assistantId, version);
    if (!updated)
      throw new NotFoundError(
        `version of assistant ${assistantId}`,
        String(version),
        'POST /assistants/{id}/versions lists them.',
      );
    return updated;
  }

  /** The assistant's versions, newest first; a system assistant has its one version. */
  async versions(
    principal: Principal,
    assistantId: string,
    query: { limit: number; offset: number; metadata?: AssistantFilter['metadata'] },
  ): Promise<AssistantVersionView[]> {
    const agent = this.deps.agents.get(assistantId);
    if (agent) {
      const matches = query.offset === 0 && matchesSystem(agent, query.metadata ? { metadata: query.metadata } : {});
      return matches ? [{ kind: 'system', agent }] : [];
    }
    await this.readable(principal, assistantId);
    const versions = await this.deps.store.listAssistantVersions(assistantId, query);
    return versions.map((record) => ({ kind: 'version', record }));
  }

  /**
   * The assistants the caller may read that match, one page: the system assistants first (in the agents' order),
   * then the stored ones in the order asked for.
   */
  async search(principal: Principal, query: AssistantQuery): Promise<AssistantView[]> {
    const systems = this.systemAssistants().filter((agent) => matchesSystem(agent, query));
    const page: AssistantView[] = systems
      .slice(query.offset, query.offset + query.limit)
      .map((agent) => ({ kind: 'system', agent }));
    const limit = query.limit - page.length;
    if (limit === 0) return page;
    const stored = await this.deps.store.searchAssistants(await this.readerOf(principal), {
      ...query,
      limit,
      offset: Math.max(0, query.offset - systems.length),
    });
    return [...page, ...stored.map((record) => ({ kind: 'stored' as const, record }))];
  }

  async count(principal: Principal, filter: AssistantFilter): Promise<number> {
    const systems = this.systemAssistants().filter((agent) => matchesSystem(agent, filter)).length;
    return systems + (await this.deps.store.countAssistants(await this.readerOf(principal), filter));
  }

  /**
   * What a run names (an assistant id, or a built-in agent's name) resolved for the caller at the moment the run
   * starts: its agent and the settings of the version asked for (default: the latest). An assistant the caller
   * may not read is not found, exactly as a missing one.
   */
  async resolve(principal: Principal, assistantId: string, version?: number): Promise<ResolvedAssistant> {
    const agent = this.deps.agents.get(assistantId);
    if (agent) {
      if (version !== undefined && version !== 1) throw notFound(`${assistantId}@${version}`);
      return { graphId: agent.name, assistantId: agent.name, version: 1 };
    }
    if (!UUID.test(assistantId)) throw notFound(assistantId);
    const assistant = await this.readable(principal, assistantId);
    const chosen =
      version === undefined || version === assistant.version
        ? assistant
        : await this.deps.store.getAssistantVersion(assistantId, version);
    if (!chosen) throw notFound(`${assistantId}@${version}`);
    return { graphId: chosen.graphId, assistantId, version: chosen.version, settings: settingsOf(chosen) };
  }

  private async readerOf(principal: Principal): Promise<AssistantReader> {
    const now = await currentPrincipal(this.deps.store, principal);
    return { user: now.id, keys: principalAclKeys(now) };
  }

  private async readable(principal: Principal, assistantId: string): Promise<AssistantRecord> {
    if (!UUID.test(assistantId)) throw notFound(assistantId);
    const assistant = await this.deps.store.getAssistant(assistantId);
    if (!assistant || !mayReadAssistant(assistant, await this.readerOf(principal))) throw notFound(assistantId);
    return assistant;
  }

  /** An assistant the caller may change: theirs, or any as an admin. One they may only read is read-only to them. */
  private async changeable(principal: Principal, assistantId: string): Promise<AssistantRecord> {
    if (this.deps.agents.has(assistantId)) throw new AssistantReadOnlyError(assistantId, true);
    const assistant = await this.readable(principal, assistantId);
    const now = await currentPrincipal(this.deps.store, principal);
    if (assistant.owner !== now.id && !isAdmin(now)) throw new AssistantReadOnlyError(assistantId, false);
    return assistant;
  }

  private graphOf(graphId: string | null | undefined): AgentBoundsName {
    if (!graphId)
      throw new ValidationError('An assistant needs a graph_id.', { hint: `One of: ${this.graphNames()}.` });
    if (!this.deps.agents.has(graphId) || !['rag', 'react', 'controllable'].includes(graphId))
      throw new ValidationError(`No graph named ${JSON.stringify(graphId.slice(0, 128))}.`, {
        hint: `An assistant's graph_id is one of: ${this.graphNames()}.`,
      });
    return graphId as AgentBoundsName;
  }

  private graphNames(): string {
    return [...this.deps.agents.keys()].join(', ');
  }

  /** A whole version: what the body gives, validated for the graph; what it leaves out, from the current version. */
  private writeOf(
    graphId: AgentBoundsName,
    body: AssistantFields,
    current: AssistantRecord | undefined,
  ): AssistantWrite {
    const config = validatedConfig(graphId, body.config ?? current?.config ?? {});
    const context = validatedContext(graphId, body.context ?? current?.context ?? {});
    // As LangGraph's update does: the metadata given is merged over the latest version's.
    const metadata = { ...current?.metadata, ...body.metadata };
    assertJsonWithin({ config, context, metadata });
    const settings = settingsOf({ config, context });
    assertNarrowsPolicy(settings, this.deps.approvals, 'config');
    const aclGiven = body.acl ?? (body.metadata && 'acl' in body.metadata ? body.metadata.acl : undefined);
    const acl = aclGiven === undefined ? (current?.acl ?? []) : parseAssistantAcl(aclGiven);
    return {
      graphId,
      name: body.name ?? current?.name ?? 'Untitled',
      description: body.description ?? current?.description ?? null,
      config,
      context,
      metadata,
      acl,
    };
  }
}

/** Whether a system assistant matches a search's filters (its metadata is `{created_by: "system"}`). */
function matchesSystem(agent: AgentDefinition, filter: AssistantFilter): boolean {
  if (filter.graphId !== undefined && filter.graphId !== agent.name) return false;
  if (filter.name !== undefined && filter.name !== agent.name) return false;
  return (filter.metadata ?? []).every(([key, value]) => (SYSTEM_METADATA as Record<string, unknown>)[key] === value);
}

export { SYSTEM_METADATA };
