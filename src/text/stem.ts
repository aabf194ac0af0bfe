/**
 * Porter stemming (`stemmer`) behind a bounded cache. Stemming a word costs far more than a Map lookup, and the words
 * of a corpus repeat (Zipf): ingestion stems every word of every chunk for the keyword index and again for the
 * extractive summaries, so both ask here. The answer is `stemmer(word)`'s, whatever the cache holds.
 */
import { stemmer } from 'stemmer';

const cache = new Map<string, string>();
/** Distinct words kept; the cache starts over when full (a corpus's working vocabulary fits well within it). */
const CACHE_LIMIT = 100_000;

/** Only words of plain letters are kept: numbers and codes rarely repeat, and would push the vocabulary out. */
const PLAIN_WORD = /^[a-z]+$/;

/** `stemmer(word)`, remembered for plain `a-z` words. */
export function stem(word: string): string {
  let stemmed = cache.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (PLAIN_WORD.test(word)) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(word, stemmed);
    }
  }
  return stemmed;
}
