import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { PROCESS_STAGE_FILES } from './test/process-stage.js';
import { PlainSummaryReporter } from './test/summary-reporter.js';

// npm test sets EMBER_SKIP_PROCESS_STAGE=1: those files run in a CI stage of
// their own (npm run test:process, test/process-stage.ts).
const skipProcessStage = process.env.EMBER_SKIP_PROCESS_STAGE === '1';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The cluster stage runs apart: npm run test:cluster (vitest.cluster.config.ts).
    exclude: ['**/node_modules/**', 'test/cluster/**', ...(skipProcessStage ? PROCESS_STAGE_FILES : [])],
    // Generous: many process tests start the CLI several times in a row, and CI machines run loaded.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default for a run is one worker fewer than the cores: one on a
    // 2-core machine. Many files mostly wait for the CLI or agent processes
    // they start, so a worker per core keeps both cores busy.
    maxWorkers: availableParallelism(),
    reporters: ['default', new PlainSummaryReporter()],
  },
});
