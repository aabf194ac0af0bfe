/**
 * Runs the offline `rag` agent on a fixed mix of questions in four set-ups, so the overhead of the graph runtime and
 * of the checkpoint writes can be separated from the work the nodes do.
 */
import { randomUUID } from 'node:crypto';
import { BaseCheckpointSaver, MemorySaver, type CheckpointTuple } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import { openAgentRuntime } from '../../src/agent/agent-runtime.ts';
import type { buildRagGraph } from '../../src/agent/rag/rag-graph.ts';
import type { RunManager } from '../../src/runs/run-manager.ts';
import type { Step } from '../../src/domain/step.ts';
import type { Turn } from '../../src/domain/turn.ts';
import { RagState, type RagStateType, type RagUpdate } from '../../src/agent/rag/rag-state.ts';
import type { Principal } from '../../src/domain/index.ts';
import type { Evident } from '../../src/evident.ts';
import { summarize, type LatencySummary } from '../retrieval/stats.ts';
import { timeSaver, type SaverTimings, type TimedSaver } from './timed-saver.ts';

/** A member of `legal`: may read the restricted contracts, so the mix has answers as well as refusals. */
export const ALICE: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };

export interface Scenario {
  name: string;
  /** Questions asked in order on one thread; each is one measured run. */
  turns: string[];
  /** Expected status per turn: a changed corpus or strategy must not silently change what is measured. */
  expect: string[];
}

export const SCENARIOS: Scenario[] = [
  { name: 'answered with citation', turns: ['What is the termination fee of CT-2024-0193?'], expect: ['answered'] },
  {
    name: 'refused (topic present, value absent)',
    turns: ['What is the termination fee of CT-2023-0077?'],
    expect: ['refused'],
  },
  {
    name: 'decomposed (3 needs)',
    turns: ['What are the pricing, term and liability of CT-2024-0193?'],
    expect: ['answered'],
  },
  { name: 'table aggregation', turns: ['What is the total order_total_usd of shipped orders?'], expect: ['answered'] },
  {
    name: 'follow-up on the thread',
    turns: ['What is the pricing of CT-2024-0193?', 'And what is its termination fee?'],
    expect: ['answered', 'answered'],
  },
];

export const VARIANTS = {
  agent: 'run manager (events stored), SqliteSaver (store file)',
  memory: 'graph, MemorySaver',
  none: 'graph, no checkpointer',
  bare: 'nodes only, no LangGraph',
} as const;
export type VariantKey = keyof typeof VARIANTS;

export interface Sample {
  variant: VariantKey;
  scenario: string;
  turn: number;
  status: string;
  /** Wall time of the whole run as a caller sees it. */
  wallMs: number;
  /** Σ of the nodes' own durations (the steps' duration_ms; in the bare variant, timed around each node call). */
  nodeMs: number;
  nodes: number;
  steps: { node: string; ms: number }[];
  saver: SaverTimings | undefined;
}

type RagGraph = ReturnType<typeof buildRagGraph>;
type NodeFn = (state: RagStateType) => Promise<RagUpdate>;

/**
 * The agent's own node functions (already bound to its deps and wrapped in the step tracer), taken from the graph
 * it compiled: the other set-ups then run exactly the agent's nodes, whatever src/agent wires into them.
 */
function nodeFunctions(graph: RagGraph): Map<string, NodeFn> {
  const out = new Map<string, NodeFn>();
  for (const [name, spec] of Object.entries(graph.builder.nodes)) {
    const func = (spec.runnable as { func?: unknown }).func;
    if (typeof func !== 'function') throw new Error(`node ${name} is not a plain function`);
    out.set(name, func as NodeFn);
  }
  return out;
}

const stepsOf = (steps: Step[]) => steps.map((step) => ({ node: step.node, ms: step.duration_ms }));
const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

type ThreadRunner = (scenario: Scenario) => Promise<Omit<Sample, 'variant' | 'scenario'>[]>;

/** Runs as every front end runs them: through the run manager, which also stores every event of the run. */
function agentRunner(runs: RunManager, timed: TimedSaver): ThreadRunner {
  return async (scenario) => {
    const out: Omit<Sample, 'variant' | 'scenario'>[] = [];
    let threadId: string | undefined;
    for (const [turn, question] of scenario.turns.entries()) {
      timed.reset();
      const began = performance.now();
      const action = { kind: 'ask' as const, question, history: [] };
      const run = await runs.run({
        agent: 'rag',
        threadId: threadId ?? randomUUID(),
        principal: ALICE,
        action,
        createThread: true,
      });
      const wallMs = performance.now() - began;
      threadId = run.thread_id;
      const steps = stepsOf(run.steps);
      out.push({
        turn,
        status: run.status,
        wallMs,
        nodeMs: sum(steps.map((s) => s.ms)),
        nodes: steps.length,
        steps,
        saver: { ...timed.timings },
      });
    }
    return out;
  };
}

