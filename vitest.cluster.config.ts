// The cluster stage (npm run test:cluster, a CI stage of its own after npm
// test): the simulated cluster and the 20-round two-writers race, minutes of
// processes on 2 cores that would double npm test's budget.
import { defineConfig } from 'vitest/config';
import { PlainSummaryReporter } from './test/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 300_000,
    reporters: ['default', new PlainSummaryReporter('cluster')],
  },
});
