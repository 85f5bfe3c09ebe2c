/**
 * A language model evaluated from the Run view, end to end: the scripted
 * chat-completions server (test/llm/scripted-server.ts, a real HTTP server
 * on 127.0.0.1) stands in for the endpoint, `emberbench serve` reads the API
 * key from its environment, and Debian Chromium drives the page. Three
 * trials of one configuration are started from the form's fields, the live
 * token counter is seen moving, each trial ends complete, and the Trial page
 * shows the operational record and the efficiency view. The key is then
 * searched for in every byte the archive folder holds.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannerScript, startScriptedServer, type ScriptedServer } from '../test/llm/scripted-server.js';
import { must } from './review-setup.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const KEY_ENV = 'EMBER_E2E_LLM_KEY';
const KEY = 'sk-e2e-SECRET-00112233445566778899';
const MODEL = 'scripted-planner';

const missing = skipReason('language-model');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.skipIf(missing !== null)('a language model from the Run view', () => {
  let session: AppSession | undefined;
  let dir: string;
  let endpoint: ScriptedServer;
  let page: Page;
  let packId: string;
  let openedTrial = 0;
  let pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

  beforeAll(async () => {
    // A little latency per answer, so the run lasts long enough to watch its counter.
    const planner = plannerScript('X0');
    endpoint = await startScriptedServer(async (request) => {
      await new Promise((r) => setTimeout(r, 15));
      return planner(request);
    });
    // `emberbench serve` inherits this process's environment: the key is only ever there.
    process.env[KEY_ENV] = KEY;
    session = await openSession({ prefix: 'ember-e2e-llm-', context: { viewport: { width: 1360, height: 1000 }, reducedMotion: 'reduce' } });
    ({ dir, pageErrors } = session);
    const api = session.api;
    const suites = must(await api['suites.list']({}), 'suites');
    const manifest = must(await api['manifests.create']({ suiteHash: suites[0]!.suiteHash, seeds: ['0'] }), 'manifest');
    packId = must(await api['packs.build']({ manifestHash: manifest.manifestHash }), 'pack').packId;
    page = await session.openPage();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Run/ }).click();
    await page.locator('main h1', { hasText: 'Run' }).waitFor();
  });

  afterAll(async () => {
    delete process.env[KEY_ENV];
    await session?.close();
    await endpoint?.close();
  });

  test('the adapter settings are form fields; a setting the services refuse is marked on its field', async () => {
    await page.locator('.segmented label', { hasText: 'Language model' }).click();
    await page.getByLabel('Base URL', { exact: true }).fill(endpoint.baseUrl);
    await page.getByLabel('Model', { exact: true }).fill(MODEL);
    await page.getByLabel('API key variable', { exact: true }).fill(KEY_ENV);
    // "0.70" is fine (kept exact, spelled "0.7"); above 2 is refused.
    await page.getByLabel('Temperature', { exact: true }).fill('2.5');
    await page.getByLabel('Environment pack (optional)').selectOption({ label: packId });
    await page.getByRole('button', { name: 'Start evaluation' }).click();
    const bad = page.locator('.field.invalid[data-field="agent.config.temperature"]');
    await bad.waitFor();
    expect(await bad.textContent()).toMatch(/must be at most 2 \(got 2\.5\)/);
    // The fields write the JSON configuration the services read.
    expect(JSON.parse(await page.getByLabel('Adapter configuration (JSON)').inputValue())).toMatchObject({ base_url: endpoint.baseUrl, model: MODEL, api_key_env: KEY_ENV, temperature: '2.5' });
    await bad.scrollIntoViewIfNeeded();
    await shot('llm-field-error');
  });

  test('three trials run; the token counter moves; each trial shows its operational record and efficiency', async () => {
    await page.getByLabel('Temperature', { exact: true }).fill('0.7');
    await page.getByLabel('Mode', { exact: true }).selectOption('planner');
    await page.getByLabel('Planner interval (steps)').fill('4');
    await page.getByLabel('Input price per million tokens').fill('0.2');
    await page.getByLabel('Output price per million tokens').fill('0.8');
    await page.getByLabel('Cost unit', { exact: true }).fill('USD');
    await page.getByLabel('Model calls at once').fill('4');
    await page.getByLabel('Trials', { exact: true }).fill('3');
    await page.getByLabel('Concurrent episodes').fill('1');
    await page.getByRole('button', { name: 'Start evaluation' }).click();

    // The live counter of the running trial: its input tokens grow while the episodes are in flight.
    const counter = page.locator('.running:not(.ended) [data-testid="usage-counter"]').first();
    await counter.waitFor({ timeout: 60_000 });
    const tokens = async () => Number((await counter.getAttribute('data-input-tokens')) ?? 0);
    await expect.poll(tokens, { timeout: 60_000 }).toBeGreaterThan(0);
    const first = await tokens();
    await expect.poll(tokens, { timeout: 60_000 }).toBeGreaterThan(first);
    expect(await counter.textContent()).toMatch(/cost \d+(\.\d+)? USD/);
    await counter.scrollIntoViewIfNeeded();
    await shot('llm-run-live');

    const ended = page.locator('.running.ended');
    await expect.poll(() => ended.count(), { timeout: 240_000, interval: 500 }).toBe(3);
    const classes = await Promise.all([0, 1, 2].map(async (i) => (await ended.nth(i).getAttribute('class')) ?? ''));
    expect(classes.every((c) => c.includes('complete') && !c.includes('incomplete')), classes.join(', ')).toBe(true);
    expect(await ended.first().locator('[data-testid="usage-counter"]').textContent()).toMatch(/input \+/);
    await ended.first().scrollIntoViewIfNeeded();
    await shot('llm-three-trials');

    openedTrial = Number(await ended.first().getAttribute('data-trial'));
    await ended.first().getByRole('button', { name: 'Open trial' }).click();
    const record = page.locator('.card', { has: page.getByRole('heading', { name: 'Operational record' }) });
    await record.waitFor({ timeout: 60_000 });
    expect(await record.textContent()).toMatch(/input tokens/);
    const efficiency = page.getByTestId('efficiency');
    await efficiency.waitFor();
    expect(await page.getByTestId('points-per-unit').textContent()).toMatch(/^\d+(\.\d)?$/);
    await record.scrollIntoViewIfNeeded();
    await shot('llm-trial-operational');
  });

  test('the replay of an episode shows its transcript, the call that drove the shown step marked', async () => {
    await page.getByRole('heading', { name: 'Episodes' }).scrollIntoViewIfNeeded();
    await page.getByRole('grid', { name: 'episodes' }).locator('.vbody [role="row"]', { hasText: 'v1-pub-02-single-exit-dense' }).click();
    await page.locator('main h1', { hasText: 'Replay: episode 1' }).waitFor();
    await page.getByTestId('replay-canvas').waitFor({ timeout: 30_000 });
    const panel = page.getByTestId('transcript');
    await panel.waitFor();
    const calls = panel.locator('.transcript-calls li');
    await expect.poll(() => calls.count()).toBeGreaterThan(1);
    // Planner interval 4: a call at steps 0, 4, 8...; at step 0 the first is marked.
    expect(await calls.first().getAttribute('data-current')).toBe('true');
    expect(await calls.nth(1).getAttribute('data-step')).toBe('4');
    // Its step button seeks the replay there: that call becomes the marked one.
    await calls.nth(1).getByRole('button', { name: 'step 4' }).click();
    await expect.poll(() => calls.nth(1).getAttribute('data-current')).toBe('true');
    expect(await calls.first().getAttribute('data-current')).toBe('false');
    expect(await calls.nth(1).locator('pre.transcript-text').last().textContent()).toBe('{"targets":{"*":"X0"}}');
    await panel.scrollIntoViewIfNeeded();
    await shot('llm-replay-transcript');
  });

  test('a trial of the run shows "trial k of 3", the combined score, and links to the model\'s history', async () => {
    await page.evaluate(`window.location.hash = '#/trials/${openedTrial}'`);
    await page.locator('main h1', { hasText: MODEL }).waitFor();
    const card = page.getByTestId('series-card');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByRole('heading').textContent()).toMatch(/^Trial [123] of 3 of this run$/);
    expect(await card.textContent()).toMatch(/Combined score\d+(\.\d)?\/ 100 points, 3 trials/);
    expect(await card.getByTestId('series-interval').textContent()).toMatch(/^95% interval \[\d+(\.\d)?, \d+(\.\d)?\]$/);
    expect(await card.locator('[aria-current="page"]').textContent()).toBe(`Trial ${openedTrial} (this page)`);
    expect(await card.getByRole('button', { name: /^Trial \d+$/ }).count()).toBe(2);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SHOTS, 'llm-series-card.png') });
    await shot('llm-trial-series');

    await page.getByTestId('model-history-link').click();
    await page.locator('main h1', { hasText: 'Models' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/models?model=${MODEL}`);
    const history = page.getByTestId('model-history');
    expect(await history.getByRole('heading', { level: 2 }).textContent()).toBe(`History of ${MODEL}`);
    await expect.poll(() => history.textContent(), { timeout: 30_000 }).toContain('3 scored trials');
    await page.goBack();
    await page.locator('main h1', { hasText: MODEL }).waitFor();
    // A model this archive does not hold is said so, not silently swapped for another.
    await page.evaluate(`window.location.hash = '#/models?model=no-such-model'`);
    await page.getByTestId('model-unknown').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('model-unknown').textContent()).toContain('no trial of a model named no-such-model');
    await page.goBack();
    await page.locator('main h1', { hasText: MODEL }).waitFor();
  });

  test('the Trials table\'s default columns fit a 1360 px window: no sideways scroll bar', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await page.locator('main h1', { hasText: 'Trials' }).waitFor();
    const table = page.locator('.vtable').first();
    await table.locator('.vbody [role="row"]').first().waitFor({ timeout: 30_000 });
    expect(page.viewportSize()?.width).toBe(1360);
    const [scrollWidth, clientWidth] = await table.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth, `the table is ${scrollWidth} px wide in a box of ${clientWidth} px`).toBeLessThanOrEqual(clientWidth);
    await shot('llm-trials-1360');
  });

  test('the API key is in no file of the archive folder, and no page error happened', () => {
    const files = filesUnder(dir);
    expect(files.some((f) => f.endsWith('.jsonl'))).toBe(true);
    expect(files.filter((f) => readFileSync(f).includes(Buffer.from(KEY)))).toEqual([]);
    expect(endpoint.requests.length).toBeGreaterThan(0);
    expect(endpoint.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
