/**
 * Trial housekeeping end to end, in Debian Chromium against `emberbench
 * serve`: two CLI results imported, a label, tags and notes edited on a
 * trial's page and found again after a reload, the Trials table filtered
 * by tag, and a trial deleted after a confirmation that names it (the
 * other trial stays, `archive check` passes afterwards).
 */

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emberbench } from './cli.js';
import { ROOT } from './server.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const SUITE = join(ROOT, 'scenarios', 'public', 'v1');

const missing = skipReason('housekeeping');

describe.skipIf(missing !== null)('trial housekeeping in browser mode', () => {
  let session: AppSession | undefined;
  let archive: string;
  let page: Page;
  let pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  async function openTrial(model: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await page.locator('.vbody').getByText(model).first().click();
    await page.locator('main h1', { hasText: model }).waitFor();
  }

  beforeAll(async () => {
    session = await openSession({
      prefix: 'ember-e2e-hk-',
      prepare: async (folder) => {
        const stored = join(folder, 'archive.sqlite');
        const manifest = join(folder, 'manifest.json');
        await emberbench('evaluation', 'manifest', '--suite', SUITE, '--seed', '2', '--out', manifest);
        for (const model of ['hk-kept', 'hk-deleted']) {
          await emberbench('evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', model, '--agent', 'builtin:nearest-exit-greedy-v1', '--out', join(folder, `${model}.json`));
        }
        await emberbench('archive', 'import', join(folder, 'hk-kept.json'), join(folder, 'hk-deleted.json'), '--archive', stored);
        return stored;
      },
    });
    ({ archive, pageErrors } = session);
    page = await session.openPage();
  });

  afterAll(() => session?.close());

  test('edits a label, tags and notes; they survive a reload and filter the Trials table', async () => {
    await openTrial('hk-kept');
    const form = page.getByRole('form', { name: 'Label, tags and notes' });
    await form.getByLabel('Label').fill('baseline for the report');
    await form.getByLabel('Tags').fill('baseline, nightly');
    await form.getByLabel('Notes').fill('Seed 2 only.\nCompare with the fire-aware run.');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await shot('housekeeping-notes');

    // A bad tag is refused at its field; what was saved stays.
    await form.getByLabel('Tags').fill('two words!');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.textContent()).toMatch(/is not a tag: use 1 to 40 letters/);

    await page.reload();
    await page.locator('main h1').waitFor();
    await openTrial('hk-kept');
    const again = page.getByRole('form', { name: 'Label, tags and notes' });
    await expect.poll(() => again.getByLabel('Label').inputValue()).toBe('baseline for the report');
    expect(await again.getByLabel('Tags').inputValue()).toBe('baseline nightly');
    expect(await again.getByLabel('Notes').inputValue()).toBe('Seed 2 only.\nCompare with the fire-aware run.');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await page.getByLabel('Filter by tag').selectOption('nightly');
    await expect.poll(() => page.locator('.vbody').textContent()).not.toContain('hk-deleted');
    expect(await page.locator('.vbody').textContent()).toContain('hk-kept');
    await shot('housekeeping-tag-filter');
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });

  test('deletes a trial after a confirmation that names it; the other stays and archive check passes', async () => {
    await openTrial('hk-deleted');
    await page.getByRole('button', { name: 'Delete trial…' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect.poll(() => dialog.textContent()).toMatch(/Delete trial 2 \(hk-deleted\)\?.*stored episodes.*cannot be undone/s);
    await shot('housekeeping-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete trial 2' }).click();
    await page.locator('main h1', { hasText: 'Trials' }).waitFor();
    await expect.poll(() => page.locator('.vbody').textContent()).not.toContain('hk-deleted');
    expect(await page.locator('.vbody').textContent()).toContain('hk-kept');
    await shot('housekeeping-deleted');
    // archive check reads while the server holds the writer lock.
    const check = JSON.parse((await emberbench('archive', 'check', '--archive', archive, '--json')).stdout) as { ok: boolean; trials_checked: number };
    expect(check).toMatchObject({ ok: true, trials_checked: 1 });
    expect(pageErrors).toEqual([]);
  });
});
