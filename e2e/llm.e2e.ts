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

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannerScript, startScriptedServer, type ScriptedServer } from '../test/llm/scripted-server.js';
import { chromiumMissing, launchChromium } from './browser.js';
import { apiOf, must } from './review-setup.js';
import { ROOT, startServe, type ServeProcess } from './server.js';

const SHOTS = join(ROOT, 'e2e', 'screenshots');
const KEY_ENV = 'EMBER_E2E_LLM_KEY';
const KEY = 'sk-e2e-SECRET-00112233445566778899';
const MODEL = 'scripted-planner';

const missing = chromiumMissing();
if (missing !== null) console.log(`language-model e2e skipped: ${missing}`);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.skipIf(missing !== null)('a language model from the Run view', () => {
  let dir: string;
  let server: ServeProcess | null = null;
  let endpoint: ScriptedServer;
  let browser: Browser;
  let page: Page;
  let packId: string;
  const pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'ember-e2e-llm-'));
    // A little latency per answer, so the run lasts long enough to watch its counter.
    const planner = plannerScript('X0');
    endpoint = await startScriptedServer(async (request) => {
      await new Promise((r) => setTimeout(r, 15));
      return planner(request);
    });
    // `emberbench serve` inherits this process's environment: the key is only ever there.
    process.env[KEY_ENV] = KEY;
    server = await startServe(join(dir, 'archive.sqlite'));
    const api = apiOf(server);
    const suites = must(await api['suites.list']({}), 'suites');
    const manifest = must(await api['manifests.create']({ suiteHash: suites[0]!.suiteHash, seeds: ['0'] }), 'manifest');
    packId = must(await api['packs.build']({ manifestHash: manifest.manifestHash }), 'pack').packId;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1360, height: 1000 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    await page.goto(server.url);
    await page.locator('main h1').waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Run/ }).click();
    await page.locator('main h1', { hasText: 'Run' }).waitFor();
  });

  afterAll(async () => {
    delete process.env[KEY_ENV];
    await browser?.close();
    await server?.stop();
    await endpoint?.close();
    rmSync(dir, { recursive: true, force: true });
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

  test('the API key is in no file of the archive folder, and no page error happened', () => {
    const files = filesUnder(dir);
    expect(files.some((f) => f.endsWith('.jsonl'))).toBe(true);
    expect(files.filter((f) => readFileSync(f).includes(Buffer.from(KEY)))).toEqual([]);
    expect(endpoint.requests.length).toBeGreaterThan(0);
    expect(endpoint.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
