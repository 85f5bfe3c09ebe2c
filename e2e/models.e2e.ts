/**
 * History, many models and the step view end to end (issue 22), in Debian
 * Chromium against `emberbench serve`: three baselines evaluated against a
 * pack and a second trial of the first model; the Models view's history
 * chart of that model (its points in time order, each opening its trial by
 * keyboard); three models compared at once with the same paired outcomes as
 * the Leaderboard; and the replay's step view of a chosen person, checked
 * against the run record the server holds. axe on each, screenshots.
 */

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeRecordFrames } from '../src/core/replay/record-frames.js';
import { observationAt, personStepAt } from '../src/core/replay/step-observation.js';
import { parseRecordText } from '../src/core/sim/record-codec.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import type { WorkbenchApi } from '../src/shared/api/client.js';
import { axeViolations, tabTo } from './axe.js';
import { fillArchive, must, waitForTrial, type ReviewFixture } from './review-setup.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const MODEL_C = 'e2e-nearest-exit';
const missing = skipReason('models');

describe.skipIf(missing !== null)('models: history chart, several models, step view', () => {
  let session: AppSession | undefined;
  let page: Page;
  let api: WorkbenchApi;
  let fx: ReviewFixture;
  let trialC: number;
  let secondA: number;
  let pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `models-${name}.png`), fullPage: true });
  const h1 = (text: string) => page.locator('main h1', { hasText: text }).waitFor({ timeout: 60_000 });

  beforeAll(async () => {
    session = await openSession({ prefix: 'ember-models-e2e-' });
    ({ api, pageErrors } = session);
    fx = await fillArchive(api, [
      ['e2e-static-shortest-path', 'static-shortest-path-v1'],
      ['e2e-congestion-aware', 'congestion-aware-v1'],
    ]);
    const { manifestHash, packId } = must(await api['trials.get']({ trialId: fx.trialA }), 'trial A').trial;
    const pack = must(await api['packs.list']({}), 'packs').find((p) => p.packId === packId)!;
    const run = async (modelId: string, agent: string) => {
      const { trialId } = must(await api['runs.start']({ manifestHash, packDigest: pack.packDigest, agent: { kind: 'builtin', id: agent }, modelId, jobs: 2 }), `run ${modelId}`);
      await waitForTrial(api, trialId, 180_000);
      return trialId;
    };
    trialC = await run(MODEL_C, 'nearest-exit-greedy-v1');
    // A second trial of model A, with another agent's moves: its history has two different points.
    secondA = await run(fx.modelA, 'nearest-exit-greedy-v1');
    page = await session.openPage();
  });

  afterAll(() => session?.close());

  test("the history chart shows a model's trials in time order and each point opens its trial from the keyboard", async () => {
    await page.keyboard.press('Alt+0');
    await h1('Models');
    await page.getByTestId('models-list').locator('button', { hasText: fx.modelA }).click();
    const chart = page.getByTestId('model-history').getByTestId('history-chart');
    await chart.waitFor({ timeout: 30_000 });
    const points = chart.locator('.history-point');
    await expect.poll(() => points.count()).toBe(2);
    expect(await points.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-trial'))))).toEqual([fx.trialA, secondA]);
    // Each point says its trial's score and interval, exactly as the trial page rounds them.
    for (const [k, trialId] of [fx.trialA, secondA].entries()) {
      const t = must(await api['trials.get']({ trialId }), 'trial').trial;
      const label = await points.nth(k).getAttribute('aria-label');
      expect(label).toContain(`EMBER Score ${t.scoreRounded}`);
      expect(label).toMatch(/95% interval \d+\.\d to \d+\.\d/);
    }
    expect(await axeViolations(page)).toEqual([]);
    await shot('history');
    // Keyboard: Tab to the second point, Enter opens its trial.
    await tabTo(page, `.history-point[data-trial="${secondA}"]`);
    await page.keyboard.press('Enter');
    await page.getByTestId('headline-score').waitFor({ timeout: 60_000 });
    await h1(fx.modelA);
    expect(JSON.parse((await page.evaluate(`localStorage.getItem('ember.location')`)) as string)).toEqual({ view: 'trial', trialId: secondA });
    expect(pageErrors).toEqual([]);
  });

  test('three models compared at once carry the Leaderboard’s paired outcomes beside the family chart', async () => {
    await page.keyboard.press('Alt+0');
    await h1('Models');
    for (const model of [fx.modelA, fx.modelB, MODEL_C]) await page.getByLabel(`Compare ${model}`).check();
    const compare = page.getByTestId('models-compare');
    await compare.getByRole('button', { name: 'Compare 3 models' }).click();
    const result = page.getByTestId('models-result');
    await result.waitFor({ timeout: 120_000 });
    // The same board the Leaderboard ranks: each model's latest scored trial on the pack.
    const board = must(await api.leaderboard({}), 'leaderboard').boards.find((b) => b.official)!;
    expect(board.rows.map((r) => r.trialIds[0]).sort()).toEqual([secondA, fx.trialB, trialC].sort());
    const rows = result.getByTestId('board').locator('tbody tr');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-model')))).toEqual(board.rows.map((r) => r.modelId));
    const marks = await result.getByTestId('vs-next').allTextContents();
    board.rows.forEach((r, k) => expect(marks[k]!.startsWith(r.vsNext ?? '–')).toBe(true));
    await expect.poll(() => result.getByTestId('models-families').locator('rect').count()).toBeGreaterThanOrEqual(3 * 2);
    expect(await result.getByTestId('models-scores').locator('circle').count()).toBe(3);
    expect(await axeViolations(page)).toEqual([]);
    await result.screenshot({ path: join(SHOTS, 'models-compare.png') });
    expect(pageErrors).toEqual([]);
  });

  test('the step view shows what the agent saw and did for a chosen person, as the record holds it', async () => {
    const index = 1;
    await page.evaluate(`window.location.hash = '#/trials/${fx.trialB}/episodes/${index}'`);
    await h1(`Replay: episode ${index}`);
    const map = page.getByTestId('replay-map');
    await map.locator('canvas').first().waitFor({ timeout: 30_000 });
    await map.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('n');
    const step = page.getByTestId('step-view');
    await step.waitFor();
    const person = Number((await page.getByTestId('person-evidence').getAttribute('aria-label'))!.replace('Person p', ''));
    const r = must(await api['episodes.replay']({ trialId: fx.trialB, index }), 'replay');
    const scenario = parseScenarioText(r.scenarioText, r.scenarioId);
    const record = parseRecordText(r.recordText!, 'record');
    const frames = decodeRecordFrames(scenario.grid, record);
    const expected = personStepAt(record.trajectory, frames, 2, person)!;
    expect(await step.locator('h3').textContent()).toContain('Step 2:');
    expect(await page.getByTestId('step-action').textContent()).toMatch(new RegExp(`^${expected.action} `));
    const observation = observationAt(scenario.grid, frames, scenario.maxSteps, 2);
    const k = observation.people.findIndex((p) => p.id === `p${String(person).padStart(4, '0')}`);
    expect(await page.getByTestId('step-entry').textContent()).toBe(`people[${k}] of ${observation.people.length}: {"id":"${observation.people[k]!.id}","cell":[${observation.people[k]!.cell.join(',')}]}`);
    await step.locator('summary').click();
    expect(JSON.parse((await page.getByTestId('step-json').textContent())!)).toEqual(JSON.parse(JSON.stringify(observation)));
    expect(await axeViolations(page)).toEqual([]);
    await shot('step-view');
    // One step on, the view follows the replay.
    await map.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => step.locator('h3').textContent()).toContain('Step 3:');
    expect(pageErrors).toEqual([]);
  });
});
