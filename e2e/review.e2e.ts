/**
 * The review views end to end (issue 10), in Debian Chromium against
 * `emberbench serve`: two baselines evaluated against a pack (set up through
 * the server's API), a replay opened from the trial's episode table, played,
 * paused and scrubbed to the end with the counts checked against the run
 * record, the fire's spread checked in the pixels of screenshots, two
 * baselines compared with the outcome and the per-family bars, the lockstep
 * scrubber, a bundle exported and verified by the CLI, and the HTML report
 * opened from disk with the network off.
 */

import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeRecordFrames, type RecordFrames } from '../src/core/replay/record-frames.js';
import type { ComparisonArtifact } from '../src/core/scoring/compare.js';
import { parseRecordText } from '../src/core/sim/record-codec.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import type { WorkbenchApi } from '../src/shared/api/client.js';
import { emberbench } from './cli.js';
import { fillArchive, must, type ReviewFixture } from './review-setup.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const LARGE_HALL = 9;
const missing = skipReason('review');

/** One episode as the test knows it: the record decoded by the core library, and the grid. */
async function episodeFrames(api: WorkbenchApi, trialId: number, index: number): Promise<{ frames: RecordFrames; cols: number; rows: number }> {
  const r = must(await api['episodes.replay']({ trialId, index }), 'episodes.replay');
  const scenario = parseScenarioText(r.scenarioText, r.scenarioId);
  const frames = decodeRecordFrames(scenario.grid, parseRecordText(r.recordText!, 'record'));
  return { frames, cols: scenario.grid.cols, rows: scenario.grid.rows };
}

function countsText(frames: RecordFrames, step: number): string {
  const k = Math.min(step, frames.steps) * 4;
  const c = frames.counts;
  return `active ${c[k]}evacuated ${c[k + 1]}dead ${c[k + 2]}stranded ${c[k + 3]}`;
}

/** RGB of canvas pixels in a PNG screenshot, decoded by the page itself (Chromium is the PNG decoder). */
const PIXELS = `async ([b64, pts]) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + b64;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.width;
  c.height = img.height;
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return pts.map((p) => Array.from(ctx.getImageData(p.x, p.y, 1, 1).data.slice(0, 3)));
}`;

async function pixels(page: Page, png: Buffer, points: readonly { x: number; y: number }[]): Promise<number[][]> {
  return (await page.evaluate(`(${PIXELS})(${JSON.stringify([png.toString('base64'), points])})`)) as number[][];
}

const fiery = ([r, g, b]: number[]) => r! > 130 && r! > g! + 60 && r! > b! + 80;

