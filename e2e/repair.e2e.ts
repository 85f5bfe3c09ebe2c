/**
 * A damaged trial in browser mode: a CLI result imported into an archive,
 * its stored deflate stream then cut short as the old bug stored app
 * results. The trial's page marks it damaged and offers Repair; after the
 * repair the export works and its result is the CLI's, byte for byte.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cutStoredResult } from '../test/archive/damage.js';
import { emberbench } from './cli.js';
import { ROOT } from './server.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const SUITE = join(ROOT, 'scenarios', 'public', 'v1');
const MODEL = 'e2e-damaged';

const missing = skipReason('repair');

describe.skipIf(missing !== null)('a damaged trial in browser mode', () => {
  let session: AppSession | undefined;
  let dir: string;
  let result: string;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    session = await openSession({
      prefix: 'ember-e2e-repair-',
      context: { viewport: { width: 1360, height: 900 }, reducedMotion: 'reduce' },
      expectedConsole: 'none',
      prepare: async (folder) => {
        const archive = join(folder, 'archive.sqlite');
        const manifest = join(folder, 'manifest.json');
        result = join(folder, 'result.json');
        await emberbench('evaluation', 'manifest', '--suite', SUITE, '--seed', '0', '--out', manifest);
        await emberbench('evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', MODEL, '--agent', 'builtin:static-shortest-path-v1', '--out', result);
        await emberbench('archive', 'import', result, '--archive', archive);
        const cut = cutStoredResult(archive, 1);
        expect(cut.after).toBeLessThan(cut.before);
        return archive;
      },
    });
    ({ dir, pageErrors } = session);
    page = await session.openPage();
  });

  afterAll(() => session?.close());

  test('the trial page marks it damaged; Repair restores it and the export is the CLI result', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await page.locator('main h1', { hasText: 'Trials' }).waitFor();
    await expect.poll(() => page.locator('.vbody').textContent(), { timeout: 30_000 }).toContain(MODEL);
    await page.locator('.vtable').first().focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.locator('main h1', { hasText: MODEL }).waitFor();

    const mark = page.getByTestId('trial-damaged');
    await mark.waitFor({ timeout: 60_000 });
    expect(await mark.textContent()).toMatch(/damaged.*cannot be decompressed/);
    await page.screenshot({ path: join(SHOTS, 'trial-damaged.png') });

    await mark.getByRole('button', { name: 'Repair' }).click();
    const outcome = page.getByTestId('trial-repair-outcome');
    await outcome.waitFor({ timeout: 120_000 });
    expect(await outcome.textContent()).toMatch(/^Repaired: .*rebuilt from its 10 stored episodes/);
    await expect.poll(() => mark.count(), { timeout: 30_000 }).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'trial-repaired.png') });

    const out = join(dir, 'export');
    await page.getByLabel('New folder').fill(out);
    await page.getByRole('button', { name: 'Export trial' }).click();
    await page.getByRole('status').filter({ hasText: 'Wrote' }).waitFor({ timeout: 60_000 });
    expect(readFileSync(join(out, 'result.json')).equals(readFileSync(result))).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
