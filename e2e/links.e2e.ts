/**
 * Links, in Debian Chromium against `emberbench serve` on a fixed port with
 * its token kept in a test data folder: a trial opened from the Trials
 * table, its link copied with "Copy link", Back and Forward across views,
 * the banner of a stopped server, the copied link opened in a new page once
 * serve runs again (same port, same token) and in a fresh browser profile
 * through the printed address, a replay address with episode and step, a
 * comparison address with its replayed episode, and a link to a trial this
 * archive does not hold.
 */

import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fillArchive, type ReviewFixture } from './review-setup.js';
import { freePort } from './server.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const missing = skipReason('links');

describe.skipIf(missing !== null)('links in browser mode', () => {
  let session: AppSession | undefined;
  let port: number;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let fx: ReviewFixture;
  let copied = '';
  let pageErrors: string[] = [];
  /** The running server (the tests stop it and start it again). */
  const server = () => session!.server;

  const heading = (p: Page, text: string | RegExp) => p.locator('main h1', { hasText: text }).waitFor();
  const hashOf = (p: Page) => new URL(p.url()).hash;
  const newPage = async (c: BrowserContext): Promise<Page> => session!.watch(await c.newPage());

  beforeAll(async () => {
    // A fixed port and the token kept in a test data folder: the same address works after a restart.
    port = await freePort();
    // Calls refused while the server is stopped log console errors: the banner is what this file checks.
    session = await openSession({ prefix: 'ember-links-', ownDataFolder: true, port, context: { viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' }, expectedConsole: 'none' });
    ({ browser, pageErrors } = session);
    fx = await fillArchive(session.api, [
      ['e2e-links-shortest-path', 'static-shortest-path-v1'],
      ['e2e-links-congestion-aware', 'congestion-aware-v1'],
    ]);
    page = await session.openPage();
    context = session.context;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server()!.origin });
  });

  afterAll(() => session?.close());

  test('a trial opened from the table has an address; Copy link copies it, without the token', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await heading(page, 'Trials');
    expect(hashOf(page)).toBe('#/trials');
    await page.locator('.vbody [role="row"]', { hasText: fx.modelA }).click();
    await heading(page, fx.modelA);
    expect(hashOf(page)).toBe(`#/trials/${fx.trialA}`);
    await page.getByTestId('copy-link').click();
    await page.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
    copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(page.url());
    expect(copied).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/s/[0-9a-f]{32}/#/trials/${fx.trialA}$`));
    expect(copied).not.toContain(new URL(server()!.url).searchParams.get('token')!);
    await page.screenshot({ path: join(SHOTS, 'links-trial.png') });
  });

  test('Back and Forward move across views and trials', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Leaderboard/ }).click();
    await heading(page, 'Leaderboard');
    await page.goBack();
    await heading(page, fx.modelA);
    expect(hashOf(page)).toBe(`#/trials/${fx.trialA}`);
    await page.goBack();
    await heading(page, 'Trials');
    await page.goForward();
    await heading(page, fx.modelA);
    await page.goForward();
    await heading(page, 'Leaderboard');
    expect(hashOf(page)).toBe('#/leaderboard');
  });

  test('a stopped server: the banner says to start serve again and open its address, not to reload', async () => {
    await session!.stopServe();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await heading(page, 'Trials');
    const banner = page.getByRole('alert').filter({ hasText: 'does not answer' });
    await banner.waitFor();
    const text = (await banner.textContent())!;
    expect(text).toContain('Start `emberbench serve` again, then open the address it prints');
    expect(text).not.toMatch(/reload|a bug|report/i);
    await page.screenshot({ path: join(SHOTS, 'links-server-stopped.png') });
  });

  test('after a restart on the same port, the copied link opens the same trial in a new page', async () => {
    await session!.startServe();
    const again = await newPage(context);
    await again.goto(copied);
    await heading(again, fx.modelA);
    expect(again.url()).toBe(copied);
    await again.screenshot({ path: join(SHOTS, 'links-reopened.png') });
    await again.close();
  });

  test('in a fresh browser profile, the printed address with the route opens the trial', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const p = await newPage(fresh);
      // Without the login cookie the bare link is refused...
      const refused = await p.goto(copied);
      expect(refused?.status()).toBe(401);
      // ...and the printed address carries the route through its redirect.
      await p.goto(`${server()!.url}${new URL(copied).hash}`);
      await heading(p, fx.modelA);
      expect(p.url()).toBe(copied);
    } finally {
      await fresh.close();
    }
  });

  test('a replay address names the episode and the step', async () => {
    const base = copied.slice(0, copied.indexOf('#'));
    await page.goto(`${base}#/trials/${fx.trialA}/episodes/0?step=5`);
    await heading(page, 'Replay: episode 0');
    await expect.poll(() => page.getByTestId('replay-scrubber').inputValue(), { timeout: 60_000 }).toBe('5');
    // Stepping on rewrites the address in place (no new history entry).
    await page.getByRole('button', { name: 'step forward' }).click();
    await expect.poll(() => hashOf(page)).toBe(`#/trials/${fx.trialA}/episodes/0?step=6`);
    await page.getByTestId('copy-link').click();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(`${base}#/trials/${fx.trialA}/episodes/0?step=6`);
    await page.screenshot({ path: join(SHOTS, 'links-replay-step.png') });
    await page.getByRole('button', { name: `← Trial ${fx.trialA}` }).click();
    await heading(page, fx.modelA);
    await page.goBack();
    await heading(page, 'Replay: episode 0');
    await expect.poll(() => page.getByTestId('replay-scrubber').inputValue(), { timeout: 60_000 }).toBe('6');
  });

  test('a comparison address compares and replays its episode', async () => {
    const base = copied.slice(0, copied.indexOf('#'));
    await page.goto(`${base}#/compare?a=${fx.trialA}&b=${fx.trialB}&episode=0`);
    await heading(page, 'Compare');
    await page.getByTestId('compare-result').waitFor({ timeout: 60_000 });
    await page.getByTestId('lockstep-focus').waitFor();
    expect(await page.getByRole('group', { name: 'A trials' }).locator(`input[data-trial="${fx.trialA}"]`).isChecked()).toBe(true);
    await page.getByTestId('paired-table').locator('tbody tr').nth(1).click();
    await expect.poll(() => hashOf(page)).toMatch(new RegExp(`^#/compare\\?a=${fx.trialA}&b=${fx.trialB}&episode=[1-9][0-9]*$`));
    await page.goBack();
    await expect.poll(() => hashOf(page)).toBe(`#/compare?a=${fx.trialA}&b=${fx.trialB}&episode=0`);
    await page.getByTestId('lockstep-focus').waitFor();
    await page.screenshot({ path: join(SHOTS, 'links-compare.png') });
  });

  test('a link to a trial the archive does not hold shows "not found" with a way back', async () => {
    const base = copied.slice(0, copied.indexOf('#'));
    await page.goto(`${base}#/trials/999999`);
    await heading(page, 'Trial not found');
    await page.screenshot({ path: join(SHOTS, 'links-not-found.png') });
    await page.getByRole('button', { name: 'All trials' }).click();
    await heading(page, 'Trials');
    await page.goto(`${base}#/no/such/page`);
    await heading(page, 'Page not found');
    expect(pageErrors).toEqual([]);
  });
});
