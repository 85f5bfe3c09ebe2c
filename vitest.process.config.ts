// The process stage (npm run test:process; CI: right after npm test): the
// test files listed in test/process-stage.ts, which start agent hosts,
// sandboxes, killed and racing writers and language-model runs for minutes.
import { defineConfig } from 'vitest/config';
import { PROCESS_STAGE_FILES } from './test/process-stage.js';
import { PlainSummaryReporter } from './test/summary-reporter.js';

export default defineConfig({
  test: {
    include: [...PROCESS_STAGE_FILES],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', new PlainSummaryReporter('process')],
  },
});
