/**
 * Accessibility end to end (issue 25), in Debian Chromium against `emberbench
 * serve` with the page's Content-Security-Policy on: axe-core (WCAG 2.2 A and
 * AA rules) on every view of the router in one session, each in the state a
 * user sees it with data in it (a trial, a replay with a person chosen and a
 * language-model transcript, a comparison with its lockstep replay, a
 * generator preview, a refused form), then keyboard-only runs of the main
 * flow (manifest → run → trial → replay), the Leaderboard, Compare and the
 * replay map: only key presses, no click.
 */

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannerConfig, plannerScript, startScriptedServer, type ScriptedServer } from '../test/llm/scripted-server.js';
import { axeViolations, focused, tabTo } from './axe.js';
import { fillArchive, must, waitForTrial, type ReviewFixture } from './review-setup.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const KEY_ENV = 'EMBER_E2E_A11Y_KEY';
const LLM_MODEL = 'e2e-a11y-language-model';
const KEYBOARD_MODEL = 'e2e-keyboard-only';

const missing = skipReason('accessibility');

describe.skipIf(missing !== null)('accessibility: axe on every view, keyboard-only flows', () => {
  let session: AppSession | undefined;
  let dir: string;
  let endpoint: ScriptedServer | null = null;
  let page: Page;
  let fx: ReviewFixture;
  let llmTrial: number;
  let pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `a11y-${name}.png`) });
  const h1 = (text: string) => page.locator('main h1', { hasText: text }).waitFor({ timeout: 60_000 });
  const isFocused = (selector: string) => page.evaluate(`!!document.activeElement && document.activeElement.matches(${JSON.stringify(selector)})`);

  beforeAll(async () => {
    endpoint = await startScriptedServer(plannerScript('X0'));
    process.env[KEY_ENV] = 'sk-a11y-e2e';
    // Its own data folder: the Signing keys test makes a key there, never in the user's.
    session = await openSession({ prefix: 'ember-a11y-e2e-', ownDataFolder: true });
    ({ dir, pageErrors } = session);
    const api = session.api;
    fx = await fillArchive(api, [
      ['e2e-static-shortest-path', 'static-shortest-path-v1'],
      ['e2e-congestion-aware', 'congestion-aware-v1'],
    ]);
    // A language-model trial (unofficial), for the transcript beside its replay.
    const manifest = must(await api['trials.get']({ trialId: fx.trialA }), 'trial').trial.manifestHash;
    llmTrial = must(await api['runs.start']({ manifestHash: manifest, agent: { kind: 'openai-chat', config: plannerConfig(endpoint.baseUrl, KEY_ENV, { planner_interval: 4 }), maxConnections: 2 }, modelId: LLM_MODEL, jobs: 2 }), 'llm run').trialId;
    await waitForTrial(api, llmTrial, 180_000);
    page = await session.openPage();
  });

  afterAll(async () => {
    delete process.env[KEY_ENV];
    await session?.close();
    await endpoint?.close();
  });

  test('axe finds no WCAG 2.2 A/AA violation in any view', async () => {
    const found: Record<string, string[]> = {};
    const check = async (name: string) => {
      const v = await axeViolations(page);
      if (v.length > 0) found[name] = v;
    };
    const nav = async (key: string, title: string) => {
      await page.keyboard.press(`Alt+${key}`);
      await h1(title);
    };

    await nav('1', 'Project');
    await page.locator('main table').first().waitFor({ timeout: 30_000 });
    await check('Project');

    await nav('2', 'Suites and packs');
    await page.locator('.previews canvas').first().waitFor({ timeout: 30_000 });
    await check('Suites and packs');

    await nav('3', 'Manifests');
    await page.getByLabel('Seeds').fill('1');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor({ timeout: 60_000 });
    await check('Manifests (a manifest just created)');
    await page.getByLabel('Seeds').fill('zero');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    await page.locator('.field.invalid[data-field="seeds"]').waitFor({ timeout: 30_000 });
    await check('Manifests (a refused seed)');
    await page.getByLabel('Seeds').fill('');

    await nav('4', 'Run');
    await check('Run');
    await page.locator('.segmented label', { hasText: 'Language model' }).click();
    await page.getByLabel('Adapter configuration (JSON)').waitFor();
    await check('Run (language-model fields)');
    await page.locator('.segmented label', { hasText: 'Baseline' }).click();

    await nav('5', 'Trials');
    await page.locator('.vbody [role="row"]').first().waitFor({ timeout: 30_000 });
    await check('Trials');

    await page.locator('.vbody [role="row"]', { hasText: fx.modelA }).first().click();
    await page.getByTestId('headline-score').waitFor({ timeout: 60_000 });
    await page.getByRole('grid', { name: 'episodes' }).locator('[role="row"]').nth(3).waitFor({ timeout: 30_000 });
    await check('Trial');

    await page.getByRole('grid', { name: 'episodes' }).locator('[role="row"]', { hasText: 'v1-pub-10-large-hall' }).click();
    await h1('Replay: episode 9');
    const map = page.getByTestId('replay-map');
    await map.locator('canvas').first().waitFor({ timeout: 30_000 });
    await map.focus();
    await page.keyboard.press('n');
    await page.getByTestId('person-evidence').waitFor();
    await check('Replay (a person chosen)');
    await shot('replay');

    // Its address, then a reload: the route alone brings the replay back.
    await page.evaluate(`window.location.hash = '#/trials/${llmTrial}/episodes/1'`);
    await page.reload();
    await h1('Replay: episode 1');
    const calls = page.getByTestId('transcript').locator('.transcript-calls li');
    await expect.poll(() => calls.count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await calls.nth(1).getByRole('button', { name: 'step 4' }).click();
    await expect.poll(() => calls.nth(1).getAttribute('aria-current')).toBe('step');
    await check('Replay (a language-model transcript)');
    await page.getByTestId('transcript').scrollIntoViewIfNeeded();
    await shot('replay-transcript');

    await nav('6', 'Compare');
    await page.getByRole('group', { name: 'A trials' }).getByLabel(new RegExp(`Trial ${fx.trialA} · ${fx.modelA}`)).check();
    await page.getByRole('group', { name: 'B trials' }).getByLabel(new RegExp(`Trial ${fx.trialB} · ${fx.modelB}`)).check();
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByTestId('compare-outcome').waitFor({ timeout: 60_000 });
    await page.getByTestId('paired-table').locator('tbody tr', { hasText: 'v1-pub-10-large-hall' }).click();
    await expect.poll(() => page.getByTestId('lockstep').locator('canvas').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await check('Compare (a result and its lockstep replay)');

    await nav('7', 'Leaderboard');
    await page.getByTestId('board').first().waitFor({ timeout: 60_000 });
    await check('Leaderboard');
    await shot('leaderboard');

    await nav('8', 'Generate');
    await page.getByRole('button', { name: 'Preview' }).waitFor({ timeout: 30_000 });
    await check('Generate');

    await nav('9', 'Signing keys');
    await page.getByTestId('own-key').waitFor({ timeout: 30_000 });
    await check('Signing keys');

    expect(found).toEqual({});
  });

  test('keyboard only: manifest → run → trial → replay, focus following each action', async () => {
    await page.keyboard.press('Alt+3');
    await h1('Manifests');
    await tabTo(page, 'input[aria-describedby]:not([type])');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    // Focus goes to the result.
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor({ timeout: 60_000 });
    await expect.poll(() => isFocused('[data-testid="manifest-created"]'), { timeout: 10_000 }).toBe(true);

    await page.keyboard.press('Alt+4');
    await h1('Run');
    // A refused Start (a model ID over 256 characters), pressed on the button, puts the focus on the field at fault.
    await tabTo(page, '[data-field="modelId"] input');
    await page.keyboard.insertText('x'.repeat(300));
    await tabTo(page, 'button.primary[type="submit"]');
    await page.keyboard.press('Enter');
    await page.locator('.field.invalid[data-field="modelId"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => isFocused('[data-field="modelId"] input'), { timeout: 10_000 }).toBe(true);
    await shot('run-refused');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(KEYBOARD_MODEL);
    await tabTo(page, '[data-field="jobs"] input');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    // Focus goes to the started run's card, which names the run.
    await expect.poll(() => isFocused('[data-trial]'), { timeout: 60_000 }).toBe(true);
    const card = page.locator('.running.ended.complete', { hasText: KEYBOARD_MODEL });
    await card.waitFor({ timeout: 240_000 });
    await shot('run-finished');
    await tabTo(page, '.running.ended button');
    expect(await focused(page)).toMatch(/Open trial/);
    await page.keyboard.press('Enter');
    await h1(KEYBOARD_MODEL);
    await tabTo(page, '[role="grid"][aria-label="episodes"]');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await h1('Replay: episode');
    await page.getByTestId('replay-map').locator('canvas').first().waitFor({ timeout: 30_000 });
    // Replay keys work after a button was pressed (focus on a button, not in a text field).
    await tabTo(page, 'button', { limit: 30 });
    await page.keyboard.press('End');
    const clock = page.getByTestId('replay-clock');
    const steps = Number(/\/ (\d+)/.exec((await clock.textContent())!)![1]);
    await expect.poll(() => clock.textContent()).toBe(`step ${steps} / ${steps}`);
    await page.keyboard.press('Home');
    await expect.poll(() => clock.textContent()).toBe(`step 0 / ${steps}`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => clock.textContent()).toBe(`step 2 / ${steps}`);
    expect(await page.getByTestId('replay-scrubber').getAttribute('aria-valuetext')).toBe(`step 2 of ${steps}`);
    expect(await page.getByTestId('replay-step-text').textContent()).toMatch(/^Step 2 of \d+: \d+ active, \d+ evacuated, \d+ dead, \d+ stranded/);
  });

  test('keyboard only: the replay map zooms, pans, chooses a person and follows them', async () => {
    const map = page.getByTestId('replay-map');
    await tabTo(page, '[data-testid="replay-map"]');
    const view = async () => ({ zoom: Number(await map.getAttribute('data-zoom')), x: Number(await map.getAttribute('data-pan-x')), y: Number(await map.getAttribute('data-pan-y')) });
    const fit = await view();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await expect.poll(async () => (await view()).zoom).toBeGreaterThan(fit.zoom);
    const zoomed = await view();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => (await view()).x).toBeLessThan(zoomed.x);
    expect((await view()).y).toBeLessThan(zoomed.y);
    await page.keyboard.press('-');
    await expect.poll(async () => (await view()).zoom).toBeLessThan(zoomed.zoom);
    await page.keyboard.press('0');
    await expect.poll(view).toEqual(fit);
    expect(await map.getAttribute('data-fitted')).toBe('true');
    // The Fit map button (a mouse user's "0") updates what the page says about the view as well.
    await page.keyboard.press('+');
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => map.getAttribute('data-fitted')).toBe('false');
    expect(await view()).not.toEqual(fit);
    await tabTo(page, 'button', { text: /^Fit map$/, back: true });
    await page.keyboard.press('Enter');
    await expect.poll(view).toEqual(fit);
    expect(await map.getAttribute('data-fitted')).toBe('true');
    await tabTo(page, '[data-testid="replay-map"]');
    // Arrows without Shift still step the replay while the map has focus.
    const clock = page.getByTestId('replay-clock');
    const before = await clock.textContent();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => clock.textContent()).not.toBe(before);

    await page.keyboard.press('n');
    const evidence = page.getByTestId('person-evidence');
    await evidence.waitFor();
    const first = await evidence.getAttribute('aria-label');
    await page.keyboard.press('n');
    await expect.poll(() => evidence.getAttribute('aria-label')).not.toBe(first);
    await page.keyboard.press('p');
    await expect.poll(() => evidence.getAttribute('aria-label')).toBe(first);
    expect(await page.getByTestId('replay-step-text').textContent()).toContain(first!.replace('Person ', ''));
    await page.keyboard.press('f');
    await expect.poll(() => evidence.getByLabel('Follow this person').isChecked()).toBe(true);
    await page.keyboard.press('f');
    await expect.poll(() => evidence.getByLabel('Follow this person').isChecked()).toBe(false);
    await shot('replay-map-keyboard');
    await page.keyboard.press('Escape');
    await expect.poll(() => evidence.count()).toBe(0);
    expect(await isFocused('[data-testid="replay-map"]')).toBe(true);
  });

  test('keyboard only: the Leaderboard opens a trial', async () => {
    await page.keyboard.press('Alt+7');
    await h1('Leaderboard');
    await page.getByTestId('board').first().waitFor({ timeout: 60_000 });
    await tabTo(page, '[data-testid="board"] tbody tr');
    const model = (await page.evaluate('document.activeElement.getAttribute("data-model")')) as string;
    await page.keyboard.press('Enter');
    await h1(model);
  });

  test('keyboard only: Compare reaches the side-by-side replay', async () => {
    await page.keyboard.press('Alt+6');
    await h1('Compare');
    await tabTo(page, `fieldset[aria-label="A trials"] input[data-trial="${fx.trialA}"]`);
    await page.keyboard.press('Space');
    await tabTo(page, `fieldset[aria-label="B trials"] input[data-trial="${fx.trialB}"]`);
    await page.keyboard.press('Space');
    await tabTo(page, 'button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.getByTestId('compare-outcome').waitFor({ timeout: 60_000 });
    await expect.poll(() => isFocused('[data-testid="compare-result"]'), { timeout: 10_000 }).toBe(true);
    await tabTo(page, '[data-testid="paired-table"] tbody tr');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const lockstep = page.getByTestId('lockstep');
    await expect.poll(() => lockstep.locator('canvas').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await expect.poll(() => isFocused('[data-testid="lockstep-focus"]'), { timeout: 10_000 }).toBe(true);
    await page.keyboard.press('End');
    const clock = lockstep.getByTestId('replay-clock');
    // At the last step, even if the longer side loaded after End was pressed.
    const atEnd = async (): Promise<boolean> => {
      const shown = /step (\d+) \/ (\d+)/.exec((await clock.textContent()) ?? '');
      return shown !== null && shown[1] === shown[2] && shown[2] !== '0';
    };
    await expect.poll(atEnd, { timeout: 30_000 }).toBe(true);
    await lockstep.scrollIntoViewIfNeeded();
    await shot('compare-lockstep-keyboard');
  });

  test('keyboard only: Generate sends the focus to the field at fault, then to the preview', async () => {
    await page.keyboard.press('Alt+8');
    await h1('Generate');
    const rowsMin = '[data-family="dead_end_rooms"] input[aria-label="dead_end_rooms Rows min"]';
    await tabTo(page, rowsMin, { limit: 400 });
    const kept = await page.locator(rowsMin).inputValue();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.locator(`${rowsMin}[aria-invalid="true"]`).waitFor({ timeout: 60_000 });
    await expect.poll(() => isFocused(rowsMin), { timeout: 10_000 }).toBe(true);
    await shot('generate-refused-keyboard');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(kept);
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused('.card h2'), { timeout: 120_000 }).toBe(true);
    expect(await focused(page)).toMatch(/Preview of batch gen-/);
  });

  test('keyboard only: Signing keys sends the focus to what each action did, or the field at fault', async () => {
    await page.keyboard.press('Alt+9');
    await h1('Signing keys');
    await tabTo(page, 'button', { text: /^Create signing key$/ });
    await page.keyboard.press('Enter');
    const ownNotice = '[data-testid="own-key-notice"]';
    await expect.poll(() => isFocused(ownNotice), { timeout: 60_000 }).toBe(true);
    expect(await focused(page)).toMatch(/Created a signing key\. Fingerprint/);
    await tabTo(page, 'button', { text: /^Trust this key$/, back: true });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator(ownNotice).textContent(), { timeout: 60_000 }).toMatch(/^Trusted this app's key/);
    expect(await isFocused(ownNotice)).toBe(true);

    await tabTo(page, '[data-field="publicKey"] input');
    await page.keyboard.type('abc');
    await page.keyboard.press('Enter');
    await page.locator('.field.invalid[data-field="publicKey"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => isFocused('[data-field="publicKey"] input'), { timeout: 10_000 }).toBe(true);
    await shot('signing-refused-keyboard');

    await tabTo(page, '[data-testid="trusted-key"] button', { back: true });
    await page.keyboard.press('Enter');
    const trustNotice = '[data-testid="trust-notice"]';
    await expect.poll(() => isFocused(trustNotice), { timeout: 60_000 }).toBe(true);
    expect(await focused(page)).toMatch(/Removed "this app"/);
    expect(await page.getByTestId('trusted-key').count()).toBe(0);
    // The key's own notice ("Trusted this app's key") no longer holds, so it is gone.
    expect(await page.getByTestId('own-key-notice').count()).toBe(0);
    await shot('signing-removed-keyboard');
  });

  test('keyboard only: an official bundle export sends the focus to its notice, a refused one to the folder field', async () => {
    await page.evaluate(`window.location.hash = '#/trials/${fx.trialA}'`);
    await h1(fx.modelA);
    const folder = '[data-testid="bundle-export"] [data-field="outDir"] input';
    await tabTo(page, folder, { limit: 300 });
    await page.keyboard.type(join(dir, 'keyboard-bundle'));
    await page.keyboard.press('Enter');
    const written = '[data-testid="bundle-notice"]';
    await expect.poll(() => isFocused(written), { timeout: 120_000 }).toBe(true);
    expect(await focused(page)).toMatch(/^div\.notice\.ok "Wrote/);
    await page.locator(written).scrollIntoViewIfNeeded();
    await shot('bundle-written-keyboard');
    // The same folder again is refused (never overwritten): the focus goes back to the folder field.
    await tabTo(page, folder, { back: true });
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="bundle-export"] .field.invalid[data-field="outDir"]').waitFor({ timeout: 60_000 });
    await expect.poll(() => isFocused(folder), { timeout: 10_000 }).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
