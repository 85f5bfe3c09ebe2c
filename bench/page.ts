/**
 * Browser mode, page to interactive: `emberbench serve` on a fresh archive,
 * Debian's Chromium loads the printed URL, and the time is taken until the
 * Project view has drawn its figures from the services (the suites count is
 * on screen), so the page answers clicks. Median of several cold loads
 * (a new browser context each: no cache, a new token cookie).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumMissing, launchChromium } from '../e2e/browser.js';
import { startServe } from '../e2e/server.js';
import type { Figure } from './harness.js';

const LOADS = 5;

export async function benchPage(): Promise<Figure[]> {
  const missing = chromiumMissing();
  if (missing !== null) {
    console.log(`  skipped: ${missing}`);
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'ember-bench-page-'));
  const serve = await startServe(join(dir, 'archive.sqlite'));
  const browser = await launchChromium();
  try {
    const times: number[] = [];
    for (let i = 0; i < LOADS + 1; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const start = performance.now();
      await page.goto(serve.url);
      // The overview's suite count comes from a services call: the page is drawn and wired.
      await page.getByText('Suites', { exact: true }).first().waitFor();
      await page.getByRole('heading', { name: 'Project' }).waitFor();
      const elapsed = performance.now() - start;
      if (i > 0) times.push(elapsed); // the first load also warms the server
      await context.close();
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    return [{ name: 'browser mode: page to interactive (Project view drawn from the services), median of 5 cold loads', value: median, unit: 'ms', goal: '< 1000 ms', ok: median < 1000 }];
  } finally {
    await browser.close();
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