/** `graph.invoke` alone (with the state read the run manager makes before a run on a continued thread). */
function graphRunner(graph: RagGraph, timed: TimedSaver | undefined): ThreadRunner {
  return async (scenario) => {
    const out: Omit<Sample, 'variant' | 'scenario'>[] = [];
    const threadId = randomUUID();
    let history: Turn[] | undefined;
    for (const [turn, question] of scenario.turns.entries()) {
      timed?.reset();
      const runId = randomUUID();
      const config = { configurable: { thread_id: threadId, run_id: runId } };
      const began = performance.now();
      if (timed && turn > 0) await graph.getState({ configurable: { thread_id: threadId } });
      // Without a checkpointer the thread's history must travel with the input, as `--history` does.
      const state: RagStateType = await graph.invoke(
        { question, principal: ALICE, thread_id: threadId, run_id: runId, ...(!timed && history ? { history } : {}) },
        config,
      );
      const wallMs = performance.now() - began;
      history = state.history;
      const steps = stepsOf(state.steps);
      out.push({
        turn,
        status: state.status,
        wallMs,
        nodeMs: sum(steps.map((s) => s.ms)),
        nodes: steps.length,
        steps,
        saver: timed ? { ...timed.timings } : undefined,
      });
    }
    return out;
  };
}

/** A run's first state: every field's default, read from the state's channels (cloned: runs must not share arrays). */
function initialState(question: string, threadId: string, runId: string, history: Turn[]): RagStateType {
  const defaults: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(RagState.spec))
    defaults[key] = structuredClone((channel as { get(): unknown }).get());
  return { ...(defaults as RagStateType), question, history, thread_id: threadId, run_id: runId, principal: ALICE };
}

/**
 * The agent's node functions called in a plain loop along the path the graph took (every state field is
 * replace-on-write, so merging is a spread): the node work with no graph runtime and no checkpoints around it.
 */
function bareRunner(nodes: Map<string, NodeFn>, paths: Map<string, string[]>): ThreadRunner {
  return async (scenario) => {
    const out: Omit<Sample, 'variant' | 'scenario'>[] = [];
    let history: Turn[] = [];
    for (const [turn, question] of scenario.turns.entries()) {
      const path = paths.get(`${scenario.name}#${turn}`);
      if (!path) throw new Error(`no reference path for ${scenario.name} turn ${turn}`);
      const steps: { node: string; ms: number }[] = [];
      const began = performance.now();
      let state = initialState(question, randomUUID(), randomUUID(), history);
      for (const name of path) {
        const node = nodes.get(name);
        if (!node) throw new Error(`unknown node ${name}`);
        const nodeBegan = performance.now();
        const update = await node(state);
        steps.push({ node: name, ms: performance.now() - nodeBegan });
        state = { ...state, ...update } as RagStateType;
      }
      const wallMs = performance.now() - began;
      history = state.history;
      out.push({
        turn,
        status: state.status,
        wallMs,
        nodeMs: sum(steps.map((s) => s.ms)),
        nodes: steps.length,
        steps,
        saver: undefined,
      });
    }
    return out;
  };
}

export interface MeasureOptions {
  runs: number;
  warmup: number;
  log: (line: string) => void;
}

export interface MeasureResult {
  samples: Sample[];
  /** Node path per scenario turn, from the agent's first run. */
  paths: Record<string, string[]>;
  errors: string[];
}

