/**
 * Adds one plain closing line to a test run, `N passed, N failed` (and
 * `, N skipped`), after vitest's own summary, so that logs read by simple
 * tools (CI dashboards) see the counts in a fixed form.
 */

import type { Reporter, TestModule } from 'vitest/node';

export class PlainSummaryReporter implements Reporter {
  /** `label` (one word) prefixes the line: `e2e: 12 passed, 0 failed`. */
  constructor(private readonly label?: string) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else if (state === 'skipped') skipped++;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (module.state() === 'failed' && module.children.size === 0) failed++;
    }
    process.stdout.write(`\n${this.label === undefined ? '' : `${this.label}: `}${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
  }
}
