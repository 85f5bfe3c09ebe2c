// The cluster stage (npm run test:cluster): the two-resumes race of
// test/cli/one-writer.test.ts, 20 rounds, four at a time. Each round kills a
// shard mid-run and starts two resumes at once; every round must end with
// one result byte-identical to the uninterrupted run and one refusal (exit 6).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { round, setUpWriters, tearDownWriters } from '../cli/one-writer-kit.js';

const ROUNDS = 20;
const AT_ONCE = 4;

beforeAll(async () => {
  await setUpWriters();
}, 120_000);

afterAll(tearDownWriters);

describe('one writer per output, 20 rounds', () => {
  it(`two resumes of a killed shard at once: one valid result and one refusal, ${ROUNDS} rounds out of ${ROUNDS}`, async () => {
    for (let k = 0; k < ROUNDS; k += AT_ONCE) {
      await Promise.all(Array.from({ length: Math.min(AT_ONCE, ROUNDS - k) }, (_, j) => round(k + j)));
    }
  }, 900_000);
});
