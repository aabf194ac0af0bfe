import { seededRandom } from './seeded-random.ts';

type Mutation = (bytes: Buffer, random: () => number) => Buffer;
const at = (random: () => number, length: number) => Math.floor(random() * Math.max(1, length));
/** Ways a file gets broken: truncated, bytes overwritten, inserted, repeated, zeroed, dropped. */
const MUTATIONS: Mutation[] = [
  (bytes, random) => bytes.subarray(0, at(random, bytes.length)), // truncated
  (bytes, random) => {
    const out = Buffer.from(bytes);
    for (let i = 0, n = 1 + at(random, 16); i < n; i += 1) out[at(random, out.length)] = at(random, 256);
    return out;
  },
  (bytes, random) => {
    const cut = at(random, bytes.length);
    return Buffer.concat([
      bytes.subarray(0, cut),
      Buffer.from(Array.from({ length: 1 + at(random, 64) }, () => at(random, 256))),
      bytes.subarray(cut),
    ]);
  },
  (bytes, random) => {
    const from = at(random, bytes.length);
    const to = Math.min(bytes.length, from + 1 + at(random, 200));
    return Buffer.concat([bytes.subarray(0, to), bytes.subarray(from, to), bytes.subarray(to)]); // a slice repeated
  },
  (bytes, random) => {
    const out = Buffer.from(bytes);
    const from = at(random, out.length);
    out.fill(0, from, Math.min(out.length, from + 1 + at(random, 64)));
    return out;
  },
  (bytes, random) => {
    const from = at(random, bytes.length);
    return Buffer.concat([bytes.subarray(0, from), bytes.subarray(Math.min(bytes.length, from + 1 + at(random, 64)))]); // a range dropped
  },
];

/** Mutated versions of `original` (named `name` in labels), the same for a given seed number so a failure can be replayed. */
export function* mutants(
  original: Buffer,
  name: string,
  seed: number,
  count: number,
): Generator<{ bytes: Buffer; label: string }> {
  const random = seededRandom(seed);
  for (let i = 0; i < count; i += 1) {
    let bytes = original;
    const steps = 1 + at(random, 3);
    for (let step = 0; step < steps; step += 1)
      bytes = (MUTATIONS[at(random, MUTATIONS.length)] as Mutation)(bytes, random);
    yield { bytes, label: `${name} seed ${seed} case ${i}` };
  }
}
