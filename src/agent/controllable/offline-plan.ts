import { bridgeCandidates } from '../offline-qa/bridge-entities.ts';
import { decomposeHops } from '../offline-qa/decompose-offline-hops.ts';
import { hopQuestion, offsetReferences } from '../offline-qa/hop-question.ts';
import { decomposeOffline } from '../offline-qa/decompose-offline.ts';
import { contentTerms } from '../../text/text-heuristics.ts';
import { findEntitiesOffline } from './entities.ts';

/** The last task of every offline plan: answer the question from what the earlier tasks gathered. */
export const ANSWER_TASK_PREFIX = 'Answer the question from the context:';

const REFERENCE = /#(\d+)\b/g;

/** A need as tasks, one per hop, innermost first (the shared offline hop decomposition); `#n` counts from `base`. */
const hopsOf = (need: string, base: number): string[] => {
  const hops = decomposeHops(need);
  if (hops.length < 2) return [need.trim()];
  return hops.map((hop) => offsetReferences(hopQuestion(hop), base));
};

/**
 * Offline planner over the anonymized question: one task per information need (a comma list is split as `rag`
 * decomposes it, unless that leaves a need without words of its own); a need that nests a named thing ("the
 * president of the association which published X") becomes one task per hop, innermost first, each later one
 * referring to the earlier answer as `#n`; the last task answers from the gathered context.
 */
export function planOffline(question: string, maxTasks: number): string[] {
  const split = decomposeOffline(question);
  const needs = split.some((need) => contentTerms(need.replace(/ENTITY_\d+/g, ' ')).length < 1) ? [question] : split;
  const tasks: string[] = [];
  for (const need of needs) tasks.push(...hopsOf(need, tasks.length));
  return [...tasks.slice(0, Math.max(1, maxTasks - 1)), `${ANSWER_TASK_PREFIX} ${question.trim()}`];
}

/** What an inner question asks for ("Which association …" → "association"), to pick the right name from its answer. */
const TARGET = /^(?:which|what)\s+(?:is\s+the\s+|are\s+the\s+|was\s+the\s+)?([\p{L}-]+)/iu;

/**
 * The thing a task's answer names: among the entities of its answer that the task itself does not name, the one
 * that contains the word the task asks for, else the first. Undefined when the answer names nothing new.
 */
export function answerEntity(task: string, response: string): string | undefined {
  // The bridge step rag and react share reads the answer like hop evidence; the entity finder below is its fallback.
  const bridge = bridgeCandidates(task, task, [{ chunk_id: 'response', title: '', text: response }], 1)[0];
  if (bridge) return bridge.text;
  const known = findEntitiesOffline(task).map((entity) => entity.text.toLowerCase());
  const fresh = findEntitiesOffline(response)
    .map((entity) => entity.text)
    .filter((text) => !known.some((name) => name.includes(text.toLowerCase()) || text.toLowerCase().includes(name)));
  if (fresh.length === 0) return undefined;
  const target = TARGET.exec(task)?.[1]?.toLowerCase();
  const inOrder = fresh.sort((a, b) => response.indexOf(a) - response.indexOf(b));
  return (target && inOrder.find((text) => text.toLowerCase().includes(target))) ?? inOrder[0];
}

/**
 * Replaces `#n` in the remaining tasks by what step n answered: its answer entity, else the first words of its
 * answer (still good search terms), else, when the step found nothing, the names it asked about.
 */
export function resolveReferences(
  tasks: readonly string[],
  steps: readonly { task: string; response: string }[],
): string[] {
  return tasks.map((task) =>
    task.replace(REFERENCE, (reference, n: string) => {
      const step = steps[Number(n) - 1];
      if (!step) return reference;
      // Nothing answered: the names the step asked about still find what it was about.
      if (!step.response)
        return (
          findEntitiesOffline(step.task)
            .map((entity) => entity.text)
            .join(' ') || step.task.replace(/[?.!]+$/, '')
        );
      return answerEntity(step.task, step.response) ?? step.response.split(/\s+/).slice(0, 12).join(' ');
    }),
  );
}