/** Interleaves the variants within each iteration, so drift in machine load touches them alike. */
export async function measureAgent(evident: Evident, options: MeasureOptions): Promise<MeasureResult> {
  const runtime = await openAgentRuntime(evident);
  const graph = runtime.runs.agent('rag').graph as unknown as RagGraph;
  if (!(graph.checkpointer instanceof BaseCheckpointSaver)) throw new Error('the agent has no checkpoint saver');
  const agentSaver = timeSaver(graph.checkpointer);
  const memory = new MemorySaver();
  const memorySaver = timeSaver(memory);
  const paths = new Map<string, string[]>();
  const runners: Record<VariantKey, ThreadRunner> = {
    agent: agentRunner(runtime.runs, agentSaver),
    // The agent's own graph definition compiled again: same nodes and deps, another checkpointer or none.
    memory: graphRunner(graph.builder.compile({ checkpointer: memory }) as RagGraph, memorySaver),
    none: graphRunner(graph.builder.compile() as RagGraph, undefined),
    bare: bareRunner(nodeFunctions(graph), paths),
  };
  const samples: Sample[] = [];
  const errors = new Set<string>();
  try {
    // The reference paths for the bare loop, and a check that the corpus still gives the expected outcomes.
    for (const scenario of SCENARIOS) {
      for (const [turn, sample] of (await runners.agent(scenario)).entries()) {
        paths.set(
          `${scenario.name}#${turn}`,
          sample.steps.map((s) => s.node),
        );
        if (sample.status !== scenario.expect[turn])
          errors.add(`${scenario.name} turn ${turn + 1}: ${sample.status}, expected ${scenario.expect[turn]}`);
      }
    }
    for (let iteration = 0; iteration < options.warmup + options.runs; iteration++) {
      const measured = iteration >= options.warmup;
      for (const variant of Object.keys(VARIANTS) as VariantKey[]) {
        for (const scenario of SCENARIOS) {
          for (const sample of await runners[variant](scenario)) {
            if (sample.status !== scenario.expect[sample.turn])
              errors.add(`${VARIANTS[variant]} / ${scenario.name}: ${sample.status}`);
            if (measured) samples.push({ variant, scenario: scenario.name, ...sample });
          }
        }
      }
      if ((iteration + 1) % 10 === 0) options.log(`  ${iteration + 1}/${options.warmup + options.runs} iterations`);
    }
  } finally {
    await runtime.close();
  }
  return { samples, paths: Object.fromEntries(paths), errors: [...errors] };
}

export interface SaverReplayResult {
  /** The thread replayed: its checkpoints and pending writes, as the agent stored them. */
  checkpoints: number;
  writeBatches: number;
  /** Every checkpoint and write batch of the thread, put one after another and awaited: exclusive cost. */
  perThread: LatencySummary;
  put: LatencySummary;
  putWrites: LatencySummary;
}

/**
 * Replays the checkpoints of the thread with the most of them (a two-turn follow-up) through a SqliteSaver on the
 * same file, one awaited call at a time: inside a run the writes overlap node work (LangGraph's default `async`
 * durability), so only this says what a write costs on its own.
 */
export async function replayCheckpointWrites(db: string, runs: number): Promise<SaverReplayResult> {
  const conn = new Database(db);
  conn.pragma('journal_mode = WAL');
  const saver = new SqliteSaver(conn);
  try {
    const top = conn
      .prepare('SELECT thread_id AS id FROM checkpoints GROUP BY thread_id ORDER BY count(*) DESC LIMIT 1')
      .get() as { id: string } | undefined;
    if (!top) throw new Error('no checkpoints to replay');
    const tuples: CheckpointTuple[] = [];
    for await (const tuple of saver.list({ configurable: { thread_id: top.id } })) tuples.push(tuple);
    tuples.reverse(); // list() is newest first
    const perThread: number[] = [];
    const puts: number[] = [];
    const batches: number[] = [];
    let writeBatches = 0;
    for (let run = 0; run < runs; run++) {
      const threadId = randomUUID();
      const began = performance.now();
      let parent: string | undefined;
      writeBatches = 0;
      for (const tuple of tuples) {
        const config = {
          configurable: { thread_id: threadId, checkpoint_ns: '', ...(parent ? { checkpoint_id: parent } : {}) },
        };
        const putBegan = performance.now();
        const saved = await saver.put(
          config,
          tuple.checkpoint,
          tuple.metadata ?? { source: 'loop', step: 0, parents: {} },
        );
        puts.push(performance.now() - putBegan);
        parent = tuple.checkpoint.id;
        const byTask = new Map<string, Parameters<SqliteSaver['putWrites']>[1]>();
        for (const [taskId, channel, value] of tuple.pendingWrites ?? [])
          byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
        for (const [taskId, writes] of byTask) {
          const writesBegan = performance.now();
          await saver.putWrites(saved, writes, taskId);
          batches.push(performance.now() - writesBegan);
          writeBatches += 1;
        }
      }
      perThread.push(performance.now() - began);
    }
    return {
      checkpoints: tuples.length,
      writeBatches,
      perThread: summarize(perThread),
      put: summarize(puts),
      putWrites: summarize(batches),
    };
  } finally {
    conn.close();
  }
}
