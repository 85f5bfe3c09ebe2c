/**
 * Adds plain closing lines to a test run, after vitest's own summary: the
 * slowest files, so that a new slow file is seen and moved to the process
 * stage (test/process-stage.ts) before it stretches `npm test` past its ten
 * minutes; then, last and in a fixed form for simple tools (CI dashboards),
 * `N passed, N failed` (and `, N skipped`).
 */

import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the closing lines name. */
const SLOWEST_SHOWN = 5;

export interface FileTime {
  readonly file: string;
  readonly ms: number;
}

/** The `count` slowest files, slowest first (the time of their tests and hooks). */
export function slowestFiles(times: readonly FileTime[], count: number): FileTime[] {
  return [...times].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file)).slice(0, count);
}

export function slowestFilesLine(times: readonly FileTime[]): string {
  const shown = slowestFiles(times, SLOWEST_SHOWN).map(({ file, ms }) => `${file} ${(ms / 1000).toFixed(1)} s`);
  return shown.length === 0 ? '' : `slowest files: ${shown.join(', ')}\n`;
}

export class PlainSummaryReporter implements Reporter {
  /** `label` (one word) prefixes the line: `e2e: 12 passed, 0 failed`. */
  constructor(private readonly label?: string) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const times: FileTime[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else if (state === 'skipped') skipped++;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (module.state() === 'failed' && module.children.size === 0) failed++;
      times.push({ file: module.relativeModuleId, ms: module.diagnostic().duration });
    }
    const prefix = this.label === undefined ? '' : `${this.label}: `;
    // The counts stay the very last line: simple tools read that one.
    process.stdout.write(`\n${slowestFilesLine(times)}${prefix}${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
  }
}
