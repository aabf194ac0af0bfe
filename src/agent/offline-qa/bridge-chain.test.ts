import { describe, expect, it } from 'vitest';
import { retrieveChain } from './bridge-chain.ts';
import { termSet } from '../../text/text-heuristics.ts';

const corpus = [
  { chunk_id: 'film', title: 'Lantern Hill', text: 'Lantern Hill is a 1990 drama film directed by Orsolya Brandt.' },
  { chunk_id: 'brandt', title: 'Orsolya Brandt', text: "Orsolya Brandt's spouse is the painter Tomas Wilder." },
  { chunk_id: 'hills', title: 'Hill walking', text: 'Hill walking is a pastime; a spouse of a director may enjoy it.' },
];

/** A keyword search over the corpus: passages sharing terms with the query, most shared first. */
async function search(query: string) {
  const terms = termSet(query);
  return corpus
    .map((doc) => ({ doc, hits: [...termSet(`${doc.title} ${doc.text}`)].filter((term) => terms.has(term)).length }))
    .filter((item) => item.hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .map((item) => item.doc);
}

describe('bridge chain retrieval', () => {
  it('searches hop 2 with the bridge read from hop 1 and records the chain', async () => {
    const seen: string[] = [];
    const result = await retrieveChain(
      'Who is the spouse of the director of Lantern Hill?',
      ['director of Lantern Hill', 'Who is the spouse of #1?'],
      async (query) => {
        seen.push(query);
        return search(query);
      },
      { beam: 2 },
    );
    expect(seen[0]).toBe('director of Lantern Hill');
    expect(result.resolved[0]).toBe('Who is the spouse of Orsolya Brandt?');
    expect(result.hops[0]?.bridges[0]).toMatchObject({ text: 'Orsolya Brandt', chunk_id: 'film' });
    const lastHop = result.lists.find((list) => list.query === 'Who is the spouse of Orsolya Brandt?');
    expect(lastHop?.hits[0]?.chunk_id).toBe('brandt');
    // At most one search for hop 1 and one per kept bridge for hop 2.
    expect(seen.length).toBeLessThanOrEqual(3);
  });

  it("falls back to the earlier hop's own words when its evidence names nothing", async () => {
    const result = await retrieveChain(
      'Who is the spouse of the director of Nowhere?',
      ['director of Nowhere', 'Who is the spouse of #1?'],
      async () => [],
      { beam: 2 },
    );
    expect(result.resolved).toEqual(['Who is the spouse of director of Nowhere?']);
  });
});
