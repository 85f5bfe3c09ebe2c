import { defineConfig } from 'vitest/config';
import { PlainSummaryReporter } from './test/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The cluster stage runs apart: npm run test:cluster (vitest.cluster.config.ts).
    exclude: ['**/node_modules/**', 'test/cluster/**'],
    // Generous: many process tests start the CLI several times in a row, and CI machines run loaded.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', new PlainSummaryReporter()],
  },
});
