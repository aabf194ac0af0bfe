import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../domain/evidence.ts';
import type { ContextItem } from './controllable-state.ts';
import { answerOffline, groundedOffline, keepRelevantOffline, namesAll } from './offline-judgement.ts';

const chunk = (id: string, title: string, text: string): Evidence => ({
  chunk_id: `${id}#0`,
  doc_id: id,
  source: id,
  title,
  heading: '',
  text,
  score: 1,
  queries: [],
});
const item = (evidence: Evidence, kind: ContextItem['kind'] = 'chunk', text = evidence.text): ContextItem => ({
  id: kind === 'chunk' ? evidence.chunk_id : `${evidence.doc_id}#${kind}-0`,
  kind,
  doc_id: evidence.doc_id,
  title: evidence.title,
  text,
  chunk_ids: [evidence.chunk_id],
  query: '',
});

const mcdowell = chunk(
  'mcdowell',
  'McDowell County',
  'McDowell County shares a border with Mercer County and Wyoming County in West Virginia.',
);
const salinas = chunk('salinas', 'Salinas Valley', 'The valley shares an eastern border with the Chalone county AVA.');

describe('offline judgement of a task', () => {
  it("keeps only items that name the query's identifiers and share enough of its terms", () => {
    const ct = chunk('ct-2023-0077', 'CT-2023-0077', 'The annual license fee of CT-2023-0077 is $86,000.');
    const other = chunk('ct-2024-0193', 'CT-2024-0193', 'The termination fee of CT-2024-0193 is $48,000.');
    expect(
      keepRelevantOffline('What is the termination fee of CT-2023-0077?', [item(ct), item(other)]).map(
        (kept) => kept.doc_id,
      ),
    ).toEqual(['ct-2023-0077']);
  });

  it('answers only from a chunk that names every entity the task names', () => {
    expect(namesAll('What county shares a border with McDowell County?', mcdowell)).toBe(true);
    expect(namesAll('What county shares a border with McDowell County?', salinas)).toBe(false);
    expect(answerOffline('What county shares a border with McDowell County?', [item(salinas)], [salinas])).toEqual([]);
    expect(
      answerOffline(
        'What county shares a border with McDowell County?',
        [item(mcdowell), item(salinas)],
        [mcdowell, salinas],
      ),
    ).toEqual([{ chunk_id: 'mcdowell#0', sentence: mcdowell.text }]);
  });

  it("quotes a summary's own sentences when they occur in its chunks, and falls back on the previous hop only when given", () => {
    const summary = item(
      mcdowell,
      'summary',
      'McDowell County shares a border with Mercer County and Wyoming County in West Virginia.',
    );
    expect(answerOffline('Summarize McDowell County', [summary], [mcdowell])).toEqual([
      { chunk_id: 'mcdowell#0', sentence: mcdowell.text },
    ]);
    const previous = [{ chunk_id: 'mcdowell#0', sentence: mcdowell.text }];
    expect(
      answerOffline('Answer the question from the context: Who founded Atlantis?', [], [mcdowell], previous),
    ).toEqual(previous);
    expect(answerOffline('Answer the question from the context: Who founded Atlantis?', [], [mcdowell])).toEqual([]);
  });

  it('calls an answer grounded only when every sentence occurs in the chunk it names', () => {
    expect(groundedOffline([{ chunk_id: 'mcdowell#0', sentence: mcdowell.text }], [mcdowell])).toBe(true);
    expect(groundedOffline([{ chunk_id: 'mcdowell#0', sentence: 'McDowell County borders Ohio.' }], [mcdowell])).toBe(
      false,
    );
    expect(groundedOffline([{ chunk_id: 'salinas#0', sentence: mcdowell.text }], [mcdowell, salinas])).toBe(false);
    expect(groundedOffline([], [mcdowell])).toBe(false);
  });
});
