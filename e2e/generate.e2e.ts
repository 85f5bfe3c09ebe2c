/**
 * The Generate view end to end, in Debian Chromium against `emberbench
 * serve`: a small configuration set in the form, a field at fault marked,
 * previews drawn, the batch frozen, listed as a generated suite beside the
 * public one, and a manifest made of it in the Manifests view. The frozen
 * suite is checked against `emberbench generated create` of the same
 * configuration and seed (the same suite hash).
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emberbench } from './cli.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const BATCH_SEED = '42';

const missing = skipReason('generate');

describe.skipIf(missing !== null)('Generate view in browser mode', () => {
  let session: AppSession | undefined;
  let dir: string;
  let page: Page;
  let pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
  const family = (kind: string) => page.locator(`tr[data-family="${kind}"]`);

  beforeAll(async () => {
    // A refused call shows in the view (the browser logs its 4xx); anything else on the console is a bug.
    session = await openSession({ prefix: 'ember-e2e-generate-', context: { viewport: { width: 1360, height: 900 }, reducedMotion: 'reduce' }, expectedConsole: /status of 4\d\d/ });
    ({ dir, pageErrors } = session);
    page = await session.openPage();
  });

  afterAll(() => session?.close());

  test('the form starts from the default configuration and is cut down to two small families', async () => {
    await page.keyboard.press('Alt+8');
    await page.locator('main h1', { hasText: 'Generate' }).waitFor();
    await family('large_hall_crowd').getByLabel('large_hall_crowd count').waitFor();
    expect(await page.locator('.family-table input[type="checkbox"]:checked').count()).toBe(10);
    // Leave single_exit_low_density and dead_end_rooms, two scenarios each.
    for (const kind of ['single_exit_high_density', 'narrow_corridor_bottleneck', 'uneven_exit_choice', 'central_ignition', 'route_invalidation', 'fast_spread', 'multi_room_office', 'large_hall_crowd']) {
      await family(kind).getByRole('checkbox').uncheck();
    }
    await family('single_exit_low_density').getByLabel('single_exit_low_density count').fill('2');
    await family('dead_end_rooms').getByLabel('dead_end_rooms count').fill('2');
    await page.getByLabel('Batch seed').fill(BATCH_SEED);
    await page.getByLabel('Suite ID').fill('e2e-generated');
    await page.locator('.raw-config summary').click();
    const raw = await page.getByLabel('Configuration JSON').inputValue();
    const config = JSON.parse(raw) as { suite_id: string; families: { family: string; count: number }[] };
    expect(config.suite_id).toBe('e2e-generated');
    expect(config.families.map((f) => [f.family, f.count])).toEqual([
      ['single_exit_low_density', 2],
      ['dead_end_rooms', 2],
    ]);
    await page.locator('main h1').scrollIntoViewIfNeeded();
    await shot('generate-form');
  });

  test('a range the family cannot hold is refused with that field marked', async () => {
    await family('dead_end_rooms').getByLabel('dead_end_rooms Rows min').fill('3');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 30_000 }).toMatch(/families\[1\]\.rows\[0\]: 3 is below/);
    expect(await family('dead_end_rooms').getByLabel('dead_end_rooms Rows min').getAttribute('aria-invalid')).toBe('true');
    expect(await family('dead_end_rooms').getByLabel('dead_end_rooms Rows max').getAttribute('aria-invalid')).toBe('false');
    expect(await family('dead_end_rooms').getAttribute('class')).toBe('invalid');
    await page.getByRole('alert').scrollIntoViewIfNeeded();
    await shot('generate-error');
    await family('dead_end_rooms').getByLabel('dead_end_rooms Rows min').fill('12');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  test('the raw JSON editor catches malformed JSON on its own field', async () => {
    const editor = page.getByLabel('Configuration JSON');
    const good = await editor.inputValue();
    await editor.fill(good.replace('"count": 2', '"count": 2,,'));
    await page.getByText(/The JSON below does not parse/).waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.field.invalid[data-field="configText"]').waitFor({ timeout: 30_000 });
    await editor.fill(good);
    await family('dead_end_rooms').getByRole('checkbox').waitFor();
  });

  test('previews draw every scenario of the batch, then Freeze lists it beside the public suite', async () => {
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.locator('.previews canvas').count(), { timeout: 60_000 }).toBe(4);
    const heading = await page.getByRole('heading', { name: /^Preview of batch gen-[0-9a-f]{16}$/ }).textContent();
    const batchId = heading!.replace('Preview of batch ', '');
    expect(await page.locator('.previews canvas').first().getAttribute('aria-label')).toMatch(/^Map of single-exit-low-density-001: \d+ by \d+ cells/);
    await page.locator('.previews').scrollIntoViewIfNeeded();
    await shot('generate-preview');

    await page.getByRole('button', { name: 'Freeze batch' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'frozen' });
    await expect.poll(() => notice.textContent(), { timeout: 60_000 }).toContain(`Batch ${batchId} frozen as suite e2e-generated`);
    // The focus follows the action to its notice (the Freeze button stays, but the news is below it).
    expect(await page.evaluate('document.activeElement?.getAttribute("data-testid")')).toBe('frozen-notice');
    await shot('generate-frozen');

    // The same batch from the CLI has the same suite hash.
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, await page.getByLabel('Configuration JSON').inputValue());
    await emberbench('generated', 'create', '--config', configFile, '--batch-seed', BATCH_SEED, '--out', join(dir, 'batch'));
    const record = JSON.parse(readFileSync(join(dir, 'batch', 'generation.json'), 'utf8')) as { batch_id: string; suite_hash: string };
    expect(record.batch_id).toBe(batchId);
    expect(await notice.locator('code[title]').getAttribute('title')).toBe(record.suite_hash);

    await notice.getByRole('button', { name: 'Suites and packs' }).click();
    await page.locator('main h1', { hasText: 'Suites and packs' }).waitFor();
    const suites = page.getByRole('list', { name: 'Suites' });
    await expect.poll(() => suites.getByRole('button').count(), { timeout: 30_000 }).toBe(2);
    expect(await suites.getByRole('button', { name: /ember-public/ }).textContent()).toMatch(/public$/);
    await suites.getByRole('button', { name: /e2e-generated/ }).click();
    expect(await suites.getByRole('button', { name: /e2e-generated/ }).textContent()).toMatch(/4 scenarios · generated$/);
    await expect.poll(() => page.locator('.previews canvas').count(), { timeout: 30_000 }).toBe(4);
    await shot('generate-suites');
  });

  test('a manifest is made of the generated suite in the Manifests view', async () => {
    await page.keyboard.press('Alt+3');
    await page.locator('main h1', { hasText: 'Manifests' }).waitFor();
    const suite = page.getByLabel('Suite');
    const option = suite.locator('option', { hasText: 'e2e-generated' });
    await suite.selectOption((await option.getAttribute('value'))!);
    await page.getByLabel('Seeds').fill('0..2');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'created' });
    await expect.poll(() => notice.textContent(), { timeout: 60_000 }).toMatch(/12 episodes \(4 scenarios × 3 seeds\)/);
    await expect.poll(() => page.locator('table').last().textContent()).toContain('e2e-generated');
    await shot('generate-manifest');
  });

  test('no page error happened', () => {
    expect(pageErrors).toEqual([]);
  });
});