describe.skipIf(missing !== null)('review views in browser mode', () => {
  let session: AppSession | undefined;
  let dir: string;
  let browser: Browser;
  let page: Page;
  let api: WorkbenchApi;
  let fx: ReviewFixture;
  let pageErrors: string[] = [];
  /** Scripts of the Web Workers the page started (the replay authenticates records in one). */
  const workers: string[] = [];
  const shot = (name: string, target: Page | Locator = page) => target.screenshot({ path: join(SHOTS, `${name}.png`) });
  const clock = (scope: Page | Locator = page) => scope.getByTestId('replay-clock').first().textContent();

  beforeAll(async () => {
    session = await openSession({ prefix: 'ember-review-e2e-', context: { viewport: { width: 1360, height: 1000 }, acceptDownloads: true } });
    ({ dir, api, browser, pageErrors } = session);
    fx = await fillArchive(api, [
      ['e2e-static-shortest-path', 'static-shortest-path-v1'],
      ['e2e-congestion-aware', 'congestion-aware-v1'],
    ], ['e2e-unofficial-fire-aware', 'fire-aware-shortest-path-v1']);
    page = await session.openPage();
    page.on('worker', (w) => workers.push(w.url()));
  });

  afterAll(() => session?.close());

  test('opens a replay from the episode table, plays, pauses, scrubs to the end: the counts are the record outcome', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await page.locator('.vbody [role="row"]', { hasText: fx.modelA }).first().click();
    await page.getByRole('heading', { name: 'Episodes' }).scrollIntoViewIfNeeded();
    await page.getByRole('grid', { name: 'episodes' }).locator('.vbody [role="row"]', { hasText: 'v1-pub-10-large-hall' }).click();
    await page.locator('main h1', { hasText: 'Replay: episode 9' }).waitFor();
    const canvas = page.getByTestId('replay-canvas');
    await canvas.waitFor({ timeout: 30_000 });
    const { frames, cols, rows } = await episodeFrames(api, fx.trialA, LARGE_HALL);
    expect(await clock()).toBe(`step 0 / ${frames.steps}`);
    expect(await page.getByTestId('replay-counts').textContent()).toBe(countsText(frames, 0));
    // The record was authenticated and decoded in the episode worker, not on the page's thread.
    expect(workers.some((url) => /episode-worker/.test(url)), workers.join(', ')).toBe(true);

    // Fire-spread pixels: cells that burn by step k but not at 0, with nobody on them at either step.
    const k = Math.min(frames.steps, 40);
    const box = (await canvas.boundingBox())!;
    const cell = Math.min(box.width / (cols * 16), box.height / (rows * 16)) * 16;
    const ox = (box.width - cols * cell) / 2;
    const oy = (box.height - rows * cell) / 2;
    const occupied = new Set<number>();
    for (const s of [0, k]) for (let i = 0; i < frames.people; i++) if (frames.status[s * frames.people + i] !== 1) occupied.add(frames.cells[s * frames.people + i]!);
    const spread: { x: number; y: number }[] = [];
    for (let c = 0; c < cols * rows && spread.length < 12; c++) {
      const b = frames.burnStep[c]!;
      if (b > 0 && b <= k - 1 && !occupied.has(c)) spread.push({ x: Math.round(ox + ((c % cols) + 0.5) * cell), y: Math.round(oy + (Math.floor(c / cols) + 0.5) * cell) });
    }
    expect(spread.length, 'the fire spreads in this episode').toBeGreaterThan(3);
    const before = await pixels(page, await canvas.screenshot({ path: join(SHOTS, 'replay-step-0.png') }), spread);
    expect(before.filter(fiery)).toEqual([]);

    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => Number(/step (\d+)/.exec((await clock())!)![1]), { timeout: 20_000 }).toBeGreaterThan(3);
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await clock();
    await page.waitForTimeout(400);
    expect(await clock()).toBe(paused);
    await shot('replay-paused');

    // Scrub to step k with the keyboard on the slider, then look at the same cells.
    const scrubber = page.getByTestId('replay-scrubber');
    await scrubber.focus();
    await page.keyboard.press('Home');
    for (let s = 0; s < k; s++) await page.keyboard.press('ArrowRight');
    expect(await clock()).toBe(`step ${k} / ${frames.steps}`);
    expect(await page.getByTestId('replay-counts').textContent()).toBe(countsText(frames, k));
    const after = await pixels(page, await canvas.screenshot({ path: join(SHOTS, `replay-step-${k}.png`) }), spread);
    expect(after.every(fiery), JSON.stringify(after)).toBe(true);

    await page.keyboard.press('End');
    expect(await clock()).toBe(`step ${frames.steps} / ${frames.steps}`);
    const record = parseRecordText(must(await api['episodes.replay']({ trialId: fx.trialA, index: LARGE_HALL }), 'replay').recordText!, 'record');
    const outcome = { evacuated: 0, dead: 0, stranded: 0 };
    for (const [status] of record.outcomes) outcome[status] += 1;
    expect(await page.getByTestId('replay-counts').textContent()).toBe(`active 0evacuated ${outcome.evacuated}dead ${outcome.dead}stranded ${outcome.stranded}`);
    await canvas.screenshot({ path: join(SHOTS, 'replay-end.png') });

    // A person's evidence: click the first person still on the map at step 0.
    await page.keyboard.press('Home');
    const first = frames.cells[0]!;
    await canvas.click({ position: { x: ox + ((first % cols) + 0.5) * cell, y: oy + (Math.floor(first / cols) + 0.5) * cell } });
    const evidence = page.getByTestId('person-evidence');
    await evidence.waitFor();
    // The card opens beside the map, which shrinks and is fitted again: no part of it hidden (issue 22).
    const map = page.getByTestId('replay-map');
    await expect
      .poll(async () => {
        const [width, zoom, panX] = await map.evaluate((el) => [el.clientWidth, Number(el.dataset.zoom), Number(el.dataset.panX)]);
        return panX >= -0.5 && panX + cols * 16 * zoom <= width + 0.5;
      })
      .toBe(true);
    expect(await evidence.getByTestId('person-outcome').textContent()).toMatch(/^(evacuated|dead|stranded) at step \d+$/);
    expect(await evidence.textContent()).toMatch(/Li \(earliest possible evacuation step\)(\d+|none)/);
    await shot('replay-person');

    // PNG of the current step, downloaded by the page.
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save PNG of this step' }).click()]);
    const bytes = readFileSync((await png.path())!);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(2000);
  });

  test('the episode table downloads as CSV', async () => {
    await page.getByRole('button', { name: `← Trial ${fx.trialA}` }).click();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const lines = readFileSync((await csv.path())!, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('index,scenario,family,status,failure,score,evacuated,dead,stranded,steps,end');
    expect(lines).toHaveLength(11);
  });

  test('compares two baselines: the outcome, the per-family bars, the lockstep scrubber', async () => {
    await page.keyboard.press('Alt+6');
    await page.locator('main h1', { hasText: 'Compare' }).waitFor();
    await page.getByRole('group', { name: 'A trials' }).getByLabel(new RegExp(`Trial ${fx.trialA} · ${fx.modelA}`)).check();
    await page.getByRole('group', { name: 'B trials' }).getByLabel(new RegExp(`Trial ${fx.trialB} · ${fx.modelB}`)).check();
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const outcome = page.getByTestId('compare-outcome');
    await outcome.waitFor({ timeout: 60_000 });
    const artifact = must(await api['compare.trials']({ a: [fx.trialA], b: [fx.trialB] }), 'compare').artifact as ComparisonArtifact;
    expect(await outcome.textContent()).toBe(artifact.outcome);
    const bars = page.getByTestId('family-bars').locator('.family-bar');
    expect(await bars.count()).toBe(artifact.family_deltas.length);
    expect(artifact.family_deltas.length).toBeGreaterThan(1);
    expect(await bars.first().getAttribute('data-delta')).toBe(artifact.family_deltas[0]!.delta);
    await shot('compare');

    // The paired table opens with the largest difference (not exact ties); a row opens the lockstep replay of that episode and stays marked.
    const size = (d: string | null) => (d === null ? 0 : Math.abs(d.includes('/') ? Number(d.split('/')[0]) / Number(d.split('/')[1]) : Number(d)));
    const largest = [...artifact.episodes].sort((x, y) => size(y.difference) - size(x.difference) || x.index - y.index)[0]!;
    const firstRow = page.getByTestId('paired-table').locator('tbody tr').first();
    expect(await firstRow.locator('td').first().textContent()).toBe(String(largest.index));
    const hallRow = page.getByTestId('paired-table').locator('tbody tr', { hasText: 'v1-pub-10-large-hall' });
    await hallRow.click();
    expect(await hallRow.getAttribute('class')).toContain('replayed');
    const lockstep = page.getByTestId('lockstep');
    await expect.poll(() => lockstep.getByTestId('replay-canvas').count(), { timeout: 30_000 }).toBe(2);
    const a = await episodeFrames(api, fx.trialA, LARGE_HALL);
    const b = await episodeFrames(api, fx.trialB, LARGE_HALL);
    const max = Math.max(a.frames.steps, b.frames.steps);
    const scrubber = lockstep.getByTestId('replay-scrubber');
    expect(await scrubber.count()).toBe(1);
    await scrubber.focus();
    for (let s = 0; s < 30; s++) await page.keyboard.press('ArrowRight');
    expect(await clock(lockstep)).toBe(`step 30 / ${max}`);
    const counts = lockstep.getByTestId('replay-counts');
    expect(await counts.nth(0).textContent()).toBe(countsText(a.frames, 30));
    expect(await counts.nth(1).textContent()).toBe(countsText(b.frames, 30));
    await lockstep.scrollIntoViewIfNeeded();
    await shot('compare-lockstep-30');
    await page.keyboard.press('End');
    expect(await counts.nth(0).textContent()).toBe(countsText(a.frames, max));
    expect(await counts.nth(1).textContent()).toBe(countsText(b.frames, max));
    await shot('compare-lockstep-end');
  });

  test('exports a bundle the CLI verifies, refuses to overwrite it, and writes an HTML report that opens offline', async () => {
    const bundle = join(dir, 'bundle');
    const exportCard = page.getByTestId('bundle-export');
    await exportCard.getByLabel('New bundle folder').fill(bundle);
    await exportCard.getByRole('button', { name: 'Export bundle' }).click();
    await exportCard.getByTestId('bundle-notice').waitFor({ timeout: 120_000 });
    const { stdout } = await emberbench('bundle', 'verify', bundle);
    expect(stdout.length).toBeGreaterThan(0);
    await exportCard.getByRole('button', { name: 'Verify bundle' }).click();
    await exportCard.getByTestId('bundle-notice').filter({ hasText: /^Verified/ }).waitFor({ timeout: 60_000 });
    // A folder that is not there is said to be missing, with its path (not "malformed").
    const missing = join(dir, 'no-such-bundle');
    await exportCard.getByLabel('Bundle folder to verify').fill(missing);
    await exportCard.getByRole('button', { name: 'Verify bundle' }).click();
    await expect.poll(() => exportCard.textContent(), { timeout: 60_000 }).toContain(`there is no folder at ${missing}`);
    expect(await exportCard.textContent()).not.toContain('malformed');
    await exportCard.getByLabel('Bundle folder to verify').fill(bundle);

    // The same folder again: refused, with what to do.
    await exportCard.getByRole('button', { name: 'Export bundle' }).click();
    await exportCard.getByRole('alert').first().waitFor({ timeout: 60_000 });
    expect(await exportCard.textContent()).toContain('never replaced');

    const report = join(dir, 'report.html');
    await exportCard.getByLabel(/#9 v1-pub-10-large-hall/).check();
    // The report has its own bundle field (filled by the export) and says why it cannot be written yet.
    expect(await exportCard.getByLabel('Bundle folder of the report').inputValue()).toBe(bundle);
    expect(await exportCard.getByTestId('html-report-blocked').textContent()).toBe('Type a new file name for the report.');
    await exportCard.getByLabel('New HTML report file').fill(report);
    await exportCard.getByRole('button', { name: 'Write HTML report' }).click();
    await exportCard.getByTestId('report-notice').waitFor({ timeout: 120_000 });
    await exportCard.scrollIntoViewIfNeeded();
    await shot('compare-exported');
    expect(existsSync(report)).toBe(true);

    const offline = await browser.newContext({ viewport: { width: 1200, height: 900 }, offline: true });
    const requests: string[] = [];
    await offline.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const reader = await offline.newPage();
    await reader.goto(pathToFileURL(report).href);
    expect(await reader.locator('h1').first().textContent()).toMatch(/EMBER/);
    expect(await reader.locator('body').textContent()).toContain(fx.modelA);
    const replay = reader.locator('[data-replay]').first();
    await replay.waitFor();
    await replay.scrollIntoViewIfNeeded();
    expect(await replay.locator('[data-clock]').textContent()).toMatch(/^step 0 \/ \d+$/);
    await replay.locator('button[data-act=end]').click();
    expect(await replay.locator('[data-counts]').textContent()).toMatch(/evacuated \d+/);
    await reader.screenshot({ path: join(SHOTS, 'report-offline.png'), fullPage: false });
    await replay.screenshot({ path: join(SHOTS, 'report-replay.png') });
    // The report's replay draws the map and the fire: sample its canvas (decoded by the app's page).
    const reportCanvas = replay.locator('canvas');
    const size = (await reportCanvas.boundingBox())!;
    const grid = Array.from({ length: 100 }, (_, i) => ({ x: Math.floor(((i % 10) + 0.5) * (size.width / 10)), y: Math.floor((Math.floor(i / 10) + 0.5) * (size.height / 10)) }));
    const sampled = await pixels(page, await reportCanvas.screenshot(), grid);
    expect(sampled.filter(fiery).length).toBeGreaterThan(10);
    expect(sampled.filter((p) => !fiery(p)).length).toBeGreaterThan(5);
    expect(requests).toEqual([]);
    await offline.close();
  });

  test('leaderboard: official boards apart, each adjacent outcome beside it', async () => {
    await page.keyboard.press('Alt+7');
    await page.locator('main h1', { hasText: 'Leaderboard' }).waitFor();
    const board = page.locator('[data-testid="board"][data-official="true"]');
    await board.first().waitFor({ timeout: 60_000 });
    expect(await board.first().getAttribute('data-target')).toBe(fx.packId);
    expect(await board.first().locator('tbody tr').count()).toBe(2);
    expect(await board.first().getByTestId('vs-next').first().textContent()).toMatch(/^(exact_tie|a_better|b_better|inconclusive)/);
    expect(await board.first().textContent()).not.toContain('e2e-unofficial-fire-aware');
    // The unofficial trial has its own board, in its own section, never mixed with the pack's.
    const unofficial = page.locator('[data-testid="board"][data-official="false"]');
    expect(await unofficial.count()).toBe(1);
    expect(await unofficial.textContent()).toContain('e2e-unofficial-fire-aware');
    expect(await unofficial.textContent()).toContain('UNOFFICIAL');
    await shot('leaderboard');
    expect(pageErrors).toEqual([]);
  });
});
