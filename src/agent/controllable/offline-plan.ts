import { decomposeOffline } from '../nodes/decompose.ts';
import { findEntitiesOffline } from './entities.ts';

/** The last task of every offline plan: answer the question from what the earlier tasks gathered. */
export const ANSWER_TASK_PREFIX = 'Answer the question from the context:';

const REFERENCE = /#(\d+)\b/g;
const NAMED = /ENTITY_\d+|\p{Lu}[\p{L}\p{N}-]*-\d+/u;
/** "… the association which published ENTITY_1" → the noun and the clause about it. */
const RELATIVE = /^(.*?\b)(?:the|a|an)\s+((?:[\p{L}\p{N}'-]+\s+){0,3}?[\p{L}\p{N}'-]+)\s+(which|that|who|whom|whose|where|when)\s+(.+)$/iu;
/** "… the birthplace of the performer of ENTITY_1" → the inner "the performer of ENTITY_1". */
const OF_CHAIN = /^(.*\b(?:of|for|by|in|from))\s+(the\s+(?:[\p{L}\p{N}'-]+\s+){0,3}?(?:of|by|for)\s+.+)$/iu;

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
    if (NAMED.test(clause) && prefix.trim()) {
      const lead = /^(who|whom)$/i.test(pronoun) ? 'Who' : /^where$/i.test(pronoun) ? `Which ${noun} is where` : /^when$/i.test(pronoun) ? `Which ${noun} is when` : `Which ${noun}`;
      return { inner: `${lead} ${clause}?`, outer: `${prefix}#REF?` };
    }
  }
  const chain = OF_CHAIN.exec(body);
  if (chain) {
    const [, prefix = '', phrase = ''] = chain;
    if (NAMED.test(phrase) && !NAMED.test(prefix)) return { inner: `What is ${phrase}?`, outer: `${prefix} #REF?` };
  }
  return undefined;
}

/**
 * Offline planner over the anonymized question: one task per information need (a comma list is split as `rag`
 * decomposes it); a need that nests a named thing ("the president of the association which published X") becomes
 * two tasks, the second referring to the first's answer as `#n`; the last task answers from the gathered context.
 */
export function planOffline(question: string, maxTasks: number): string[] {
  const tasks: string[] = [];
  for (const need of decomposeOffline(question)) {
    const hop = splitHop(need);
    if (hop) {
      tasks.push(hop.inner);
      tasks.push(hop.outer.replace('#REF', `#${tasks.length}`));
    } else {
      tasks.push(need.trim());
    }
  }
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
 * answer (still good search terms), else the task itself when the step found nothing.
 */
export function resolveReferences(tasks: readonly string[], steps: readonly { task: string; response: string }[]): string[] {
  return tasks.map((task) =>
    task.replace(REFERENCE, (reference, n: string) => {
      const step = steps[Number(n) - 1];
      if (!step) return reference;
      if (!step.response) return step.task.replace(/[?.!]+$/, '');
      return answerEntity(step.task, step.response) ?? step.response.split(/\s+/).slice(0, 12).join(' ');
    }),
  );
}
