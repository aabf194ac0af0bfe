import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { generateStructured } from '../../models/chat/structured-output.ts';
import { decomposeOffline } from '../offline-qa/decompose-offline.ts';
import { identifiersIn } from '../../text/text-heuristics.ts';

/** Question words, auxiliaries and articles: dropped from the keyword query, which keeps names, identifiers and nouns. */
const FILLER = new Set(
  'a an the of in on at to for by with from and or but is are was were be been do does did what which who whom whose when where why how much many can could should would will tell me please give show list describe explain about it its this that these those there their they them'.split(
    ' ',
  ),
);
/** Where a question's clauses meet: "the association | which published X", "the city | where Y was born". */
const CLAUSE = /\s*[,;]\s+|\s+(?:which|who|whom|whose|where|that|when)\s+/i;

const dedupe = (queries: readonly string[], max: number): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const query of queries.map((q) => q.replace(/\s+/g, ' ').trim())) {
    const key = query.toLowerCase().replace(/[?.!]+$/, '');
    if (query.split(' ').length < 2 && identifiersIn(query).length === 0) continue;
    if (!query || seen.has(key)) continue;
    seen.add(key);
    out.push(query);
  }
  return out.slice(0, max);
};

/**
 * Offline query generation for RAG fusion: the question itself; a keyword query of its identifiers, names and nouns
 * (what BM25 matches best); and each of its sub-clauses or listed needs, so each hop of a multi-hop question and each
 * need of a list question is searched on its own.
 */
export function fusionQueriesOffline(question: string, max: number): string[] {
  const body = question.trim();
  const words = body
    .replace(/[?.!,;:()"]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const keywords = [
    ...identifiersIn(body),
    ...words.filter((word) => !FILLER.has(word.toLowerCase()) && !identifiersIn(word).length),
  ].join(' ');
  const needs = decomposeOffline(body);
  const clauses = body
    .replace(/[?.!]+$/, '')
    .split(CLAUSE)
    .map((clause) => clause.trim())
    .filter((clause) => clause.split(/\s+/).length >= 2);
  return dedupe([body, keywords, ...(needs.length > 1 ? needs : []), ...(clauses.length > 1 ? clauses : [])], max);
}

const queriesSchema = z.object({ queries: z.array(z.string().min(2)).min(1).max(8) });

/** With a model: it writes the other search queries; the question itself is always the first. */
export async function fusionQueriesByModel(
  question: string,
  max: number,
  model: BaseChatModel,
  maxRetries: number,
): Promise<string[]> {
  const { queries } = await generateStructured({
    model,
    schema: queriesSchema,
    name: 'search_queries',
    maxRetries,
    messages: [
      new SystemMessage(
        `Write up to ${max - 1} different search queries that together find the passages needed to answer the question: ` +
          'one per sub-question or hop of reasoning, and one of its key names, identifiers and terms. Do not answer it.',
      ),
      new HumanMessage(question),
    ],
  });
  return dedupe([question, ...queries], max);
}
