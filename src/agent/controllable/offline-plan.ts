import { decomposeOffline } from '../core/offline/decompose-offline.ts';
import { contentTerms } from '../../text/text-heuristics.ts';
import { findEntitiesOffline } from './entities.ts';

/** The last task of every offline plan: answer the question from what the earlier tasks gathered. */
export const ANSWER_TASK_PREFIX = 'Answer the question from the context:';

const REFERENCE = /#(\d+)\b/g;
const NAMED = /ENTITY_\d+|#\d+|\p{Lu}[\p{L}\p{N}-]*-\d+/u;
/** "… the association which published ENTITY_1" → the noun closest to the pronoun and the clause about it. */
const RELATIVE = /^(.*\b)(?:the|a|an)\s+((?:[\p{L}\p{N}'-]+\s+){0,2}?[\p{L}\p{N}'-]+)\s+(which|that|who|whom|whose|where|when)\s+(.+)$/iu;
/** "the performer of ENTITY_1": a thing known only through a named one. */
const OF_NAMED = /\bthe\s+((?:[\p{L}'-]+\s+){0,2}?[\p{L}'-]+)\s+(?:of|by)\s+(ENTITY_\d+(?:['’]s)?|#\d+)/iu;
/** Hops nested deeper than this are left to the last one. */
const MAX_DEPTH = 3;

interface Hop {
  inner: string;
  /** The outer question with `#REF` where the inner question's answer goes. */
  outer: string;
}

/** One multi-hop need split in two: the inner question about a named thing first, then the outer one about its answer. */
function splitHop(need: string): Hop | undefined {
  const body = need.trim().replace(/[?.!]+$/, '');
  const relative = RELATIVE.exec(body);
  if (relative) {
    const [, prefix = '', noun = '', pronoun = '', clause = ''] = relative;
    if (NAMED.test(clause) && contentTerms(prefix).length > 0) {
      const lead = /^(who|whom)$/i.test(pronoun) ? 'Who' : /^(where|when)$/i.test(pronoun) ? `Which ${noun} is ${pronoun.toLowerCase()}` : `Which ${noun}`;
      return { inner: `${lead} ${clause}?`, outer: `${prefix}#REF?` };
    }
  }
  const named = OF_NAMED.exec(body);
  if (named) {
    const outer = `${body.slice(0, named.index)}#REF${body.slice(named.index + named[0].length)}`;
    // "What is the fee of ENTITY_1" asks for the phrase itself: nothing is left to ask about its answer.
    if (contentTerms(outer.replace(/#REF/, '')).length >= 1 && outer.trim() !== '#REF') return { inner: `What is ${named[0]}?`, outer: `${outer}?` };
  }
  return undefined;
}

/** A need as hops, innermost first; `#n` numbers count from `base` (the tasks before this need). */
function hopsOf(need: string, base: number, depth = 0): string[] {
  const hop = depth < MAX_DEPTH ? splitHop(need) : undefined;
  if (!hop) return [need.trim()];
  const inner = hopsOf(hop.inner, base, depth + 1);
  return [...inner, hop.outer.replace('#REF', `#${base + inner.length}`)];
}

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
export function resolveReferences(tasks: readonly string[], steps: readonly { task: string; response: string }[]): string[] {
  return tasks.map((task) =>
    task.replace(REFERENCE, (reference, n: string) => {
      const step = steps[Number(n) - 1];
      if (!step) return reference;
      // Nothing answered: the names the step asked about still find what it was about.
      if (!step.response) return findEntitiesOffline(step.task).map((entity) => entity.text).join(' ') || step.task.replace(/[?.!]+$/, '');
      return answerEntity(step.task, step.response) ?? step.response.split(/\s+/).slice(0, 12).join(' ');
    }),
  );
}
