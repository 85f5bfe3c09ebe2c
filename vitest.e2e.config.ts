// End-to-end tests (npm run test:e2e): Debian Chromium against `emberbench
// serve`, one file at a time in one forked process (a browser and a server
// each are plenty for this machine), with long timeouts for real evaluations.
import { defineConfig } from 'vitest/config';
import { PlainSummaryReporter } from './test/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
    reporters: ['default', new PlainSummaryReporter('e2e')],
  },
});
