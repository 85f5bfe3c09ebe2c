// The fault-injection stage (CI: after `npm test`): SIGKILL and a full disk at
// seeded random points of the server and the CLI, one file in one forked
// process (it starts servers and commands of its own), long timeouts.
// Run: npx vitest run --config vitest.faults.config.ts
import { defineConfig } from 'vitest/config';
import { PlainSummaryReporter } from './test/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['test/faults/**/*.faults.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 3_600_000,
    hookTimeout: 900_000,
    reporters: ['default', new PlainSummaryReporter('faults')],
  },
});
