/**
 * The workbench end to end, in Debian Chromium against `emberbench serve`:
 * a manifest made in the Manifests view, a baseline evaluated from the Run
 * view with live progress to 100%, the trial's headline checked against
 * `emberbench score` on the exported result, a CLI result imported through
 * the file input, the trials table sorted and filtered, and both trials
 * found again after the server restarts on the same archive.
 */

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emberbench, headlineOf } from './cli.js';
import { ROOT } from './server.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const SUITE = join(ROOT, 'scenarios', 'public', 'v1');
const UI_MODEL = 'e2e-ui-congestion-aware';
const CLI_MODEL = 'e2e-cli-fire-aware';
const RESUMED_MODEL = 'e2e-cancelled-then-resumed';

const missing = skipReason('workbench');

describe.skipIf(missing !== null)('workbench in browser mode', () => {
  let session: AppSession | undefined;
  let dir: string;
  let page: Page;
  let pageErrors: string[] = [];

  async function view(name: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await page.locator('main h1', { hasText: name }).waitFor();
  }

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

  beforeAll(async () => {
    // A CSP violation or a failed call logged on the console is a bug this suite must surface (the session collects them).
    session = await openSession({ prefix: 'ember-e2e-', context: { viewport: { width: 1360, height: 900 }, reducedMotion: 'reduce' } });
    ({ dir, pageErrors } = session);
    page = await session.openPage();
  });

  afterAll(() => session?.close());

  test('creates a manifest of seed 0 in the Manifests view (seed values never shown)', async () => {
    await view('Manifests');
    await page.getByLabel('Seeds').fill('0');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'created' });
    await expect.poll(() => notice.textContent(), { timeout: 60_000 }).toMatch(/10 episodes \(10 scenarios × 1 seed\)/);
    await expect.poll(() => page.locator('table').last().textContent()).toContain('ember-public');
    await shot('manifests');
  });

  test('a bad seed is refused with the field highlighted', async () => {
    await page.getByLabel('Seeds').fill('zero');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    await page.locator('.field.invalid[data-field="seeds"]').waitFor({ timeout: 30_000 });
    await shot('manifests-error');
    await page.getByLabel('Seeds').fill('');
  });

  test('Suites and packs: map previews, validation, a missing folder refused, a pack built and verified', async () => {
    await page.keyboard.press('Alt+2');
    await page.locator('main h1', { hasText: 'Suites and packs' }).waitFor();
    await expect.poll(() => page.locator('.previews canvas').count(), { timeout: 30_000 }).toBe(10);
    expect(await page.locator('.previews canvas').first().getAttribute('aria-label')).toMatch(/^Map of v1-pub-01-single-exit-sparse: 12 by 24 cells, 1 exit cell, 10 people/);
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.locator('.notice.ok').waitFor({ timeout: 60_000 });
    await shot('suites');
    await page.getByLabel('Folder').fill(join(dir, 'no-such-suite'));
    await page.getByRole('button', { name: 'Add suite' }).click();
    await page.locator('.field.invalid[data-field="dir"], .list-card [role="alert"]').first().waitFor({ timeout: 30_000 });
    await page.getByLabel('Folder').fill('');
    await page.getByRole('button', { name: 'Build pack' }).click();
    const packRow = page.locator('table tbody tr').filter({ hasText: '10' });
    await packRow.first().waitFor({ timeout: 120_000 });
    await packRow.first().getByRole('button', { name: 'Verify' }).click();
    await packRow.first().locator('.ok-text').waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { name: 'Environment packs' }).scrollIntoViewIfNeeded();
    await shot('packs');
  });

  test('evaluates a baseline from the Run view, with live progress to 100%', async () => {
    await view('Run');
    await page.getByLabel('Baseline agent').selectOption('congestion-aware-v1');
    await page.getByLabel('Model ID').fill(UI_MODEL);
    await page.getByLabel('Concurrent episodes').fill('1');
    await page.getByRole('button', { name: 'Start evaluation' }).click();
    await page.getByRole('progressbar').first().waitFor({ timeout: 30_000 });
    // A screenshot part way, when the run is slow enough to catch one (it may finish first).
    await page
      .locator('.running:not(.ended) .run-episodes')
      .filter({ hasNotText: /^0 of/ })
      .waitFor({ timeout: 20_000 })
      .then(() => shot('run-progress'))
      .catch(() => undefined);
    const finished = page.locator('.running.ended.complete');
    await finished.waitFor({ timeout: 240_000 });
    expect(await finished.locator('.run-percent').textContent()).toBe('100%');
    expect(await finished.locator('.run-episodes').textContent()).toBe('10 of 10 episodes');
    await shot('run-finished');
  });

  test("the trial's headline equals what `emberbench score` prints for the exported result", async () => {
    await page.locator('.running.ended.complete').getByRole('button', { name: 'Open trial' }).click();
    const headline = page.getByTestId('headline-score');
    await headline.waitFor({ timeout: 60_000 });
    const shown = (await headline.textContent())!.trim();
    await shot('trial');
    await page.getByRole('heading', { name: 'Episodes' }).scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByRole('grid', { name: 'episodes' }).locator('.vbody [role="row"]').count()).toBe(10);
    await shot('trial-episodes');

    const out = join(dir, 'export-ui');
    await page.getByLabel('New folder').fill(out);
    await page.getByRole('button', { name: 'Export trial' }).click();
    await page.getByRole('status').filter({ hasText: 'Wrote' }).waitFor({ timeout: 60_000 });
    const resultFile = readdirSync(out).find((f) => /result.*\.json$/.test(f) && !/score/.test(f));
    expect(resultFile, `no result file among ${readdirSync(out).join(', ')}`).toBeDefined();
    const cliReport = join(dir, 'cli.score.json');
    const { stdout } = await emberbench('score', '--suite', SUITE, '--result', join(out, resultFile!), '--out', cliReport);
    expect(shown).toBe(headlineOf(stdout));
    // The archive's report of the trial is the CLI's, byte for byte, when the export carries it.
    const exportedReport = readdirSync(out).find((f) => /score.*\.json$/.test(f));
    if (exportedReport !== undefined) expect(readFileSync(join(out, exportedReport), 'utf8')).toBe(readFileSync(cliReport, 'utf8'));
    console.log(`exported: ${readdirSync(out).join(', ')}; headline ${shown}`);
  });

  test('imports a result made with `emberbench evaluation run` through the file input', async () => {
    const manifest = join(dir, 'manifest-cli.json');
    const result = join(dir, 'result-cli.json');
    await emberbench('evaluation', 'manifest', '--suite', SUITE, '--seed', '1', '--out', manifest);
    await emberbench('evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', CLI_MODEL, '--agent', 'builtin:fire-aware-shortest-path-v1', '--out', result);
    await view('Trials');
    await page.getByLabel('Choose a result file to import').setInputFiles(result);
    await page.getByRole('status').filter({ hasText: 'imported' }).waitFor({ timeout: 120_000 });
    await expect.poll(() => page.locator('.vbody').textContent(), { timeout: 30_000 }).toContain(CLI_MODEL);
    await shot('trials-imported');
  });

  test('a file that is not a result is refused with the reason', async () => {
    const bogus = join(dir, 'not-a-result.json');
    writeFileSync(bogus, '{"result_version": "1.0"}\n');
    await page.getByLabel('Choose a result file to import').setInputFiles(bogus);
    await page.getByRole('alert').waitFor({ timeout: 60_000 });
    await shot('import-refused');
    await page.getByRole('alert').getByRole('button', { name: 'Dismiss the error' }).click();
  });

  test('sorts and filters the trials table', async () => {
    const scores = async () => (await page.locator('.vbody [role="row"] [role="gridcell"]:nth-child(3) strong').allTextContents()).map(Number);
    await page.locator('.vhead button[data-sort="score"]').click();
    await expect.poll(async () => (await scores()).length).toBe(2);
    const desc = await scores();
    expect(desc[0]).toBeGreaterThanOrEqual(desc[1]!);
    await page.locator('.vhead button[data-sort="score"]').click();
    await expect.poll(scores).toEqual([...desc].reverse());
    await page.getByLabel('Filter by model').fill('cli');
    await expect.poll(() => page.locator('.vbody [role="row"]').count()).toBe(1);
    expect(await page.locator('.vbody').textContent()).toContain(CLI_MODEL);
    await shot('trials-filtered');
    await page.getByLabel('Filter by model').fill('no-such-model');
    await page.getByText('No trial matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('.vbody [role="row"]').count()).toBe(2);
    // Keyboard: the table takes the arrows and Enter, Alt+digit jumps between views.
    await page.locator('.vtable').first().focus();
    await page.keyboard.press('End');
    const lastModel = (await page.locator('.vbody [role="row"].active .model').textContent())!;
    await page.keyboard.press('Enter');
    await page.locator('main h1', { hasText: lastModel }).waitFor();
    await page.keyboard.press('Alt+5');
    await page.locator('main h1', { hasText: 'Trials' }).waitFor();
    // The app remembers the last view across a reload.
    await page.reload();
    await page.locator('main h1', { hasText: 'Trials' }).waitFor();
  });

  test('cancels a running evaluation and resumes it to the end', async () => {
    await view('Manifests');
    await page.getByLabel('Seeds').fill('0..2');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    await page.getByRole('status').filter({ hasText: '30 episodes' }).waitFor({ timeout: 60_000 });
    await view('Run');
    const manifest = page.getByLabel('Manifest');
    const option = manifest.locator('option').filter({ hasText: '30 episodes' });
    await manifest.selectOption((await option.getAttribute('value'))!);
    await page.getByLabel('Baseline agent').selectOption('congestion-aware-v1');
    await page.getByLabel('Model ID').fill(RESUMED_MODEL);
    await page.getByLabel('Concurrent episodes').fill('1');
    await page.getByRole('button', { name: 'Start evaluation' }).click();
    const running = page.locator('.running:not(.ended)');
    await running.locator('.run-episodes').filter({ hasNotText: /^0 of/ }).waitFor({ timeout: 60_000 });
    await running.getByRole('button', { name: 'Cancel' }).click();
    const interrupted = page.locator('.card', { has: page.getByRole('heading', { name: 'Interrupted trials' }) }).locator('tr', { hasText: RESUMED_MODEL });
    await interrupted.waitFor({ timeout: 60_000 });
    await shot('run-interrupted');
    await interrupted.getByRole('button', { name: 'Resume' }).click();
    const done = page.locator('.running.ended.complete');
    await expect.poll(() => done.locator('.run-episodes').allTextContents(), { timeout: 240_000 }).toContain('30 of 30 episodes');
    // The finished card shows the trial's score (over every episode, also those before the cancel) and the elapsed time.
    const card = done.filter({ hasText: '30 of 30 episodes' }).first();
    await expect.poll(() => card.locator('.run-score').textContent(), { timeout: 30_000 }).toMatch(/^score \d+\.\d$/);
    expect(await card.textContent()).not.toContain('running score');
    expect(await card.locator('.run-elapsed').textContent()).toMatch(/^elapsed \d/);
    await shot('run-resumed');
  });

  test('finds both trials again after the server restarts on the same archive', async () => {
    await page.context().close();
    expect(await session!.stopServe()).toBe(0);
    await session!.startServe();
    page = await session!.openPage();
    await view('Trials');
    await expect.poll(() => page.locator('.vbody').textContent(), { timeout: 30_000 }).toContain(UI_MODEL);
    expect(await page.locator('.vbody').textContent()).toContain(CLI_MODEL);
    await shot('trials-after-restart');
    await view('Project');
    await shot('overview');
  });

  test('an agent command that cannot start stops the run with the reason, and the trial waits for resume', async () => {
    await view('Run');
    await page.locator('.segmented label', { hasText: 'Command' }).click();
    await page.getByLabel('Agent command').fill('ember-no-such-program --flag');
    await page.getByLabel('Model ID').fill('e2e-broken-command');
    await page.getByRole('button', { name: 'Start evaluation' }).click();
    const ended = page.locator('.running.ended');
    await ended.first().waitFor({ timeout: 120_000 });
    await expect.poll(() => ended.first().getAttribute('class')).toMatch(/failed|incomplete|cancelled/);
    const reason = ended.first().getByRole('alert');
    await reason.scrollIntoViewIfNeeded();
    expect(await reason.textContent()).toMatch(/\S/);
    await shot('run-agent-failed');
    const interrupted = page.locator('.card', { has: page.getByRole('heading', { name: 'Interrupted trials' }) });
    await expect.poll(() => interrupted.textContent(), { timeout: 30_000 }).toContain('e2e-broken-command');
  });

  test('the language-model agent takes its adapter configuration, and malformed JSON is caught on its field', async () => {
    await page.locator('.segmented label', { hasText: 'Language model' }).click();
    const config = page.getByLabel('Adapter configuration (JSON)');
    expect(JSON.parse(await config.inputValue())).toMatchObject({ adapter_version: '1.0' });
    await config.fill('{"base_url": ');
    await page.getByRole('button', { name: 'Start evaluation' }).click();
    await page.locator('.field.invalid[data-field="agent.config"]').waitFor();
    await page.locator('.field.invalid[data-field="agent.config"]').scrollIntoViewIfNeeded();
    await shot('run-llm-config-error');
  });

  test('no page error and no CSP violation happened', () => {
    expect(pageErrors).toEqual([]);
  });
});
